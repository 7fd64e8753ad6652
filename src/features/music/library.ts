// The server's music library: audio files an admin uploads in the dashboard. A file is streamed to
// a temporary file (the size limit enforced while it arrives), its type is sniffed from its bytes
// (file-type), its tags and duration are read (music-metadata), the server's quota is checked, and
// only then is it moved into place, named by its content hash (never by a name a person chose), and
// its row written. A failure at any step leaves neither a file nor a row behind.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import { Conflict, InvalidInput, NotFound, TooLarge, UnsupportedKind } from '../../core/errors';
import type { Actor } from '../../core/actor';
import type { Services } from '../../core/services';
import type { MusicTrack } from '../../db/models/music';
import { saveVersioned } from '../../db/versioned';
import { fileTooLarge, MUSIC_MESSAGES, quotaExceeded, TRACK_TEXT_MAX, type AudioFormat, type Library, type LibraryTrack } from '../../shared/music';
import { libraryRoot, trackPath } from './files';
import { musicState } from './state';

/** What an upload brings: the bytes as they arrive, and what the request said about them. */
export interface Upload {
  body: Readable;
  /** The Content-Length the client declared, when it did: a larger one is refused before reading. */
  declaredBytes?: number | undefined;
  /** The file's name on the person's computer: only for the title when the tags have none. */
  fileName?: string | undefined;
  uploader: Actor;
}

const tracks = (services: Services, guildId: string) => services.store.guild(guildId).MusicTrack;

/** How old a file in `.incoming` must be to be taken for a leftover: far longer than any upload takes. */
export const INCOMING_LEFTOVER_MS = 60 * 60 * 1000;

/**
 * Removes what uploads cut off by a crash left in `<dir>/.incoming` (each upload removes its own
 * temp file otherwise). Only files older than `olderThanMs`: another process sharing the folder
 * may be receiving one now. Answers how many were removed.
 */
