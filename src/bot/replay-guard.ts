/**
 * Keys remembered: twice the dispatches the sandbox keeps for a RESUME (10,000), and minutes of a
 * busy guild's chat. A replay repeats what followed the sequence the bot last sent, which
 * discord.js keeps current, so it is never that deep; 100,000 keys (three seconds of the
 * benchmark's chat) held 10 MB of heap that every full garbage collection marked.
 */
export const REPLAY_MEMORY = 20_000;

/**
 * Recognises gateway events the bot has handled already. Discord delivers at least once: a RESUME
 * replays every event after the sequence the bot sent, and discord.js emits a replayed message
 * again once it has left its per-channel cache (50), as it always does for joins and interactions.
 * Keys are remembered among the last `capacity`; evicting walks a ring, never the Set.
 */
export class ReplayGuard {
  private readonly seen = new Set<string>();
  private readonly ring: (string | undefined)[];
  private next = 0;

  constructor(private readonly capacity = REPLAY_MEMORY) {
    this.ring = new Array<string | undefined>(capacity);
  }

  /** True the first time `key` is offered; false for a replay. */
  first(key: string): boolean {
    if (this.seen.has(key)) return false;
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.seen.delete(evicted);
    this.ring[this.next] = key;
    this.next = (this.next + 1) % this.capacity;
    this.seen.add(key);
    return true;
  }
}
