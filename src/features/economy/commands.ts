import type { APIEmbed } from 'discord.js';
import { read, type Command, type CommandReply } from '../../bot/command';
import { clampPage, PAGE_SIZE, pageButtons, pagedCommand } from '../../bot/paging';
import type { Services } from '../../core/services';
import { MAX_BALANCE } from '../../shared/economy';
import { profile } from '../leveling/public';
import { buyItem, claimDaily, giveCoins, inventoryOf } from './member';
import { listShop } from './service';

/** "1,234 coins" in the guild's currency. */
const coins = (amount: number, currency: string) => `${amount.toLocaleString('en-US')} ${currency}`;

/** One page of the shop as a reply with its buttons. */
async function shopReply(services: Services, guildId: string, wanted: number): Promise<CommandReply> {
  const settings = await services.settings.get(guildId);
  const items = await listShop(services, guildId, { activeOnly: true });
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = clampPage(wanted, pages);
  const lines = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((item) => {
    const stock = item.stock === null ? '' : item.stock === 0 ? ' · sold out' : ` · ${item.stock} left`;
    const what = item.type === 'role' && item.roleName ? `the @${item.roleName} role` : item.type;
    return `**${item.name}** · ${coins(item.price, settings.currencyName)} · ${what}${stock}${item.description ? `\n${item.description}` : ''}`;
  });
  const embed: APIEmbed = {
    title: 'Shop',
    description: lines.join('\n\n') || 'The shop is empty for now.',
    color: 0xf1c40f,
    footer: { text: 'Buy with /buy item' },
  };
  return { embeds: [embed], components: pageButtons('shop', page, pages) };
}

/** /balance [member] */
const balance: Command = {
  name: 'balance',
  description: 'Show your coins, or another member’s',
  feature: 'economy',
  ephemeral: true,
  options: [{ type: 'user', name: 'member', description: 'Whose balance (you by default)' }],
  async run(invocation) {
    const who = read.user(invocation, 'member') ?? invocation.user;
    const settings = await invocation.services.settings.get(invocation.guildId);
    const card = await profile(invocation.services, invocation.guildId, who.id);
    const whose = who.id === invocation.user.id ? 'You have' : `${who.displayName} has`;
    return `${whose} ${coins(card.balance, settings.currencyName)} (${coins(card.totalEarned, settings.currencyName)} earned in all).`;
  },
};

/** /give member amount: member to member. */
const give: Command = {
  name: 'give',
  description: 'Give some of your coins to another member',
  feature: 'economy',
  options: [
    { type: 'user', name: 'member', description: 'Who gets them', required: true },
    { type: 'integer', name: 'amount', description: 'How many', required: true, min: 1, max: MAX_BALANCE },
  ],
  async run(invocation) {
    const to = read.user(invocation, 'member');
    const amount = read.number(invocation, 'amount') ?? 0;
    if (!to) return { content: 'Pick the member to give to.', ephemeral: true };
    const settings = await invocation.services.settings.get(invocation.guildId);
    const result = await giveCoins(
      invocation.services,
      invocation.guildId,
      { userId: invocation.user.id, username: invocation.user.displayName },
      { userId: to.id, username: to.displayName },
      amount,
    );
    return {
      content:
        `${invocation.user.displayName} gave ${coins(amount, settings.currencyName)} to <@${to.id}>. ${invocation.user.displayName} has ` +
        `${coins(result.from.balance, settings.currencyName)} left.`,
      mentionUserIds: [to.id],
    };
  },
};

/** /daily */
const daily: Command = {
  name: 'daily',
  description: 'Claim your daily reward',
  feature: 'economy',
  ephemeral: true,
  async run(invocation) {
    const settings = await invocation.services.settings.get(invocation.guildId);
    const claimed = await claimDaily(invocation.services, invocation.guildId, { userId: invocation.user.id, username: invocation.user.displayName });
    return `You claimed ${coins(claimed.amount, settings.currencyName)}. You now have ${coins(claimed.balance, settings.currencyName)}.`;
  },
};

/** /shop [page] */
const shopCommand = pagedCommand({ name: 'shop', description: 'What you can buy with your coins', feature: 'economy', maxPage: 1000, reply: shopReply });

/** /buy item (with autocomplete of the shop's items) */
const buy: Command = {
  name: 'buy',
  description: 'Buy an item from the shop',
  feature: 'economy',
  ephemeral: true,
  options: [
    {
      type: 'string',
      name: 'item',
      description: 'The item to buy',
      required: true,
      maxLength: 100,
      async autocomplete(invocation, typed) {
        const settings = await invocation.services.settings.get(invocation.guildId);
        const items = await listShop(invocation.services, invocation.guildId, { activeOnly: true });
        const needle = typed.toLowerCase();
        return items
          .filter((item) => item.name.toLowerCase().includes(needle))
          .slice(0, 25)
          .map((item) => ({ name: `${item.name} · ${coins(item.price, settings.currencyName)}`.slice(0, 100), value: String(item.id) }));
      },
    },
  ],
  async run(invocation) {
    const settings = await invocation.services.settings.get(invocation.guildId);
    const bought = await buyItem(
      invocation.services,
      invocation.guildId,
      { userId: invocation.user.id, username: invocation.user.displayName },
      read.string(invocation, 'item') ?? '',
    );
    const extra = bought.item.type === 'role' && bought.item.roleName ? ` You now have the @${bought.item.roleName} role.` : '';
    return (
      `You bought **${bought.item.name}** for ${coins(bought.item.price, settings.currencyName)}.${extra} You have ` +
      `${coins(bought.balance, settings.currencyName)} left.`
    );
  },
};

/** /inventory */
const inventory: Command = {
  name: 'inventory',
  description: 'What you bought in this server',
  feature: 'economy',
  ephemeral: true,
  async run(invocation) {
    const owned = await inventoryOf(invocation.services, invocation.guildId, invocation.user.id);
    if (owned.items.length === 0) return 'No Items Yet. Visit the shop with /shop.';
    return {
      embeds: [
        {
          title: 'Your inventory',
          color: 0x3498db,
          description: owned.items.map((item) => `**${item.itemName}**${item.quantity > 1 ? ` × ${item.quantity}` : ''} · ${item.itemType}`).join('\n'),
        },
      ],
    };
  },
};

/** The economy's member commands. */
export const economyCommands: Command[] = [balance, give, daily, shopCommand, buy, inventory];
