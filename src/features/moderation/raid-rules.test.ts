import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RAID_DEFAULTS, raidSummary, RaidSettingsSchema, type RaidStatus } from '../../shared/raids';
import { accountAgeDays, fallBackDue, inviteRenewalDue, isYoungAccount, JoinWindow, levelToRaise, levelToRestore } from './raid-rules';

/** A Discord id made at `ms` (since 1970). */
const idAt = (ms: number) => ((BigInt(ms - 1_420_070_400_000) << 22n) | 1n).toString();
const NOW = Date.UTC(2026, 10, 26, 17, 0);
const DAY = 86_400_000;

describe('the join window', () => {
  test('N joins within M seconds make a burst; fewer, or spread wider, do not', () => {
    const window = new JoinWindow();
    const rule = { joins: 3, seconds: 10 };
    assert.equal(window.record('g', 'a', NOW, rule), null);
    assert.equal(window.record('g', 'b', NOW + 4000, rule), null);
    assert.deepEqual(window.record('g', 'c', NOW + 9000, rule), { userIds: ['a', 'b', 'c'], spanSeconds: 9 });
    // 'a' left the window at NOW + 10 s; 'b', 'c' and 'd' are three again.
    assert.deepEqual(window.record('g', 'd', NOW + 10_500, rule)?.userIds, ['b', 'c', 'd']);
    assert.equal(window.record('g', 'e', NOW + 11_000, rule, NOW + 10_800), null, 'joins before a raid mode ended are not counted again');
    const spread = new JoinWindow();
    for (let i = 0; i < 5; i++) assert.equal(spread.record('g', `u${i}`, NOW + i * 6000, rule), null, `join ${i} 6 s after the last`);
  });

  test('guilds are counted apart, and the same member joining twice counts once', () => {
    const window = new JoinWindow();
    const rule = { joins: 3, seconds: 60 };
    window.record('g1', 'a', NOW, rule);
    window.record('g2', 'b', NOW, rule);
    assert.equal(window.record('g1', 'a', NOW + 1000, rule), null);
    assert.equal(window.record('g1', 'c', NOW + 2000, rule), null);
    assert.equal(window.record('g1', 'd', NOW + 3000, rule)?.userIds.length, 3);
  });
});

describe('account age', () => {
  test('read from the id: younger than N days is flagged, N days or older is not', () => {
    assert.equal(accountAgeDays(idAt(NOW - 2 * DAY - 1000), NOW), 2);
    assert.equal(isYoungAccount(idAt(NOW - 2 * DAY), NOW, 7), true);
    assert.equal(isYoungAccount(idAt(NOW - 7 * DAY + 60_000), NOW, 7), true);
    assert.equal(isYoungAccount(idAt(NOW - 7 * DAY), NOW, 7), false);
    assert.equal(isYoungAccount(idAt(NOW - 400 * DAY), NOW, 7), false);
    assert.equal(isYoungAccount('not an id', NOW, 7), false);
  });
});

describe('falling back', () => {
  test('after Q quiet minutes since the last burst, not before', () => {
    const last = new Date(NOW);
    assert.equal(fallBackDue(last, 10, NOW + 9 * 60_000 + 59_000), false);
    assert.equal(fallBackDue(last, 10, NOW + 10 * 60_000), true);
  });

  test('the level raid mode set is put back; a moderator’s change stays; nothing raised, nothing restored', () => {
    assert.equal(levelToRestore({ raisedTo: 3, previousLevel: 1 }, 3), 1);
    assert.equal(levelToRestore({ raisedTo: 3, previousLevel: 1 }, 4), null, 'a moderator set Highest meanwhile');
    assert.equal(levelToRestore({ raisedTo: null, previousLevel: null }, 2), null);
    assert.equal(levelToRaise(1, 3), 3);
    assert.equal(levelToRaise(4, 3), null, 'never lowered');
  });

  test('the invite pause is renewed when less than 12 hours are left', () => {
    assert.equal(inviteRenewalDue(new Date(NOW + 13 * 3_600_000), NOW), false);
    assert.equal(inviteRenewalDue(new Date(NOW + 11 * 3_600_000), NOW), true);
  });
});

describe('the settings and the summary', () => {
  test('off by default; bounds refused in words', () => {
    assert.equal(RAID_DEFAULTS.raidRule.enabled, false);
    assert.equal(RAID_DEFAULTS.accountAgeRule.enabled, false);
    const bad = RaidSettingsSchema.safeParse({ ...RAID_DEFAULTS, raidRule: { ...RAID_DEFAULTS.raidRule, joins: 2, seconds: 601 } });
    const messages = Object.fromEntries((bad.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
    assert.deepEqual(messages, { 'raidRule.joins': 'must be between 3 and 100', 'raidRule.seconds': 'must be between 5 and 600' });
    const noDuration = RaidSettingsSchema.safeParse({ ...RAID_DEFAULTS, accountAgeRule: { enabled: true, minDays: 3, action: 'timeout', duration: null } });
    assert.equal(noDuration.error?.issues[0]?.message, 'is required for a timeout');
  });

  test('raid mode reads as a sentence', () => {
    const status: RaidStatus = {
      active: true,
      ruleEnabled: true,
      startedAt: new Date(NOW).toISOString(),
      trigger: 'automatic',
      startedByName: null,
      joinCount: 12,
      windowSeconds: 10,
      raisedTo: 3,
      previousLevel: 1,
      invitesPausedUntil: new Date(NOW + DAY).toISOString(),
      timedOut: 14,
      lastBurstAt: null,
      fallsBackAt: null,
      endedAt: null,
      problems: [],
    };
    assert.equal(
      raidSummary(status, () => '17:20'),
      'Raid mode since 17:20 — verification raised to High, invites paused, 14 members timed out',
    );
  });
});
