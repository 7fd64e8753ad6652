// Music (issue 23): the server's library of uploaded audio files, saved internet radio stations,
// and the music settings slice. Playback (voice, queue, commands) comes later and reads these.
import * as z from 'zod';
import { decimal, optionalId, text, wholeNumber } from './fields';
import { baseVersion } from './versions';

/** The music settings (a slice of the guild's settings, saved and versioned with the others). */
export const MusicSettingsSchema = z.object({
  /** Members with this role may skip, stop and reorder without a vote; null: admins only. */
  musicDjRoleId: optionalId(),
  /** The share of listeners who must vote to skip a track (0.1 to 1). */
  musicVoteSkipRatio: decimal(0.1, 1),
  musicMaxQueueLength: wholeNumber(1, 500),
  musicPerMemberQueueLimit: wholeNumber(1, 100),
  /** Longer tracks are refused when queued (30 s to 24 h). */
  musicMaxTrackSeconds: wholeNumber(30, 86_400),
  /** Percent, 1 to 150. */
  musicDefaultVolume: wholeNumber(1, 150),
  /** Seconds the bot stays in a voice channel with no one else in it; 0 never leaves on its own. */
  musicLeaveWhenAloneSeconds: wholeNumber(0, 3600),
  /** A voice channel the bot plays the radio in around the clock; null: none. */
  musicRadioChannelId: optionalId(),
  /** The saved station played there around the clock; null: none (the bot then only never leaves that channel for being alone). */
  musicRadioStationId: z
    .number({ error: 'must be a saved station' })
    .int('must be a saved station')
    .min(1, 'must be a saved station')
    .max(2_147_483_647, 'must be a saved station')
    .nullable(),
  /** A text channel where "Now playing" is posted; null: not posted. */
  musicAnnounceChannelId: optionalId(),
});
export type MusicSettings = z.infer<typeof MusicSettingsSchema>;

/** The music settings' defaults. */
export const MUSIC_DEFAULTS: MusicSettings = {
  musicDjRoleId: null,
  musicVoteSkipRatio: 0.5,
  musicMaxQueueLength: 100,
  musicPerMemberQueueLimit: 10,
  musicMaxTrackSeconds: 3600,
  musicDefaultVolume: 80,
  musicLeaveWhenAloneSeconds: 60,
  musicRadioChannelId: null,
  musicRadioStationId: null,
  musicAnnounceChannelId: null,
};

/** The music settings' names on the Music page, for sentences and the history. */
export const MUSIC_SETTING_LABELS: Record<keyof MusicSettings, string> = {
  musicDjRoleId: 'DJ role',
  musicVoteSkipRatio: 'Vote-skip ratio',
  musicMaxQueueLength: 'Maximum queue length',
  musicPerMemberQueueLimit: 'Tracks per member in the queue',
  musicMaxTrackSeconds: 'Maximum track length',
  musicDefaultVolume: 'Default volume',
  musicLeaveWhenAloneSeconds: 'Leave when alone after',
  musicRadioChannelId: '24/7 radio channel',
  musicRadioStationId: '24/7 station',
  musicAnnounceChannelId: 'Now playing channel',
};

/** PUT /music/settings: any subset of the music settings, with the version the page loaded. */
export const MusicSettingsUpdateSchema = MusicSettingsSchema.partial().extend({ baseVersion: baseVersion() }).strict();
export type MusicSettingsUpdate = z.input<typeof MusicSettingsUpdateSchema>;

/** GET /music/settings: the music settings merged over the defaults, and the version to save over. */
export const MusicSettingsViewSchema = MusicSettingsSchema.extend({ version: z.number().int() });
export type MusicSettingsView = z.infer<typeof MusicSettingsViewSchema>;

/** The audio formats the library takes, as sniffed from the bytes. */
export const AUDIO_FORMATS = ['mp3', 'ogg', 'opus', 'flac', 'wav', 'm4a'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** The formats in words, for sentences. */
export const AUDIO_FORMATS_IN_WORDS = 'MP3, Ogg (Vorbis or Opus), FLAC, WAV or M4A';

/** The longest title, artist and album kept. */
export const TRACK_TEXT_MAX = 200;

/** One audio file of the server's library. */
export const LibraryTrackSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  durationSeconds: z.number(),
  format: z.enum(AUDIO_FORMATS),
  sizeBytes: z.number().int(),
  uploadedBy: z.object({ id: z.string(), name: z.string() }),
  uploadedAt: z.string(),
  /** Counts the edits: a page sends it back as `baseVersion` with its save. */
  version: z.number().int(),
});
export type LibraryTrack = z.infer<typeof LibraryTrackSchema>;

