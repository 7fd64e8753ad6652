import type { APIEmbed } from 'discord.js';
import { read, type Command, type CommandReply } from '../../bot/command';
import { clampPage, PAGE_SIZE, pageButtons, pagedCommand } from '../../bot/paging';
import type { Services } from '../../core/services';
import { leaderboard, profile } from './service';

/** A text progress bar: ▰▰▰▱▱▱▱▱▱▱ */
export function progressBar(part: number, whole: number, width = 10): string {
  const filled = whole > 0 ? Math.min(width, Math.round((part / whole) * width)) : 0;
  return `${'▰'.repeat(filled)}${'▱'.repeat(width - filled)}`;
}

/** One page of the leaderboard as a reply with its buttons. */
async function leaderboardReply(services: Services, guildId: string, wanted: number): Promise<CommandReply> {
  const first = await leaderboard(services, guildId, 1, PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(first.total / PAGE_SIZE));
  const page = clampPage(wanted, pages);
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
            {
              name: 'XP',
              value:
                `${progressBar(card.xp, need)} ${card.xp.toLocaleString('en-US')} / ${need.toLocaleString('en-US')} ` +
                `(${card.xpToNext.toLocaleString('en-US')} to level ${card.level + 1})`,
            },
          ],
        },
      ],
    };
  },
};

/** /leaderboard [page]: the top members by XP, ten per page, with buttons. */
const leaderboardCommand = pagedCommand({
  name: 'leaderboard',
  description: 'The members with the most XP',
  feature: 'leveling',
  maxPage: 10_000,
  reply: leaderboardReply,
});

/** The leveling feature's member commands. */
export const levelingCommands: Command[] = [rank, leaderboardCommand];
