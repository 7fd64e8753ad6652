import type { Services } from '../../core/services';
import type { LevelUp } from './accruals';
import { syncRewards } from './rewards';

/**
 * What a level-up does besides the numbers: the announcement in the channel where it happened
 * (pinging only that member) when the guild wants it, the log-channel notification, and the role
 * rewards. A refusal from Discord is logged and notified; the level stays.
 */
export async function celebrate(services: Services, levelUp: LevelUp): Promise<void> {
  const settings = await services.settings.get(levelUp.guildId);
  if (settings.levelUpAnnouncements && levelUp.channelId) {
    const bonus = levelUp.bonus > 0 ? ` +${levelUp.bonus.toLocaleString('en-US')} ${settings.currencyName}` : '';
    await services.messenger
      .post(levelUp.guildId, levelUp.channelId, {
        content: `🎉 <@${levelUp.userId}> reached **level ${levelUp.to}**!${bonus}`,
        mentionUserIds: [levelUp.userId],
      })
      .catch((error: unknown) => services.logger.warn({ err: error, guildId: levelUp.guildId }, 'could not announce a level-up'));
  }
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
