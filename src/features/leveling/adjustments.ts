// Admin XP adjustments: give or take XP with a reason, kept in a history (who, when, how much,
// why). The member's row is read locked and changed in one transaction with its history row, so a
// flush adding chat XP at the same moment lands before or after, never lost; the total never goes
// below 0 nor past MAX_TOTAL_XP. The level follows the total, and reward roles follow the level.
import { InvalidInput, NotFound } from '../../core/errors';
import type { Actor } from '../../core/actor';
import type { Services } from '../../core/services';
import { memberName } from '../../core/names';
import type { XpAdjustment as XpAdjustmentRow } from '../../db/models/level-backup';
import { levelFromTotal } from '../../shared/leveling';
import { MAX_TOTAL_XP, type XpAdjustInput, type XpAdjustment, type XpAdjustmentPage, type XpAdjustResult } from '../../shared/level-admin';
import { inLevelTransaction, lockRows, replaceRows, rowAt, syncChangedLevels } from './level-rows';

/** Adjustments per page of the history. */
export const ADJUSTMENTS_PAGE_SIZE = 20;

/** Refuses a bot or someone who is not a member now (XP is for members; a bot never chats for XP). */
async function requireXpMember(services: Services, guildId: string, userId: string, field: string): Promise<void> {
  const member = await services.gateway.member(guildId, userId);
  if (member.kind === 'no-bot') throw new NotFound('The bot is not in that server.');
  const refuse = (sentence: string) => InvalidInput.field(field, sentence, sentence);
  if (member.kind === 'not-member') throw refuse(`${memberName(services, guildId, userId, null)} is not a member of this server.`);
  if (member.bot) throw refuse('Bots do not earn XP.');
}

/** A history row as the dashboard shows it. */
function presentAdjustment(services: Services, guildId: string, row: XpAdjustmentRow): XpAdjustment {
  return {
    id: row.id,
    userId: row.userId,
    username: memberName(services, guildId, row.userId, row.username),
    amount: row.amount,
    reason: row.reason,
    fromXp: row.fromXp,
    toXp: row.toXp,
    fromLevel: levelFromTotal(row.fromXp).level,
    toLevel: levelFromTotal(row.toXp).level,
    actorName: row.actorName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Gives (amount > 0) or takes XP from a member, with a reason; answers the history row and a reward Discord refused, if any. */
export async function adjustXp(services: Services, guildId: string, input: XpAdjustInput, actor: Actor, field = 'userId'): Promise<XpAdjustResult> {
  await requireXpMember(services, guildId, input.userId, field);
  const reason = input.reason.trim();
  const { row, changes } = await inLevelTransaction(services, async (transaction) => {
    const before = await lockRows(services, guildId, transaction, [input.userId]);
    const current = before.get(input.userId) ?? null;
    const from = current?.totalXp ?? 0;
    const to = from + input.amount;
    const name = memberName(services, guildId, input.userId, current?.username ?? null);
    if (to < 0) {
      const sentence = `${name} has ${from.toLocaleString('en-US')} XP: you can take at most that.`;
      throw InvalidInput.field('amount', sentence, sentence);
    }
    if (to > MAX_TOTAL_XP) {
      const sentence = `That would take ${name} past ${MAX_TOTAL_XP.toLocaleString('en-US')} XP, the most a member can hold.`;
      throw InvalidInput.field('amount', sentence, sentence);
    }
    const next = rowAt(input.userId, to, { username: current?.username ?? name, messagesCount: current?.messagesCount ?? 0 });
    const changed = await replaceRows(services, guildId, transaction, before, [{ userId: input.userId, row: next }]);
    const history = await services.store.guild(guildId).XpAdjustment.create(
      {
        userId: input.userId,
        username: name,
        amount: input.amount,
        reason,
        fromXp: from,
        toXp: to,
        actorId: actor.userId,
        actorName: actor.name,
        createdAt: services.clock.now(),
      },
      { transaction },
    );
    return { row: history, changes: changed };
  });
  services.readCache.invalidate(`${guildId}:`);
  // One member: the answer waits for their reward roles, so it can say when Discord refused one.
  const rewardProblem = await syncChangedLevels(
    services,
    guildId,
    changes.filter((change) => change.from !== change.to),
  );
  return { adjustment: presentAdjustment(services, guildId, row), rewardProblem };
}

/** The adjustments, newest first. */
export async function listAdjustments(services: Services, guildId: string, page: number): Promise<XpAdjustmentPage> {
  const history = services.store.guild(guildId).XpAdjustment;
  const [rows, total] = await Promise.all([
    history.findAll({ order: [['id', 'DESC']], limit: ADJUSTMENTS_PAGE_SIZE, offset: (page - 1) * ADJUSTMENTS_PAGE_SIZE }),
    history.count(),
  ]);
  return { entries: rows.map((row) => presentAdjustment(services, guildId, row)), page, total };
}
