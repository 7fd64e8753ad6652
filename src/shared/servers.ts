import * as z from 'zod';
import { Snowflake } from './auth';

/** Path parameters of every /api/servers/:guildId/* route. */
export const GuildParams = z.object({ guildId: Snowflake });

/** One day of the per-server activity chart. `date` is YYYY-MM-DD (UTC). */
export const ActivityDaySchema = z.object({
  date: z.string(),
  messages: z.number().int(),
  joins: z.number().int(),
});

/** GET /api/servers/:guildId/overview: the per-server dashboard. */
export const ServerOverviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  memberCount: z.number().int(),
  commandsUsed: z.number().int(),
  /** Members who posted in the last 7 days. */
  activeUsers: z.number().int(),
  /** Sum of all members' balances. */
  economyBalance: z.number().int(),
  /** The last 30 days, oldest first, one entry per day (zeros included). */
  activity: z.array(ActivityDaySchema),
});
export type ServerOverview = z.infer<typeof ServerOverviewSchema>;

/** GET /api/servers/:guildId/directory: the guild's channels and roles, for the dashboard's pickers. */
export const GuildDirectorySchema = z.object({
  channels: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(['text', 'announcement', 'voice', 'category', 'other']),
      /** What the bot may do there (overwrites applied), for the pickers and the pages' checklists. */
      bot: z.object({ send: z.boolean(), embed: z.boolean(), react: z.boolean(), readHistory: z.boolean(), manageMessages: z.boolean() }),
    }),
  ),
  roles: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      managed: z.boolean(),
      isEveryone: z.boolean(),
      /** The bot can give it: below its highest role, not managed, not @everyone. */
      assignable: z.boolean(),
      /** Anyone may ping it. */
      mentionable: z.boolean(),
      /** The staff permissions it carries (Ban Members, Administrator...), as Discord names them: handing it out needs a confirmation. */
      dangerous: z.array(z.string()),
      /** Why the signed-in person cannot hand it out through the bot (they could not give it in Discord), or null when they can. */
      notYours: z.string().nullable(),
    }),
  ),
  /** What the bot may do guild-wide: give roles (Manage Roles), ping any role (Mention Everyone). */
  bot: z.object({ name: z.string(), manageRoles: z.boolean(), mentionEveryone: z.boolean() }),
  /** The guild's custom emojis (reaction roles pick from them). */
  emojis: z.array(z.object({ id: z.string(), name: z.string(), animated: z.boolean(), url: z.string() })),
});
export type GuildDirectory = z.infer<typeof GuildDirectorySchema>;

/** GET /api/servers/:guildId/members?q=: members whose name starts with q, or the member with that id. */
export const MemberSearchQuery = z
  .object({
    q: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  })
  .strict();
export const MemberSummarySchema = z.object({ id: z.string(), username: z.string(), displayName: z.string(), bot: z.boolean() });
export type MemberSummary = z.infer<typeof MemberSummarySchema>;
/** How many members one search answers. */
export const MEMBER_SEARCH_LIMIT = 25;
