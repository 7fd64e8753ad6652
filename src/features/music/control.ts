// What members and admins do with a server's player, one function each for the slash and text
// commands and the Music page: queue, pause, resume, skip (a vote unless DJ), stop, volume, loop,
// shuffle, remove, reorder, leave, and the player as the page shows it. Members act from the
// bot's voice channel; DJs (the DJ role, or Manage Server) and the dashboard's admins manage it.
import { PermissionFlagsBits, type GuildMember } from 'discord.js';
import { Conflict, DiscordRefused, FeatureDisabled, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { FEATURE_SWITCHES } from '../../shared/bot-settings';
import type { LoopMode, PlayerTrack, PlayerView } from '../../shared/music-player';
import type { GuildSettings } from '../../shared/settings';
import type { GuildPlayer } from './player';
import { listenersIn, queueLimits } from './players';
import { skipVotesNeeded, type QueuedTrack } from './queue';
import { musicState } from './state';

/** Who acts: a member in Discord (with the voice channel they are in), or an admin on the dashboard. */
export interface MusicActor {
  id: string;
  name: string;
  /** May manage the player without a vote. */
  dj: boolean;
  /** The voice channel the member is in; undefined for the dashboard, which acts from no channel. */
  voiceChannelId?: string | null;
}

/** Whether a member is a DJ: the server's DJ role, or Manage Server (admins). */
export function isDj(member: Pick<GuildMember, 'permissions' | 'roles'>, settings: Pick<GuildSettings, 'musicDjRoleId'>): boolean {
  if (member.permissions.has(PermissionFlagsBits.ManageGuild)) return true;
  return settings.musicDjRoleId !== null && member.roles.cache.has(settings.musicDjRoleId);
}

/** A Discord member as an actor. */
export async function memberActor(services: Services, guildId: string, member: GuildMember): Promise<MusicActor> {
  const settings = await services.settings.get(guildId);
  return { id: member.id, name: member.displayName, dj: isDj(member, settings), voiceChannelId: member.voice.channelId };
}

const players = (services: Services) => musicState.of(services).players;
const guildOf = (services: Services, guildId: string) => services.gateway.client?.guilds.cache.get(guildId);

/** Refuses when the server turned music off. */
export async function requireEnabled(services: Services, guildId: string): Promise<GuildSettings> {
  const settings = await services.settings.get(guildId);
  if (!settings.musicEnabled) throw new FeatureDisabled(FEATURE_SWITCHES.music.off);
  return settings;
}

/** The player that plays now, or why there is none. */
function playing(services: Services, guildId: string): GuildPlayer {
  const player = players(services).get(guildId);
  if (!player?.channelId || !player.queue.current) throw new NotFound('Nothing is playing in this server right now. Start something with /play.');
  return player;
}

/** A member must be in the bot's voice channel to act on what it plays. */
function requireListening(player: GuildPlayer, actor: MusicActor): void {
  if (actor.voiceChannelId === undefined) return;
  if (actor.voiceChannelId !== player.channelId) throw new Forbidden(`Join <#${player.channelId}>, where the bot is playing, to control the music.`);
}

/** A DJ, or the only one listening, may manage the player. */
function requireManager(services: Services, player: GuildPlayer, actor: MusicActor, what: string): void {
  requireListening(player, actor);
  if (actor.dj) return;
  const listeners = listenersIn(guildOf(services, player.guildId), player.channelId);
  if (listeners.length === 1 && listeners[0] === actor.id) return;
  throw new Forbidden(`Only a DJ can ${what} while others are listening. Ask someone with the DJ role, or an admin.`);
}

/** Checks the bot may join and speak in a voice channel; the refusal says what to fix. */
function requireVoiceChannel(services: Services, guildId: string, channelId: string): void {
  const guild = guildOf(services, guildId);
  const channel = guild?.channels.cache.get(channelId);
  if (!guild || !channel) throw InvalidInput.field('channelId', 'is not a channel of this server', 'That voice channel is not in this server.');
  if (!channel.isVoiceBased()) throw InvalidInput.field('channelId', 'is not a voice channel', `#${channel.name} is not a voice channel.`);
  const me = guild.members.me;
  const rights = me ? channel.permissionsFor(me) : null;
  if (!rights?.has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.Connect, PermissionFlagsBits.Speak])) {
    throw new DiscordRefused(50013, `The bot cannot play in #${channel.name}: give its role View Channel, Connect and Speak there.`);
  }
  if (channel.full && !rights.has(PermissionFlagsBits.MoveMembers)) throw new DiscordRefused(0, `#${channel.name} is full, so the bot cannot join it.`);
}

