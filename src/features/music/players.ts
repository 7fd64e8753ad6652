// Every server's player in this process: made on the first /play, found by the commands and the
// dashboard, saved as it changes (sessions.ts) so a restart resumes it, and watched once a second
// for a channel left without listeners. Notes go to the channel of the last /play (or the
// announce channel); "Now playing" goes to the announce channel when one is set.
import type { Guild } from 'discord.js';
import { PeriodicTask } from '../../core/periodic';
import type { Services } from '../../core/services';
import type { GuildSettings } from '../../shared/settings';
import { formatDuration, trackLength } from '../../shared/music';
import type { QueueLimits, QueuedTrack } from './queue';
import { GuildPlayer, type PlayerEvents } from './player';
import { deleteSession, loadSession, saveSession } from './sessions';
import { KeyedQueue } from '../../core/keyed-queue';

/** How often the players are looked at (real time; how long someone has been gone asks the clock). */
const TICK_MS = 1000;
/** Positions are saved this often while playing, so a crash resumes close to where it was. */
const SAVE_EVERY_TICKS = 5;

/** The queue limits of a server's settings. */
export function queueLimits(settings: GuildSettings): QueueLimits {
  return {
    maxQueueLength: settings.musicMaxQueueLength,
    perMemberQueueLimit: settings.musicPerMemberQueueLimit,
    maxTrackSeconds: settings.musicMaxTrackSeconds,
  };
}

/** The members (not bots) in a voice channel. */
export function listenersIn(guild: Guild | undefined, channelId: string | null): string[] {
  if (!guild || !channelId) return [];
  return [...guild.voiceStates.cache.values()].filter((state) => state.channelId === channelId && state.member && !state.member.user.bot).map((s) => s.id);
}

/**
 * Whether a player alone in its channel leaves now: after `musicLeaveWhenAloneSeconds` (0: never),
 * and never from the 24/7 radio channel.
 */
export function leavesAlone(aloneSince: number | null, now: number, channelId: string | null, settings: GuildSettings): boolean {
  if (aloneSince === null || settings.musicLeaveWhenAloneSeconds === 0) return false;
  if (channelId !== null && channelId === settings.musicRadioChannelId) return false;
  return now - aloneSince >= settings.musicLeaveWhenAloneSeconds * 1000;
}

/**
 * Whether a track of unknown length (an attachment) has played past the server's limit, the one
 * time it can be known. Tracks of known length were checked when queued; live streams have none.
 */
export function playedPastLimit(track: QueuedTrack, positionSeconds: number, maxTrackSeconds: number): boolean {
  return track.source.kind === 'attachment' && track.durationSeconds === null && positionSeconds > maxTrackSeconds;
}

/** The players of one product. */
export class Players {
  private readonly byGuild = new Map<string, GuildPlayer>();
  private readonly saves = new KeyedQueue();
  private readonly task: PeriodicTask;
  private ticks = 0;
  /** Work the feature adds to the once-a-minute look (the 24/7 radio, radio.ts). */
  everyMinute: (() => Promise<void>) | null = null;
  private readonly events: PlayerEvents = {
    note: (player, text) => void this.post(player, player.textChannelId, text),
    started: (player, track) => {
      this.services.live.publish(player.guildId, 'music');
      void this.announce(player, track);
    },
    changed: (player) => {
      this.services.live.publish(player.guildId, 'music');
      void this.save(player);
    },
    left: (player) => {
      this.services.live.publish(player.guildId, 'music');
      if (this.byGuild.get(player.guildId) === player) this.byGuild.delete(player.guildId);
      void this.saves.run(player.guildId, () => deleteSession(this.services, player.guildId)).catch((error: unknown) => this.warn(error, 'forget'));
    },
  };

  constructor(private readonly services: Services) {
    this.task = new PeriodicTask('music players', () => this.tick(), services.logger, TICK_MS);
  }

  start(): void {
    this.task.start();
  }

  /** Saves where every player is and stops them without forgetting: the next start resumes them. */
  async stop(): Promise<void> {
    await this.task.stop();
    const players = [...this.byGuild.values()];
    await Promise.all(players.map((player) => this.save(player)));
    for (const player of players) player.halt();
    this.byGuild.clear();
  }

  /** The server's player, if one plays (or waits) now. */
  get(guildId: string): GuildPlayer | undefined {
    const player = this.byGuild.get(guildId);
    return player && !player.left ? player : undefined;
  }

  /** The server's player, made with the server's settings when there is none. */
  async obtain(guildId: string): Promise<GuildPlayer> {
    const existing = this.get(guildId);
    if (existing) return existing;
    const settings = await this.services.settings.get(guildId);
    const made = this.get(guildId);
    if (made) return made;
    const player = new GuildPlayer(this.services, guildId, { volume: settings.musicDefaultVolume, limits: queueLimits(settings) }, this.events);
    this.byGuild.set(guildId, player);
    return player;
  }

