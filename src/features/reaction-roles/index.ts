import { Events } from 'discord.js';
import * as z from 'zod';
import { rowId } from '../../shared/fields';
import { listener, type Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { guildRoute } from '../../http/route';
import type { Diagnostic } from '../../shared/diagnostics';
import { ReactionRoleInput, ReactionRolePatch, RecentMessagesQuery, type ReactionRoleStats, type ReactionRoleView } from '../../shared/reaction-roles';
import { channelProblem, handoutProblem } from '../../core/checks';
import { actorOf } from '../../core/actor';
import {
  addReactionRole,
  catchUpReactionRoles,
  deactivate,
  deleteReactionRole,
  handleReaction,
  INACTIVE_REASONS,
  listReactionRoles,
  reactionRoleStats,
  recentMessages,
  updateReactionRole,
} from './service';
import { reactionRoleState } from './state';

const EntryParams = z.object({ id: rowId('must be a reaction role id') });

const onReactionAdd = listener(Events.MessageReactionAdd, 'ReactionRoleAdd', async (services, reaction, user) => {
  if (!user.bot) await handleReaction(services, reaction, user.id, true);
});
const onReactionRemove = listener(Events.MessageReactionRemove, 'ReactionRoleRemove', async (services, reaction, user) => {
  if (!user.bot) await handleReaction(services, reaction, user.id, false);
});

/** Entries whose message, channel or role is deleted in Discord stop, with the reason shown on the page. */
const onMessageDelete = listener(Events.MessageDelete, 'ReactionRoleMessageDeleted', async (services, message) => {
  if (message.guildId && reactionRoleState.of(services).index.has(message.guildId, message.id))
    await deactivate(services, message.guildId, { messageId: [message.id] }, INACTIVE_REASONS.messageDeleted);
});
const onBulkDelete = listener(Events.MessageBulkDelete, 'ReactionRoleMessagesDeleted', async (services, messages, channel) => {
  const ids = [...messages.keys()].filter((id) => reactionRoleState.of(services).index.has(channel.guildId, id));
  if (ids.length > 0) await deactivate(services, channel.guildId, { messageId: ids }, INACTIVE_REASONS.messageDeleted);
});
const onChannelDelete = listener(Events.ChannelDelete, 'ReactionRoleChannelDeleted', async (services, channel) => {
  if ('guildId' in channel && channel.guildId) await deactivate(services, channel.guildId, { channelId: channel.id }, INACTIVE_REASONS.channelDeleted);
});
const onRoleDelete = listener(Events.GuildRoleDelete, 'ReactionRoleRoleDeleted', async (services, role) => {
  await deactivate(services, role.guild.id, { roleId: role.id }, INACTIVE_REASONS.roleDeleted);
});

/** What stops the active entries from working now. */
async function diagnoseReactionRoles(services: Services, guildId: string): Promise<Diagnostic[]> {
  const entries = await listReactionRoles(services, guildId);
  const items: Diagnostic[] = [];
  const seenChannels = new Set<string>();
  for (const entry of entries) {
    const subject = `reactionRole:${entry.id}`;
    if (!entry.isActive) {
      if (entry.inactiveReason)
        items.push({
          feature: 'reactionRoles',
          severity: 'error',
          problem: `${entry.emoji} → @${entry.roleName ?? entry.roleId} stopped: ${entry.inactiveReason}`,
          fix: 'Delete it, or add it again on a message that exists.',
          subject,
        });
      continue;
    }
    if (!seenChannels.has(entry.channelId)) {
      seenChannels.add(entry.channelId);
      const channel = channelProblem(services, guildId, entry.channelId, ['react', 'readHistory']);
      if (channel)
        items.push({
          feature: 'reactionRoles',
          severity: 'error',
          problem: `Reaction roles in ${entry.channelName ? `#${entry.channelName}` : 'a channel'}: ${channel.problem}`,
          fix: channel.fix,
          subject: `channel:${entry.channelId}`,
        });
    }
    const role = handoutProblem(services, guildId, entry.roleId);
    if (role)
      items.push({
        feature: 'reactionRoles',
        severity: role.severity,
        problem: `${entry.emoji} → @${entry.roleName ?? entry.roleId}: ${role.problem}`,
        fix: role.fix,
        subject,
      });
  }
  return items;
}

/** Reaction roles: stored, enforced by the bot in four modes, kept honest when Discord changes, counted. */
export const reactionRolesFeature: Feature = {
  name: 'reaction-roles',
  listeners: [onReactionAdd, onReactionRemove, onMessageDelete, onBulkDelete, onChannelDelete, onRoleDelete],
  /** Reactions added while the bot was not listening are honoured. */
  catchUp: catchUpReactionRoles,
  diagnose: diagnoseReactionRoles,
  state: reactionRoleState,
  start: (services) => reactionRoleState.of(services).index.load(services),
  routes: [
    guildRoute({
      method: 'get',
      path: '/reaction-roles',
      example: {},
      handler: ({ guild, services }): Promise<ReactionRoleView[]> => listReactionRoles(services, guild.id),
    }),
    guildRoute({
      method: 'get',
      path: '/reaction-roles/stats',
      example: {},
      handler: ({ guild, services }): Promise<ReactionRoleStats> => reactionRoleStats(services, guild.id),
    }),
    guildRoute({
      method: 'get',
      path: '/reaction-roles/messages',
      query: RecentMessagesQuery,
      example: {
        query: { channelId: ':channelId' },
      },
      handler: ({ query, guild, services }) => recentMessages(services, guild.id, query.channelId),
    }),
    guildRoute({
      method: 'post',
      path: '/reaction-roles',
      body: ReactionRoleInput,
      example: {
        body: { messageId: ':messageId', channelId: ':channelId', emoji: '👍', roleId: ':roleId' },
      },
      handler: ({ body, guild, account, services }) => addReactionRole(services, guild, body, { actorId: account.userId, confirmed: body.confirmRoleIds }),
    }),
    guildRoute({
      method: 'patch',
      path: '/reaction-roles/:id',
      body: ReactionRolePatch,
      example: { body: { mode: 'unique' } },
      handler: ({ body, params, guild, account, services }) =>
        updateReactionRole(services, guild, EntryParams.parse(params).id, body, {
          request: { actorId: account.userId, confirmed: body.confirmRoleIds },
          actor: actorOf(account),
          baseVersion: body.baseVersion,
        }),
    }),
    guildRoute({
      method: 'delete',
      path: '/reaction-roles/:id',
      example: {},
      handler: async ({ params, guild, services }) => {
        await deleteReactionRole(services, guild, EntryParams.parse(params).id);
      },
    }),
  ],
};
