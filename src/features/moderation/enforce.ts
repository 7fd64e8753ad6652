// Auto moderation on every guild message (the Bot Settings switch): the rule engine judges the
// message in memory; a broken rule deletes the message and, per the rule, warns or times the
// member out, each as a case by the bot with the rule's name as its reason. A member flooding a
// rule gets each message deleted but one case per rule every 10 seconds, not one per message.
// Staff (the owner, Administrator, Manage Server: those who manage the guild on the dashboard)
// are spared unless the guild's setting includes them.
import { Events, type Message } from 'discord.js';
import { askDiscord } from '../../bot/discord-errors';
import { listener } from '../../core/feature';
import type { Services } from '../../core/services';
import { automodMessageOf, caseDue, judged } from './automod/discord-message';
import type { AutomodVerdict } from './automod/engine';
import { moderate } from './actions';
import { announceCase, recordCase } from './cases';
import { botActor } from './standing';
import { moderationState } from './state';

/** Deletes the message and records what the rule asks for. */
async function enforce(services: Services, message: Message<true>, verdict: AutomodVerdict, recent: Map<string, number>): Promise<void> {
  const actor = botActor(services, message.guildId);
  await askDiscord(() => message.delete(), actor.name).catch((error: unknown) =>
    services.logger.warn({ err: error, guildId: message.guildId, rule: verdict.rule }, 'auto moderation could not delete a message'),
  );
  if (!caseDue(recent, message.guildId, message.author.id, verdict.rule, services.clock.ms())) return;
  if (verdict.action === 'delete') {
    const row = await recordCase(services, message.guildId, {
      action: 'delete',
      targetId: message.author.id,
      targetName: message.member?.displayName ?? message.author.username,
      moderatorId: actor.userId,
      moderatorName: actor.name,
      reason: verdict.reason,
      source: 'automatic',
      details: { channelId: message.channelId, content: message.content.slice(0, 500) },
    });
    if (row) await announceCase(services, row);
    return;
  }
  await moderate(
    services,
    message.guildId,
    { action: verdict.action, targetId: message.author.id, reason: verdict.reason, duration: verdict.duration ?? undefined },
    actor,
  );
}

/** MESSAGE_CREATE → the rules, when the guild has auto moderation on. */
export const enforceAutomod = listener(Events.MessageCreate, 'EnforceAutomod', (services, message) => {
  if (!message.inGuild() || !judged(message)) return;
  return services.settings.with(message.guildId, (settings) => {
    if (!settings.automodEnabled) return;
    const state = moderationState.of(services).automod;
    const includeStaff = settings.automodIncludeStaff;
    const verdict = state.engine.check(automodMessageOf(message, services.clock.ms(), includeStaff), settings.automodRules, { includeStaff });
    if (verdict) return enforce(services, message, verdict, state.recent);
  });
});
