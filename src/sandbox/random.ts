import { mulberry32 } from '../shared/seeded-random';

/** A small seeded PRNG (mulberry32) so the demo world is the same for a given seed. */
export class SeededRandom {
  /** A float in [0, 1). */
  readonly next: () => number;

  /** Starts the sequence for `seed`. */
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** A lowercase hex string of `length` characters (avatar hashes). */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }
}
