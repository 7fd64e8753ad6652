// Catching up on a gap in the gateway: a guild the bot was not listening to for a while (at
// start, when it joins, or after a new session replaced an old one). Discord does not replay a
// new session's gap, so what the features depend on is read back: the member list (joins, leaves,
// role and nickname changes, emitted as the events discord.js would have emitted), the messages
// of channels that moved on, then each feature's own catch-up (reactions to honour, joins to
// welcome). Every event goes through the same handlers as a live one, replay guard included.
import { Events, SnowflakeUtil, type Client, type Guild, type GuildMember, type Message } from 'discord.js';
import type { Feature } from '../core/feature';
import type { Services } from '../core/services';
import type { GatewayGap } from './continuity';
import { listAllMembers } from './members';

/** Pages of 100 messages read back per channel after a gap (older ones are left: a day's backlog is not replayed). */
export const GAP_MESSAGE_PAGES = 10;

/** Runs every feature's catch-up for the guild, one after another; what one throws is logged and the rest go on. */
export async function runCatchUps(services: Services, features: readonly Feature[], guild: Guild): Promise<void> {
  for (const feature of features) {
    if (!feature.catchUp) continue;
    try {
      await feature.catchUp(services, guild);
    } catch (error) {
      services.logger.error({ err: error, guildId: guild.id, feature: feature.name }, 'catching up on a guild failed');
    }
  }
}

/** Whether a member changed in a way GUILD_MEMBER_UPDATE reports (roles, nickname, avatar, timeout, screening). */
function memberChanged(old: GuildMember, now: GuildMember): boolean {
  const roles = (member: GuildMember) => [...member.roles.cache.keys()].sort().join(',');
  return (
    roles(old) !== roles(now) ||
    old.nickname !== now.nickname ||
    old.avatar !== now.avatar ||
    old.pending !== now.pending ||
    old.communicationDisabledUntilTimestamp !== now.communicationDisabledUntilTimestamp
  );
}

/**
 * The members' side of a gap: the whole member list is asked of Discord (not kept in the cache)
 * and compared with what the bot knew before; who is gone left, who changed was updated, who
 * joined since the gap began joined (fetched into the cache, as a join would put them there).
 */
async function catchUpMembers(client: Client, gap: GatewayGap): Promise<number> {
  const { guild, knownMembers, since, seenLive } = gap;
  const members = await listAllMembers(guild);
  let events = 0;
  for (const [id, old] of knownMembers) {
    if (seenLive.has(id) || old.partial) continue;
    const now = members.get(id);
    if (!now) {
      client.emit(Events.GuildMemberRemove, old);
      events += 1;
    } else if (memberChanged(old, now)) {
      client.emit(Events.GuildMemberUpdate, old, now);
      events += 1;
    }
  }
  for (const listed of members.values()) {
    if (knownMembers.has(listed.id) || listed.joinedTimestamp === null || listed.joinedTimestamp < since) continue;
    const member = await guild.members.fetch(listed.id).catch(() => null);
    if (!member) continue;
    client.emit(Events.GuildMemberAdd, member);
    events += 1;
  }
  return events;
}

/**
 * The messages' side of a gap: each text channel whose last message is newer than the gap's
 * start is read back from there (up to GAP_MESSAGE_PAGES pages), oldest first, and each message
 * is handed to `deliver`.
 */
async function catchUpMessages(guild: Guild, since: number, deliver: (message: Message<true>) => void): Promise<number> {
  const after = SnowflakeUtil.generate({ timestamp: since }).toString();
  let delivered = 0;
  for (const channel of guild.channels.cache.values()) {
    if (!channel.isTextBased() || !channel.lastMessageId || SnowflakeUtil.timestampFrom(channel.lastMessageId) < since) continue;
    if (!channel.viewable) continue;
    let cursor = after;
    for (let page = 0; page < GAP_MESSAGE_PAGES; page += 1) {
      const batch = await channel.messages.fetch({ after: cursor, limit: 100 }).catch(() => null);
      if (!batch || batch.size === 0) break;
      const ordered = [...batch.values()].sort((a, b) => a.createdTimestamp - b.createdTimestamp || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      for (const message of ordered) deliver(message);
      delivered += ordered.length;
      const last = ordered[ordered.length - 1];
      if (!last || batch.size < 100) break;
      cursor = last.id;
    }
  }
  return delivered;
}

/**
 * Catches up on one guild's gap: members, then messages (each emitted as MessageCreate, marked in
 * `late` so a text command typed while the bot was away is not run minutes later), then the
 * features' own catch-ups.
 */
export async function catchUpGap(services: Services, features: readonly Feature[], client: Client, gap: GatewayGap, late: WeakSet<Message>): Promise<void> {
  const members = await catchUpMembers(client, gap);
  const messages = await catchUpMessages(gap.guild, gap.since, (message) => {
    late.add(message);
    client.emit(Events.MessageCreate, message);
  });
  await runCatchUps(services, features, gap.guild);
  services.logger.info({ guildId: gap.guild.id, memberEvents: members, messages }, 'caught up on a gateway gap');
}
