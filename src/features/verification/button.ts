// The Verify button under the rules message (answered privately), and the ✅ taken off the rules
// message (the role taken back when the admin chose so).
import { Events, MessageFlags } from 'discord.js';
import { listener } from '../../core/feature';
import { VERIFY_EMOJI } from '../../shared/welcome';
import { VERIFY_BUTTON_ID } from '../../shared/verification';
import { failureText } from '../../bot/dispatch';
import { attemptVerification, outcomeText, unverifyOnUnreact } from './gate';

/** A click on Verify: the same path as ✅, answered only to the member. */
export const verifyOnButton = listener(Events.InteractionCreate, 'VerifyOnButton', async (services, interaction) => {
  if (!interaction.isButton() || interaction.customId !== VERIFY_BUTTON_ID || !interaction.inCachedGuild()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  try {
    const outcome = await attemptVerification(services, interaction.member);
    await interaction.editReply({ content: outcomeText(outcome, interaction.guild.name) });
  } catch (error) {
    await interaction.editReply({ content: failureText(services, error, { button: interaction.customId }) }).catch(() => undefined);
  }
});

/** ✅ taken off the rules message. */
export const unverifyOnReactionRemove = listener(Events.MessageReactionRemove, 'UnverifyOnReactionRemove', async (services, reaction, user) => {
  const guildId = reaction.message.guildId;
  if (user.bot || !guildId || reaction.emoji.name !== VERIFY_EMOJI) return;
  const state = await services.guildState.get(guildId, 'rulesMessage');
  if (!state || state.missing || state.messageId !== reaction.message.id) return;
  const member = await services.gateway.client?.guilds.cache
    .get(guildId)
    ?.members.fetch(user.id)
    .catch(() => null);
  if (!member) return;
  await unverifyOnUnreact(services, member).catch((error: unknown) =>
    services.logger.warn({ err: error, guildId }, 'could not take the verification role back'),
  );
});
