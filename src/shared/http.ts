import * as z from 'zod';
import { StaleSchema } from './versions';

/** The JSON body of every error answer from /api. `fields` maps a field path to its message. */
export const ApiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  /**
   * With `confirmation_required` (409): the roles with staff permissions the request would make the
   * bot hand out; the same request with `confirmRoleIds` listing them goes through.
   */
  confirmRoleIds: z.array(z.string()).optional(),
  /** With `stale_version` (409): what changed meanwhile, and the version to save over to keep one's values. */
  stale: StaleSchema.optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
