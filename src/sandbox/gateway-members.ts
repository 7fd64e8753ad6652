// REQUEST_GUILD_MEMBERS answered as Discord answers it: the members asked for, in
// GUILD_MEMBERS_CHUNK dispatches.
import { GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import type { MembersRequest } from './gateway-frames';
import { presentMember } from './presenters';
import type { WorldDispatch, WorldState } from './world-state';

/** Discord ignores a REQUEST_GUILD_MEMBERS nonce longer than this (the chunks then carry none). */
const MAX_NONCE_BYTES = 32;
/** Members per GUILD_MEMBERS_CHUNK. */
const MEMBERS_PER_CHUNK = 1000;

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
  const nonce = request.nonce !== undefined && Buffer.byteLength(request.nonce) <= MAX_NONCE_BYTES ? request.nonce : undefined;
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
