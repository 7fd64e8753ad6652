// A server's music queue as rules, without voice or storage: what plays now, what comes next, who
// may add, remove, reorder and skip, and how loop modes pick the next track. The player (voice) and
// the dashboard both act through it, so a limit holds whichever face asks. Refusals are sentences.
import { Conflict, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import { formatDuration } from '../../shared/music';
import type { LoopMode } from '../../shared/music-player';

/** off: each track once; track: the current one again; queue: a played track goes to the back. */
export type { LoopMode } from '../../shared/music-player';

/** Where a track's audio comes from. */
export type TrackSource =
  { kind: 'library'; trackId: string } | { kind: 'attachment'; url: string; fileName: string } | { kind: 'stream'; url: string; stationName: string | null };

/** A track in the queue: `id` is the queue entry's own (one library track may be queued twice). */
export interface QueuedTrack {
  id: string;
  title: string;
  source: TrackSource;
  /** Null for a live stream. */
  durationSeconds: number | null;
  requestedBy: string;
  /** The member's name when they queued it, for the queue's lines. */
  requestedByName: string;
}

/** The limits a server sets on its queue (Music settings). */
export interface QueueLimits {
  maxQueueLength: number;
  perMemberQueueLimit: number;
  /** Null: no limit. Live streams have no length and are not held to it. */
  maxTrackSeconds: number | null;
}

/** Who is acting: DJs (and admins) may manage everyone's tracks and skip without a vote. */
export interface QueueActor {
  userId: string;
  dj: boolean;
}

/** One page of the queue as `/queue` and the dashboard show it. */
export interface QueuePage {
  current: QueuedTrack | null;
  tracks: { position: number; track: QueuedTrack }[];
  page: number;
  pages: number;
  total: number;
}

export const QUEUE_PAGE_SIZE = 10;

/** A server's queue: the track playing now and those after it, in order. */
export class MusicQueue {
  private playing: QueuedTrack | null = null;
  private readonly upcoming: QueuedTrack[] = [];
  loop: LoopMode = 'off';

  constructor(private limits: QueueLimits) {}

  /** The track playing now, if any. */
  get current(): QueuedTrack | null {
    return this.playing;
  }

  /** The tracks after the current one, in order. */
  get next(): readonly QueuedTrack[] {
    return this.upcoming;
  }

  /** New limits (the settings changed); tracks already queued stay. */
  setLimits(limits: QueueLimits): void {
    this.limits = limits;
  }

  /**
   * Queues a track at the back; it plays at once when nothing does. Refused when the queue is full,
   * when the member already has their share waiting (DJs are not held to it), or when the track is
   * longer than the server allows.
   */
  add(track: QueuedTrack, actor: QueueActor): { position: number } {
    const waiting = this.upcoming.length + (this.playing ? 1 : 0);
    if (waiting >= this.limits.maxQueueLength) {
      throw new Conflict(`The queue is full (${this.limits.maxQueueLength} tracks). Wait for some to play, or ask a DJ to remove some.`);
    }
    const max = this.limits.maxTrackSeconds;
    if (max !== null && track.durationSeconds !== null && track.durationSeconds > max) {
      throw new InvalidInput(
        { track: `is ${formatDuration(track.durationSeconds)} long; this server plays tracks up to ${formatDuration(max)}` },
        `“${track.title}” is ${formatDuration(track.durationSeconds)} long; this server plays tracks up to ${formatDuration(max)}.`,
      );
    }
    if (!actor.dj) {
      const mine = this.upcoming.filter((queued) => queued.requestedBy === actor.userId).length;
      if (mine >= this.limits.perMemberQueueLimit) {
        throw new Conflict(`You already have ${mine} tracks waiting, as many as this server allows. Add more once one of them has played.`);
      }
    }
    if (!this.playing) {
      this.playing = track;
      return { position: 0 };
    }
    this.upcoming.push(track);
    return { position: this.upcoming.length };
  }

  /** Removes the track at `position` (1 = the next one). Members remove their own; DJs any. */
  remove(position: number, actor: QueueActor): QueuedTrack {
    const track = this.at(position);
    if (!actor.dj && track.requestedBy !== actor.userId) throw new Forbidden('You can remove only the tracks you added. A DJ can remove any.');
    this.upcoming.splice(position - 1, 1);
    return track;
  }

  /** Moves the track at `from` to `to` (both 1-based among the upcoming tracks): the dashboard's reorder, for DJs. */
  move(from: number, to: number, actor: QueueActor): void {
    if (!actor.dj) throw new Forbidden('Only a DJ can reorder the queue.');
    const track = this.at(from);
    if (!Number.isInteger(to) || to < 1 || to > this.upcoming.length) {
      throw new InvalidInput({ to: `must be between 1 and ${this.upcoming.length}` }, `The new place must be between 1 and ${this.upcoming.length}.`);
    }
    this.upcoming.splice(from - 1, 1);
    this.upcoming.splice(to - 1, 0, track);
  }

  /** Shuffles the upcoming tracks (Fisher-Yates with `random`, in [0, 1)). */
  shuffle(random: () => number = Math.random): void {
    for (let i = this.upcoming.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [this.upcoming[i], this.upcoming[j]] = [this.upcoming[j] as QueuedTrack, this.upcoming[i] as QueuedTrack];
    }
  }

  /**
   * The current track ended: the next one by the loop mode (the same again on `track`; on `queue`
   * the ended one goes to the back). `skipped`: a skip moves on even when looping one track.
   */
  advance(skipped = false): QueuedTrack | null {
    const ended = this.playing;
    if (ended && this.loop === 'track' && !skipped) return ended;
    if (ended && this.loop === 'queue') this.upcoming.push(ended);
    this.playing = this.upcoming.shift() ?? null;
    return this.playing;
  }

  /** The current track could not be played: the next one, whatever the loop mode (a broken track is not played again). */
  drop(): QueuedTrack | null {
    this.playing = this.upcoming.shift() ?? null;
    return this.playing;
  }

  /** The queue as a restart left it (sessions.ts): no limits are checked, the tracks were accepted once. */
  restore(current: QueuedTrack | null, upcoming: readonly QueuedTrack[], loop: LoopMode): void {
    this.playing = current;
    this.upcoming.splice(0, this.upcoming.length, ...upcoming);
    this.loop = loop;
  }

  /** Where the upcoming entry `entryId` waits (1-based), for the dashboard's remove and reorder by entry. */
  positionOf(entryId: string): number {
    const index = this.upcoming.findIndex((queued) => queued.id === entryId);
    if (index === -1) throw new NotFound('That track is no longer in the queue; it may have played or been removed.');
    return index + 1;
  }

  /** Empties the queue, the current track included (`/stop`). */
  clear(): void {
    this.playing = null;
    this.upcoming.length = 0;
  }

  /** Page `page` (1-based) of the upcoming tracks; a page past the end is the last one. */
  page(page: number): QueuePage {
    const total = this.upcoming.length;
    const pages = Math.max(1, Math.ceil(total / QUEUE_PAGE_SIZE));
    const shown = Math.min(Math.max(1, Math.floor(page)), pages);
    const start = (shown - 1) * QUEUE_PAGE_SIZE;
    const tracks = this.upcoming.slice(start, start + QUEUE_PAGE_SIZE).map((track, index) => ({ position: start + index + 1, track }));
    return { current: this.playing, tracks, page: shown, pages, total };
  }

  private at(position: number): QueuedTrack {
    if (this.upcoming.length === 0) throw new NotFound('The queue has no tracks after the one playing.');
    const track = Number.isInteger(position) ? this.upcoming[position - 1] : undefined;
    if (!track) {
      throw new InvalidInput(
        { position: `must be between 1 and ${this.upcoming.length}` },
        `There is no track at place ${position}; the queue has ${this.upcoming.length} after the one playing.`,
      );
    }
    return track;
  }
}

/**
 * A vote to skip: passes once the share of listeners (the members in the bot's voice channel,
 * bots left out) who voted reaches `ratio`. At least one vote is always needed.
 */
export function skipVotesNeeded(listeners: number, ratio: number): number {
  return Math.max(1, Math.ceil(listeners * ratio - 1e-9));
}
