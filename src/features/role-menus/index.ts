// Role menus (issue 25, point 7): the dashboard's builder routes and the bot's click listener.
import * as z from 'zod';
import type { Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { channelProblem, handoutProblem } from '../../core/checks';
import type { Diagnostic } from '../../shared/diagnostics';
import { guildRoute } from '../../http/route';
import { rowId } from '../../shared/fields';
import { RoleMenuInput, RoleMenuPatch, type RoleMenuView } from '../../shared/role-menus';
import { roleMenuClick } from './click';
import { createRoleMenu, deleteRoleMenu, listRoleMenus, updateRoleMenu } from './service';

const MenuParams = z.object({ id: rowId('must be a role menu id') });

const EXAMPLE_MENU = {
  title: 'Pick your games',
  style: 'buttons',
  mode: 'normal',
  options: [{ roleId: ':roleId', label: 'Gamer', emoji: '🎮' }],
};

/** What stops a menu from working now: its channel, or a role the bot can no longer give (shown on the roles page). */
async function diagnoseRoleMenus(services: Services, guildId: string): Promise<Diagnostic[]> {
  const items: Diagnostic[] = [];
  for (const menu of await listRoleMenus(services, guildId)) {
    const subject = `roleMenu:${menu.id}`;
    const channel = channelProblem(services, guildId, menu.channelId, ['send', 'embed']);
    if (channel) items.push({ feature: 'reactionRoles', severity: 'error', problem: `Role menu ${menu.title}: ${channel.problem}`, fix: channel.fix, subject });
    for (const option of menu.options) {
      const role = handoutProblem(services, guildId, option.roleId);
      if (role)
        items.push({
          feature: 'reactionRoles',
          severity: role.severity,
          problem: `Role menu ${menu.title}, ${option.label}: ${role.problem}`,
          fix: role.fix,
          subject,
        });
    }
  }
  return items;
}

/** Role menus: posted, edited in place and deleted from the dashboard; clicks handled by the bot. */
export const roleMenusFeature: Feature = {
  name: 'role-menus',
  listeners: [roleMenuClick],
  diagnose: diagnoseRoleMenus,
  routes: [
    guildRoute({
      method: 'get',
      path: '/role-menus',
      example: {},
      handler: ({ guild, services }): Promise<RoleMenuView[]> => listRoleMenus(services, guild.id),
    }),
    guildRoute({
      method: 'post',
      path: '/role-menus',
      body: RoleMenuInput,
      example: { body: { channelId: ':channelId', ...EXAMPLE_MENU } },
      handler: ({ body, guild, account, services }) => createRoleMenu(services, guild.id, body, { actorId: account.userId, confirmed: body.confirmRoleIds }),
    }),
    guildRoute({
      method: 'patch',
      path: '/role-menus/:id',
      body: RoleMenuPatch,
      example: { body: EXAMPLE_MENU },
      handler: ({ body, params, guild, account, services }) =>
        updateRoleMenu(services, guild.id, MenuParams.parse(params).id, body, { actorId: account.userId, confirmed: body.confirmRoleIds }),
    }),
    guildRoute({
      method: 'delete',
      path: '/role-menus/:id',
      example: {},
      handler: async ({ params, guild, services }) => {
        await deleteRoleMenu(services, guild.id, MenuParams.parse(params).id);
      },
    }),
  ],
};