  /** After a restart (or a new gateway session): rejoins the saved channel and resumes the saved queue. */
  async resume(guild: Guild): Promise<void> {
    if (this.get(guild.id)) return;
    const session = await loadSession(this.services, guild.id);
    if (!session) return;
    const settings = await this.services.settings.get(guild.id);
    if (!settings.musicEnabled || !guild.channels.cache.has(session.voiceChannelId)) {
      await deleteSession(this.services, guild.id);
      return;
    }
    const player = await this.obtain(guild.id);
    await player.serial(async () => {
      const { state } = session;
      player.queue.restore(state.current, state.upcoming, state.loop);
      player.volume = state.volume;
      player.paused = state.paused;
      player.textChannelId = session.textChannelId;
      await player.connect(session.voiceChannelId);
      await player.playCurrent(state.current?.source.kind === 'stream' ? 0 : state.positionSeconds);
    });
    this.services.logger.info({ guildId: guild.id, channelId: session.voiceChannelId }, 'music: resumed the player a restart stopped');
  }

  /** Posts a note of the player's in its channel, pinging nobody; a refusal is logged, never thrown. */
  private async post(player: GuildPlayer, channelId: string | null, text: string): Promise<void> {
    const settings = await this.services.settings.get(player.guildId);
    const target = channelId ?? settings.musicAnnounceChannelId;
    if (!target) return;
    await this.services.messenger.post(player.guildId, target, { content: text }).catch((error: unknown) => this.warn(error, 'post a note'));
  }

  /** "Now playing" in the announce channel, when one is set. */
  private async announce(player: GuildPlayer, track: QueuedTrack): Promise<void> {
    const settings = await this.services.settings.get(player.guildId);
    if (!settings.musicAnnounceChannelId) return;
    const length = trackLength(track.durationSeconds);
    await this.services.messenger
      .post(player.guildId, settings.musicAnnounceChannelId, {
        embeds: [
          {
            title: 'Now playing',
            description: `**${track.title}** (${length})\nAsked for by ${track.requestedByName} in <#${player.channelId}>`,
            color: 0x5865f2,
          },
        ],
      })
      .catch((error: unknown) => this.warn(error, 'announce a track'));
  }

  /** Saves the player's session (one save at a time per server); an idle player has nothing to resume. */
  private save(player: GuildPlayer): Promise<void> {
    return this.saves
      .run(player.guildId, async () => {
        if (player.left) return;
        const current = player.current;
        if (!player.channelId || !current) return deleteSession(this.services, player.guildId);
        await saveSession(this.services, player.guildId, {
          voiceChannelId: player.channelId,
          textChannelId: player.textChannelId,
          state: {
            current: current.track,
            upcoming: [...player.queue.next],
            loop: player.queue.loop,
            volume: player.volume,
            paused: player.paused,
            positionSeconds: current.positionSeconds,
          },
        });
      })
      .catch((error: unknown) => this.warn(error, 'save'));
  }

  /** Once a second: who is listening, leave channels left empty long enough, save positions now and then. */
  private async tick(): Promise<void> {
    this.ticks += 1;
    if (this.ticks % 60 === 0) await this.everyMinute?.();
    const now = this.services.clock.ms();
    for (const player of this.byGuild.values()) {
      const guild = this.services.gateway.client?.guilds.cache.get(player.guildId);
      const alone = listenersIn(guild, player.channelId).length === 0;
      player.aloneSince = alone ? (player.aloneSince ?? now) : null;
      const settings = await this.services.settings.get(player.guildId);
      if (leavesAlone(player.aloneSince, now, player.channelId, settings)) {
        const channelId = player.channelId;
        await player.serial(() => player.leave());
        void this.post(player, player.textChannelId, `Left <#${channelId}>: nobody was listening for ${formatDuration(settings.musicLeaveWhenAloneSeconds)}.`);
        continue;
      }
      // An attachment's length is known only as it plays: held to the server's limit then.
      const current = player.current;
      if (current && playedPastLimit(current.track, current.positionSeconds, settings.musicMaxTrackSeconds)) {
        await player.serial(() => (player.current?.track === current.track ? player.skip() : null));
        void this.post(
          player,
          player.textChannelId,
          `“${current.track.title}” is longer than ${formatDuration(settings.musicMaxTrackSeconds)}, the most this server plays; skipped it.`,
        );
        continue;
      }
      if (this.ticks % SAVE_EVERY_TICKS === 0 && player.status === 'playing') await this.save(player);
    }
  }

  private warn(error: unknown, what: string): void {
    this.services.logger.warn({ err: error }, `music: could not ${what}`);
  }
}
