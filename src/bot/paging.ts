// Commands that answer one page of a list (the leaderboard, the shop) with Previous and Next
// buttons that turn the page in place.
import { ButtonStyle, ComponentType } from 'discord.js';
import type { Services } from '../core/services';
import type { FeatureSwitch } from '../shared/bot-settings';
import { buttonId, read, type ButtonRow, type Command, type CommandReply } from './command';

/** How many entries a page of a paged reply shows. */
export const PAGE_SIZE = 10;

/** Previous, "Page x of y" and Next for a paged reply of `command`; none for a single page. */
export function pageButtons(command: string, page: number, pages: number): ButtonRow[] {
  if (pages <= 1) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Previous', custom_id: buttonId(command, 'page', page - 1), disabled: page <= 1 },
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label: `Page ${page} of ${pages}`,
          custom_id: buttonId(command, 'noop', page),
          disabled: true,
        },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Next', custom_id: buttonId(command, 'page', page + 1), disabled: page >= pages },
      ],
    },
  ];
}

/** `wanted` kept within 1..pages. */
export function clampPage(wanted: number, pages: number): number {
  return Math.min(Math.max(1, wanted), Math.max(1, pages));
}

/** What a paged command needs: its words, and the reply for a page (with pageButtons). */
export interface PagedCommandSpec {
  name: string;
  description: string;
  feature: FeatureSwitch;
  maxPage: number;
  reply(services: Services, guildId: string, page: number): Promise<CommandReply>;
}

/** A `/name [page]` command whose buttons page its reply. */
export function pagedCommand({ name, description, feature, maxPage, reply }: PagedCommandSpec): Command {
  return {
    name,
    description,
    feature,
    options: [{ type: 'integer', name: 'page', description: `Which page (${PAGE_SIZE} per page)`, min: 1, max: maxPage }],
    run: (invocation) => reply(invocation.services, invocation.guildId, read.number(invocation, 'page') ?? 1),
    button: (invocation, [action, page]) => reply(invocation.services, invocation.guildId, action === 'page' ? Number(page) : 1),
  };
}
