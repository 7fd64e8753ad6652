// Time in the product comes from one clock, so cooldowns, expiries and schedules can be tested by
// advancing it instead of sleeping. Infrastructure timers (flush intervals, polls) run on real
// time; what they decide ("is this due?", "has this expired?") asks the clock.

/** The product's source of "now". */
export interface Clock {
  /** The current time. */
  now(): Date;
  /** The current time in ms since the epoch. */
  ms(): number;
}

/** The machine's clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  ms: () => Date.now(),
};

/** A clock that stands still until told to move: for tests of anything time-dependent. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  ms(): number {
    return this.current;
  }

  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError('a clock only moves forward');
    this.current += ms;
  }

  /** Sets the time (forward only). */
  set(at: Date | number): void {
    const next = typeof at === 'number' ? at : at.getTime();
    this.advance(next - this.current);
  }
}

/** The UTC day of a time, as stored: YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
