// How many messages a channel keeps in the sandbox, and the bounded index that keeps them.
import type { MessageRecord } from './types';

/**
 * Messages the sandbox keeps per channel (and, apart, ephemeral replies per channel). Discord keeps
 * every message; a bot reads back only recent ones, and an in-memory Discord under chat cannot keep
 * them all (about 1 KB each: a demo grew by 580 MB in a few minutes).
 */
export const MESSAGES_KEPT_PER_CHANNEL = 1000;

/**
 * One channel's kept messages, oldest first, with a cursor on the oldest: a Map iterator sees
 * entries added after it was made and skips those deleted, so evicting the oldest costs O(1)
 * however many were evicted or deleted before (a fresh `keys().next()` would step over every
 * deleted slot at the front of the map's table until it is rehashed).
 */
export class ChannelMessages {
  readonly messages = new Map<string, MessageRecord>();
  private readonly oldest = this.messages.keys();

  /** Keeps `message`; returns the ids of the oldest ones pushed past `limit`. */
  add(message: MessageRecord, limit: number): string[] {
    this.messages.set(message.id, message);
    const evicted: string[] = [];
    while (this.messages.size > limit) {
      // Every entry before the cursor was evicted, so the next one is the oldest still kept.
      const next = this.oldest.next();
      if (next.done) break;
      this.messages.delete(next.value);
      evicted.push(next.value);
    }
    return evicted;
  }
}
