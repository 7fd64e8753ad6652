import { z } from 'zod';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE } from './attachments';

const snowflake = z.string().regex(/^\d{17,20}$/, 'Must be a snowflake (17-20 digits).');

/** A file a member attaches: its name (no folders), its content type if known, and its bytes in base64. */
const fileFields = z.object({
  filename: z
    .string()
    .min(1, 'Must be 1-255 characters.')
    .max(255, 'Must be 1-255 characters.')
    .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', 'Must be a file name without path separators.'),
  contentType: z
    .string()
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/, 'Must be a MIME type such as audio/mpeg.')
    .optional(),
  // A plain character class: a pattern with groups repeated over 33 MB of base64 would backtrack deeply.
  dataBase64: z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Must be base64.')
    .refine((data) => data.length % 4 === 0, 'Must be base64.'),
});

/** A file as the AttachmentStore keeps it: the base64 decoded. */
function decodeFile({ filename, contentType, dataBase64 }: z.infer<typeof fileFields>) {
  return { filename, ...(contentType ? { contentType } : {}), bytes: Buffer.from(dataBase64, 'base64') };
}

/** A file given in a post, decoded. */
export const attachmentSchema = fileFields.transform(decodeFile);

/** Files that together stay within Discord's upload limit (zod checks this also when a file failed its own checks: no bytes then). */
const withinUploadLimit = (files: { bytes?: Buffer }[]) => files.reduce((total, file) => total + (file.bytes?.length ?? 0), 0) <= MAX_ATTACHMENT_BYTES;
const uploadLimitMessage = `The files must add up to at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`;

// Decoded after the union: a failing transform inside it would hide which field of the file is wrong.
const optionValue = z.union([z.string(), z.number(), z.boolean(), fileFields]).transform((value) => (typeof value === 'object' ? decodeFile(value) : value));

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
  /** A new user whose account was made this many days ago (its id carries that time); not with `id`. */
  accountAgeDays: z.number().int().min(0).max(5000).optional(),
});

/** PATCH /_sandbox/guilds/:guildId/members/:userId */
export const memberPatchSchema = z.object({
  roles: z.array(snowflake).optional(),
  nick: z.string().max(32).nullable().optional(),
});

/** POST /_sandbox/channels/:channelId/messages */
export const postSchema = z
  .object({
    authorId: snowflake,
    content: z.string().max(2000).optional(),
    /** A message of the channel this post replies to. */
    replyTo: snowflake.optional(),
    /** Files the member attaches (at most 10, 25 MiB together). */
    attachments: z
      .array(attachmentSchema)
      .max(MAX_ATTACHMENTS_PER_MESSAGE, `At most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`)
      .refine(withinUploadLimit, uploadLimitMessage)
      .optional(),
  })
  .refine((post) => (post.content ?? '') !== '' || (post.attachments?.length ?? 0) > 0, {
    path: ['content'],
    message: 'Must not be empty unless files are attached.',
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
  /**
   * Values by option name, or a list of `{ name, value }`; a file (attachment option) as
   * `{ filename, contentType?, dataBase64 }`. A list is read as the map it names, so a bad value is
   * named `options.<name>` either way (a union of both shapes would say only "options: Invalid input").
   */
  options: z
    .preprocess(
      (given) => (Array.isArray(given) && given.every(isNamedValue) ? Object.fromEntries(given.map((option) => [option.name, option.value])) : given),
      z.record(z.string(), optionValue),
    )
    .refine((options) => withinUploadLimit(Object.values(options).filter(isFile)), uploadLimitMessage)
    .optional(),
});

/** An entry of an option list: `{ name, value }`. */
function isNamedValue(entry: unknown): entry is { name: string; value: unknown } {
  return typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string' && 'value' in entry;
}

/** Whether an option value is a file (an attachment option's). */
export function isFile(value: z.infer<typeof optionValue>): value is z.infer<typeof attachmentSchema> {
  return typeof value === 'object';
}

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
