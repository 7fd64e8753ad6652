// The Music page's player controls: the player as it is, and pause, resume, skip, stop, volume,
// loop, shuffle, reorder, remove and queue-from-the-page. Each answers the player afterwards. The
// dashboard's admins act as DJs, from no voice channel (control.ts).
import * as z from 'zod';
import type { Account } from '../../db/models/account';
import { guildRoute, type RouteSpec } from '../../http/route';
import { LoopInput, QueueAddInput, QueueMoveInput, VolumeInput } from '../../shared/music-player';
import * as control from './control';
import { resolveRow } from './sources';

/** The signed-in admin as a player actor: a DJ, in no voice channel. */
const dashboardActor = (account: Account): control.MusicActor => ({ id: account.userId, name: account.username, dj: true });

const EntryParams = z.object({ entryId: z.string().min(1).max(40) });

/** A POST that acts on the player and answers it. */
function act(
  path: string,
  run: (services: Parameters<typeof control.playerView>[0], guildId: string, actor: control.MusicActor) => Promise<unknown>,
): RouteSpec {
  return guildRoute({
    method: 'post',
    path,
    example: {},
    handler: async ({ guild, account, services }) => {
      await run(services, guild.id, dashboardActor(account));
      return control.playerView(services, guild.id);
    },
  });
}

export const playerRoutes: RouteSpec[] = [
  guildRoute({ method: 'get', path: '/music/player', example: {}, handler: ({ guild, services }) => control.playerView(services, guild.id) }),
  act('/music/player/pause', control.pause),
  act('/music/player/resume', control.resume),
  act('/music/player/skip', control.skip),
  act('/music/player/stop', control.stop),
  act('/music/player/shuffle', control.shuffle),
  guildRoute({
    method: 'put',
    path: '/music/player/volume',
    body: VolumeInput,
    example: { body: { volume: 60 } },
    handler: async ({ body, guild, account, services }) => {
      await control.setVolume(services, guild.id, dashboardActor(account), body.volume);
      return control.playerView(services, guild.id);
    },
  }),
  guildRoute({
    method: 'put',
    path: '/music/player/loop',
    body: LoopInput,
    example: { body: { mode: 'queue' } },
    handler: async ({ body, guild, account, services }) => {
      await control.setLoop(services, guild.id, dashboardActor(account), body.mode);
      return control.playerView(services, guild.id);
    },
  }),
  guildRoute({
    method: 'post',
    path: '/music/queue',
    body: QueueAddInput,
    example: { body: { trackId: ':trackId' } },
    handler: async ({ body, guild, account, services }) => {
      const actor = dashboardActor(account);
      await control.requireEnabled(services, guild.id);
      const track = await resolveRow(services, guild.id, body, actor);
      await control.enqueue(services, guild.id, actor, track, { channelId: body.channelId ?? null });
      return control.playerView(services, guild.id);
    },
  }),
  guildRoute({
    method: 'post',
    path: '/music/queue/move',
    body: QueueMoveInput,
    example: { body: { entryId: ':entryId', to: 2 } },
    handler: async ({ body, guild, account, services }) => {
      await control.moveTrack(services, guild.id, dashboardActor(account), body.entryId, body.to);
      return control.playerView(services, guild.id);
    },
  }),
  guildRoute({
    method: 'delete',
    path: '/music/queue/:entryId',
    example: {},
    handler: async ({ params, guild, account, services }) => {
      await control.removeTrack(services, guild.id, dashboardActor(account), { entryId: EntryParams.parse(params).entryId });
      return control.playerView(services, guild.id);
    },
  }),
];
