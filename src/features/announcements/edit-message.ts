// Editing in place (issue 25, point 8): the message an announcement posted (for a recurring one,
// its latest) is PATCHed in Discord, so it keeps its id, its pins and its reactions; the row takes
// the new text too (a recurring one's later sends use it). Discord first, then the row: a message
// deleted in Discord, or one the bot can no longer see, is refused in words and nothing changes.
import { Conflict, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import { saveVersioned, type EditActor } from '../../db/versioned';
import { guildValueWords } from '../../core/value-words';
import { announcementEmbed, type AnnouncementPriority, type AnnouncementView } from '../../shared/announcements';
import { viewAnnouncement } from './service';

/** What can change in a sent message. */
export interface SentMessagePatch {
  title?: string | undefined;
  message?: string | undefined;
  priority?: AnnouncementPriority | undefined;
}

/** Edits the announcement's sent message in place, then records the new text on the announcement. */
export async function editSentMessage(
  services: Services,
  guild: GuildSummary,
  id: number,
  patch: SentMessagePatch,
  edit: { actor: EditActor; baseVersion?: number | undefined },
): Promise<AnnouncementView> {
  const row = await services.store.guild(guild.id).Announcement.findOne({ where: { id } });
  if (!row) throw new NotFound('That announcement does not exist in this server.');
  if (!row.messageId) throw new Conflict('That announcement has no message in Discord yet, so there is nothing to edit.');
  // Refused before Discord is touched: the person edits what they saw, or reopens it.
  if (edit.baseVersion !== undefined && edit.baseVersion < row.version) {
    throw new Conflict('That announcement was changed since you opened it. Reopen it to edit its message.');
  }
  const next = { title: patch.title ?? row.title, message: patch.message ?? row.message, priority: patch.priority ?? (row.priority as AnnouncementPriority) };
  await services.messenger.edit(guild.id, row.channelId, row.messageId, { embeds: [announcementEmbed(next)] });
  const values = Object.fromEntries(Object.entries(next).filter(([field]) => (patch as Record<string, unknown>)[field] !== undefined));
  const saved = await saveVersioned(services.store, {
    entity: 'announcement',
    row,
    values,
    actor: edit.actor,
    now: () => services.clock.now(),
    describe: guildValueWords(services, guild.id),
    alongside: { updatedAt: services.clock.now() },
  });
  await saved.update({ editedAt: services.clock.now() });
  return viewAnnouncement(services, saved);
}
