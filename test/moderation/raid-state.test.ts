// Raid mode in the store, on each backend: of several processes turning it on at once exactly one
// does (and acts), of several ending it one does, the invite pause is renewed once, and a guild's
// raid row is its own.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import type { Services } from '../../src/core/services';
import { activeRaid, claimEnd, claimRenewal, claimStart, presentRaid, recordDone } from '../../src/features/moderation/raid-state';
import { RAID_DEFAULTS } from '../../src/shared/raids';
import { createTestStore, storeBackends } from '../helpers/store';

const G1 = '300000000000000001';
const G2 = '300000000000000002';
const start = { trigger: 'automatic' as const, startedById: null, startedByName: null, joinCount: 12, windowSeconds: 10 };

for (const backend of storeBackends()) {
  describe(`raid mode on ${backend.name}`, () => {
    test('turned on once of eight at a time, ended once of eight, renewed once of eight; guilds apart', async () => {
      const { store, dispose } = await createTestStore(backend);
      try {
        const clock = new ManualClock(Date.UTC(2026, 10, 26, 17, 20));
        const services = { store, clock } as unknown as Services;
        const starts = await Promise.all(Array.from({ length: 8 }, () => claimStart(services, G1, start)));
        assert.equal(starts.filter(Boolean).length, 1);
        assert.equal(await activeRaid(services, G2), null, 'another guild is not in raid mode');
        const row = await activeRaid(services, G1);
        assert.ok(row);
        const until = new Date(clock.ms() + 3_600_000);
        await recordDone(services, G1, row.startedAt, { previousLevel: 1, raisedTo: 3, invitesPausedUntil: until, timedOut: 12 });
        const status = presentRaid(await activeRaid(services, G1), { ...RAID_DEFAULTS.raidRule, enabled: true });
        assert.equal(status.active, true);
        assert.equal(status.raisedTo, 3);
        assert.equal(status.timedOut, 12);
        assert.equal(status.fallsBackAt, new Date(clock.ms() + 10 * 60_000).toISOString());

        const paused = await activeRaid(services, G1);
        assert.ok(paused);
        clock.advance(60_000);
        const renewals = await Promise.all(Array.from({ length: 8 }, () => claimRenewal(services, paused, until, new Date(clock.ms() + 86_000_000))));
        assert.equal(renewals.filter(Boolean).length, 1);

        const ends = await Promise.all(Array.from({ length: 8 }, () => claimEnd(services, paused)));
        assert.equal(ends.filter(Boolean).length, 1);
        assert.equal(await activeRaid(services, G1), null);
        clock.advance(60_000);
        assert.ok(await claimStart(services, G1, start), 'a later raid turns it on again');
      } finally {
        await dispose();
      }
    });
  });
}
