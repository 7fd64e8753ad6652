// The music settings: a slice of the guild's settings (src/shared/music.ts), saved through the
// settings' one write (versioned, checked, recorded in the history). GET/PUT /music/settings serve
// the slice alone for the Music page; PUT /settings takes the same fields.
import { execFile } from 'node:child_process';
import { channelProblem, problemText } from '../../core/checks';
import { InvalidInput } from '../../core/errors';
import type { Actor } from '../../core/actor';
import type { Services, SettingsEffect } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import { MUSIC_DEFAULTS, type MusicSettings, type MusicSettingsView } from '../../shared/music';
import type { GuildSettings } from '../../shared/settings';
import { writeSettings } from '../settings/public';
import { keepRadio } from './radio';
import { musicState, type FfmpegChecks } from './state';

/** The music settings' keys. */
export const MUSIC_KEYS = Object.keys(MUSIC_DEFAULTS) as (keyof MusicSettings)[];

/** The music slice of a guild's settings. */
function slice(settings: GuildSettings): MusicSettings {
  return Object.fromEntries(MUSIC_KEYS.map((key) => [key, settings[key]])) as MusicSettings;
}

/** The guild's music settings and the version to save over. */
export async function musicSettingsView(services: Services, guildId: string): Promise<MusicSettingsView> {
  const stored = await services.settings.stored(guildId);
  return { ...slice(stored.settings), version: stored.version };
}

/** Saves a subset of the music settings over the version the page loaded. */
export async function saveMusicSettings(
  services: Services,
  guild: GuildSummary,
  patch: Partial<MusicSettings>,
  edit: { actor: Actor; baseVersion?: number | undefined },
): Promise<MusicSettingsView> {
  await writeSettings(services, guild, patch, edit.actor, { kind: 'update', baseVersion: edit.baseVersion });
  return musicSettingsView(services, guild.id);
}

/**
 * The DJ role must be a role of the server, the radio channel a voice channel, the 24/7 station a
 * station saved in the server (with a radio channel to play it in), the announce channel a text
 * channel the bot can post embeds in. Saved, the bot starts the 24/7 station at once.
 */
export const musicIdsEffect: SettingsEffect = {
  keys: ['musicDjRoleId', 'musicRadioChannelId', 'musicRadioStationId', 'musicAnnounceChannelId'],
  async check(services, guild, next) {
    const fields: Record<string, string> = {};
    if (next.musicDjRoleId) {
      const role = services.gateway.role(guild.id, next.musicDjRoleId);
      if (!role) fields.musicDjRoleId = 'is not a role of this server. Pick another role.';
      else if (role.isEveryone) fields.musicDjRoleId = 'cannot be @everyone; leave it empty instead, or pick a role.';
    }
    if (next.musicRadioChannelId) {
      const channel = services.gateway.channel(guild.id, next.musicRadioChannelId);
      if (!channel) fields.musicRadioChannelId = 'is not a channel of this server. Pick another channel.';
      else if (channel.kind !== 'voice') fields.musicRadioChannelId = `#${channel.name} is not a voice channel. Pick a voice channel.`;
    }
    if (next.musicRadioStationId !== null) {
      if (!(await services.store.guild(guild.id).MusicStation.findByPk(next.musicRadioStationId))) {
        fields.musicRadioStationId = 'is not a station saved in this server. Pick one of its stations.';
      } else if (!next.musicRadioChannelId) {
        fields.musicRadioChannelId = 'is needed to play the 24/7 station: pick the voice channel to play it in.';
      }
    }
    if (next.musicAnnounceChannelId) {
      const problem = channelProblem(services, guild.id, next.musicAnnounceChannelId, ['send', 'embed']);
      if (problem) fields.musicAnnounceChannelId = problemText(problem);
    }
    if (Object.keys(fields).length > 0) throw new InvalidInput(fields);
  },
  async apply(services, guild, next) {
    // Not awaited: a join takes seconds, and the save does not wait on Discord's voice servers.
    void keepRadio(services, guild.id, { settings: next });
  },
};

/** How long an answer about ffmpeg is kept: an operator who installs it is believed within a minute. */
const FFMPEG_CHECK_TTL_MS = 60_000;

/** Whether `ffmpeg -version` runs (cached a minute per path). */
export function ffmpegAvailable(ffmpegChecks: FfmpegChecks, ffmpegPath: string, now = Date.now()): Promise<boolean> {
  const known = ffmpegChecks.get(ffmpegPath);
  if (known && now - known.at < FFMPEG_CHECK_TTL_MS) return known.ok;
  const ok = new Promise<boolean>((resolve) => {
    execFile(ffmpegPath, ['-hide_banner', '-version'], { timeout: 10_000 }, (error) => resolve(!error));
  });
  ffmpegChecks.set(ffmpegPath, { at: now, ok });
  return ok;
}

/** The sentence for music switched on where ffmpeg does not run. */
export const FFMPEG_MISSING =
  'Music needs ffmpeg, which is not installed on the bot’s host. Install it (on Debian or Ubuntu: apt-get install ffmpeg; the Docker image has it), ' +
  'or set FFMPEG_PATH to where it is, then turn music on again.';

/** Music switched on needs ffmpeg; switched off, the player of the server leaves its channel. */
export const musicSwitchEffect: SettingsEffect = {
  keys: ['musicEnabled'],
  async check(services, _guild, next) {
    if (next.musicEnabled && !(await ffmpegAvailable(musicState.of(services).ffmpegChecks, services.config.music.ffmpegPath)))
      throw InvalidInput.field('musicEnabled', FFMPEG_MISSING, FFMPEG_MISSING);
  },
  async apply(services, guild, next) {
    if (next.musicEnabled) return;
    const player = musicState.of(services).players.get(guild.id);
    if (player) await player.serial(() => player.leave());
  },
};
