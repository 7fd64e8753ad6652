// The product's live-update bus (Services.live): the domain says what changed in a server, and
// each open dashboard stream of that server hears it (features/live). It carries signals only,
// never data: a stream's reader fetches the data again through the routes, access-checked.
import type { LiveTopic } from '../shared/live';

/** What a stream of one guild hears. */
export type LiveSignal =
  /** Something the dashboard shows changed. */
  | { kind: 'change'; topic: LiveTopic }
  /** Someone's access may have changed (their roles, a role's permissions, a grant): `userId` null for anyone in the guild. */
  | { kind: 'access'; userId: string | null }
  /** Sessions ended (a sign-out here or everywhere, expiry): each stream checks its own. */
  | { kind: 'sessions' }
  /** The product is stopping. */
  | { kind: 'closing' };

/** A stream's ear. */
export type LiveListener = (signal: LiveSignal) => void;

/** One product's bus: listeners by guild; nothing kept at module level. */
export class LiveBus {
  private readonly byGuild = new Map<string, Set<LiveListener>>();
  private closed = false;

  /** `forget`: drops what is cached of the guild's answers, so the reads a notice prompts see the change. */
  constructor(private readonly forget: (guildId: string) => void = () => undefined) {}

  /** Tells the guild's streams that `topic` changed. */
  publish(guildId: string, topic: LiveTopic): void {
    if (!this.byGuild.has(guildId)) return;
    this.forget(guildId);
    this.send(guildId, { kind: 'change', topic });
  }

  /** Tells the guild's streams that access may have changed, for one user or (null) anyone. */
  accessChanged(guildId: string, userId: string | null): void {
    this.send(guildId, { kind: 'access', userId });
  }

  /** Tells every stream that sessions ended somewhere. */
  sessionsEnded(): void {
    for (const guildId of [...this.byGuild.keys()]) this.send(guildId, { kind: 'sessions' });
  }

  /** Listens to a guild's signals until the returned function is called. Refused once closed. */
  subscribe(guildId: string, listener: LiveListener): () => void {
    if (this.closed) throw new Error('the live bus is closed');
    let listeners = this.byGuild.get(guildId);
    if (!listeners) this.byGuild.set(guildId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.byGuild.get(guildId) === listeners) this.byGuild.delete(guildId);
    };
  }

  /** How many listeners there are (of one guild, or all): the tests check none is left behind. */
  listenerCount(guildId?: string): number {
    if (guildId !== undefined) return this.byGuild.get(guildId)?.size ?? 0;
    let count = 0;
    for (const listeners of this.byGuild.values()) count += listeners.size;
    return count;
  }

  /** Whether the bus has stopped taking listeners. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** At shutdown: every listener hears `closing` (streams end, so the HTTP server can drain) and no new one is taken. */
  close(): void {
    this.closed = true;
    for (const guildId of [...this.byGuild.keys()]) this.send(guildId, { kind: 'closing' });
  }

  private send(guildId: string, signal: LiveSignal): void {
    const listeners = this.byGuild.get(guildId);
    if (!listeners) return;
    // A copy: a listener may unsubscribe (its stream ends) while hearing the signal.
    for (const listener of [...listeners]) listener(signal);
  }
}
