// REQUEST_GUILD_MEMBERS answered as Discord answers it: the members asked for, in
// GUILD_MEMBERS_CHUNK dispatches, and a request for everyone at most once per guild in Discord's
// window (a second one gets RATE_LIMITED instead).
import { GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes } from 'discord-api-types/v10';
import type { MembersRequest } from './gateway-frames';
import { presentMember } from './presenters';
import type { WorldDispatch, WorldState } from './world-state';

/** Discord ignores a REQUEST_GUILD_MEMBERS nonce longer than this (the chunks then carry none). */
const MAX_NONCE_BYTES = 32;
/** Members per GUILD_MEMBERS_CHUNK. */
const MEMBERS_PER_CHUNK = 1000;
/** Discord answers a request for all of a guild's members once per this window (30 s), on the world's clock. */
export const FULL_MEMBER_REQUEST_WINDOW_MS = 30_000;

/** The request's nonce as Discord echoes it: none when it is longer than Discord takes. */
function echoedNonce(request: MembersRequest): string | undefined {
  return request.nonce !== undefined && Buffer.byteLength(request.nonce) <= MAX_NONCE_BYTES ? request.nonce : undefined;
}

/** Whether a request asks for everyone: no user_ids, query '' and limit 0. */
function asksForEveryone(request: MembersRequest): boolean {
  return request.user_ids === undefined && (request.query ?? '') === '' && (request.limit ?? 0) === 0;
}

/**
 * REQUEST_GUILD_MEMBERS for one application: a request for everyone answered at most once per guild
 * per FULL_MEMBER_REQUEST_WINDOW_MS; one sooner gets a RATE_LIMITED dispatch (opcode 8, the seconds
 * to wait, the guild and nonce) instead of chunks, as Discord sends it.
 */
export class MemberRequests {
  /** When each guild's last request for everyone was answered (world clock, ms). */
  private readonly lastEveryone = new Map<string, number>();

  /** Members come from `world`, and time from its clock. */
  constructor(private readonly world: WorldState) {}

  /** The dispatches answering a session's request (its `intents`). */
  answer(request: MembersRequest, intents: number): WorldDispatch[] {
    const everyone = asksForEveryone(request);
    const now = this.world.clock.ms();
    const last = everyone ? this.lastEveryone.get(request.guild_id) : undefined;
    if (last !== undefined && now - last < FULL_MEMBER_REQUEST_WINDOW_MS) {
      const nonce = echoedNonce(request);
      return [
        {
          t: GatewayDispatchEvents.RateLimited,
          d: {
            opcode: GatewayOpcodes.RequestGuildMembers,
            retry_after: (last + FULL_MEMBER_REQUEST_WINDOW_MS - now) / 1000,
            meta: { guild_id: request.guild_id, ...(nonce !== undefined ? { nonce } : {}) },
          },
        },
      ];
    }
    const chunks = memberChunks(this.world, request, intents);
    if (everyone && chunks.length > 0) this.lastEveryone.set(request.guild_id, now);
    return chunks;
  }
}

/**
 * REQUEST_GUILD_MEMBERS: by user_ids (up to 100), or by name prefix (query, limit), or everyone
 * (query '' and limit 0, which needs GUILD_MEMBERS), answered in GUILD_MEMBERS_CHUNK dispatches
 * of up to 1,000 members with chunk_index and chunk_count, as Discord does. `intents` are the
 * asking session's. No chunk when the bot is not in the guild or may not list everyone.
 */
export function memberChunks(world: WorldState, request: MembersRequest, intents: number): WorldDispatch[] {
  const guild = world.guilds.get(request.guild_id);
  if (!guild || !guild.members.has(world.botUserId)) return [];
  const wanted = request.user_ids !== undefined ? [request.user_ids].flat().slice(0, 100) : null;
  const query = (request.query ?? '').toLowerCase();
  const everyone = !wanted && query === '';
  if (everyone && (intents & GatewayIntentBits.GuildMembers) === 0) return [];
  const limit = request.limit !== undefined && request.limit > 0 ? request.limit : everyone ? Number.POSITIVE_INFINITY : 100;
  const nonce = echoedNonce(request);
  const members = [];
  for (const member of guild.members.values()) {
    if (members.length >= limit) break;
    if (wanted && !wanted.includes(member.userId)) continue;
    const name = world.users.get(member.userId)?.username ?? '';
    if (!wanted && query && !name.toLowerCase().startsWith(query)) continue;
    members.push(presentMember(world, member));
  }
  const chunkCount = Math.max(1, Math.ceil(members.length / MEMBERS_PER_CHUNK));
  const chunks: WorldDispatch[] = [];
  for (let index = 0; index < chunkCount; index += 1) {
    chunks.push({
      t: GatewayDispatchEvents.GuildMembersChunk,
      d: {
        guild_id: guild.id,
        members: members.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK),
        chunk_index: index,
        chunk_count: chunkCount,
        ...(wanted && index === chunkCount - 1 ? { not_found: wanted.filter((id) => !guild.members.has(id)) } : {}),
        ...(nonce ? { nonce } : {}),
      },
    });
  }
  return chunks;
}
