/** Discord's epoch (2015-01-01T00:00:00Z): snowflake timestamps count milliseconds from it. */
export const DISCORD_EPOCH = 1420070400000n;

/**
 * Makes snowflakes that look like Discord's: `(ms since Discord epoch) << 22 | worker | counter`.
 * Ids for the seeded world come from a fixed clock (deterministic for a seed); ids made at run time
 * use the world's clock, always after the seeded ones. Ids are unique and strictly increasing:
 * past 4,096 ids in one millisecond the timestamp moves on by one.
 */
export class SnowflakeFactory {
  private counter = 0n;
  private lastTimestamp = 0n;

  /** `seededClock` is the time (ms) the deterministic ids start from; `now` the clock of run-time ids. */
  constructor(
    private seededClock: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An id for a seeded object: the seeded clock ticks forward a little each time. */
  nextSeeded(stepMs = 1): string {
    this.seededClock += stepMs;
    return this.make(BigInt(this.seededClock));
  }

  /** An id for something happening now. */
  next(): string {
    return this.make(BigInt(Math.floor(this.now())));
  }

  /** An id for a given wall-clock time (ms), e.g. back-dated chat history. */
  at(timeMs: number): string {
    return this.make(BigInt(Math.floor(timeMs)));
  }

  /**
   * An id for a past time that leaves the run-time ids' order alone (a user whose account is days
   * old): another worker number and its own counter, so it never equals an id of `next()`.
   */
  backdated(timeMs: number): string {
    this.backdatedCounter = (this.backdatedCounter + 1n) & 0xfffn;
    return (((BigInt(Math.floor(timeMs)) - DISCORD_EPOCH) << 22n) | (2n << 17n) | this.backdatedCounter).toString();
  }

  private backdatedCounter = 0n;

  private make(timeMs: bigint): string {
    // Keep ids strictly increasing even if the clock goes backwards or 4,096 ids share a millisecond.
    let ts = timeMs > this.lastTimestamp ? timeMs : this.lastTimestamp;
    if (ts === this.lastTimestamp) {
      this.counter += 1n;
      if (this.counter > 0xfffn) {
        ts += 1n;
        this.counter = 0n;
      }
    } else {
      this.counter = 0n;
    }
    this.lastTimestamp = ts;
    return (((ts - DISCORD_EPOCH) << 22n) | (1n << 17n) | this.counter).toString();
  }
}

/**
 * The id of a back-dated object of the demo history (src/sandbox/demo-history.ts): made from its
 * time and its place in the history alone, so the same history gives the same ids on every start.
 * Worker 3 is the history's own: no id of the factory above can equal one.
 */
export function historySnowflake(timeMs: number, sequence: number): string {
  return (((BigInt(Math.floor(timeMs)) - DISCORD_EPOCH) << 22n) | (3n << 17n) | BigInt(sequence & 0xfff)).toString();
}

/** The creation time (ms since 1970) encoded in a snowflake. */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}
