// Versions of what people edit: a page sends back the version its copy was loaded at, and a save
// based on an outdated copy that would overwrite someone else's change is answered 409
// `stale_version` with what changed meanwhile, in words; the same save sent again with the newer
// version keeps the person's values.
import * as z from 'zod';

/** The version of the thing (settings, an item) a page loaded: sent with a save. */
export const baseVersion = () => z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').optional();

/** One change someone else made while the person was editing. */
export const ChangeMeanwhileSchema = z.object({
  field: z.string(),
  /** The field as the page names it ("Text multiplier"). */
  label: z.string(),
  /** The values in words ("1", "@Member", "on", "nothing"). */
  from: z.string(),
  to: z.string(),
  /** Who made it (their name), or null for the bot itself. */
  by: z.string().nullable(),
  at: z.string(),
});
export type ChangeMeanwhile = z.infer<typeof ChangeMeanwhileSchema>;

/** The part of a 409 `stale_version` answer that says what changed and the version to save over. */
export const StaleSchema = z.object({
  /** The current version: the same save with this as its base version keeps the person's values. */
  version: z.number().int(),
  /** The changes made meanwhile to what the save would change, oldest first. */
  changes: z.array(ChangeMeanwhileSchema),
});
export type Stale = z.infer<typeof StaleSchema>;
