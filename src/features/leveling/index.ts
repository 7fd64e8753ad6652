import { Events } from 'discord.js';
import * as z from 'zod';
import { rowId } from '../../shared/fields';
import { requireSelfOr } from '../../core/access';
import { SELF_ONLY } from '../../shared/access';
import { listener, type Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { guildRoute } from '../../http/route';
import { readCacheKey } from '../../core/read-cache';
import type { Diagnostic } from '../../shared/diagnostics';
import type { GuildSettings } from '../../shared/settings';
import { handoutProblem } from '../../core/checks';
import { Snowflake } from '../../shared/auth';
import { LeaderboardQuery, LevelRewardInput, type LeaderboardPage, type LevelingStats, type LevelReward, type Profile } from '../../shared/leveling';
import { levelingCommands } from './commands';
import { levelAdminRoutes } from './admin-routes';
import { levelsCommand, xpCommand } from './admin-commands';
import { celebrate } from './levelups';
import { addReward, deleteReward, listRewards } from './rewards';
import { leaderboard, levelingStats, profile } from './service';
import { levelingState } from './state';
import { xpRuleInputs } from './xp-rule-inputs';
import { levelUpDiagnostics, levelUpSettingsEffects } from './level-up-settings';

const RewardParams = z.object({ id: rowId('must be a reward id') });
const MemberParams = z.object({ userId: Snowflake });

/** A member's message earns XP and coins (in memory; written by the next flush). */
const earnFromMessage = listener(Events.MessageCreate, 'EarnFromMessage', (services, message) => {
  if (!message.inGuild() || message.author.bot || message.webhookId || message.system) return;
  return services.settings.with(message.guildId, (settings) => {
    // One lookup of the member (a getter that resolves it from the guild's cache each time).
    const member = message.member;
    levelingState.of(services).accruals.message(
      {
        guildId: message.guildId,
        userId: message.author.id,
        username: member?.displayName ?? message.author.username,
        messageId: message.id,
        channelId: message.channelId,
        booster: Boolean(member?.premiumSinceTimestamp),
        ...xpRuleInputs(message.channel, member, settings),
      },
      settings,
    );
  });
});

/** Role rewards the bot cannot give (deleted, or at or above its highest role), or that hand out staff permissions. */
async function diagnoseLeveling(services: Services, guildId: string, settings: GuildSettings): Promise<Diagnostic[]> {
  if (!settings.levelingEnabled) return [];
  const items: Diagnostic[] = levelUpDiagnostics(services, guildId, settings);
  for (const reward of await listRewards(services, guildId)) {
    const role = handoutProblem(services, guildId, reward.roleId);
    if (role)
      items.push({
        feature: 'leveling',
        severity: role.severity,
        problem: `Level ${reward.level} reward @${reward.roleName ?? reward.roleId}: ${role.problem}`,
        fix: role.fix,
        subject: `levelReward:${reward.id}`,
      });
  }
  return items;
}

/** Leveling: XP from chat and voice, the level curve, level-ups with bonuses and role rewards, the leaderboard. */
export const levelingFeature: Feature = {
  name: 'leveling',
  diagnose: diagnoseLeveling,
  settingsEffects: levelUpSettingsEffects,
  commands: [...levelingCommands, xpCommand, levelsCommand],
  listeners: [earnFromMessage],
  state: levelingState,
  start(services) {
    const { accruals, voiceXp } = levelingState.of(services);
    // XP and coins change several times a second while people chat: the answers that show them
    // are read again, and readers get the last one meanwhile rather than each waiting for it.
    accruals.onFlushed((guildIds) => {
      for (const guildId of guildIds) services.readCache.markStale(readCacheKey(guildId, 'chat'));
    });
    accruals.onLevelUps((levelUps) => {
      for (const levelUp of levelUps)
        void celebrate(services, levelUp).catch((error: unknown) => services.logger.error({ err: error }, 'level-up celebration failed'));
    });
    accruals.start();
    voiceXp.start();
    levelingState.of(services).backupPrune.start();
  },
  async stop(services) {
    const { accruals, voiceXp, backupPrune } = levelingState.of(services);
    await backupPrune.stop();
    await voiceXp.stop();
    await accruals.stop();
  },
  routes: [
    guildRoute({
      method: 'get',
      path: '/leaderboard/levels',
      query: LeaderboardQuery,
      // leaderboard() keeps it, for everyone and for /leaderboard.
      cache: false,
      example: {},
      handler: ({ query, guild, services }): Promise<LeaderboardPage> => leaderboard(services, guild.id, query.page, query.pageSize),
    }),
    guildRoute({
      method: 'get',
      path: '/leveling/stats',
      cache: 'chat',
      example: {},
      handler: ({ guild, services }): Promise<LevelingStats> => levelingStats(services, guild.id),
    }),
    guildRoute({
      method: 'get',
      path: '/leveling/rewards',
      example: {},
      handler: ({ guild, services }): Promise<LevelReward[]> => listRewards(services, guild.id),
    }),
    guildRoute({
      method: 'post',
      path: '/leveling/rewards',
      body: LevelRewardInput,
      example: {
        body: { level: 50, roleId: ':roleId' },
      },
      handler: ({ body, guild, account, services }) => addReward(services, guild.id, body, { actorId: account.userId, confirmed: body.confirmRoleIds }),
    }),
    guildRoute({
      method: 'delete',
      path: '/leveling/rewards/:id',
      example: {},
      handler: async ({ params, guild, services }) => {
        await deleteReward(services, guild.id, RewardParams.parse(params).id);
      },
    }),
    guildRoute({
      method: 'get',
      path: '/members/:userId/profile',
      access: 'member',
      cache: 'chat',
      example: { params: { userId: ':self' } },
      handler: ({ params, guild, access, services }): Promise<Profile> => {
        const { userId } = MemberParams.parse(params);
        requireSelfOr(access, userId, 'view', SELF_ONLY.rank);
        return profile(services, guild.id, userId);
      },
    }),
    // Resets with undo, XP adjustments, imports (issue 25, points 1 and 2).
    ...levelAdminRoutes,
  ],
};
