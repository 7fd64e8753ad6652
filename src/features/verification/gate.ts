// Verifying through the ✅ reaction or the Verify button, behind the account-age gate: an account
// younger than the gate is told privately how many days are left (and may verify again then), and
// moderators are told in the log channel when the admin chose so. Removing the ✅ takes the role
// back only when the admin chose so.
import type { GuildMember } from 'discord.js';
import type { Services } from '../../core/services';
import { accountAgeGate, youngAccountText } from '../../shared/verification';
import { changeRole } from '../role-grants/public';
import { verifyMember } from './service';
import { verificationState } from './state';

/** How an attempt to verify ended. */
export type VerifyOutcome = { status: 'verified'; given: string[] } | { status: 'young'; daysLeft: number } | { status: 'off' };

/** What the member reads after an attempt. */
export function outcomeText(outcome: VerifyOutcome, serverName: string): string {
  if (outcome.status === 'young') return youngAccountText(outcome.daysLeft);
  if (outcome.status === 'off') return `Verification is switched off in ${serverName}.`;
  return outcome.given.length > 0 ? `You are verified in ${serverName}. Welcome!` : `You are already verified in ${serverName}.`;
}

/** A young account is flagged at most this often, however often they try. */
const FLAG_AGAIN_AFTER_MS = 86_400_000;

/** Whether this member was flagged within the last day; marks them flagged now otherwise. */
function flaggedLately(services: Services, member: GuildMember): boolean {
  const { flagged } = verificationState.of(services);
  const now = services.clock.ms();
  const key = `${member.guild.id}:${member.id}`;
  const last = flagged.get(key);
  if (last !== undefined && now - last < FLAG_AGAIN_AFTER_MS) return true;
  if (flagged.size > 10_000) for (const [old, at] of flagged) if (now - at >= FLAG_AGAIN_AFTER_MS) flagged.delete(old);
  flagged.set(key, now);
  return false;
}

/** Tells moderators in the log channel that a young account tried to verify (pinging nobody), once a day per member. */
async function flagYoungAccount(services: Services, member: GuildMember, daysLeft: number, logChannelId: string | null): Promise<void> {
  if (!logChannelId || flaggedLately(services, member)) return;
  const created = Math.floor(member.user.createdTimestamp / 1000);
  await services.messenger
    .post(member.guild.id, logChannelId, {
      embeds: [
        {
          title: 'New account tried to verify',
          description:
            `<@${member.id}> (${member.user.username}) tried to verify with an account made <t:${created}:R>. ` +
            `They may verify themselves in ${daysLeft === 1 ? '1 day' : `${daysLeft} days`}; a moderator may give the role sooner.`,
          color: 0xe67e22,
        },
      ],
    })
    .catch((error: unknown) => services.logger.warn({ err: error, guildId: member.guild.id }, 'could not flag a young account'));
}

/** A member asks to verify (✅ or the button): the age gate first, then the roles. Discord's refusals are thrown in words. */
export async function attemptVerification(services: Services, member: GuildMember): Promise<VerifyOutcome> {
  const settings = await services.settings.get(member.guild.id);
  if (!settings.verificationEnabled || !settings.verificationRoleId) return { status: 'off' };
  const gate = accountAgeGate(member.user.createdTimestamp, services.clock.ms(), settings.verificationMinAccountDays);
  if (!gate.allowed && !member.roles.cache.has(settings.verificationRoleId)) {
    if (settings.verificationYoungAccounts === 'flag') await flagYoungAccount(services, member, gate.daysLeft, settings.logChannelId);
    return { status: 'young', daysLeft: gate.daysLeft };
  }
  return { status: 'verified', given: await verifyMember(services, member) };
}

/** The ✅ was removed: when the admin chose so, the verification role (and the member role given with it) is taken back. */
export async function unverifyOnUnreact(services: Services, member: GuildMember): Promise<void> {
  const settings = await services.settings.get(member.guild.id);
  if (!settings.verificationEnabled || settings.verificationOnUnreact !== 'remove' || !settings.verificationRoleId) return;
  if (!member.roles.cache.has(settings.verificationRoleId)) return;
  const reason = 'Rule verification: removed their ✅';
  await changeRole(services, member, { roleId: settings.verificationRoleId, action: 'remove', source: 'verification', reason });
  if (settings.autoRoleEnabled && settings.memberRoleId && member.roles.cache.has(settings.memberRoleId))
    await changeRole(services, member, { roleId: settings.memberRoleId, action: 'remove', source: 'memberRole', reason });
}
