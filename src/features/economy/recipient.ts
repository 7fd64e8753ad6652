import { InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { COIN_RECIPIENT_REFUSALS } from '../../shared/economy';

/** Who would receive coins, and who gives them (null when an admin takes coins away). */
export interface CoinTransfer {
  guildId: string;
  recipientId: string;
  /** The recipient's name as the face knows it (a slash option's resolved user), for the refusal. */
  recipientName?: string;
  giverId: string | null;
  /** The input field that names the recipient, for the refusal (the route's userId, the command's member). */
  field: string;
}

/**
 * The one rule of who may be given coins, for the dashboard's Give Coins and /give alike: a current
 * member of the server, read live from the gateway (not someone who left or never joined, nor the id
 * of the server or a role), not a bot (this one or any other: nobody can spend them), and not the
 * giver themself. Refuses with a sentence, the same on both faces.
 */
export async function requireCoinRecipient(services: Services, transfer: CoinTransfer): Promise<void> {
  const refuse = (sentence: string) => InvalidInput.field(transfer.field, sentence, sentence);
  if (transfer.giverId === transfer.recipientId) throw refuse(COIN_RECIPIENT_REFUSALS.self);
  const member = await services.gateway.member(transfer.guildId, transfer.recipientId);
  if (member.kind === 'no-bot') throw new NotFound('The bot is not in that server.');
  if (member.kind === 'not-member') throw refuse(COIN_RECIPIENT_REFUSALS.notMember(transfer.recipientName ?? (await formerName(services, transfer))));
  if (member.bot) throw refuse(COIN_RECIPIENT_REFUSALS.bot);
}

/** The name a non-member last had here (their wallet keeps it), or words for someone never seen. */
async function formerName(services: Services, { guildId, recipientId }: CoinTransfer): Promise<string> {
  const wallet = await services.store.guild(guildId).UserCurrency.findOne({ where: { userId: recipientId }, attributes: ['username'] });
  return wallet?.username || 'That user';
}
