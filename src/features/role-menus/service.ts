// Role menus: stored, posted and edited in place through discord.js, deleted with their message.
import { ButtonStyle, ComponentType, RESTJSONErrorCodes, type APIActionRowComponent, type APIComponentInMessageActionRow } from 'discord.js';
import { DiscordRefused, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { channelProblem, checkRoleHandouts, problemText, type RoleRequest } from '../../core/checks';
import { askDiscord } from '../../bot/discord-errors';
import type { RoleMenu } from '../../db/models/role-menu';
import {
  roleMenuCustomId,
  type RoleMenuInput,
  type RoleMenuMode,
  type RoleMenuOption,
  type RoleMenuPatch,
  type RoleMenuStyle,
  type RoleMenuView,
  RoleMenuInput as InputSchema,
  RoleMenuPatch as PatchSchema,
} from '../../shared/role-menus';
import { parseEmoji } from '../../shared/reaction-roles';

type MenuInput = ReturnType<typeof InputSchema.parse>;
type MenuPatch = ReturnType<typeof PatchSchema.parse>;
export type { RoleMenuInput, RoleMenuPatch };

/** A stored menu's options. */
export function optionsOf(row: Pick<RoleMenu, 'options'>): RoleMenuOption[] {
  return JSON.parse(row.options) as RoleMenuOption[];
}

/** A row as the dashboard lists it. */
export function viewOf(row: RoleMenu): RoleMenuView {
  return {
    id: row.id,
    channelId: row.channelId,
    messageId: row.messageId,
    title: row.title,
    description: row.description,
    colour: row.colour,
    style: row.style as RoleMenuStyle,
    mode: row.mode as RoleMenuMode,
    maxRoles: row.maxRoles,
    requiredRoleId: row.requiredRoleId,
    options: optionsOf(row).map((option) => ({ ...option, emoji: option.emoji ?? null, description: option.description ?? null })),
  };
}

/** The emoji of a button or select option, as Discord's component payload wants it. */
function componentEmoji(emoji: string | null | undefined): { name: string; id?: string; animated?: boolean } | undefined {
  const parsed = emoji ? parseEmoji(emoji) : null;
  if (!parsed) return undefined;
  return parsed.kind === 'unicode' ? { name: parsed.name } : { name: parsed.name, id: parsed.id, animated: parsed.animated };
}

/** The menu's components: rows of at most 5 buttons, or one string select (0 to maxRoles picks). */
export function menuComponents(
  id: number,
  menu: { style: string; mode: string; maxRoles: number | null; options: RoleMenuOption[] },
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  if (menu.style === 'select') {
    const most = menu.mode === 'unique' ? 1 : Math.min(menu.maxRoles ?? menu.options.length, menu.options.length);
    return [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.StringSelect,
            custom_id: roleMenuCustomId(id),
            placeholder: 'Pick your roles',
            min_values: 0,
            max_values: most,
            options: menu.options.map((option) => ({
              label: option.label,
              value: option.roleId,
              ...(option.description ? { description: option.description } : {}),
              ...(componentEmoji(option.emoji) ? { emoji: componentEmoji(option.emoji) } : {}),
            })),
          },
        ],
      },
    ];
  }
  const rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  for (let start = 0; start < menu.options.length; start += 5) {
    rows.push({
      type: ComponentType.ActionRow,
      components: menu.options.slice(start, start + 5).map((option) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        custom_id: roleMenuCustomId(id, option.roleId),
        label: option.label,
        ...(componentEmoji(option.emoji) ? { emoji: componentEmoji(option.emoji) } : {}),
      })),
    });
  }
  return rows;
}

/** The menu's embed. */
function menuEmbed(menu: { title: string; description: string | null; colour: string }) {
  return { title: menu.title, ...(menu.description ? { description: menu.description } : {}), color: Number.parseInt(menu.colour.slice(1), 16) };
}

/** Every role the menu hands out must be one the bot can give and the admin could give themselves. */
async function checkMenu(services: Services, guildId: string, body: MenuPatch, request: RoleRequest): Promise<void> {
  for (const [index, option] of body.options.entries())
    if (option.emoji && !parseEmoji(option.emoji)) throw InvalidInput.field(`options.${index}.emoji`, 'must be one emoji, or a custom emoji of this server');
  if (body.requiredRoleId && !services.gateway.role(guildId, body.requiredRoleId)) throw InvalidInput.field('requiredRoleId', 'is not a role of this server');
  await checkRoleHandouts(
    services,
    guildId,
    request,
    body.options.map((option, index) => ({ field: `options.${index}.roleId`, roleId: option.roleId, what: `The option ${option.label}` })),
  );
}

