// The XP rules of a message, as pure functions: the 5-20 base, the text, weekend (UTC Saturday and
// Sunday) and booster multipliers, rounding; and the level curve it feeds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { levelFromTotal, totalXpForLevel, xpToNextLevel } from '../../shared/leveling';
import { SETTINGS_DEFAULTS, type GuildSettings } from '../../shared/settings';
import { messageXp } from './accruals';

const settings = (overrides: Partial<GuildSettings> = {}): GuildSettings => ({
  ...SETTINGS_DEFAULTS,
  textMultiplier: 1,
  weekendMultiplier: 2,
  boostMultiplier: 1.5,
  ...overrides,
});
/** Wednesday 4 November 2026, and the Saturday and Sunday after it (noon UTC). */
const WEDNESDAY = new Date(Date.UTC(2026, 10, 4, 12));
const SATURDAY = new Date(Date.UTC(2026, 10, 7, 12));
const SUNDAY = new Date(Date.UTC(2026, 10, 8, 12));
const lowest = () => 0;
const highest = () => 0.999999;

describe('messageXp', () => {
  test('the base is 5 to 20, spread evenly over the random draw', () => {
    assert.equal(messageXp(settings(), WEDNESDAY, false, lowest), 5);
    assert.equal(messageXp(settings(), WEDNESDAY, false, highest), 20);
    assert.equal(
      messageXp(settings(), WEDNESDAY, false, () => 0.5),
      13,
    );
    const seen = new Set(Array.from({ length: 16 }, (_, i) => messageXp(settings(), WEDNESDAY, false, () => i / 16)));
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      Array.from({ length: 16 }, (_, i) => 5 + i),
    );
  });

  test('the text multiplier scales every message, rounded to a whole XP', () => {
    assert.equal(messageXp(settings({ textMultiplier: 2 }), WEDNESDAY, false, highest), 40);
    assert.equal(messageXp(settings({ textMultiplier: 1.5 }), WEDNESDAY, false, lowest), 8, '7.5 rounds to 8');
    assert.equal(messageXp(settings({ textMultiplier: 0 }), WEDNESDAY, false, highest), 0);
  });

  test('the weekend multiplier applies on Saturday and Sunday in UTC only', () => {
    assert.equal(messageXp(settings(), SATURDAY, false, lowest), 10);
    assert.equal(messageXp(settings(), SUNDAY, false, lowest), 10);
    assert.equal(messageXp(settings(), WEDNESDAY, false, lowest), 5);
    // Friday 23:30 UTC is a weekday whatever the local time zone says.
    assert.equal(messageXp(settings(), new Date(Date.UTC(2026, 10, 6, 23, 30)), false, lowest), 5);
    assert.equal(messageXp(settings(), new Date(Date.UTC(2026, 10, 9, 0, 0)), false, lowest), 5, 'Monday 00:00 UTC');
  });

  test('the booster multiplier applies to boosters only, and the multipliers multiply', () => {
    assert.equal(messageXp(settings(), WEDNESDAY, true, highest), 30);
    assert.equal(messageXp(settings(), WEDNESDAY, false, highest), 20);
    assert.equal(messageXp(settings({ textMultiplier: 1.2 }), SATURDAY, true, highest), 72, '20 × 1.2 × 2 × 1.5');
  });
});

describe('levelFromTotal', () => {
  test('levels start at 1 with 0 XP; the first level-up takes 155 XP (5L² + 50L + 100)', () => {
    assert.deepEqual(levelFromTotal(0), { level: 1, xp: 0 });
    assert.deepEqual(levelFromTotal(154), { level: 1, xp: 154 });
    assert.deepEqual(levelFromTotal(155), { level: 2, xp: 0 });
    assert.deepEqual(levelFromTotal(155 + 220), { level: 3, xp: 0 });
    assert.equal(xpToNextLevel(1), 155);
    assert.equal(xpToNextLevel(2), 220);
  });

  test('negative and fractional totals are read as their whole, non-negative part', () => {
    assert.deepEqual(levelFromTotal(-50), { level: 1, xp: 0 });
    assert.deepEqual(levelFromTotal(154.9), { level: 1, xp: 154 });
  });

  test('it is the inverse of totalXpForLevel at every level start, and one XP short stays below', () => {
    for (let level = 1; level <= 100; level += 1) {
      const start = totalXpForLevel(level);
      assert.deepEqual(levelFromTotal(start), { level, xp: 0 }, `level ${level} starts at ${start}`);
      if (level > 1) assert.deepEqual(levelFromTotal(start - 1), { level: level - 1, xp: xpToNextLevel(level - 1) - 1 });
    }
  });
});
