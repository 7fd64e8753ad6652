import type { Guild } from 'discord.js';
import type { Services } from '../../core/services';
import { listAllMembers } from '../../bot/members';
import { giveJoinRole } from '../verification/public';
import { welcomeMember } from './service';

/** Joins older than this are not caught up on after a restart. */
export const CATCH_UP_WINDOW_MS = 24 * 60 * 60_000;

/** How often the bot records that it still sees its guilds. */
export const LAST_SEEN_INTERVAL_MS = 60_000;

/**
 * When the bot last saw each guild, so joins while it was offline are caught up on at start: the
 * time is recorded every minute and at shutdown, only for guilds already caught up on (a start that
 * takes long must not move the mark past joins it has not handled yet).
 */
export class LastSeenTracker {
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly services: Pick<Services, 'guildState' | 'clock' | 'logger'>) {}

  /** Starts recording every minute. */
  start(): void {
    this.timer = setInterval(() => void this.record(), LAST_SEEN_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops and records one last time. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.record();
  }

  /** The guild is caught up on: from now on it is recorded. */
  mark(guildId: string): void {
    this.seen.add(guildId);
  }

  private async record(): Promise<void> {
    try {
      await this.services.guildState.setMany([...this.seen], 'lastSeenAt', this.services.clock.now().toISOString());
    } catch (error) {
      this.services.logger.warn({ err: error }, 'could not record when the bot last saw its guilds');
    }
  }
}

/**
 * Welcomes (and gives the member role to) whoever joined since the bot last saw the guild, up to a
 * day back, once each: a join already welcomed is skipped by the welcome log. A guild the bot sees
 * for the first time has nothing to catch up on. Returns how many joins were handled.
 */
export async function catchUpJoins(services: Services, guild: Guild): Promise<number> {
  const lastSeen = await services.guildState.get(guild.id, 'lastSeenAt');
  const now = services.clock.ms();
  if (!lastSeen) {
    await services.guildState.set(guild.id, 'lastSeenAt', new Date(now).toISOString());
    return 0;
  }
  const since = Math.max(Date.parse(lastSeen), now - CATCH_UP_WINDOW_MS);
  const settings = await services.settings.get(guild.id);
  const wantsRole = settings.autoRoleEnabled && settings.memberRoleId && !settings.verificationEnabled;
  if (!settings.welcomeEnabled && !wantsRole) return 0;
  const members = await listAllMembers(guild);
  const missed = [...members.values()]
    .filter((member) => !member.user.bot && member.joinedTimestamp !== null && member.joinedTimestamp > since && member.joinedTimestamp <= now)
    .sort((a, b) => (a.joinedTimestamp ?? 0) - (b.joinedTimestamp ?? 0));
  for (const member of missed) {
    await welcomeMember(services, { guildId: guild.id, userId: member.id, username: member.user.username, joinedAt: member.joinedAt }, 'catchup');
    await giveJoinRole(services, member).catch((error: unknown) =>
      services.logger.warn({ err: error, guildId: guild.id }, 'could not give the member role to a join the bot missed'),
    );
  }
  if (missed.length > 0) services.logger.info({ guildId: guild.id, joins: missed.length }, 'caught up on joins while offline');
  return missed.length;
}