export async function sweepIncoming(dir: string, now: number, olderThanMs = INCOMING_LEFTOVER_MS): Promise<number> {
  const incoming = path.join(path.resolve(dir), '.incoming');
  const names = await readdir(incoming).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let removed = 0;
  for (const name of names) {
    const file = path.join(incoming, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || now - info.mtimeMs < olderThanMs) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

/** A track as the dashboard lists it. */
export function viewTrack(row: MusicTrack): LibraryTrack {
  return {
    id: row.id,
    title: row.title,
    artist: row.artist,
    album: row.album,
    durationSeconds: row.durationSeconds,
    format: row.format as AudioFormat,
    sizeBytes: row.sizeBytes,
    uploadedBy: { id: row.uploadedById, name: row.uploadedByName },
    uploadedAt: row.createdAt.toISOString(),
    version: row.version,
  };
}

/** How many bytes a guild's library holds. */
async function usedBytes(services: Services, guildId: string): Promise<number> {
  const rows = await tracks(services, guildId).findAll({ attributes: ['sizeBytes'] });
  return rows.reduce((sum, row) => sum + row.sizeBytes, 0);
}

/** Every track of the guild's library, newest first, with what they use of the quota. */
export async function listLibrary(services: Services, guildId: string): Promise<Library> {
  const rows = await tracks(services, guildId).findAll({ order: [['id', 'DESC']] });
  return {
    tracks: rows.map(viewTrack),
    usedBytes: rows.reduce((sum, row) => sum + row.sizeBytes, 0),
    quotaBytes: services.config.music.quotaBytes,
    maxFileBytes: services.config.music.maxFileBytes,
  };
}

/** Streams the body to `file`, hashing it and refusing it once it passes `maxBytes`; returns its size and sha256. */
async function receive(body: Readable, file: string, maxBytes: number): Promise<{ bytes: number; hash: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(new TooLarge(fileTooLarge(maxBytes), 'file'));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(body, counter, createWriteStream(file, { flags: 'wx' }));
  return { bytes, hash: hash.digest('hex') };
}

/**
 * The library's format of a file, from its bytes: MP3, Ogg Vorbis or Opus, FLAC, WAV or an MPEG-4
 * audio file (M4A; an .mp4 is taken only when it holds no video, which music-metadata tells).
 */
async function sniff(file: string): Promise<{ format: AudioFormat; mp4: boolean } | null> {
  const type = await fileTypeFromFile(file);
  switch (type?.ext) {
    case 'mp3':
    case 'flac':
    case 'wav':
    case 'opus':
    case 'm4a':
      return { format: type.ext, mp4: type.ext === 'm4a' };
    case 'ogg':
    case 'oga':
      return { format: 'ogg', mp4: false };
    case 'mp4':
      return { format: 'm4a', mp4: true };
    default:
      return null;
  }
}

/** A tag's text, trimmed and cut to the column's length; null when empty. */
function tag(value: string | undefined): string | null {
  const trimmed = value?.replace(/\s+/g, ' ').trim() ?? '';
  return trimmed ? trimmed.slice(0, TRACK_TEXT_MAX) : null;
}

/** The title from a file name: its last path part without the extension ("My Song" from "C:\music\My Song.mp3"). */
export function titleFromFileName(fileName: string | undefined): string | null {
  const base = (fileName ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  return tag(stem);
}

/** The duration, tags and checked format of a received file, or the refusal in words. */
async function readAudio(
  file: string,
  fileName: string | undefined,
): Promise<{ format: AudioFormat; durationSeconds: number; title: string; artist: string | null; album: string | null }> {
  const sniffed = await sniff(file);
  if (!sniffed) throw new UnsupportedKind(MUSIC_MESSAGES.notAudio);
  let metadata;
  try {
    metadata = await parseFile(file, { duration: true, skipCovers: true });
  } catch {
    throw InvalidInput.field('file', MUSIC_MESSAGES.unreadable, MUSIC_MESSAGES.unreadable);
  }
  if (sniffed.mp4 && (metadata.format.hasVideo === true || metadata.format.hasAudio === false)) throw new UnsupportedKind(MUSIC_MESSAGES.notAudio);
  const duration = metadata.format.duration;
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0)
    throw InvalidInput.field('file', MUSIC_MESSAGES.unreadable, MUSIC_MESSAGES.unreadable);
  return {
    format: sniffed.format,
    durationSeconds: Math.round(duration * 1000) / 1000,
    title: tag(metadata.common.title) ?? titleFromFileName(fileName) ?? 'Untitled',
    artist: tag(metadata.common.artist),
    album: tag(metadata.common.album),
  };
}

/**
 * Adds an uploaded file to the guild's library (see the top of this file). Refusals: larger than
 * MUSIC_MAX_FILE_MB (413, before or while reading), empty (400), not audio the library takes (415),
 * unreadable (400), the same file already there (409), over the server's quota (413, saying what
 * is used and what the file needs).
 */
export async function addTrack(services: Services, guildId: string, upload: Upload): Promise<LibraryTrack> {
  const { maxFileBytes, quotaBytes } = services.config.music;
  if (upload.declaredBytes !== undefined && upload.declaredBytes > maxFileBytes) throw new TooLarge(fileTooLarge(maxFileBytes), 'file');
  const root = libraryRoot(services);
  const incoming = path.join(root, '.incoming');
  await mkdir(incoming, { recursive: true });
  const temp = path.join(incoming, randomUUID());
  try {
    const { bytes, hash } = await receive(upload.body, temp, maxFileBytes);
    if (bytes === 0) throw InvalidInput.field('file', MUSIC_MESSAGES.empty, MUSIC_MESSAGES.empty);
    const audio = await readAudio(temp, upload.fileName);
    return await musicState.of(services).library.run(guildId, async () => {
      const same = await tracks(services, guildId).findOne({ where: { contentHash: hash } });
      if (same) throw new Conflict(`That file is in the library already, as "${same.title}".`, 'file');
      const used = await usedBytes(services, guildId);
      if (used + bytes > quotaBytes) throw new TooLarge(quotaExceeded(used, quotaBytes, bytes), 'quota');
      const now = services.clock.now();
      const values = {
        contentHash: hash,
        ...audio,
        sizeBytes: bytes,
        uploadedById: upload.uploader.userId ?? '0',
        uploadedByName: upload.uploader.name,
        createdAt: now,
        updatedAt: now,
      };
      const final = trackPath(services, { guildId, contentHash: hash, format: audio.format });
      await mkdir(path.dirname(final), { recursive: true });
      await rename(temp, final);
      try {
        return viewTrack(await tracks(services, guildId).create(values));
      } catch (error) {
        await rm(final, { force: true });
        throw error;
      }
    });
  } finally {
    // Gone already when it was moved into place; otherwise nothing of a refused upload is kept.
    await rm(temp, { force: true });
  }
}

/** A track of this guild's library, or NotFound. */
async function findTrack(services: Services, guildId: string, id: number): Promise<MusicTrack> {
  const row = await tracks(services, guildId).findByPk(id);
  if (!row) throw new NotFound(MUSIC_MESSAGES.trackMissing);
  return row;
}

/** Corrects a track's title or artist (the tags are often wrong), over the version the page loaded. */
export async function editTrack(
  services: Services,
  guildId: string,
  id: number,
  patch: { title?: string | undefined; artist?: string | null | undefined },
  edit: { actor: Actor; baseVersion?: number | undefined },
): Promise<LibraryTrack> {
  const row = await findTrack(services, guildId, id);
  const values = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const saved = await saveVersioned(services.store, {
    entity: 'musicTrack',
    row,
    values,
    baseVersion: edit.baseVersion,
    actor: edit.actor,
    now: () => services.clock.now(),
    alongside: { updatedAt: services.clock.now() },
  });
  return viewTrack(saved);
}

/** Removes a track from the library, its file too. */
export async function removeTrack(services: Services, guildId: string, id: number): Promise<void> {
  await musicState.of(services).library.run(guildId, async () => {
    const row = await findTrack(services, guildId, id);
    const file = trackPath(services, row);
    await tracks(services, guildId).destroy({ where: { id: row.id } });
    // After the row: a file left by a failure here is only disk, never a track that cannot play.
    await rm(file, { force: true });
  });
}
