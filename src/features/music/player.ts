// One server's music player: its voice connection (the real @discordjs/voice, which speaks
// Discord's voice protocol and DAVE), the audio player that sends what ffmpeg decodes, the queue,
// and what keeps playback going where music bots break: a stalled or silent stream is noticed
// and reconnected or skipped, a move or a voice server change is followed, a disconnect stops it
// cleanly. Every change runs one at a time (`serial`), whether a command or an event asked.
import {
  AudioPlayerStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  joinVoiceChannel,
  NoSubscriberBehavior,
  StreamType,
  VoiceConnectionStatus,
  type AudioPlayer,
  type AudioResource,
  type VoiceConnection,
} from '@discordjs/voice';
import { DiscordRefused } from '../../core/errors';
import type { Services } from '../../core/services';
import type { AudioInput } from './audio-input';
import { MusicQueue, type QueuedTrack } from './queue';
import { RemoteRefused } from './remote';
import { openTrack } from './sources';

/** Frames of nothing from the decoder (20 ms each) after which the track counts as stalled: 3 seconds. */
export const STALL_FRAMES = 150;
/** Times a stalled or silent stream is reconnected before it is skipped. */
export const STREAM_RETRIES = 2;
/** How long the bot waits to be let into a voice channel. */
const JOIN_TIMEOUT_MS = 20_000;
/** How long a dropped connection may take to come back (a move, a voice server change) before it counts as a disconnect. */
const RECONNECT_GRACE_MS = 5_000;
/** Opus encoder complexity (0-10): 5 sounds the same in a voice channel at about half the CPU of 10. */
const OPUS_COMPLEXITY = 5;
const OPUS_SET_COMPLEXITY = 4010;

/** The track on air. */
interface OnAir {
  track: QueuedTrack;
  input: AudioInput;
  resource: AudioResource;
  /** Where in the track the decode began (a resume after a restart starts mid-track). */
  startSeconds: number;
  /** Reconnects of this stream so far. */
  retries: number;
  /** The stream went silent (ffmpeg's silencedetect). */
  silent: boolean;
}

/** What the player tells its owner (players.ts): notes for the channel, saves, and that it left. */
export interface PlayerEvents {
  note(player: GuildPlayer, text: string): void;
  started(player: GuildPlayer, track: QueuedTrack): void;
  changed(player: GuildPlayer): void;
  left(player: GuildPlayer): void;
}

/** What a player starts with. */
export interface PlayerSetup {
  volume: number;
  limits: ConstructorParameters<typeof MusicQueue>[0];
}

/** A server's player. Made by players.ts; reached through it. */
export class GuildPlayer {
  readonly queue: MusicQueue;
  /** The channel joined last; the connection's own (which follows a move) wins while it lasts. */
  private joinedChannelId: string | null = null;
  /** Where the player's notes go: the channel of the last /play. */
  textChannelId: string | null = null;
  volume: number;
  paused = false;
  /** Members who voted to skip the current track. */
  readonly skipVotes = new Set<string>();
  /** Since when (the product's clock) no member has been in the bot's channel. */
  aloneSince: number | null = null;
  private connection: VoiceConnection | null = null;
  private readonly audio: AudioPlayer;
  private onAir: OnAir | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private gone = false;