function storedFields(body: MenuPatch) {
  return {
    title: body.title,
    description: body.description ?? null,
    colour: body.colour,
    style: body.style,
    mode: body.mode,
    maxRoles: body.maxRoles ?? null,
    requiredRoleId: body.requiredRoleId ?? null,
    options: JSON.stringify(body.options.map((option) => ({ ...option, emoji: option.emoji ?? null, description: option.description ?? null }))),
  };
}

/** The guild's menus, oldest first. */
export async function listRoleMenus(services: Services, guildId: string): Promise<RoleMenuView[]> {
  const rows = await services.store.guild(guildId).RoleMenu.findAll({ order: [['id', 'ASC']] });
  return rows.map(viewOf);
}

/** Stores a menu and posts its message in the channel; nothing is kept when Discord refuses the message. */
export async function createRoleMenu(services: Services, guildId: string, body: MenuInput, request: RoleRequest): Promise<RoleMenuView> {
  const channel = channelProblem(services, guildId, body.channelId, ['send', 'embed']);
  if (channel) throw InvalidInput.field('channelId', problemText(channel));
  await checkMenu(services, guildId, body, request);
  const now = services.clock.now();
  const scope = services.store.guild(guildId).RoleMenu;
  const row = await scope.create({ channelId: body.channelId, messageId: null, ...storedFields(body), createdAt: now, updatedAt: now });
  try {
    const posted = await services.messenger.post(guildId, body.channelId, {
      embeds: [menuEmbed(row)],
      components: menuComponents(row.id, { style: row.style, mode: row.mode, maxRoles: row.maxRoles, options: optionsOf(row) }),
    });
    row.messageId = posted.id;
    await row.save();
  } catch (error) {
    await row.destroy();
    throw error;
  }
  return viewOf(row);
}

async function findMenu(services: Services, guildId: string, id: number): Promise<RoleMenu> {
  const row = await services.store.guild(guildId).RoleMenu.findOne({ where: { id } });
  if (!row) throw new NotFound('That role menu no longer exists.');
  return row;
}

/** The posted message's channel, as discord.js holds it. */
function liveChannel(services: Services, guildId: string, channelId: string) {
  const channel = services.gateway.client?.guilds.cache.get(guildId)?.channels.cache.get(channelId);
  if (!channel?.isTextBased()) throw new DiscordRefused(RESTJSONErrorCodes.UnknownChannel, "The menu's channel no longer exists.");
  return channel;
}

/** Changes a menu and edits its message in place (the message keeps its id). */
export async function updateRoleMenu(services: Services, guildId: string, id: number, body: MenuPatch, request: RoleRequest): Promise<RoleMenuView> {
  const row = await findMenu(services, guildId, id);
  await checkMenu(services, guildId, body, request);
  const next = { ...storedFields(body) };
  if (row.messageId) {
    const channel = liveChannel(services, guildId, row.channelId);
    const messageId = row.messageId;
    const payload = await services.messenger.prepare(guildId, {
      embeds: [menuEmbed(next)],
      components: menuComponents(row.id, { ...next, options: body.options }),
    });
    await askDiscord(
      () => channel.messages.edit(messageId, { embeds: payload.embeds ?? [], components: payload.components ?? [], allowedMentions: payload.allowedMentions }),
      'The bot',
    );
  }
  row.set({ ...next, updatedAt: services.clock.now() });
  await row.save();
  return viewOf(row);
}

/** Deletes a menu and its message (a message already gone is fine). */
export async function deleteRoleMenu(services: Services, guildId: string, id: number): Promise<void> {
  const row = await findMenu(services, guildId, id);
  if (row.messageId) {
    const channel = services.gateway.client?.guilds.cache.get(guildId)?.channels.cache.get(row.channelId);
    if (channel?.isTextBased()) await channel.messages.delete(row.messageId).catch(() => undefined);
  }
  await row.destroy();
}
