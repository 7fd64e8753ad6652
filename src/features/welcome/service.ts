import { UniqueConstraintError } from 'sequelize';
import { DiscordRefused, InvalidInput } from '../../core/errors';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import type { WelcomeLog } from '../../db/models/community';
import { renderWelcome, welcomeLengthProblem, type WelcomeLogEntry, type WelcomeTestResult } from '../../shared/welcome';
import { channelProblem, problemText } from '../../core/checks';
import { messageUrl } from '../../shared/discord-urls';
import { welcomeCardFiles } from './card-service';

/** A member who joined, as the welcome needs them. */
export interface Joiner {
  guildId: string;
  userId: string;
  username: string;
  /** When they joined (Discord's joined_at): one welcome per join. */
  joinedAt: Date | null;
}

/** Recent Welcome Messages lists this many. */
export const RECENT_WELCOMES = 20;

/** A welcome template too long for Discord once filled in for this server, as a field error. */
export function checkWelcomeLength(field: string, template: string, serverName: string): void {
  const problem = welcomeLengthProblem(template, serverName);
  if (problem) throw InvalidInput.field(field, `${problem}. Shorten it.`);
}

/** Why a post failed, in words (Discord's reason when it refused). */
function failureText(error: unknown): string {
  return error instanceof DiscordRefused ? error.message : 'The bot could not post the message (an unexpected error; see the logs).';
}

/**
 * Welcomes a member who joined: the welcome message in the welcome channel, pinging only them,
 * and the join DM when it is on. Each join is welcomed once: the log row is claimed first (a join
 * seen live and caught up on after a restart collide on it). A member with closed DMs is noted,
 * not retried, and never holds up the channel message. Returns the log row, or null when the
 * welcome is off or the join was welcomed already.
 */
export async function welcomeMember(services: Services, joiner: Joiner, source: 'join' | 'catchup'): Promise<WelcomeLog | null> {
  const settings = await services.settings.get(joiner.guildId);
  const guild = services.gateway.guild(joiner.guildId);
  if (!settings.welcomeEnabled || !settings.welcomeChannelId || !guild) return null;
  let row: WelcomeLog;
  try {
    row = await services.store.guild(joiner.guildId).WelcomeLog.create({
      userId: joiner.userId,
      username: joiner.username,
      source,
      channelId: settings.welcomeChannelId,
      messageId: null,
      status: 'pending',
      error: null,
      dm: settings.welcomeDmEnabled ? 'failed' : 'off',
      memberJoinedAt: joiner.joinedAt,
      createdAt: services.clock.now(),
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError) return null;
    throw error;
  }
  const values = { userId: joiner.userId, username: joiner.username, server: guild.name, memberCount: guild.memberCount };
  try {
    const files = await welcomeCardFiles(
      services,
      guild,
      { userId: joiner.userId, username: joiner.username, memberNumber: guild.memberCount },
      settings,
      settings.welcomeChannelId,
    );
    const posted = await services.messenger.post(joiner.guildId, settings.welcomeChannelId, {
      content: renderWelcome(settings.welcomeMessage, values),
      mentionUserIds: [joiner.userId],
      files,
    });
    row.status = 'sent';
    row.messageId = posted.id;
  } catch (error) {
    if (!(error instanceof DiscordRefused)) services.logger.error({ err: error, guildId: joiner.guildId }, 'welcome message failed');
    row.status = 'failed';
    row.error = failureText(error).slice(0, 500);
  }
  if (settings.welcomeDmEnabled) {
    try {
      row.dm = await services.messenger.dm(joiner.guildId, joiner.userId, { content: renderWelcome(settings.welcomeDmMessage, values) });
    } catch (error) {
      services.logger.warn({ err: error, guildId: joiner.guildId }, 'welcome DM failed');
      row.dm = 'failed';
    }
  }
  await row.save();
  return row;
}

/** What Test Message may try before it is saved: the form's channel and message. */
export interface WelcomeDraft {
  welcomeChannelId?: string | null;
  welcomeMessage?: string;
}

/**
 * Test Message: posts the welcome (the form's draft over the saved settings) to the channel as if
 * `user` had just joined, and answers a link to it; Discord's refusal is thrown in words.
 */
export async function testWelcome(
  services: Services,
  guild: GuildSummary,
  user: { userId: string; username: string },
  draft: WelcomeDraft,
): Promise<WelcomeTestResult> {
  const settings = await services.settings.get(guild.id);
  const channelId = draft.welcomeChannelId === undefined ? settings.welcomeChannelId : draft.welcomeChannelId;
  const template = draft.welcomeMessage ?? settings.welcomeMessage;
  if (!channelId) throw InvalidInput.field('welcomeChannelId', 'Pick the welcome channel first.', 'Pick the welcome channel first.');
  checkWelcomeLength('welcomeMessage', template, guild.name);
  const log = services.store.guild(guild.id).WelcomeLog;
  const base = {
    userId: user.userId,
    username: user.username,
    source: 'test' as const,
    channelId,
    dm: 'off' as const,
    memberJoinedAt: null,
    createdAt: services.clock.now(),
  };
  try {
    // Checked first from the gateway: a channel the bot cannot post in fails without asking Discord.
    const problem = channelProblem(services, guild.id, channelId, ['send']);
    if (problem) throw new DiscordRefused(50013, problemText(problem));
    const content = renderWelcome(template, { userId: user.userId, username: user.username, server: guild.name, memberCount: guild.memberCount });
    const files = await welcomeCardFiles(
      services,
      guild,
      { userId: user.userId, username: user.username, memberNumber: guild.memberCount },
      settings,
      channelId,
    );
    const posted = await services.messenger.post(guild.id, channelId, { content, mentionUserIds: [user.userId], files });
    await log.create({ ...base, messageId: posted.id, status: 'sent', error: null });
    return { url: messageUrl(services.meta, guild.id, channelId, posted.id), messageId: posted.id, channelId };
  } catch (error) {
    await log.create({ ...base, messageId: null, status: 'failed', error: failureText(error).slice(0, 500) });
    throw error;
  }
}

/** Recent Welcome Messages: the last 20, newest first. */
export async function recentWelcomes(services: Services, guildId: string): Promise<WelcomeLogEntry[]> {
  const rows = await services.store.guild(guildId).WelcomeLog.findAll({ order: [['id', 'DESC']], limit: RECENT_WELCOMES });
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    username: row.username,
    source: row.source,
    status: row.status,
    error: row.error,
    dm: row.dm,
    url: row.channelId && row.messageId ? messageUrl(services.meta, guildId, row.channelId, row.messageId) : null,
    createdAt: row.createdAt.toISOString(),
  }));
}
