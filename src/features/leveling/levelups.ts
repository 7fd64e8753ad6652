import type { Services } from '../../core/services';
import { bonusWords, renderLevelUp, shouldAnnounce } from '../../shared/level-up-messages';
import { MESSAGE_MAX } from '../../shared/welcome';
import type { GuildSettings } from '../../shared/settings';
import type { LevelUp } from './accruals';
import { listRewards, syncRewards } from './rewards';

/**
 * The level-up announcement as the guild wants it: where (where they levelled, a fixed channel, a
 * DM, or nowhere when announcements are off), at which levels, and in its words. Pings only the
 * member, whatever the template says. A refusal is logged; the level stays.
 */
async function announce(services: Services, settings: GuildSettings, levelUp: LevelUp): Promise<void> {
  if (!settings.levelUpAnnouncements) return;
  const channelId = settings.levelUpDestination === 'channel' ? settings.levelUpChannelId : levelUp.channelId;
  if (settings.levelUpDestination !== 'dm' && !channelId) return;
  const rewards = await listRewards(services, levelUp.guildId);
  const reached = rewards.filter((reward) => reward.level > levelUp.from && reward.level <= levelUp.to);
  if (!shouldAnnounce(settings, { from: levelUp.from, to: levelUp.to, rewardLevels: rewards.map((reward) => reward.level) })) return;
  const content = renderLevelUp(settings.levelUpMessage, {
    userId: levelUp.userId,
    level: levelUp.to,
    server: services.gateway.guild(levelUp.guildId)?.name ?? '',
    rewards: reached.map((reward) => reward.roleName ?? reward.roleId),
    bonus: bonusWords(levelUp.bonus, settings.currencyName),
  }).slice(0, MESSAGE_MAX);
  const message = { content, mentionUserIds: [levelUp.userId] };
  try {
    if (settings.levelUpDestination === 'dm') await services.messenger.dm(levelUp.guildId, levelUp.userId, message);
    else if (channelId) await services.messenger.post(levelUp.guildId, channelId, message);
  } catch (error) {
    services.logger.warn({ err: error, guildId: levelUp.guildId }, 'could not announce a level-up');
  }
}

/**
 * What a level-up does besides the numbers: the announcement (announce), the log-channel
 * notification, and the role rewards. A refusal from Discord is logged and notified; the level stays.
 */
export async function celebrate(services: Services, levelUp: LevelUp): Promise<void> {
  const settings = await services.settings.get(levelUp.guildId);
  await announce(services, settings, levelUp);
  await services.notifier.notify(levelUp.guildId, {
    event: 'levelUp',
    title: 'Level up',
    description: `${levelUp.username} reached level ${levelUp.to}.`,
    data: { userId: levelUp.userId, level: levelUp.to, bonus: levelUp.bonus },
  });
  try {
    await syncRewards(services, levelUp.guildId, levelUp.userId, levelUp.to);
  } catch (error) {
    services.logger.warn({ err: error, guildId: levelUp.guildId }, 'could not give a level reward');
    void services.notifier.notify(levelUp.guildId, {
      event: 'error',
      title: 'Level reward failed',
      description: error instanceof Error ? error.message : String(error),
      data: { userId: levelUp.userId },
    });
  }
}
