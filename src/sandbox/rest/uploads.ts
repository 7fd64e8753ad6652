// A bot's files on a new message, read as Discord reads them: each entry of the payload's
// `attachments` names a `files[n]` part by its `id`; a part no entry names is still posted (Discord
// attaches every `files[n]`). At most 10 files, 25 MiB together, names of 1-255 characters without a
// path, and Attach Files in the channel (50013), else nothing is posted.
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE, type NewAttachment } from '../attachments';
import { DiscordApiError, invalidFormBody, missingPermissions } from '../errors';
import type { UploadedFile } from '../multipart';
import { channelPermissions, hasPermission } from '../permissions';
import type { ChannelRecord, GuildRecord } from '../types';
import type { World } from '../world';

/** The `attachments` of a message body: which file part each is, and its name. */
const attachmentsSchema = z
  .array(z.looseObject({ id: z.union([z.string(), z.number()]), filename: z.string().nullish(), description: z.string().max(1024).nullish() }))
  .nullish();

/** The files a bot sends with a message, checked; none when the body carries no file parts. */
export function uploadedAttachments(world: World, guild: GuildRecord, channel: ChannelRecord, body: unknown, files: UploadedFile[] = []): NewAttachment[] {
  if (files.length === 0) return [];
  const listed = attachmentsSchema.safeParse((body as { attachments?: unknown } | null)?.attachments);
  const entries = listed.success ? (listed.data ?? []) : [];
  if (files.length > MAX_ATTACHMENTS_PER_MESSAGE)
    throw invalidFormBody({ files: { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_ATTACHMENTS_PER_MESSAGE} or fewer in length.` } });
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (total > MAX_ATTACHMENT_BYTES) throw new DiscordApiError(413, 40005, 'Request entity too large');
  if (!hasPermission(channelPermissions(guild, channel, world.botUserId), P.AttachFiles)) throw missingPermissions();
  return files.map((file, index) => {
    const key = /^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index);
    const entry = entries.find((candidate) => String(candidate.id) === key);
    const filename = entry?.filename ?? file.filename;
    if (filename.length < 1 || filename.length > 255 || /[/\\]/.test(filename))
      throw invalidFormBody({ [`attachments.${index}.filename`]: { code: 'BASE_TYPE_BAD', message: 'Invalid file name.' } });
    return { filename, bytes: file.bytes, ...(file.contentType && file.contentType !== 'application/octet-stream' ? { contentType: file.contentType } : {}) };
  });
}