  constructor(
    private readonly services: Services,
    readonly guildId: string,
    setup: PlayerSetup,
    private readonly events: PlayerEvents,
  ) {
    this.queue = new MusicQueue(setup.limits);
    this.volume = setup.volume;
    this.audio = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play, maxMissedFrames: STALL_FRAMES } });
    this.audio.on('error', (error) => services.logger.warn({ err: error, guildId }, 'music: the audio player failed'));
    this.audio.on('stateChange', (before, after) => {
      if (after.status !== AudioPlayerStatus.Idle || before.status === AudioPlayerStatus.Idle) return;
      const ended = this.onAir;
      if (ended && 'resource' in before && before.resource === ended.resource) void this.serial(() => this.afterTrack(ended));
    });
  }

  /** Runs `task` after every change queued before it; its result or error is the caller's. */
  serial<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.chain.then(task, task);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** The voice channel the bot plays in: where it was moved to, when a moderator moved it. */
  get channelId(): string | null {
    return this.connection?.joinConfig.channelId ?? this.joinedChannelId;
  }

  /** Whether the player has left for good (a new one is made for the next /play). */
  get left(): boolean {
    return this.gone;
  }

  /** The track on air and how far it has played, in seconds. */
  get current(): { track: QueuedTrack; positionSeconds: number } | null {
    const onAir = this.onAir;
    return onAir ? { track: onAir.track, positionSeconds: onAir.startSeconds + onAir.resource.playbackDuration / 1000 } : null;
  }

  /** Whether audio is being sent now. */
  get status(): 'idle' | 'connecting' | 'playing' | 'paused' {
    if (!this.connection || !this.onAir) return 'idle';
    if (this.connection.state.status !== VoiceConnectionStatus.Ready) return 'connecting';
    return this.paused ? 'paused' : 'playing';
  }

  /** Joins (or stays in) a voice channel; throws DiscordRefused in words when Discord does not let the bot in. */
  async connect(channelId: string): Promise<void> {
    if (this.connection && this.channelId === channelId && this.connection.state.status !== VoiceConnectionStatus.Destroyed) return;
    const guild = this.services.gateway.client?.guilds.cache.get(this.guildId);
    if (!guild) throw new DiscordRefused(0, 'The bot is not connected to this server right now.');
    const connection = joinVoiceChannel({ channelId, guildId: this.guildId, adapterCreator: guild.voiceAdapterCreator, selfDeaf: true });
    this.connection = connection;
    this.joinedChannelId = channelId;
    connection.on('error', (error) => this.services.logger.warn({ err: error, guildId: this.guildId }, 'music: the voice connection failed'));
    connection.on('stateChange', (_before, after) => {
      if (this.connection !== connection) return;
      if (after.status === VoiceConnectionStatus.Disconnected) void this.holdOn(connection);
      if (after.status === VoiceConnectionStatus.Destroyed && !this.gone) void this.serial(() => this.dropped());
    });
    connection.subscribe(this.audio);
    try {
      await entersState(connection, VoiceConnectionStatus.Ready, JOIN_TIMEOUT_MS);
    } catch {
      this.connection = null;
      connection.destroy();
      throw new DiscordRefused(
        0,
        `The bot could not connect to the voice channel <#${channelId}>: Discord did not let it in within ${JOIN_TIMEOUT_MS / 1000} seconds.`,
      );
    }
  }

  /**
   * A dropped connection: a move to another channel or a new voice server comes back by itself
   * (signalling, then connecting); anything else within RECONNECT_GRACE_MS was a disconnect.
   */
  private async holdOn(connection: VoiceConnection): Promise<void> {
    try {
      await Promise.race([
        entersState(connection, VoiceConnectionStatus.Signalling, RECONNECT_GRACE_MS),
        entersState(connection, VoiceConnectionStatus.Connecting, RECONNECT_GRACE_MS),
      ]);
    } catch {
      if (this.connection === connection && connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    }
  }

  /** The connection is gone for good (kicked, the channel deleted): the music stops and the player leaves. */
  private dropped(): void {
    if (this.gone) return;
    const channelId = this.channelId;
    const channelExists = channelId ? Boolean(this.services.gateway.channel(this.guildId, channelId)) : false;
    this.events.note(
      this,
      channelExists
        ? `The bot was disconnected from <#${channelId}>, so the music stopped. Use /play to start again.`
        : 'The voice channel the bot played in was deleted, so the music stopped.',
    );
    this.shutDown();
  }

  /** Plays the queue's current track from `startSeconds`; tracks that cannot be opened are skipped with a note. */
  async playCurrent(startSeconds = 0, retries = 0): Promise<void> {
    this.stopInput();
    this.skipVotes.clear();
    for (let track = this.queue.current; track; track = this.queue.drop()) {
      let input: AudioInput;
      try {
        const onAirNow = (): OnAir | null => this.onAir;
        input = await openTrack(this.services, this.guildId, track, startSeconds, {
          onSilence: () => {
            const silent = onAirNow();
            if (silent?.track === track) void this.serial(() => this.interrupt(silent, true));
          },
        });
      } catch (error) {
        if (!(error instanceof RemoteRefused)) throw error;
        this.events.note(this, `Could not play “${track.title}”: ${lowerFirst(error.message)} Skipping it.`);
        startSeconds = 0;
        retries = 0;
        continue;
      }
      const resource = createAudioResource(input.pcm, { inputType: StreamType.Raw, inlineVolume: true });
      tuneEncoder(resource);
      resource.volume?.setVolume(this.volume / 100);
      this.onAir = { track, input, resource, startSeconds, retries, silent: false };
      this.audio.play(resource);
      if (this.paused) this.audio.pause(true);
      if (startSeconds === 0 && retries === 0) this.events.started(this, track);
      this.events.changed(this);
      return;
    }
    this.onAir = null;
    this.audio.stop(true);
    this.events.changed(this);
  }

  /** The audio player went idle on `ended`: it finished, failed, stalled or went silent. */
  private async afterTrack(ended: OnAir): Promise<void> {
    if (this.onAir !== ended || this.gone) return;
    const stalled = !ended.resource.playStream.readableEnded;
    if (stalled || ended.silent) return this.recover(ended, ended.silent ? 'went silent' : 'stopped sending audio');
    const failure = await Promise.race([ended.input.finished, new Promise<null>((resolve) => setTimeout(resolve, 2000, null))]);
    if (this.onAir !== ended) return;
    if (failure) {
      this.events.note(this, `Could not play “${ended.track.title}”: ${failure}. Skipping it.`);
      this.queue.drop();
    } else {
      this.queue.advance();
    }
    await this.playCurrent();
  }

  /** A stalled or silent track: a stream is reconnected (up to STREAM_RETRIES times), anything else skipped. */
  private async recover(ended: OnAir, what: string): Promise<void> {
    const { track } = ended;
    if (track.source.kind === 'stream' && ended.retries < STREAM_RETRIES) {
      this.events.note(this, `The stream “${track.title}” ${what}; reconnecting.`);
      return this.playCurrent(0, ended.retries + 1);
    }
    this.events.note(this, `“${track.title}” ${what}; skipping it.`);
    this.queue.drop();
    return this.playCurrent();
  }

  /** Ends the track on air now, as if it had stalled (silent) or been skipped. */
  private async interrupt(onAir: OnAir, silent: boolean): Promise<void> {
    if (this.onAir !== onAir) return;
    onAir.silent = silent;
    onAir.input.stop();
    this.audio.stop(true);
  }

  /** Skips the current track (a skip moves on even when looping one track). */
  async skip(): Promise<QueuedTrack | null> {
    this.stopInput();
    const next = this.queue.advance(true);
    await this.playCurrent();
    return next;
  }

  pause(): void {
    this.paused = true;
    this.audio.pause(true);
    this.events.changed(this);
  }

  /** Resumes; a live stream paused for a while starts again live rather than from minutes ago. */
  async resume(): Promise<void> {
    this.paused = false;
    const onAir = this.onAir;
    if (onAir?.track.source.kind === 'stream') await this.playCurrent(0, onAir.retries);
    else this.audio.unpause();
    this.events.changed(this);
  }

  setVolume(percent: number): void {
    this.volume = percent;
    this.onAir?.resource.volume?.setVolume(percent / 100);
    this.events.changed(this);
  }

  /** Empties the queue and stops; the bot stays in the channel. */
  stop(): void {
    this.queue.clear();
    this.stopInput();
    this.audio.stop(true);
    this.onAir = null;
    this.events.changed(this);
  }

  /** Leaves the voice channel for good: the queue is emptied and the saved session removed. */
  leave(): void {
    this.shutDown();
  }

  /** Stops without forgetting (the product is stopping): what plays is saved first by players.ts. */
  halt(): void {
    this.gone = true;
    this.stopInput();
    this.audio.stop(true);
    this.connection?.destroy();
    this.connection = null;
  }

  private shutDown(): void {
    if (this.gone) return;
    this.queue.clear();
    this.halt();
    this.onAir = null;
    this.events.left(this);
  }

  private stopInput(): void {
    const onAir = this.onAir;
    if (!onAir) return;
    this.onAir = null;
    onAir.input.stop();
    this.audio.stop(true);
  }
}

/** Lower-cases a reason's first letter to follow a colon. */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Sets the Opus encoder's complexity (opusscript or @discordjs/opus, whichever prism loaded). */
function tuneEncoder(resource: AudioResource): void {
  const encoder = (
    resource.encoder as unknown as { encoder?: { encoderCTL?(ctl: number, value: number): void; applyEncoderCTL?(ctl: number, value: number): void } }
  )?.encoder;
  (encoder?.applyEncoderCTL ?? encoder?.encoderCTL)?.call(encoder, OPUS_SET_COMPLEXITY, OPUS_COMPLEXITY);
}
