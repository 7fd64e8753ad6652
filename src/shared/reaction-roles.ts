import * as z from 'zod';
import { Snowflake } from './auth';
import { UNICODE_EMOJI } from './emoji';
import { confirmRoleIds } from './fields';
import { baseVersion } from './versions';

/** How the reactions of one message give roles (Carl-bot's modes). Every entry of a message shares its mode. */
export const REACTION_ROLE_MODES = ['normal', 'unique', 'verify', 'drop'] as const;
export type ReactionRoleMode = (typeof REACTION_ROLE_MODES)[number];

/** What each mode does, for the dashboard. */
export const REACTION_ROLE_MODE_LABELS: Record<ReactionRoleMode, { label: string; description: string }> = {
  normal: { label: 'Normal', description: 'Reacting gives the role, removing the reaction takes it away.' },
  unique: { label: 'Unique', description: 'One role of this message at a time: a new reaction swaps the role.' },
  verify: { label: 'Verify', description: 'Reacting gives the role; removing the reaction keeps it.' },
  drop: { label: 'Drop', description: 'Reacting takes the role away.' },
};

/** Roles one message can hand out. */
export const MAX_ROLES_PER_MESSAGE = 20;

/** Spec section 8's toasts and section 5's message for an incomplete form. */
export const REACTION_ROLE_MESSAGES = {
  added: 'Reaction Role Added',
  removed: 'Reaction Role Removed',
  updated: 'Reaction Role Updated',
  missing: { title: 'Missing Information', description: 'Please fill in all required fields.' },
} as const;

/** An emoji as typed or picked: a unicode emoji, or a custom one as `<:name:id>`, `<a:name:id>` or `name:id`. */
export type ParsedEmoji = { kind: 'unicode'; name: string } | { kind: 'custom'; name: string; id: string; animated: boolean };

/** Parses an emoji field; null when it is neither one unicode emoji nor a custom emoji's mention. */
export function parseEmoji(raw: string): ParsedEmoji | null {
  const text = raw.trim();
  const custom = /^<?(a)?:?([\w~]{2,32}):(\d{15,21})>?$/.exec(text);
  if (custom?.[2] && custom[3]) return { kind: 'custom', name: custom[2], id: custom[3], animated: Boolean(custom[1]) };
  return UNICODE_EMOJI.test(text) ? { kind: 'unicode', name: text } : null;
}

/** How an emoji is stored and matched: the unicode emoji itself, or `name:id`. */
export function emojiKey(emoji: ParsedEmoji): string {
  return emoji.kind === 'unicode' ? emoji.name : `${emoji.name}:${emoji.id}`;
}

const required = (max: number) => z.string({ error: 'is required' }).trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** POST /api/servers/:guildId/reaction-roles (spec section 2's add form, plus the mode of the message). */
export const ReactionRoleInput = z
  .object({
    messageId: z.string({ error: 'is required' }).trim().min(1, 'is required').pipe(Snowflake),
    channelId: z.string({ error: 'is required' }).trim().min(1, 'is required').pipe(Snowflake),
    emoji: required(100).refine((value) => parseEmoji(value) !== null, 'must be one emoji, or a custom emoji of this server as <:name:id>'),
    roleId: z.string({ error: 'is required' }).trim().min(1, 'is required').pipe(Snowflake),
    roleName: z
      .string({ error: 'must be text' })
      .trim()
      .max(100, 'must be at most 100 characters')
      .nullish()
      .transform((value) => value || null),
    mode: z.enum(REACTION_ROLE_MODES, { error: `must be one of ${REACTION_ROLE_MODES.join(', ')}` }).optional(),
    confirmRoleIds: confirmRoleIds(),
  })
  .strict();
export type ReactionRoleInput = z.input<typeof ReactionRoleInput>;

/** PATCH /api/servers/:guildId/reaction-roles/:id: switch an entry on or off, or change its message's mode. */
export const ReactionRolePatch = z
  .object({
    isActive: z.boolean({ error: 'must be true or false' }).optional(),
    mode: z.enum(REACTION_ROLE_MODES, { error: `must be one of ${REACTION_ROLE_MODES.join(', ')}` }).optional(),
    confirmRoleIds: confirmRoleIds(),
    /** The version of the entry the page loaded (see src/shared/versions). */
    baseVersion: baseVersion(),
  })
  .strict()
  .refine((value) => value.isActive !== undefined || value.mode !== undefined, {
    message: 'Nothing to change: say whether the reaction role is active, or its mode.',
    path: ['body'],
  });
export type ReactionRolePatch = z.input<typeof ReactionRolePatch>;

/** A reaction role as listed. */
export const ReactionRoleSchema = z.object({
  id: z.number().int(),
  messageId: z.string(),
  channelId: z.string(),
  channelName: z.string().nullable(),
  /** The unicode emoji, or `name:id`. */
  emoji: z.string(),
  /** The custom emoji's image, for display. */
  emojiUrl: z.string().nullable(),
  roleId: z.string(),
  /** The role's current name in the server (or the name given when it was added). */
  roleName: z.string().nullable(),
  mode: z.enum(REACTION_ROLE_MODES),
  isActive: z.boolean(),
  /** Why it stopped working, when it did. */
  inactiveReason: z.string().nullable(),
  messageUrl: z.string(),
  createdAt: z.string(),
  /** Counts edits: sent back with the next change. */
  version: z.number().int(),
});
export type ReactionRoleView = z.infer<typeof ReactionRoleSchema>;

/** GET /api/servers/:guildId/reaction-roles/stats: counted from what the bot did in the last 30 days. */
export const ReactionRoleStatsSchema = z.object({
  assignments: z.number().int(),
  removals: z.number().int(),
  activeEntries: z.number().int(),
  /** Share of attempts that worked, 0-100; null before the first attempt. */
  successRate: z.number().nullable(),
  failures: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  /** Roles given per day, oldest first (30 entries). */
  daily: z.array(z.object({ date: z.string(), assignments: z.number().int(), removals: z.number().int() })),
});
export type ReactionRoleStats = z.infer<typeof ReactionRoleStatsSchema>;

/** GET /api/servers/:guildId/reaction-roles/messages?channelId=: the channel's recent messages, to pick one. */
export const RecentMessagesQuery = z.object({ channelId: Snowflake });
export const RecentMessageSchema = z.object({ id: z.string(), author: z.string(), excerpt: z.string(), createdAt: z.string() });
export type RecentMessage = z.infer<typeof RecentMessageSchema>;