/** What queuing answered: where the track went, and in which channel it plays. */
export interface Queued {
  track: QueuedTrack;
  /** 0: playing now. */
  position: number;
  channelId: string;
}

/**
 * Queues a track, joining the member's voice channel (or, from the dashboard, `channelId`) when the
 * bot plays nowhere yet. `textChannelId`: where the player's notes go from now on.
 */
export async function enqueue(
  services: Services,
  guildId: string,
  actor: MusicActor,
  track: QueuedTrack,
  where: { textChannelId?: string | null; channelId?: string | null; replace?: boolean } = {},
): Promise<Queued> {
  const settings = await requireEnabled(services, guildId);
  const existing = players(services).get(guildId);
  const busy = existing?.channelId && existing.queue.current ? existing.channelId : null;
  let channelId: string;
  if (busy) {
    requireListening(existing as GuildPlayer, actor);
    channelId = busy;
  } else if (actor.voiceChannelId !== undefined) {
    if (!actor.voiceChannelId) throw new Conflict('Join a voice channel first, then ask again: the bot plays in the channel you are in.');
    channelId = actor.voiceChannelId;
  } else {
    channelId = where.channelId ?? existing?.channelId ?? '';
    if (!channelId) throw InvalidInput.field('channelId', 'is required while the bot plays nowhere', 'Pick the voice channel the bot should play in.');
  }
  requireVoiceChannel(services, guildId, channelId);
  if (where.replace && existing?.queue.current) requireManager(services, existing, actor, 'replace what plays');
  const player = await players(services).obtain(guildId);
  return player.serial(async () => {
    player.queue.setLimits(queueLimits(settings));
    await player.connect(channelId);
    if (where.textChannelId) player.textChannelId = where.textChannelId;
    if (where.replace) player.stop();
    let position: number;
    try {
      ({ position } = player.queue.add(track, { userId: actor.id, dj: actor.dj }));
    } catch (error) {
      if (!player.queue.current) player.leave();
      throw error;
    }
    if (position === 0) await player.playCurrent();
    else services.logger.debug({ guildId, position }, 'music: queued');
    return { track, position, channelId };
  });
}

export async function pause(services: Services, guildId: string, actor: MusicActor): Promise<void> {
  const player = playing(services, guildId);
  requireManager(services, player, actor, 'pause');
  if (player.paused) throw new Conflict('The music is paused already. Use /resume to go on.');
  await player.serial(() => player.pause());
}

export async function resume(services: Services, guildId: string, actor: MusicActor): Promise<void> {
  const player = playing(services, guildId);
  requireManager(services, player, actor, 'resume');
  if (!player.paused) throw new Conflict('The music is playing already.');
  await player.serial(() => player.resume());
}

/** What a skip did: skipped (and what plays next), or counted a vote. */
export type SkipResult = { skipped: QueuedTrack; next: QueuedTrack | null } | { votes: number; needed: number; title: string };

/** Skips now for a DJ (or the only listener); otherwise counts the member's vote. */
export async function skip(services: Services, guildId: string, actor: MusicActor): Promise<SkipResult> {
  const settings = await services.settings.get(guildId);
  const player = playing(services, guildId);
  requireListening(player, actor);
  const listeners = listenersIn(guildOf(services, guildId), player.channelId);
  return player.serial(async () => {
    const current = player.queue.current;
    if (!current) throw new NotFound('Nothing is playing in this server right now.');
    const needed = skipVotesNeeded(Math.max(1, listeners.length), settings.musicVoteSkipRatio);
    if (!actor.dj) {
      player.skipVotes.add(actor.id);
      const votes = [...player.skipVotes].filter((id) => listeners.includes(id)).length;
      if (votes < needed) return { votes, needed, title: current.title };
    }
    const next = await player.skip();
    return { skipped: current, next };
  });
}

