// What a client may send to the gateway, read as Discord reads it: a payload over 4096 bytes, text
// that is not JSON, or a `d` that is not what its opcode requires closes with 4002; an opcode a
// client may not send closes with 4001. Fields Discord does not know are ignored, as Discord does.
// The shapes follow Discord's "Send Events" (gateway-events) and discord-api-types' Gateway*Data.
import { ActivityType, GatewayCloseCodes, GatewayOpcodes, PresenceUpdateStatus } from 'discord-api-types/v10';
import { z } from 'zod';

/** Discord closes with 4002 for a payload a client sends over 4096 bytes. */
export const MAX_CLIENT_PAYLOAD_BYTES = 4096;

const snowflake = z.string().regex(/^\d{17,20}$/);

/** An activity a bot may set: name, type, and the custom status (`state`) or stream `url`. */
const activity = z.object({
  name: z.string(),
  type: z.enum(ActivityType),
  state: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
});

/**
 * Op 3's `d`, also IDENTIFY's initial `presence`. Discord documents every field as required but
 * takes a presence without `since` (Oceanic.js sends none and connects to Discord): so does the sandbox.
 */
const presence = z.object({
  since: z.number().int().nullable().optional(),
  activities: z.array(activity),
  status: z.enum(PresenceUpdateStatus),
  afk: z.boolean(),
});

const identify = z.object({
  token: z.string(),
  properties: z.object({ os: z.string(), browser: z.string(), device: z.string() }),
  // Any number here; which bits are allowed is the gateway's 4013/4014.
  intents: z.number(),
  // Documented as a boolean; Oceanic.js sends its transport compression's name ('zlib-stream'), and Discord takes it.
  compress: z.union([z.boolean(), z.string()]).optional(),
  large_threshold: z.number().int().min(50).max(250).optional(),
  // Any two integers here; which are valid is the gateway's 4010.
  shard: z.tuple([z.number().int(), z.number().int()]).optional(),
  presence: presence.optional(),
});

const resume = z.object({ token: z.string(), session_id: z.string(), seq: z.number().int().nonnegative() });

/** By name prefix (`query` with its `limit`) or by ids (`user_ids`, one or many); one of them is required. */
const requestGuildMembers = z
  .object({
    guild_id: snowflake,
    query: z.string().optional(),
    limit: z.number().int().nonnegative().optional(),
    presences: z.boolean().optional(),
    user_ids: z.union([snowflake, z.array(snowflake)]).optional(),
    nonce: z.string().optional(),
  })
  .refine((d) => d.user_ids !== undefined || (d.query !== undefined && d.limit !== undefined), 'query with limit, or user_ids');

const voiceStateUpdate = z.object({ guild_id: snowflake, channel_id: snowflake.nullable(), self_mute: z.boolean(), self_deaf: z.boolean() });

const clientFrame = z.discriminatedUnion('op', [
  // The last sequence number the client received, null before the first.
  z.object({ op: z.literal(GatewayOpcodes.Heartbeat), d: z.number().int().nonnegative().nullable() }),
  z.object({ op: z.literal(GatewayOpcodes.Identify), d: identify }),
  z.object({ op: z.literal(GatewayOpcodes.PresenceUpdate), d: presence }),
  z.object({ op: z.literal(GatewayOpcodes.VoiceStateUpdate), d: voiceStateUpdate }),
  z.object({ op: z.literal(GatewayOpcodes.Resume), d: resume }),
  z.object({ op: z.literal(GatewayOpcodes.RequestGuildMembers), d: requestGuildMembers }),
  z.object({ op: z.literal(GatewayOpcodes.RequestSoundboardSounds), d: z.object({ guild_ids: z.array(snowflake) }) }),
]);

/** A payload a client may send, its `d` checked against its opcode. */
export type ClientFrame = z.infer<typeof clientFrame>;

/** REQUEST_GUILD_MEMBERS as read. */
export type MembersRequest = z.infer<typeof requestGuildMembers>;

/** The opcodes a client may send (the rest, dispatch and HELLO included, are the gateway's to send). */
const SENDABLE = new Set<number>(clientFrame.options.map((option) => option.shape.op.value));

/** Why a payload closes its connection: Discord's close code and reason. */
export interface FrameRefusal {
  close: GatewayCloseCodes;
  reason: string;
}

const decodeError = (reason = 'Error while decoding payload.'): FrameRefusal => ({ close: GatewayCloseCodes.DecodeError, reason });

/** What a client may send before it has identified (or resumed). */
const BEFORE_AUTHENTICATION = new Set<number>([GatewayOpcodes.Heartbeat, GatewayOpcodes.Identify, GatewayOpcodes.Resume]);

/**
 * Reads one message a client sent: the frame, or the close code and reason Discord would answer
 * with. An opcode that needs a session, sent before one, is 4003 whatever its `d`.
 */
export function readClientFrame(raw: Buffer, authenticated: boolean): { frame: ClientFrame } | { refusal: FrameRefusal } {
  if (raw.length > MAX_CLIENT_PAYLOAD_BYTES) return { refusal: decodeError('Payload too large.') };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString());
  } catch {
    return { refusal: decodeError() };
  }
  const envelope = z.object({ op: z.number().int() }).safeParse(parsed);
  if (!envelope.success) return { refusal: decodeError() };
  const { op } = envelope.data;
  if (!SENDABLE.has(op)) return { refusal: { close: GatewayCloseCodes.UnknownOpcode, reason: 'Unknown opcode.' } };
  if (!authenticated && !BEFORE_AUTHENTICATION.has(op)) return { refusal: { close: GatewayCloseCodes.NotAuthenticated, reason: 'Not authenticated.' } };
  const frame = clientFrame.safeParse(parsed);
  if (!frame.success) return { refusal: decodeError() };
  return { frame: frame.data };
}
