// "Try these rules" (issue 24, point 5): auto moderation rules replayed against a channel's latest
// messages without acting. The body of POST /api/servers/:guildId/moderation/automod/try, its
// answer, and the words both faces (the dashboard and /automod try) use.
import * as z from 'zod';
import { Snowflake } from './auth';
import { flag, wholeNumber } from './fields';
import { AUTOMOD_RULE_NAMES, AutomodRulesSchema, DURATION_LABELS, type AutomodAction, type AutomodRuleName, type Duration } from './moderation';

/** How many of the channel's latest messages a try reads: one fetch of Discord's (at most 100). */
export const AUTOMOD_TRY_LIMITS = { min: 1, max: 100, default: 50, choices: [25, 50, 100] } as const;

/** The body: the rules as edited (the settings' own schema), whether staff are checked, the channel and how many messages. */
export const AutomodTryInput = z
  .object({
    rules: AutomodRulesSchema,
    includeStaff: flag().default(false),
    channelId: Snowflake,
    limit: wholeNumber(AUTOMOD_TRY_LIMITS.min, AUTOMOD_TRY_LIMITS.max).default(AUTOMOD_TRY_LIMITS.default),
  })
  .strict();
export type AutomodTryInput = z.input<typeof AutomodTryInput>;

/** A rule a message would have broken, and what would have been done. */
export const AutomodTryHitSchema = z.object({
  rule: z.enum(Object.keys(AUTOMOD_RULE_NAMES) as [AutomodRuleName, ...AutomodRuleName[]]),
  /** In words: "Delete the message and time the author out for 10 minutes". */
  what: z.string(),
});
export type AutomodTryHit = z.infer<typeof AutomodTryHitSchema>;

/** One message read, oldest first; `hits` is empty when no rule would have acted on it. */
export const AutomodTryMessageSchema = z.object({
  id: z.string(),
  authorName: z.string(),
  createdAt: z.string(),
  excerpt: z.string(),
  hits: z.array(AutomodTryHitSchema),
});
export type AutomodTryMessage = z.infer<typeof AutomodTryMessageSchema>;

/** The answer: the messages judged, how many were read, and how many were not judged (bots, webhooks, Discord's own). */
export const AutomodTryResultSchema = z.object({
  channelName: z.string(),
  messages: z.array(AutomodTryMessageSchema),
  scanned: z.number().int(),
  skipped: z.number().int().optional(),
});
export type AutomodTryResult = z.infer<typeof AutomodTryResultSchema>;

/** How long an excerpt of a message is at most. */
export const EXCERPT_LENGTH = 140;

/** A message's text on one line, cut to EXCERPT_LENGTH characters. */
export function excerptOf(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  if (!line) return '(no text)';
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH - 1)}…` : line;
}

/** What a rule's action does to a message, as a person reads it. */
export function automodActionText(action: AutomodAction, duration: Duration | null): string {
  if (action === 'warn') return 'Delete the message and warn the author';
  if (action === 'timeout') return `Delete the message and time the author out for ${duration ? DURATION_LABELS[duration] : 'the duration set'}`;
  return 'Delete the message';
}

/** What a try answers when no message would have been acted on. */
export const automodTryNone = (scanned: number) =>
  scanned === 0
    ? 'There are no messages to try the rules on.'
    : scanned === 1
      ? 'This message would not have been acted on.'
      : `None of these ${scanned} messages would have been acted on.`;

/** The first line of a try's summary: "3 of the last 50 messages (in #general) would have been acted on." */
export function automodTrySummary(result: Pick<AutomodTryResult, 'messages' | 'scanned'>, channelName?: string): string {
  const hit = result.messages.filter((message) => message.hits.length > 0).length;
  const where = channelName ? ` in #${channelName}` : '';
  if (hit === 0)
    return result.scanned === 0
      ? `There are no messages${where} to try the rules on.`
      : automodTryNone(result.scanned).replace(' messages', ` messages${where}`);
  const noun = result.scanned === 1 ? 'message' : 'messages';
  return `${hit} of the last ${result.scanned} ${noun}${where} would have been acted on.`;
}
