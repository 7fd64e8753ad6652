import { z } from 'zod';

const snowflake = z.string().regex(/^\d{17,20}$/, 'Must be a snowflake (17-20 digits).');
const optionValue = z.union([z.string(), z.number(), z.boolean()]);

/** POST /_sandbox/guilds/:guildId/members */
export const joinSchema = z.object({
  id: snowflake.optional(),
  username: z.string().min(2).max(32),
  globalName: z.string().max(32).nullish(),
  discriminator: z.string().regex(/^\d{1,4}$/).optional(),
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
});

/** POST /_sandbox/interactions */
export const interactionSchema = z.object({
  guildId: snowflake,
  channelId: snowflake,
  userId: snowflake,
  name: z.string().min(1).max(100),
  options: z.union([z.record(z.string(), optionValue), z.array(z.object({ name: z.string(), value: optionValue }))]).optional(),
});

/** POST /_sandbox/faults */
export const faultSchema = z.union([
  z.object({
    route: z.string().min(1),
    status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]),
    count: z.number().int().min(1).max(1000),
    retryAfter: z.number().min(0).max(60).optional(),
  }),
  z.object({ dropGateway: z.literal(true) }),
  z.object({ clear: z.literal(true) }),
]);

/** POST /_sandbox/guilds/:guildId/voice */
export const voiceSchema = z.object({ userId: snowflake, channelId: snowflake.nullable() });
