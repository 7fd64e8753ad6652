import { z } from 'zod';

const snowflake = z.string().regex(/^\d{17,20}$/, 'Must be a snowflake (17-20 digits).');
const optionValue = z.union([z.string(), z.number(), z.boolean()]);

/** POST /_sandbox/guilds/:guildId/members */
export const joinSchema = z.object({
  id: snowflake.optional(),
  username: z.string().min(2).max(32),
  globalName: z.string().max(32).nullish(),
  discriminator: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional(),
  roles: z.array(snowflake).optional(),
});

/** PATCH /_sandbox/guilds/:guildId/members/:userId */
export const memberPatchSchema = z.object({
  roles: z.array(snowflake).optional(),
  nick: z.string().max(32).nullable().optional(),
});

/** POST /_sandbox/channels/:channelId/messages */
export const postSchema = z.object({
  authorId: snowflake,
  content: z.string().min(1).max(2000),
  /** A message of the channel this post replies to. */
  replyTo: snowflake.optional(),
});

/** POST /_sandbox/channels/:channelId/messages/bulk: many posts at once (load tests). */
export const bulkPostSchema = z.object({
  count: z.number().int().min(1).max(1_000_000),
  /** Who posts, in turn; by default every member who may post there. */
  authorIds: z.array(snowflake).min(1).optional(),
  /** The text of each post; `{n}` becomes its number. Default: "message {n}". */
  content: z.string().min(1).max(2000).optional(),
});

/** POST /_sandbox/interactions */
export const interactionSchema = z.object({
  guildId: snowflake,
  channelId: snowflake,
  userId: snowflake,
  name: z.string().min(1).max(100),
  options: z.union([z.record(z.string(), optionValue), z.array(z.object({ name: z.string(), value: optionValue }))]).optional(),
});

/** POST /_sandbox/interactions/message-command: a member runs a message command (Apps -> name) on a message. */
export const messageCommandSchema = z.object({
  guildId: snowflake,
  channelId: snowflake,
  userId: snowflake,
  /** The message command's name as registered ('Report message'). */
  name: z.string().min(1).max(32),
  /** The message it is run on, in the channel. */
  messageId: snowflake,
});

/** POST /_sandbox/interactions/component: a member clicks a button or chooses in a select menu. */
export const componentSchema = z.object({
  channelId: snowflake,
  messageId: snowflake,
  userId: snowflake,
  customId: z.string().min(1).max(100),
  /** The chosen options of a select menu. */
  values: z.array(z.string().max(100)).max(25).optional(),
});

/** POST /_sandbox/interactions/modal: a member submits the modal the bot showed them. */
export const modalSchema = z.object({
  channelId: snowflake,
  userId: snowflake,
  customId: z.string().min(1).max(100),
  /** Each text input's custom id and what the member typed. */
  fields: z.record(z.string(), z.string().max(4000)),
});

/** POST /_sandbox/interactions/autocomplete: a member types in an autocompleted option. */
export const autocompleteSchema = interactionSchema.extend({ focused: z.string().min(1).max(32) });

/** POST /_sandbox/faults */
export const faultSchema = z.union([
  z.object({
    route: z.string().min(1),
    status: z.union([z.literal(400), z.literal(429), z.literal(500), z.literal(502), z.literal(503)]),
    count: z.number().int().min(1).max(1000),
    retryAfter: z.number().min(0).max(60).optional(),
    /** A 400's Discord error code and message (default 50035 Invalid Form Body). */
    code: z.number().int().min(10000).max(999999).optional(),
    message: z.string().min(1).max(200).optional(),
  }),
  z.object({ dropGateway: z.literal(true) }),
  z.object({ reconnect: z.literal(true) }),
  z.object({ clear: z.literal(true) }),
]);

/** PATCH /_sandbox/users/:userId: what a user set in their own Discord settings. */
export const userPatchSchema = z.object({ dmsOpen: z.boolean() });

/** POST /_sandbox/guilds/:guildId/moderation: a human moderator acts in Discord's own UI. */
export const moderationSchema = z.object({
  actorId: snowflake,
  action: z.enum(['ban', 'unban', 'kick', 'timeout', 'untimeout']),
  targetId: snowflake,
  reason: z.string().max(512).optional(),
  /** For a timeout: when it ends (at most 28 days ahead). */
  until: z.iso.datetime().optional(),
  /** For a ban: how much of the target's recent messages to delete (at most a week). */
  deleteMessageSeconds: z.number().int().min(0).max(604_800).optional(),
});
