// The Leveling page's reads and writes: the stats and daily XP, the leaderboard by page, and the
// role rewards. Keys nest under the guild, so a guild-wide refresh reaches them too.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { LeaderboardPageSchema, LevelingStatsSchema, LevelRewardSchema, type LevelRewardInput } from '../../../src/shared/leveling';
import { apiRequest } from '../../api/client';
import { guildApi, guildKeys, readGuild } from '../../api/guild';

/** Members per leaderboard page: the spec's top 10. */
export const LEADERBOARD_PAGE_SIZE = 10;

/** The page's query keys. */
export const levelingKeys = {
  all: (guildId: string) => [...guildKeys.all(guildId), 'leveling'] as const,
  stats: (guildId: string) => [...guildKeys.all(guildId), 'leveling', 'stats'] as const,
  leaderboard: (guildId: string, page: number) => [...guildKeys.all(guildId), 'leveling', 'leaderboard', page] as const,
  rewards: (guildId: string) => [...guildKeys.all(guildId), 'leveling', 'rewards'] as const,
};

/** Total users, highest level and 30 days of XP. */
export const levelingStatsQuery = (guildId: string) =>
  queryOptions({ queryKey: levelingKeys.stats(guildId), queryFn: readGuild(guildId, '/leveling/stats', LevelingStatsSchema) });

/** One page of the leaderboard; the previous page stays on screen while the next loads. */
export const leaderboardQuery = (guildId: string, page: number) =>
  queryOptions({
    queryKey: levelingKeys.leaderboard(guildId, page),
    queryFn: readGuild(guildId, `/leaderboard/levels?page=${page}&pageSize=${LEADERBOARD_PAGE_SIZE}`, LeaderboardPageSchema),
    placeholderData: keepPreviousData,
  });

/** The role rewards, lowest level first. */
export const rewardsQuery = (guildId: string) =>
  queryOptions({ queryKey: levelingKeys.rewards(guildId), queryFn: readGuild(guildId, '/leveling/rewards', LevelRewardSchema.array()) });

/** POST /leveling/rewards: the new reward. */
export async function addReward(guildId: string, input: LevelRewardInput) {
  return LevelRewardSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/leveling/rewards`, input));
}

/** DELETE /leveling/rewards/:id. */
export async function deleteReward(guildId: string, id: number): Promise<void> {
  await apiRequest('DELETE', `${guildApi(guildId)}/leveling/rewards/${id}`);
}
