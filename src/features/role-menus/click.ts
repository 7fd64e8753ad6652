// A member's click on a role menu's button or pick in its select: the menu's mode decides what is
// given and taken; each change goes through changeRole (retried when Discord cannot take it now,
// recorded like every role grant); the answer is private and in words, pinging nobody.
import { Events, MessageFlags, type GuildMember } from 'discord.js';
import { listener } from '../../core/feature';
import type { Services } from '../../core/services';
import { failureText } from '../../bot/dispatch';
import { parseRoleMenuCustomId, roleMenuChange, type RoleMenuMode } from '../../shared/role-menus';
import { listInWords } from '../../core/role-rights';
import { changeRole } from '../role-grants/public';
import { optionsOf } from './service';

/** Applies a pick and says what changed. */
export async function applyRoleMenuPick(
  services: Services,
  member: GuildMember,
  menuId: number,
  picked: readonly string[],
  fromSelect: boolean,
): Promise<string> {
  const guildId = member.guild.id;
  const row = await services.store.guild(guildId).RoleMenu.findOne({ where: { id: menuId } });
  if (!row) return 'This role menu no longer exists.';
  const name = (roleId: string) => `@${member.guild.roles.cache.get(roleId)?.name ?? 'a deleted role'}`;
  if (row.requiredRoleId && !member.roles.cache.has(row.requiredRoleId)) return `You need the ${name(row.requiredRoleId).slice(1)} role to use this menu.`;
  const roleIds = optionsOf(row).map((option) => option.roleId);
  const held = new Set(member.roles.cache.keys());
  const change = roleMenuChange({ mode: row.mode as RoleMenuMode, maxRoles: row.maxRoles, roleIds }, held, picked, fromSelect);
  if (change.bound) return 'Your pick in this menu is final: it cannot be changed.';
  const given: string[] = [];
  const taken: string[] = [];
  const failed: string[] = [];
  const apply = async (roleId: string, action: 'add' | 'remove') => {
    const result = await changeRole(services, member, { roleId, action, source: 'roleMenu', sourceId: row.id, reason: `Role menu: ${row.title}` });
    if (result.status === 'failed') failed.push(name(roleId));
    else (action === 'add' ? given : taken).push(name(roleId));
  };
  for (const roleId of change.remove) await apply(roleId, 'remove');
  for (const roleId of change.add) await apply(roleId, 'add');
  const lines: string[] = [];
  if (given.length) lines.push(`You now have ${listInWords(given)}.`);
  if (taken.length) lines.push(`You no longer have ${listInWords(taken)}.`);
  if (change.limited) lines.push(`This menu gives at most ${row.maxRoles} of its roles; remove one first.`);
  if (failed.length) lines.push(`The bot could not change ${listInWords(failed)}; the server's admins have been told.`);
  return lines.length ? lines.join(' ') : 'Nothing changed: your roles already match.';
}

/** The listener for role menus' buttons and selects. */
export const roleMenuClick = listener(Events.InteractionCreate, 'RoleMenuClick', async (services, interaction) => {
  if (!(interaction.isButton() || interaction.isStringSelectMenu()) || !interaction.inCachedGuild()) return;
  const target = parseRoleMenuCustomId(interaction.customId);
  if (!target) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  try {
    const picked = interaction.isStringSelectMenu() ? interaction.values : target.roleId ? [target.roleId] : [];
    const content = await applyRoleMenuPick(services, interaction.member, target.menuId, picked, interaction.isStringSelectMenu());
    await interaction.editReply({ content, allowedMentions: { parse: [] } });
  } catch (error) {
    await interaction
      .editReply({ content: failureText(services, error, { button: interaction.customId }), allowedMentions: { parse: [] } })
      .catch(() => undefined);
  }
});