/** Empties the queue and stops; the bot stays until it is alone or told to leave. */
export async function stop(services: Services, guildId: string, actor: MusicActor): Promise<void> {
  const player = playing(services, guildId);
  requireManager(services, player, actor, 'stop the music');
  await player.serial(() => player.stop());
}

export async function setVolume(services: Services, guildId: string, actor: MusicActor, percent: number): Promise<void> {
  const player = playing(services, guildId);
  requireManager(services, player, actor, 'change the volume');
  await player.serial(() => player.setVolume(percent));
}

export async function setLoop(services: Services, guildId: string, actor: MusicActor, mode: LoopMode): Promise<void> {
  const player = playing(services, guildId);
  requireManager(services, player, actor, 'change the loop mode');
  await player.serial(() => {
    player.queue.loop = mode;
  });
}

export async function shuffle(services: Services, guildId: string, actor: MusicActor): Promise<number> {
  const player = playing(services, guildId);
  requireManager(services, player, actor, 'shuffle the queue');
  return player.serial(() => {
    if (player.queue.next.length < 2) throw new Conflict('There is nothing to shuffle: fewer than two tracks are waiting.');
    player.queue.shuffle();
    return player.queue.next.length;
  });
}

/** Removes a waiting track by its place (1 = next) or its entry id; members remove their own. */
export async function removeTrack(
  services: Services,
  guildId: string,
  actor: MusicActor,
  which: { position?: number; entryId?: string },
): Promise<QueuedTrack> {
  const player = playing(services, guildId);
  requireListening(player, actor);
  return player.serial(() => {
    const position = which.entryId !== undefined ? player.queue.positionOf(which.entryId) : (which.position ?? 0);
    return player.queue.remove(position, { userId: actor.id, dj: actor.dj });
  });
}

/** Moves a waiting track (by entry id) to a new place: DJs and the dashboard. */
export async function moveTrack(services: Services, guildId: string, actor: MusicActor, entryId: string, to: number): Promise<void> {
  const player = playing(services, guildId);
  requireListening(player, actor);
  await player.serial(() => player.queue.move(player.queue.positionOf(entryId), to, { userId: actor.id, dj: actor.dj }));
}

/** Leaves the voice channel, emptying the queue. */
export async function leave(services: Services, guildId: string, actor: MusicActor): Promise<string> {
  const player = players(services).get(guildId);
  if (!player?.channelId) throw new NotFound('The bot is not in a voice channel in this server.');
  const channelId = player.channelId;
  if (player.queue.current) requireManager(services, player, actor, 'make the bot leave');
  else requireListening(player, actor);
  await player.serial(() => player.leave());
  return channelId;
}

/** A queued track as the page shows it. */
function trackView(track: QueuedTrack): PlayerTrack {
  return {
    id: track.id,
    title: track.title,
    kind: track.source.kind,
    durationSeconds: track.durationSeconds,
    requestedBy: { id: track.requestedBy, name: track.requestedByName },
  };
}

/** The server's player as the Music page shows it. */
export async function playerView(services: Services, guildId: string): Promise<PlayerView> {
  const settings = await services.settings.get(guildId);
  const player = players(services).get(guildId);
  const current = player?.current ?? null;
  const channel = player?.channelId ? services.gateway.channel(guildId, player.channelId) : null;
  return {
    status: player ? player.status : 'idle',
    channel: channel && player?.channelId ? { id: player.channelId, name: channel.name } : null,
    current: current ? trackView(current.track) : null,
    positionSeconds: current ? Math.round(current.positionSeconds * 10) / 10 : 0,
    at: services.clock.now().toISOString(),
    volume: player?.volume ?? settings.musicDefaultVolume,
    loop: player?.queue.loop ?? 'off',
    queue: player ? player.queue.next.map(trackView) : [],
    enabled: settings.musicEnabled,
  };
}