/** GET /music/library: every track, newest first, and how much of the server's quota they use. */
export const LibrarySchema = z.object({
  tracks: z.array(LibraryTrackSchema),
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
  /** The largest file one upload may be. */
  maxFileBytes: z.number().int(),
});
export type Library = z.infer<typeof LibrarySchema>;

/** POST /music/library?name=song.mp3: the file's name, for the title when its tags have none. */
export const UploadQuery = z.object({ name: z.string({ error: 'must be the file name' }).max(255, 'must be at most 255 characters').optional() }).strict();

/** PATCH /music/library/:trackId: the title and artist as the admin corrects them. */
export const LibraryTrackPatch = z
  .object({
    title: text(TRACK_TEXT_MAX).optional(),
    artist: z
      .string({ error: 'must be text' })
      .trim()
      .max(TRACK_TEXT_MAX, `must be at most ${TRACK_TEXT_MAX} characters`)
      .nullable()
      .transform((value) => (value ? value : null))
      .optional(),
    baseVersion: baseVersion(),
  })
  .strict();

/** The longest station name. */
export const STATION_NAME_MAX = 50;
/** The most stations one server keeps. */
export const MAX_STATIONS = 100;

/** A stream URL: http or https, up to 2000 characters. */
const streamUrl = () =>
  z
    .string({ error: 'must be a web address' })
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address of a stream or playlist' }));

/** An internet radio station saved by name. */
export const StationSchema = z.object({ id: z.number().int(), name: z.string(), url: z.string(), createdAt: z.string(), version: z.number().int() });
export type Station = z.infer<typeof StationSchema>;

/** POST /music/stations */
export const StationInput = z.object({ name: text(STATION_NAME_MAX), url: streamUrl() }).strict();
export type StationInput = z.input<typeof StationInput>;

/** PATCH /music/stations/:id */
export const StationPatch = z.object({ name: text(STATION_NAME_MAX).optional(), url: streamUrl().optional(), baseVersion: baseVersion() }).strict();

/** The user-facing sentences of the library and the stations. */
export const MUSIC_MESSAGES = {
  youtube:
    'YouTube links are not played: YouTube does not allow bots to stream its videos, and bots that do it anyway break every few months when ' +
    'YouTube changes its site. Upload the file to the library, or use an internet radio stream.',
  spotify:
    'Spotify links are not played: Spotify streams encrypted audio to its own apps only, so no bot can play it. Upload the file to the library, ' +
    'or use an internet radio stream.',
  notAudio: `That file is not audio the library takes; upload ${AUDIO_FORMATS_IN_WORDS}.`,
  empty: 'The file is empty.',
  unreadable: 'That file could not be read as audio; it may be damaged. Try exporting it again.',
  stationNameTaken: (name: string) => `A station named "${name}" exists already; pick another name.`,
  tooManyStations: `A server keeps at most ${MAX_STATIONS} stations; remove one first.`,
  trackMissing: 'That track is not in this server’s library.',
  stationMissing: 'That station is not saved in this server.',
} as const;

/** "1:05:09" or "3:07": a length or a position in seconds. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A track's length in words for the channel: "3:07", or "live" for a stream. */
export function trackLength(durationSeconds: number | null): string {
  return durationSeconds === null ? 'live' : formatDuration(durationSeconds);
}

/** "12.5 MB", "800 KB", "512 bytes": a size for sentences. */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Why a file is refused for its size: too large for one upload. */
export const fileTooLarge = (maxBytes: number) => `The file is larger than ${sizeInWords(maxBytes)}, the most one upload may be.`;

/** Why a file is refused for the server's quota. */
export const quotaExceeded = (usedBytes: number, quotaBytes: number, fileBytes: number) =>
  `The library uses ${sizeInWords(usedBytes)} of its ${sizeInWords(quotaBytes)}; this file needs ${sizeInWords(fileBytes)} more. ` +
  'Remove tracks to make room.';

/** Sites whose links are never played, each with the sentence that says why. */
const REFUSED_SITES = [
  { hosts: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'], message: MUSIC_MESSAGES.youtube },
  { hosts: ['spotify.com', 'spotify.link', 'spoti.fi'], message: MUSIC_MESSAGES.spotify },
] as const;

/**
 * Why a link is not played, when it is a YouTube (youtube.com and its subdomains such as
 * music.youtube.com, youtu.be) or Spotify link; null for any other address (or text that is none).
 */
export function refusedLink(address: string): string | null {
  let host: string;
  try {
    host = new URL(address.trim()).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  const site = REFUSED_SITES.find(({ hosts }) => hosts.some((name) => host === name || host.endsWith(`.${name}`)));
  return site?.message ?? null;
}
