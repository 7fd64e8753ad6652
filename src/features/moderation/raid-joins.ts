// Each join, as raid protection sees it: the account-age rule first (a young account is timed out,
// kicked or flagged), then the raid rule's window (a burst turns raid mode on; a join during raid
// mode is timed out). Joins of one guild are handled one after another, so a burst turns raid mode
// on once and every later joiner meets it.
import { Events, type GuildMember } from 'discord.js';
import { listener } from '../../core/feature';
import type { Services } from '../../core/services';
import type { AccountAgeRule, RaidRule } from '../../shared/raids';
import { moderate } from './actions';
import { recordCase } from './cases';
import { postRaidAlert } from './raid-actions';
import { accountAgeDays, isYoungAccount } from './raid-rules';
import { isActive, noteBurst, raidRow } from './raid-state';
import { startRaid, timeOutDuringRaid } from './raids';
import { botActor } from './standing';
import { moderationState } from './state';

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** The account-age rule on one join: a young account is timed out, kicked, or flagged (a note case and an alert). */
export async function checkAccountAge(services: Services, member: GuildMember, rule: AccountAgeRule, raidRule: RaidRule): Promise<void> {
  const now = services.clock.ms();
  if (!rule.enabled || !isYoungAccount(member.id, now, rule.minDays)) return;
  const age = accountAgeDays(member.id, now) ?? 0;
  const reason = `Account age: created ${age === 0 ? 'today' : `${days(age)} ago`}, younger than ${days(rule.minDays)}`;
  const actor = botActor(services, member.guild.id);
  try {
    if (rule.action === 'flag') {
      await recordCase(services, member.guild.id, {
        action: 'note',
        targetId: member.id,
        targetName: member.displayName,
        moderatorId: actor.userId,
        moderatorName: actor.name,
        reason,
        source: 'automatic',
      });
      await postRaidAlert(
        services,
        member.guild.id,
        { ...raidRule, alert: true },
        { title: 'New account joined', description: `${member.user.username} (${member.id}) joined. ${reason}.`, problems: [], ping: false },
      );
      return;
    }
    await moderate(services, member.guild.id, { action: rule.action, targetId: member.id, reason, duration: rule.duration ?? undefined }, actor);
  } catch (error) {
    services.logger.warn({ err: error, guildId: member.guild.id, userId: member.id }, 'the account-age rule could not act');
  }
}

/** The raid rule on one join: count it, turn raid mode on at a burst, time out a joiner during raid mode. */
export async function watchJoin(services: Services, member: GuildMember): Promise<void> {
  const settings = await services.settings.get(member.guild.id);
  await checkAccountAge(services, member, settings.accountAgeRule, settings.raidRule);
  if (!member.guild.members.cache.has(member.id)) return; // kicked by the account-age rule
  const rule = settings.raidRule;
  const window = moderationState.of(services).raids.window;
  const last = await raidRow(services, member.guild.id);
  const burst = rule.enabled ? window.record(member.guild.id, member.id, services.clock.ms(), rule, last?.endedAt?.getTime() ?? 0) : null;
  if (isActive(last)) {
    if (burst) await noteBurst(services, member.guild.id);
    await timeOutDuringRaid(services, member.guild, member.id, rule);
    return;
  }
  if (!burst) return;
  const started = await startRaid(services, member.guild.id, { actor: botActor(services, member.guild.id), burst });
  // Another process turned raid mode on first: this joiner meets it like any later one.
  if (!started) await timeOutDuringRaid(services, member.guild, member.id, rule);
}

/** Runs `work` after the guild's earlier joins are handled; a failure is logged, never thrown at the gateway. */
const inTurn = (services: Services, guildId: string, work: () => Promise<void>): Promise<void> =>
  moderationState
    .of(services)
    .raids.joins.run(guildId, work)
    .catch((error: unknown) => services.logger.warn({ err: error, guildId }, 'raid protection failed on a join'));

/** GUILD_MEMBER_ADD → the account-age and raid rules. */
export const protectFromRaids = listener(Events.GuildMemberAdd, 'ProtectFromRaids', (services, member) =>
  member.user.bot ? undefined : inTurn(services, member.guild.id, () => watchJoin(services, member)),
);
