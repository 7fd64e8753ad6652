// What the repeats and rate rules remember: a small ring of times per member of a guild, capped,
// where the members who have not posted again for longest make room first. A message's text is
// remembered as a hash, not as text.
import { isSpace } from './characters';

/** How close together identical messages must come to count as repeats: all of them within a minute. */
export const REPEAT_WINDOW_MS = 60_000;
/** Members whose recent messages are remembered, at most, by default. */
export const DEFAULT_MAX_TRACKED_MEMBERS = 50_000;

/** What is remembered of one member of one guild. Rings of times: slot `count % length` is the oldest. */
export interface MemberTrack {
  guildId: string;
  authorId: string;
  /** The guild's map this record is in; null once forgotten (the record waits in `free`). */
  home: Map<string, MemberTrack> | null;
  /** Active since the eviction hand last passed (a second chance). */
  recent: boolean;
  /** The times of the member's latest messages (maxMessages + 1 of them); null while rate does not watch. */
  sent: number[] | null;
  sentCount: number;
  /** The hash of the latest non-empty normalised content, and the times of the run of messages with it (maxRepeats + 1 of them). */
  lastHash: number;
  run: number[] | null;
  runCount: number;
}

/** A message without text (an image, a sticker): it neither repeats nor breaks a run. */
export const NO_TEXT = -1;

/**
 * The members remembered, capped. Every record sits in a ring the eviction hand sweeps (CLOCK): a
 * record active since the hand last passed is spared once; the first one that was not is replaced.
 * So a member who keeps talking stays, one-off posters go first, and marking a member active is
 * one write to its own record.
 */
export class MemberMemory {
  /** Records by guild, then member: two lookups of the ids as they come, no key string to build and hash. */
  private readonly guilds = new Map<string, Map<string, MemberTrack>>();
  /** Every record, in the ring the eviction hand sweeps. */
  private readonly slots: MemberTrack[] = [];
  private hand = 0;
  /** Records of forgotten guilds, reused first. */
  private readonly free: MemberTrack[] = [];
  private tracked = 0;
  private readonly maxTracked: number;

  constructor(maxTrackedMembers: number = DEFAULT_MAX_TRACKED_MEMBERS) {
    this.maxTracked = Number.isFinite(maxTrackedMembers) ? Math.max(1, Math.floor(maxTrackedMembers)) : DEFAULT_MAX_TRACKED_MEMBERS;
  }

  /** Members remembered now. */
  get size(): number {
    return this.tracked;
  }

  /** The member's record, marked active; made when missing, in a free slot or in place of an inactive member's. */
  track(guildId: string, authorId: string): MemberTrack {
    const found = this.guilds.get(guildId)?.get(authorId);
    if (found) {
      found.recent = true;
      return found;
    }
    let track = this.free.pop() ?? (this.slots.length < this.maxTracked ? undefined : this.evict());
    // Looked up after the eviction, which drops a guild's map once its last member goes.
    let members = this.guilds.get(guildId);
    if (!members) {
      members = new Map();
      this.guilds.set(guildId, members);
    }
    if (track) {
      // A reused record keeps its rings (their counts restart): a full engine allocates nothing.
      track.guildId = guildId;
      track.authorId = authorId;
      track.home = members;
      track.sentCount = 0;
      track.lastHash = NO_TEXT;
      track.runCount = 0;
    } else {
      track = { guildId, authorId, home: members, recent: false, sent: null, sentCount: 0, lastHash: NO_TEXT, run: null, runCount: 0 };
      this.slots.push(track);
    }
    members.set(authorId, track);
    this.tracked += 1;
    return track;
  }

  /** Forgets what was remembered of a guild's members. */
  forgetGuild(guildId: string): void {
    const members = this.guilds.get(guildId);
    if (!members) return;
    this.guilds.delete(guildId);
    for (const track of members.values()) {
      track.home = null;
      track.recent = false;
      this.free.push(track);
    }
    this.tracked -= members.size;
  }

  /** Sweeps the ring to the first record not active since the last sweep and takes it out of its guild. */
  private evict(): MemberTrack {
    for (;;) {
      const track = this.slots[this.hand];
      this.hand = (this.hand + 1) % this.slots.length;
      if (!track) continue;
      if (track.recent) {
        track.recent = false;
        continue;
      }
      // Free records are all in use when the ring is swept, so every record here is in a guild's map.
      const home = track.home;
      if (home) {
        home.delete(track.authorId);
        if (home.size === 0 && this.guilds.get(track.guildId) === home) this.guilds.delete(track.guildId);
        this.tracked -= 1;
      }
      track.recent = false;
      return track;
    }
  }
}

/** A packed array of `size` numbers (`new Array(size)` would be a holey one, slower to read). */
function zeros(size: number): number[] {
  const ring: number[] = [];
  for (let i = 0; i < size; i++) ring.push(0);
  return ring;
}

/** Records a message's time; true when `size` messages (this one the last) came within `windowMs`. */
export function recordSent(track: MemberTrack, at: number, size: number, windowMs: number): boolean {
  if (track.sent === null || track.sent.length !== size) {
    track.sent = zeros(size);
    track.sentCount = 0;
  }
  track.sent[track.sentCount % size] = at;
  track.sentCount += 1;
  return track.sentCount >= size && at - (track.sent[track.sentCount % size] ?? -Infinity) < windowMs;
}

/**
 * Records a message in the member's run of identical ones; true when `maxRepeats` of them came
 * before it within the window (the limit allows that many: this one is the one too many).
 */
export function recordRepeat(track: MemberTrack, hash: number, at: number, maxRepeats: number): boolean {
  // A message without text (an image, a sticker) neither repeats nor breaks a run.
  if (hash === NO_TEXT) return false;
  const size = maxRepeats + 1;
  if (track.run === null || track.run.length !== size) {
    track.run = zeros(size);
    track.runCount = 0;
  }
  if (hash !== track.lastHash) {
    track.lastHash = hash;
    track.runCount = 0;
  }
  track.run[track.runCount % size] = at;
  track.runCount += 1;
  return track.runCount >= size && at - (track.run[track.runCount % size] ?? -Infinity) < REPEAT_WINDOW_MS;
}

/**
 * A 53-bit hash of lowercased text as trimmed, with whitespace runs made one space, without
 * building that string (two 32-bit lanes: FNV-1a and a multiply-add); NO_TEXT when nothing is left.
 * Remembering a hash, not the text, keeps each member's record a few bytes; two different
 * messages in a row colliding is about a 1 in 2^53 chance.
 */
export function normalisedHash(lower: string): number {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x2545f491;
  // 0: nothing yet; 1: in text; 2: whitespace after text (one space, if text follows).
  let state = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if ((c <= 32 || c >= 128) && isSpace(c)) {
      if (state === 1) state = 2;
      continue;
    }
    if (state === 2) {
      h1 = Math.imul(h1 ^ 32, 16777619);
      h2 = (Math.imul(h2, 31) + 32) | 0;
    }
    state = 1;
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = (Math.imul(h2, 31) + c) | 0;
  }
  if (state === 0) return NO_TEXT;
  return 4294967296 * ((h2 >>> 0) & 0x1fffff) + (h1 >>> 0);
}
