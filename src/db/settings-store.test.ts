import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../core/clock';
import type { Store } from './store';
import { createLogger } from '../logger';
import { SETTINGS_DEFAULTS } from '../shared/settings';
import { createTestStore, storeBackends } from '../../test/helpers/store';
import { SettingsStore, changedKeys, nonDefaults } from './settings-store';

const actor = { userId: '100000000000000001', name: 'admin' };

for (const backend of storeBackends()) {
  describe(`settings store on ${backend.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    before(async () => {
      ({ store, dispose } = await createTestStore(backend));
    });
    after(() => dispose());

    const settingsStore = () => new SettingsStore({ store, clock: new ManualClock(Date.UTC(2026, 0, 1)), logger: createLogger('silent') });

    test('stores only what differs from the defaults and reads it back merged', async () => {
      const settings = settingsStore();
      await settings.change('1', async (current) => ({
        next: { ...current, settings: { ...current.settings, xpCooldown: 5, currencyName: 'gems' } },
        record: { actor, kind: 'update', summary: 'x', changes: [] },
      }));
      const row = await store.models.GuildSettings.findByPk('1');
      assert.deepEqual((row?.data as { values: unknown }).values, { xpCooldown: 5, currencyName: 'gems' });
      assert.equal(row?.version, 1);
      assert.deepEqual(await settingsStore().get('1'), { ...SETTINGS_DEFAULTS, xpCooldown: 5, currencyName: 'gems' });
    });

    test('`with` answers at once once the settings are in memory, and a change (or a read racing it) never leaves an old value there', async () => {
      const settings = settingsStore();
      const first = settings.with('9', (current) => current.xpCooldown);
      assert.ok(first instanceof Promise, 'the first read loads');
      assert.equal(await first, SETTINGS_DEFAULTS.xpCooldown);
      assert.equal(
        settings.with('9', (current) => current.xpCooldown),
        SETTINGS_DEFAULTS.xpCooldown,
        'then answers synchronously',
      );
      let racing: unknown;
      const changing = settings.change('9', async (current) => {
        // A message arriving while the write is under way reads (and loads) the settings.
        racing = settings.with('9', (inner) => inner.xpCooldown);
        await racing;
        return { next: { ...current, settings: { ...current.settings, xpCooldown: 7 } }, record: { actor, kind: 'update', summary: 'x', changes: [] } };
      });
      await changing;
      assert.equal(await settings.with('9', (current) => current.xpCooldown), 7);
      assert.equal(
        settings.with('9', (current) => current.xpCooldown),
        7,
      );
    });

    test('concurrent changes of one guild are serialised: none is lost, each is recorded', async () => {
      const settings = settingsStore();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          settings.change('2', async (current) => ({
            next: { ...current, settings: { ...current.settings, baseReward: current.settings.baseReward + 1 } },
            record: {
              actor,
              kind: 'update',
              summary: `+1 #${i}`,
              changes: [{ field: 'baseReward', from: current.settings.baseReward, to: current.settings.baseReward + 1 }],
            },
          })),
        ),
      );
      assert.equal((await settings.get('2')).baseReward, SETTINGS_DEFAULTS.baseReward + 20);
      const history = await settings.history('2', 1, 100);
      assert.equal(history.total, 20);
      assert.equal((await store.models.GuildSettings.findByPk('2'))?.version, 20);
    });

    test('a stored value that no longer passes its schema falls back to the default', async () => {
      await store.models.GuildSettings.create({ guildId: '3', data: { values: { xpCooldown: -7, currencyName: 'ok' } }, updatedAt: new Date() });
      const read = await settingsStore().get('3');
      assert.equal(read.xpCooldown, SETTINGS_DEFAULTS.xpCooldown);
      assert.equal(read.currencyName, 'ok');
    });

    test('a failed write stores nothing and leaves the cache consistent', async () => {
      const settings = settingsStore();
      await assert.rejects(
        settings.change('4', async () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.deepEqual(await settings.get('4'), SETTINGS_DEFAULTS);
      assert.equal(await store.models.SettingsHistory.count({ where: { guildId: '4' } }), 0);
    });
  });
}

test('changedKeys and nonDefaults compare by value', () => {
  const next = { ...SETTINGS_DEFAULTS, textMultiplier: 2 };
  assert.deepEqual(changedKeys(SETTINGS_DEFAULTS, next), ['textMultiplier']);
  assert.deepEqual(nonDefaults(next), { textMultiplier: 2 });
});
