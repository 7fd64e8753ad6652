// enforce_nonce as Discord keeps it: the nonces an author sent in a channel within the last few
// minutes, so a retried send (a lost answer, a double click) answers the message the first made
// instead of posting it twice.

/** How long a nonce is remembered, on the world's clock (Discord: "the past few minutes"). */
export const NONCE_WINDOW_MS = 5 * 60_000;

/** Recent nonces by channel, author and nonce, oldest first, each with its message and time. */
export class RecentNonces {
  private readonly seen = new Map<string, { messageId: string; at: number }>();

  /** `now` is the world's clock in ms. */
  constructor(private readonly now: () => number) {}

  /** Remembers the message a nonce made (a nonce sent again moves to the back). */
  remember(channelId: string, authorId: string, nonce: string | number, messageId: string): void {
    const key = nonceKey(channelId, authorId, nonce);
    this.seen.delete(key);
    this.seen.set(key, { messageId, at: this.now() });
    this.forgetOld();
  }

  /** The id of the message an author made in a channel with this nonce within the window, if any. */
  find(channelId: string, authorId: string, nonce: string | number): string | undefined {
    this.forgetOld();
    return this.seen.get(nonceKey(channelId, authorId, nonce))?.messageId;
  }

  /** Drops nonces older than the window from the front: O(1) per nonce, never a scan of recent ones. */
  private forgetOld(): void {
    const since = this.now() - NONCE_WINDOW_MS;
    for (const [key, entry] of this.seen) {
      if (entry.at >= since) break;
      this.seen.delete(key);
    }
  }
}

/** One nonce of one author in one channel (an integer and its digits as text are the same nonce). */
function nonceKey(channelId: string, authorId: string, nonce: string | number): string {
  return `${channelId}:${authorId}:${String(nonce)}`;
}
