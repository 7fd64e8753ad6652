import * as z from 'zod';
import type { Feature } from '../../core/feature';
import { actorOf } from '../../core/actor';
import { guildRoute } from '../../http/route';
import { rowId } from '../../shared/fields';
import { LibraryTrackPatch, MusicSettingsUpdateSchema, StationInput, StationPatch, UploadQuery } from '../../shared/music';
import { addTrack, editTrack, listLibrary, removeTrack, sweepIncoming } from './library';
import { musicCommands } from './commands';
import { keepAllRadios, keepRadio } from './radio';
import { playerRoutes } from './player-routes';
import { musicIdsEffect, musicSettingsView, musicSwitchEffect, saveMusicSettings } from './settings';
import { addStation, editStation, listStations, removeStation } from './stations';
import { musicState } from './state';

const TrackParams = z.object({ trackId: rowId('must be a track id') });
const StationParams = z.object({ id: rowId('must be a station id') });

/** A declared length, when the client sent one. */
function declaredLength(header: string): number | undefined {
  return /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * Music (issue 23): the library of uploaded audio files, saved radio stations, the music settings,
 * and playback in voice channels (players.ts) driven by the commands and the Music page.
 */
export const musicFeature: Feature = {
  name: 'music',
  state: musicState,
  // Uploads cut off by a crash leave temp files behind; an hour old, nothing is receiving them any more.
  // Measured against the files' own times (the file system's clock), not the product's clock.
  start: async (services) => {
    const removed = await sweepIncoming(services.config.music.dir, Date.now()).catch((error: unknown) => {
      services.logger.warn({ err: error }, 'music: could not clear unfinished uploads');
      return 0;
    });
    if (removed > 0) services.logger.info({ removed }, 'music: removed files of uploads a stop cut off');
    const { players } = musicState.of(services);
    players.everyMinute = () => keepAllRadios(services);
    players.start();
  },
  // What plays is saved, so the next start resumes it.
  stop: (services) => musicState.of(services).players.stop(),
  // After a restart (or a new gateway session) the bot rejoins its channel and resumes the queue, or starts the 24/7 station.
  catchUp: async (services, guild) => {
    await musicState.of(services).players.resume(guild);
    await keepRadio(services, guild.id);
  },
  settingsEffects: [musicIdsEffect, musicSwitchEffect],
  commands: musicCommands,
  routes: [
    ...playerRoutes,
    guildRoute({
      method: 'get',
      path: '/music/settings',
      example: {},
      handler: ({ guild, services }) => musicSettingsView(services, guild.id),
    }),
    guildRoute({
      method: 'put',
      path: '/music/settings',
      body: MusicSettingsUpdateSchema,
      example: { body: { musicVoteSkipRatio: 0.6 } },
      handler: ({ body, guild, account, services }) => {
        const { baseVersion, ...patch } = body;
        return saveMusicSettings(services, guild, patch, { actor: actorOf(account), baseVersion });
      },
    }),
    guildRoute({
      method: 'get',
      path: '/music/library',
      example: {},
      handler: ({ guild, services }) => listLibrary(services, guild.id),
    }),
    guildRoute({
      method: 'post',
      path: '/music/library',
      query: UploadQuery,
      rawBody: true,
      example: { query: { name: 'example.wav' }, upload: 'audio' },
      handler: ({ ctx, query, guild, account, services }) =>
        addTrack(services, guild.id, {
          body: ctx.req,
          declaredBytes: declaredLength(ctx.get('Content-Length')),
          fileName: query.name,
          uploader: actorOf(account),
        }),
    }),
    guildRoute({
      method: 'patch',
      path: '/music/library/:trackId',
      body: LibraryTrackPatch,
      example: { body: { title: 'Renamed' } },
      handler: ({ body, params, guild, account, services }) => {
        const { baseVersion, ...patch } = body;
        return editTrack(services, guild.id, TrackParams.parse(params).trackId, patch, { actor: actorOf(account), baseVersion });
      },
    }),
    guildRoute({
      method: 'delete',
      path: '/music/library/:trackId',
      example: {},
      handler: ({ params, guild, services }) => removeTrack(services, guild.id, TrackParams.parse(params).trackId),
    }),
    guildRoute({
      method: 'get',
      path: '/music/stations',
      example: {},
      handler: ({ guild, services }) => listStations(services, guild.id),
    }),
    guildRoute({
      method: 'post',
      path: '/music/stations',
      body: StationInput,
      example: { body: { name: 'Example FM', url: 'http://93.184.216.34/stream.mp3' } },
      handler: ({ body, guild, services }) => addStation(services, guild.id, body),
    }),
    guildRoute({
      method: 'patch',
      path: '/music/stations/:id',
      body: StationPatch,
      example: { body: { url: 'http://93.184.216.34/radio.pls' } },
      handler: ({ body, params, guild, account, services }) => {
        const { baseVersion, ...patch } = body;
        return editStation(services, guild.id, StationParams.parse(params).id, patch, { actor: actorOf(account), baseVersion });
      },
    }),
    guildRoute({
      method: 'delete',
      path: '/music/stations/:id',
      example: {},
      handler: ({ params, guild, services }) => removeStation(services, guild.id, StationParams.parse(params).id),
    }),
  ],
};
