// One open appeal per ban case, held by the store itself on each backend (the partial unique
// index of migration 013): a second open appeal of a case is refused, decided ones leave room for
// a new one, and other cases and guilds are apart.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UniqueConstraintError } from 'sequelize';
import { createTestStore, storeBackends } from '../helpers/store';

const appeal = (guildId: string, caseNumber: number, status = 'open') => ({
  guildId,
  caseNumber,
  userId: '200000000000000001',
  userName: 'member',
  text: 'I understand the rules now and will not spam again.',
  status,
  decidedById: null,
  decidedByName: null,
  decisionReason: null,
  unbanCaseNumber: null,
  dmDelivered: null,
  createdAt: new Date(Date.UTC(2026, 10, 26)),
  decidedAt: null,
});

for (const backend of storeBackends()) {
  describe(`one open appeal per case on ${backend.name}`, () => {
    test('a second open appeal of a case is refused; decided ones, other cases and other guilds are not', async () => {
      const { store, dispose } = await createTestStore(backend);
      try {
        const { ModerationAppeal } = store.models;
        await ModerationAppeal.create(appeal('300000000000000001', 1, 'denied'));
        await ModerationAppeal.create(appeal('300000000000000001', 1, 'denied'));
        const open = await ModerationAppeal.create(appeal('300000000000000001', 1));
        await assert.rejects(ModerationAppeal.create(appeal('300000000000000001', 1)), UniqueConstraintError);
        await ModerationAppeal.create(appeal('300000000000000001', 2));
        await ModerationAppeal.create(appeal('300000000000000002', 1));
        await open.update({ status: 'accepted' });
        await ModerationAppeal.create(appeal('300000000000000001', 1));
        assert.equal(await ModerationAppeal.count({ where: { guildId: '300000000000000001', caseNumber: 1 } }), 4);
      } finally {
        await dispose();
      }
    });
  });
}
