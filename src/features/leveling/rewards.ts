import { Conflict, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { LevelReward as LevelRewardRow } from '../../db/models/economy';
import type { LevelReward } from '../../shared/leveling';
import { checkRoleHandouts, type RoleRequest } from '../../core/checks';
import { changeRole, refusalOf, type RoleChange } from '../role-grants/public';

const scope = (services: Services, guildId: string) => services.store.guild(guildId).LevelReward;

/** The guild's role rewards, lowest level first. */
export async function listRewards(services: Services, guildId: string): Promise<LevelReward[]> {
  const rows = await scope(services, guildId).findAll({
    order: [
      ['level', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  return rows.map((row) => ({ id: row.id, level: row.level, roleId: row.roleId, roleName: services.gateway.role(guildId, row.roleId)?.name ?? null }));
}

/** Adds a reward: a role the bot can give and the person asking could give themselves (checkRoleHandouts), at a level, once. */
export async function addReward(services: Services, guildId: string, input: { level: number; roleId: string }, request: RoleRequest): Promise<LevelReward> {
  await checkRoleHandouts(services, guildId, request, [{ field: 'roleId', roleId: input.roleId, what: `The level ${input.level} reward` }]);
  const existing = await scope(services, guildId).findOne({ where: { level: input.level, roleId: input.roleId } });
  if (existing) throw new Conflict(`That role is already the reward for level ${input.level}.`, 'roleId');
  const row = await scope(services, guildId).create({ level: input.level, roleId: input.roleId, createdAt: services.clock.now() });
  return { id: row.id, level: row.level, roleId: row.roleId, roleName: services.gateway.role(guildId, row.roleId)?.name ?? null };
}

/** Removes a reward (members keep the role they already have). */
export async function deleteReward(services: Services, guildId: string, id: number): Promise<void> {
  if ((await scope(services, guildId).destroy({ where: { id } })) === 0) throw new NotFound('That reward does not exist in this server.');
}

/**
 * The reward roles a member at `level` holds: stacking keeps every reward up to the level;
 * replacing keeps only the highest level's. One rule for syncRewards and its retries' re-check.
 */
export function rewardRolesKept(rewards: readonly Pick<LevelRewardRow, 'level' | 'roleId'>[], level: number, stack: boolean): Set<string> {
  const reached = rewards.filter((reward) => reward.level <= level);
  const top = Math.max(0, ...reached.map((reward) => reward.level));
  return new Set((stack ? reached : reached.filter((reward) => reward.level === top)).map((reward) => reward.roleId));
}

/**
 * Gives a member the reward roles their level has earned, and takes those it no longer has
 * (rewardRolesKept). Only reward roles are touched. Each role goes through changeRole (one request
 * per role, retried when Discord does not answer): every role that can be changed is, and the
 * refused ones are then thrown together, naming only them. Runs after a level-up and whenever a
 * level changes another way.
 */
export async function syncRewards(services: Services, guildId: string, userId: string, level: number): Promise<void> {
  const rewards = await scope(services, guildId).findAll({
    order: [
      ['level', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  if (rewards.length === 0) return;
  const settings = await services.settings.get(guildId);
  const keep = rewardRolesKept(rewards, level, settings.levelRewardsStack);
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = await guild?.members.fetch(userId).catch(() => null);
  if (!guild || !member) return;
  const changes: RoleChange[] = [];
  const done = new Set<string>();
  // Highest level first: the reward a member reached last is the one they look for.
  for (const reward of [...rewards].reverse()) {
    if (done.has(reward.roleId)) continue;
    done.add(reward.roleId);
    const wanted = keep.has(reward.roleId);
    if (wanted === member.roles.cache.has(reward.roleId)) continue;
    const reason = wanted ? `Level ${level} reward` : `Level ${level}: a higher reward replaces it`;
    changes.push(
      await changeRole(services, member, { roleId: reward.roleId, action: wanted ? 'add' : 'remove', source: 'levelReward', sourceId: reward.id, reason }),
    );
  }
  const refused = refusalOf(changes);
  if (refused) throw refused;
}
