import { Conflict, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { askDiscord } from '../../bot/discord-errors';
import { GuildScope } from '../../db/scoped';
import type { LevelReward } from '../../shared/leveling';
import { checkRoleHandouts, type RoleRequest } from '../settings/checks';

const scope = (services: Services, guildId: string) => new GuildScope(services.store.models.LevelReward, guildId);

/** The guild's role rewards, lowest level first. */
export async function listRewards(services: Services, guildId: string): Promise<LevelReward[]> {
  const rows = await scope(services, guildId).findAll({ order: [['level', 'ASC'], ['id', 'ASC']] });
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
 * Gives a member the reward roles their level has earned, and takes those it no longer has:
 * stacking keeps every reward up to the level; replacing keeps only the highest level's. Only
 * reward roles are touched. Runs after a level-up and whenever a level changes another way.
 */
export async function syncRewards(services: Services, guildId: string, userId: string, level: number): Promise<void> {
  const rewards = await scope(services, guildId).findAll();
  if (rewards.length === 0) return;
  const settings = await services.settings.get(guildId);
  const reached = rewards.filter((reward) => reward.level <= level);
  const top = Math.max(0, ...reached.map((reward) => reward.level));
  const keep = new Set((settings.levelRewardsStack ? reached : reached.filter((reward) => reward.level === top)).map((reward) => reward.roleId));
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = await guild?.members.fetch(userId).catch(() => null);
  if (!guild || !member) return;
  const add = [...keep].filter((roleId) => !member.roles.cache.has(roleId));
  const remove = rewards.map((reward) => reward.roleId).filter((roleId) => !keep.has(roleId) && member.roles.cache.has(roleId));
  const botName = guild.members.me?.displayName ?? 'The bot';
  // One request per role: a list would send the member's whole role list as the cache knows it,
  // undoing a role given meanwhile (a reaction role, the member role).
  for (const roleId of add) await askDiscord(() => member.roles.add(roleId, `Level ${level} reward`), botName);
  for (const roleId of new Set(remove)) await askDiscord(() => member.roles.remove(roleId, `Level ${level}: a higher reward replaces it`), botName);
}
