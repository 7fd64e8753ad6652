import * as z from 'zod';
import { rowId } from '../../shared/fields';
import type { Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { guildRoute } from '../../http/route';
import { AnnouncementInput, AnnouncementMessageEdit, AnnouncementPatch, AnnouncementQuery, type AnnouncementPage } from '../../shared/announcements';
import type { Diagnostic } from '../../shared/diagnostics';
import { channelProblem } from '../../core/checks';
import { actorOf } from '../../core/actor';
import { cancelAnnouncement, createAnnouncement, listAnnouncements, updateAnnouncement } from './service';
import { announcementState } from './state';
import { editSentMessage } from './edit-message';

const EntryParams = z.object({ id: rowId('must be an announcement id') });

/** What stops scheduled announcements from going out. */
async function diagnoseAnnouncements(services: Services, guildId: string): Promise<Diagnostic[]> {
  const scheduled = await services.store.guild(guildId).Announcement.findAll({
    where: { status: 'scheduled' },
    attributes: ['id', 'title', 'channelId', 'mentionRoleId'],
  });
  const items: Diagnostic[] = [];
  for (const row of scheduled) {
    const channel = channelProblem(services, guildId, row.channelId, ['send', 'embed']);
    if (channel)
      items.push({
        feature: 'announcements',
        severity: 'error',
        problem: `Scheduled "${row.title}": ${channel.problem}`,
        fix: channel.fix,
        subject: `announcement:${row.id}`,
      });
    if (row.mentionRoleId && !services.gateway.role(guildId, row.mentionRoleId)) {
      items.push({
        feature: 'announcements',
        severity: 'error',
        problem: `Scheduled "${row.title}": the role to ping no longer exists.`,
        fix: 'Edit it and pick another role, or none.',
        subject: `announcement:${row.id}`,
      });
    }
  }
  return items;
}

/**
 * Announcements: Send Now, scheduled and repeating sends that survive restarts (claimed with a
 * lease), editing and cancelling, editing a sent message in place, and the real history.
 */
export const announcementsFeature: Feature = {
  name: 'announcements',
  diagnose: diagnoseAnnouncements,
  state: announcementState,
  start: (services) => announcementState.of(services).start(),
  stop: (services) => announcementState.of(services).stop(),
  routes: [
    guildRoute({
      method: 'get',
      path: '/announcements',
      query: AnnouncementQuery,
      example: { query: { page: '1' } },
      handler: ({ query, guild, services }): Promise<AnnouncementPage> => listAnnouncements(services, guild.id, query.page, query.pageSize),
    }),
    guildRoute({
      method: 'post',
      path: '/announcements',
      body: AnnouncementInput,
      example: {
        body: { title: 'Welcome week', message: 'Events all week', channelId: ':channelId', scheduleTime: ':scheduleTime' },
      },
      handler: ({ body, guild, account, services }) => createAnnouncement(services, guild, body, { userId: account.userId, name: account.username }),
    }),
    guildRoute({
      method: 'patch',
      path: '/announcements/:id',
      body: AnnouncementPatch,
      example: { body: { title: 'Game night (moved)' } },
      handler: ({ body, params, guild, account, services }) => {
        const { baseVersion, ...patch } = body;
        return updateAnnouncement(services, guild, EntryParams.parse(params).id, patch, { actor: actorOf(account), baseVersion });
      },
    }),
    guildRoute({
      method: 'patch',
      path: '/announcements/:id/message',
      body: AnnouncementMessageEdit,
      example: { body: { message: 'Events all week (updated)' } },
      handler: ({ body, params, guild, account, services }) => {
        const { baseVersion, ...patch } = body;
        return editSentMessage(services, guild, EntryParams.parse(params).id, patch, { actor: actorOf(account), baseVersion });
      },
    }),
    guildRoute({
      method: 'post',
      path: '/announcements/:id/cancel',
      example: {},
      handler: ({ params, guild, services }) => cancelAnnouncement(services, guild, EntryParams.parse(params).id),
    }),
  ],
};
