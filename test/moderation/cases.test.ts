// Case numbers under concurrency, on each store: many cases recorded at once in one guild are
// numbered 1..N with no gap and no repeat (PostgreSQL numbers them in parallel transactions and
// retries the loser of a collision), and one audit-log entry is recorded once however often it
// arrives.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import type { Services } from '../../src/core/services';
import { recordCase, type CaseRecord } from '../../src/features/moderation/cases';
import { createTestStore, storeBackends } from '../helpers/store';

const base: CaseRecord = {
  action: 'warn',
  targetId: '200000000000000001',
  targetName: 'member',
  moderatorId: '100000000000000001',
  moderatorName: 'mod',
  reason: 'Spam',
  source: 'dashboard',
};

for (const backend of storeBackends()) {
  describe(`case numbers on ${backend.name}`, () => {
    test('60 cases recorded at once in one guild are numbered 1..60; another guild counts on its own', async () => {
      const { store, dispose } = await createTestStore(backend);
      try {
        const services = { store, clock: new ManualClock(Date.UTC(2026, 10, 22)) } as unknown as Services;
        const rows = await Promise.all(Array.from({ length: 60 }, (_, i) => recordCase(services, '300000000000000001', { ...base, reason: `Spam ${i}` })));
        assert.deepEqual(
          rows.map((row) => row?.caseNumber).sort((a, b) => (a ?? 0) - (b ?? 0)),
          Array.from({ length: 60 }, (_, i) => i + 1),
        );
        assert.equal((await recordCase(services, '300000000000000002', base))?.caseNumber, 1);
      } finally {
        await dispose();
      }
    });

    test('an audit-log entry seen five times at once is one case', async () => {
      const { store, dispose } = await createTestStore(backend);
      try {
        const services = { store, clock: new ManualClock(Date.UTC(2026, 10, 22)) } as unknown as Services;
        const rows = await Promise.all(
          Array.from({ length: 5 }, () => recordCase(services, '300000000000000001', { ...base, source: 'discord', auditEntryId: '400000000000000001' })),
        );
        assert.equal(rows.filter(Boolean).length, 1);
        assert.equal(await store.models.ModerationLog.count(), 1);
      } finally {
        await dispose();
      }
    });
  });
}
