import { ButtonStyle, ComponentType, type APIEmbed } from 'discord.js';
import { buttonId, read, type ButtonRow, type Command, type CommandReply } from '../../bot/command';
import type { Services } from '../../core/services';
import { leaderboard, profile } from './service';

const PAGE_SIZE = 10;

/** A text progress bar: ▰▰▰▱▱▱▱▱▱▱ */
export function progressBar(part: number, whole: number, width = 10): string {
  const filled = whole > 0 ? Math.min(width, Math.round((part / whole) * width)) : 0;
  return `${'▰'.repeat(filled)}${'▱'.repeat(width - filled)}`;
}

/** Previous and Next buttons for a paged reply of `command`. */
export function pageButtons(command: string, page: number, pages: number): ButtonRow[] {
  if (pages <= 1) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Previous', custom_id: buttonId(command, 'page', page - 1), disabled: page <= 1 },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: `Page ${page} of ${pages}`, custom_id: buttonId(command, 'noop', page), disabled: true },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Next', custom_id: buttonId(command, 'page', page + 1), disabled: page >= pages },
      ],
    },
  ];
}

/** One page of the leaderboard as a reply with its buttons. */
async function leaderboardReply(services: Services, guildId: string, wanted: number): Promise<CommandReply> {
  const first = await leaderboard(services, guildId, 1, PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(first.total / PAGE_SIZE));
  const page = Math.min(Math.max(1, wanted), pages);
  const board = page === 1 ? first : await leaderboard(services, guildId, page, PAGE_SIZE);
  const lines = board.entries.map((entry) => `**${entry.rank}.** ${entry.username} · Level ${entry.level} · ${entry.totalXp.toLocaleString('en-US')} XP`);
  const embed: APIEmbed = { title: 'Leaderboard', description: lines.join('\n') || 'Nobody has earned XP yet. Start chatting!', color: 0x5865f2 };
  return { embeds: [embed], components: pageButtons('leaderboard', page, pages) };
}

/** /rank [member]: level, XP into the level and to the next, place. */
const rank: Command = {
  name: 'rank',
  description: 'Show your level and rank, or another member’s',
  feature: 'leveling',
  options: [{ type: 'user', name: 'member', description: 'Whose rank (you by default)' }],
  async run(invocation) {
    const who = read.user(invocation, 'member') ?? invocation.user;
    if (who.bot) return { content: 'Bots do not earn XP.', ephemeral: true };
    const card = await profile(invocation.services, invocation.guildId, who.id);
    const need = card.xp + card.xpToNext;
    return {
      embeds: [
        {
          title: `${who.displayName}'s rank`,
          color: 0x9b59b6,
          fields: [
            { name: 'Level', value: String(card.level), inline: true },
            { name: 'Rank', value: card.rank ? `#${card.rank}` : 'Unranked', inline: true },
            { name: 'Messages', value: card.messagesCount.toLocaleString('en-US'), inline: true },
            { name: 'XP', value: `${progressBar(card.xp, need)} ${card.xp.toLocaleString('en-US')} / ${need.toLocaleString('en-US')} (${card.xpToNext.toLocaleString('en-US')} to level ${card.level + 1})` },
          ],
        },
      ],
    };
  },
};

/** /leaderboard [page]: the top members by XP, ten per page, with buttons. */
const leaderboardCommand: Command = {
  name: 'leaderboard',
  description: 'The members with the most XP',
  feature: 'leveling',
  options: [{ type: 'integer', name: 'page', description: 'Which page (10 per page)', min: 1, max: 10_000 }],
  run: (invocation) => leaderboardReply(invocation.services, invocation.guildId, read.number(invocation, 'page') ?? 1),
  async button(invocation, [action, page]) {
    return leaderboardReply(invocation.services, invocation.guildId, action === 'page' ? Number(page) : 1);
  },
};

/** The leveling feature's member commands. */
export const levelingCommands: Command[] = [rank, leaderboardCommand];
