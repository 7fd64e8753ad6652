import { Events } from 'discord.js';
import { listener, type Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { guildRoute } from '../../http/route';
import type { Diagnostic } from '../../shared/diagnostics';
import type { GuildSettings } from '../../shared/settings';
import { VERIFY_EMOJI, type VerificationStatus } from '../../shared/welcome';
import { channelProblem, handoutProblem, settingProblem } from '../../core/checks';
import { catchUpVerifications, giveJoinRole, noteDeletedMessages, publishRulesMessage, rulesMessageStale, verificationStatus } from './service';
import { verifyOnButton, unverifyOnReactionRemove } from './button';
import { attemptVerification, outcomeText } from './gate';
import { verificationState } from './state';

/** ✅ on the rules message verifies the member; any other reaction there is removed. */
const verifyOnReaction = listener(Events.MessageReactionAdd, 'VerifyOnReaction', async (services, reaction, user) => {
  const guildId = reaction.message.guildId;
  if (user.bot || !guildId) return;
  const state = await services.guildState.get(guildId, 'rulesMessage');
  if (!state || state.missing || state.messageId !== reaction.message.id) return;
  if (reaction.emoji.name !== VERIFY_EMOJI) {
    await reaction.users
      .remove(user.id)
      .catch((error: unknown) => services.logger.debug({ err: error, guildId }, 'could not remove a reaction from the rules message'));
    return;
  }
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = await guild?.members.fetch(user.id).catch(() => null);
  if (!member) return;
  try {
    const outcome = await attemptVerification(services, member);
    if (outcome.status !== 'young') return;
    // Told privately (a reaction has no reply of its own); their ✅ is taken off so they can react again once old enough.
    await services.messenger.dm(guildId, member.id, { content: outcomeText(outcome, member.guild.name) }).catch(() => undefined);
    await reaction.users.remove(user.id).catch((error: unknown) => services.logger.debug({ err: error, guildId }, "could not remove a young account's ✅"));
  } catch (error) {
    services.logger.warn({ err: error, guildId }, 'could not verify a member');
    void services.notifier.notify(guildId, {
      event: 'error',
      title: 'Verification failed',
      description: error instanceof Error ? error.message : String(error),
      data: { userId: member.id },
    });
  }
});

/** A deleted rules message is noted: the page says so and the next save posts it again. */
const noteRulesDeleted = listener(Events.MessageDelete, 'NoteRulesMessageDeleted', async (services, message) => {
  if (message.guildId) await noteDeletedMessages(services, message.guildId, [message.id]);
});
const noteRulesBulkDeleted = listener(Events.MessageBulkDelete, 'NoteRulesMessageBulkDeleted', async (services, messages, channel) => {
  await noteDeletedMessages(services, channel.guildId, [...messages.keys()]);
});

/** Auto-assign member role on join (when verification is off; with it, the role comes on verification). */
const memberRoleOnJoin = listener(Events.GuildMemberAdd, 'GiveMemberRole', async (services, member) => {
  try {
    await giveJoinRole(services, member);
  } catch (error) {
    services.logger.warn({ err: error, guildId: member.guild.id }, 'could not give the member role');
    void services.notifier.notify(member.guild.id, {
      event: 'error',
      title: 'Auto-assign failed',
      description: error instanceof Error ? error.message : String(error),
      data: { userId: member.id },
    });
  }
});

/** What stops verification and auto-assign from working now. */
async function diagnoseVerification(services: Services, guildId: string, settings: GuildSettings): Promise<Diagnostic[]> {
  const items: Diagnostic[] = [];
  if (settings.verificationEnabled) {
    const channel = settingProblem(services, guildId, settings, 'rulesChannelId');
    if (channel)
      items.push({ feature: 'verification', severity: 'error', problem: `Rules channel: ${channel.problem}`, fix: channel.fix, subject: 'rulesChannelId' });
    else if (settings.rulesChannelId) {
      const cleanup = channelProblem(services, guildId, settings.rulesChannelId, ['manageMessages']);
      if (cleanup)
        items.push({
          feature: 'verification',
          severity: 'warning',
          problem: `${cleanup.problem} Other reactions on the rules message stay.`,
          fix: cleanup.fix,
          subject: 'rulesChannelId',
        });
    }
    const role = settings.verificationRoleId ? handoutProblem(services, guildId, settings.verificationRoleId) : null;
    if (role)
      items.push({
        feature: 'verification',
        severity: role.severity,
        problem: `Verification role: ${role.problem}`,
        fix: role.fix,
        subject: 'verificationRoleId',
      });
    if (settings.verificationMinAccountDays > 0 && settings.verificationYoungAccounts === 'flag' && !settings.logChannelId)
      items.push({
        feature: 'verification',
        severity: 'warning',
        problem: 'Young accounts are to be flagged to moderators, but no log channel is set: nobody is told.',
        fix: 'Pick the log channel in Bot Settings.',
        subject: 'verificationYoungAccounts',
      });
    const state = await services.guildState.get(guildId, 'rulesMessage');
    if (!state || state.channelId !== settings.rulesChannelId) {
      items.push({
        feature: 'verification',
        severity: 'error',
        problem: 'The rules message has not been posted in the rules channel yet.',
        fix: 'Save the Rule Verification page to post it.',
        subject: 'rulesMessage',
      });
    } else if (state.missing) {
      items.push({
        feature: 'verification',
        severity: 'error',
        problem: 'The rules message was deleted in Discord: members cannot verify.',
        fix: 'Save the Rule Verification page to post it again.',
        subject: 'rulesMessage',
      });
    }
  }
  if (settings.autoRoleEnabled) {
    const role = settings.memberRoleId ? handoutProblem(services, guildId, settings.memberRoleId) : null;
    if (role) items.push({ feature: 'autoRole', severity: role.severity, problem: `Member role: ${role.problem}`, fix: role.fix, subject: 'memberRoleId' });
  }
  return items;
}

/** Rule Verification (the rules message, ✅ gives the role, offline reactions honoured) and the auto-assigned member role. */
export const verificationFeature: Feature = {
  name: 'verification',
  listeners: [verifyOnReaction, verifyOnButton, unverifyOnReactionRemove, noteRulesDeleted, noteRulesBulkDeleted, memberRoleOnJoin],
  /** ✅ reactions added while the bot was not listening are honoured. */
  catchUp: catchUpVerifications,
  settingsEffects: [
    {
      keys: ['verificationEnabled', 'rulesChannelId', 'rulesMessage', 'verificationButton'],
      stale: (services, guild, next) => rulesMessageStale(services, guild.id, next),
      apply: async (services, guild, next) => {
        if (next.verificationEnabled) await publishRulesMessage(services, guild, next);
      },
    },
  ],
  diagnose: diagnoseVerification,
  state: verificationState,
  routes: [
    guildRoute({
      method: 'get',
      path: '/verification',
      example: {},
      handler: ({ guild, services }): Promise<VerificationStatus> => verificationStatus(services, guild.id),
    }),
  ],
};
