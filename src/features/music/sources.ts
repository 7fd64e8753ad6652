// What a member asks to play, found and opened: a title from the server's library, a saved
// station, a stream's address, or an audio file attached in chat. Refusals are sentences.
import { randomUUID } from 'node:crypto';
import { col, fn, Op, where } from 'sequelize';
import { InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { MUSIC_MESSAGES, refusedLink, sizeInWords } from '../../shared/music';
import { decode, type AudioInput, type SilenceHooks } from './audio-input';
import { trackPath } from './files';
import type { QueuedTrack, TrackSource } from './queue';
import { guardedGet, openStream, RemoteRefused } from './remote';
import { checkStreamUrl } from './stations';

/** Who asked for a track. */
export interface Requester {
  id: string;
  name: string;
}

/** A track for the queue, with a fresh entry id. */
function entry(title: string, source: TrackSource, durationSeconds: number | null, by: Requester): QueuedTrack {
  return { id: randomUUID(), title, source, durationSeconds, requestedBy: by.id, requestedByName: by.name };
}

/** A stream's title in the queue: its host and path, shortened. */
function streamTitle(url: string): string {
  const { host, pathname } = new URL(url);
  const title = `${host}${pathname === '/' ? '' : pathname}`;
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

/** Escapes LIKE's wildcards in what a member typed. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `lower(column) <op> value`, so a search ignores case on PostgreSQL as on SQLite. */
const lower = (column: string, op: typeof Op.eq | typeof Op.like, value: string) => where(fn('lower', col(column)), op, value);

/** The most suggestions Discord shows. */
const MAX_SUGGESTIONS = 25;

/**
 * What /play and /radio suggest while a member types: station names (and, for /play, library
 * titles) that contain the text, matched in the store, at most 25.
 */
export async function suggestNames(services: Services, guildId: string, typed: string, { tracks }: { tracks: boolean }): Promise<string[]> {
  const pattern = likePattern(typed.trim().toLowerCase());
  const data = services.store.guild(guildId);
  const stations = await data.MusicStation.findAll({ where: { nameKey: { [Op.like]: pattern } }, order: [['nameKey', 'ASC']], limit: MAX_SUGGESTIONS });
  const titles = tracks
    ? await data.MusicTrack.findAll({ where: { [Op.and]: [lower('title', Op.like, pattern)] }, order: [['id', 'DESC']], limit: MAX_SUGGESTIONS })
    : [];
  return [...new Set([...stations.map((row) => row.name), ...titles.map((row) => row.title)])].slice(0, MAX_SUGGESTIONS);
}

/**
 * What `/play query:` names: a YouTube or Spotify link is refused with why; any other http(s)
 * address is a stream (through the address guard); otherwise a saved station by its name, then a
 * library track by its title (exact, else the newest whose title or artist contains the words).
 */
export async function resolveQuery(services: Services, guildId: string, query: string, by: Requester): Promise<QueuedTrack> {
  const text = query.trim();
  if (!text) throw InvalidInput.field('query', 'is required', 'Say what to play: a library title, a station, or a stream’s web address.');
  const refused = refusedLink(text);
  if (refused) throw InvalidInput.field('query', refused, refused);
  if (/^https?:\/\//i.test(text)) {
    await checkStreamUrl(services, text, 'query');
    return entry(streamTitle(text), { kind: 'stream', url: text, stationName: null }, null, by);
  }
  const data = services.store.guild(guildId);
  const station = await data.MusicStation.findOne({ where: { nameKey: text.toLowerCase() } });
  if (station) return entry(station.name, { kind: 'stream', url: station.url, stationName: station.name }, null, by);
  const needle = text.toLowerCase();
  const exact = await data.MusicTrack.findOne({ where: { [Op.and]: [lower('title', Op.eq, needle)] }, order: [['id', 'DESC']] });
  const track =
    exact ??
    (await data.MusicTrack.findOne({
      where: { [Op.or]: [lower('title', Op.like, likePattern(needle)), lower('artist', Op.like, likePattern(needle))] },
      order: [['id', 'DESC']],
    }));
  if (!track) {
    throw new NotFound(
      `Nothing in this server’s library or stations matches “${text}”. An admin can upload it on the Music page, or give a stream’s web address.`,
    );
  }
  return entry(track.artist ? `${track.title} by ${track.artist}` : track.title, { kind: 'library', trackId: String(track.id) }, track.durationSeconds, by);
}

/** A saved station by name, for `/radio`. */
export async function resolveStation(services: Services, guildId: string, name: string, by: Requester): Promise<QueuedTrack> {
  const station = await services.store.guild(guildId).MusicStation.findOne({ where: { nameKey: name.trim().toLowerCase() } });
  if (!station) throw new NotFound(`No station named “${name.trim()}” is saved in this server. Admins save stations on the Music page.`);
  return entry(station.name, { kind: 'stream', url: station.url, stationName: station.name }, null, by);
}

/** A station or a library track by its row id (the dashboard's Play buttons). */
export async function resolveRow(services: Services, guildId: string, row: { trackId?: number; stationId?: number }, by: Requester): Promise<QueuedTrack> {
  const data = services.store.guild(guildId);
  if (row.stationId !== undefined) {
    const station = await data.MusicStation.findByPk(row.stationId);
    if (!station) throw new NotFound(MUSIC_MESSAGES.stationMissing);
    return entry(station.name, { kind: 'stream', url: station.url, stationName: station.name }, null, by);
  }
  const track = row.trackId === undefined ? null : await data.MusicTrack.findByPk(row.trackId);
  if (!track) throw new NotFound(MUSIC_MESSAGES.trackMissing);
  return entry(track.artist ? `${track.title} by ${track.artist}` : track.title, { kind: 'library', trackId: String(track.id) }, track.durationSeconds, by);
}

/** Hosts Discord serves attachments from. */
const DISCORD_CDN_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

/** An attached file as a command sees it. */
export interface AttachedFile {
  url: string;
  name: string;
  size: number;
  contentType: string | null;
}

/** Whether an attachment's address is Discord's (or, offline, the sandbox's on this machine). */
function attachmentTrusted(services: Services, url: URL): boolean {
  if (DISCORD_CDN_HOSTS.includes(url.hostname)) return url.protocol === 'https:';
  return services.config.mode === 'sandbox' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** An audio file attached to `/play file:` (or to a `!play` message), checked before it is queued. */
export function resolveAttachment(services: Services, file: AttachedFile, by: Requester): QueuedTrack {
  let url: URL;
  try {
    url = new URL(file.url);
  } catch {
    throw InvalidInput.field('file', 'is not a file Discord serves', 'That attachment has no address the bot can fetch.');
  }
  if (!attachmentTrusted(services, url)) throw InvalidInput.field('file', 'is not a file Discord serves', 'That attachment is not served by Discord.');
  const type = file.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const looksAudio = type.startsWith('audio/') || type === 'application/ogg' || /\.(mp3|ogg|oga|opus|flac|wav|m4a|aac)$/i.test(file.name);
  if (!looksAudio) throw InvalidInput.field('file', 'is not audio', `“${file.name}” is not an audio file. Attach an MP3, Ogg, Opus, FLAC, WAV or M4A file.`);
  const max = services.config.music.maxFileBytes;
  if (file.size > max)
    throw InvalidInput.field('file', 'is too large', `“${file.name}” is ${sizeInWords(file.size)}; the bot plays attachments up to ${sizeInWords(max)}.`);
  const title =
    file.name
      .replace(/\.[^.]+$/, '')
      .replace(/[_]+/g, ' ')
      .trim() || file.name;
  return entry(title, { kind: 'attachment', url: file.url, fileName: file.name }, null, by);
}

/**
 * Starts decoding a queued track `startSeconds` in. Throws RemoteRefused with the reason in words
 * when its source cannot be opened (a library file since deleted, a stream that does not answer).
 */
export async function openTrack(services: Services, guildId: string, track: QueuedTrack, startSeconds: number, hooks: SilenceHooks): Promise<AudioInput> {
  const ffmpeg = services.config.music.ffmpegPath;
  const { source } = track;
  if (source.kind === 'library') {
    const row = await services.store.guild(guildId).MusicTrack.findByPk(Number(source.trackId));
    if (!row) throw new RemoteRefused('it is no longer in the library');
    return decode(ffmpeg, { kind: 'file', path: trackPath(services, row) }, startSeconds, hooks);
  }
  const abort = new AbortController();
  const body =
    source.kind === 'stream'
      ? await openStream(source.url, services.config.allowPrivateWebhooks, abort.signal)
      : await guardedGet(source.url, services.config.mode === 'sandbox' || services.config.allowPrivateWebhooks, abort.signal);
  const input = decode(ffmpeg, { kind: 'bytes', body, live: source.kind === 'stream' }, startSeconds, hooks);
  return {
    ...input,
    stop() {
      abort.abort();
      input.stop();
    },
  };
}
