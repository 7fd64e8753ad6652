// Temporary bans end on their own: a ban case with an expiry is lifted when it runs out, by the
// bot, as an automatic unban case. The work is claimed with a row lease (like scheduled
// announcements), so with several processes on one store exactly one lifts each ban, and a ban
// that ran out while the bot was down is lifted at the next start.
import { RESTJSONErrorCodes } from 'discord.js';
import { Op } from 'sequelize';
import { askDiscord } from '../../bot/discord-errors';
import { DiscordRefused } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationLog } from '../../db/models/community';
import { announceCase, recordCase } from './cases';
import { botActor } from './standing';
import { acrossGuilds } from '../../db/cross-guild';

/** How long a process holds a ban it is lifting. */
export const LIFT_CLAIM_MS = 60_000;

/** Claims an expired ban for this process: one conditional update, so one process wins. */
async function claim(services: Services, row: ModerationLog): Promise<boolean> {
  const now = services.clock.now();
  const count = await services.store
    .guild(row.guildId)
    .ModerationLog.update(
      { claimedUntil: new Date(now.getTime() + LIFT_CLAIM_MS) },
      { where: { id: row.id, liftedAt: null, [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: now } }] } },
    );
  return count === 1;
}

/** Lifts every temporary ban that has run out (in guilds the bot is in); returns how many. */
export async function liftExpiredBans(services: Services): Promise<number> {
  const now = services.clock.now();
  const due = await acrossGuilds(services.store, 'expired temporary bans').ModerationLog.findAll({
    where: { action: 'ban', liftedAt: null, expiresAt: { [Op.lte]: now }, [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: now } }] },
    order: [['expiresAt', 'ASC']],
    limit: 20,
  });
  let lifted = 0;
  for (const row of due) {
    const guild = services.gateway.client?.guilds.cache.get(row.guildId);
    if (!guild || !(await claim(services, row))) continue;
    const actor = botActor(services, row.guildId);
    try {
      await askDiscord(() => guild.members.unban(row.targetId, `Temporary ban expired (case #${row.caseNumber})`), actor.name);
    } catch (error) {
      // Unbanned already (by a moderator in Discord): the ban is over all the same.
      if (!(error instanceof DiscordRefused && error.code === RESTJSONErrorCodes.UnknownBan)) {
        services.logger.warn({ err: error, guildId: row.guildId, caseNumber: row.caseNumber }, 'could not lift a temporary ban; it will be retried');
        await services.store.guild(row.guildId).ModerationLog.update({ claimedUntil: null }, { where: { id: row.id } });
        continue;
      }
    }
    await services.store.guild(row.guildId).ModerationLog.update({ liftedAt: services.clock.now(), claimedUntil: null }, { where: { id: row.id } });
    const unban = await recordCase(services, row.guildId, {
      action: 'unban',
      targetId: row.targetId,
      targetName: row.targetName,
      moderatorId: actor.userId,
      moderatorName: actor.name,
      reason: `Temporary ban expired (case #${row.caseNumber})`,
      source: 'automatic',
    });
    if (unban) await announceCase(services, unban);
    lifted += 1;
  }
  return lifted;
}
