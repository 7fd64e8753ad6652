// writeSettings and the features' settings effects, against an in-memory store with no bot: an
// effect runs (check, then apply with the previous settings) only when a write changes one of its
// keys, or when it says Discord drifted and the page that owns its keys saves; a check or an apply
// that refuses stores nothing; a dry run checks and applies nothing. Then the welcome feature's own
// effect: a template that can outgrow Discord's 2,000 characters is refused naming its field.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../core/clock';
import { InvalidInput } from '../../core/errors';
import type { Feature } from '../../core/feature';
import type { Services, SettingsEffect } from '../../core/services';
import type { Store } from '../../db/store';
import { createLogger } from '../../logger';
import { buildServices } from '../../main';
import type { GuildSettings, SettingKey } from '../../shared/settings';
import { testConfig } from '../../../test/helpers/app';
import { createTestStore } from '../../../test/helpers/store';
import { welcomeFeature } from '../welcome';
import { writeSettings } from './service';

const guild = { id: '300000000000000001', name: 'Effects Guild', icon: null, memberCount: 10, ownerId: '400000000000000009' };
const actor = { userId: null, name: 'test' };
const update = { kind: 'update' as const };

/** What the fake effects saw, in order. */
let calls: string[] = [];
let refuseCheck = false;
let refuseApply = false;
let drifted = false;

/** An effect on `keys` that records its calls and refuses when told to. */
function recording(name: string, keys: SettingKey[]): SettingsEffect {
  return {
    keys,
    check: () => {
      calls.push(`${name}.check`);
      if (refuseCheck) throw InvalidInput.field(keys[0] ?? 'x', 'refused by the check');
    },
    stale: async () => {
      calls.push(`${name}.stale`);
      return drifted;
    },
    apply: async (_services, _guild, next: GuildSettings, previous: GuildSettings) => {
      const key = keys[0] ?? 'xpCooldown';
      calls.push(`${name}.apply ${String(previous[key])} -> ${String(next[key])}`);
      if (refuseApply) throw new Error('Discord refused');
    },
  };
}

const fakeFeature: Feature = { name: 'fake', settingsEffects: [recording('cooldown', ['xpCooldown']), recording('currency', ['currencyName', 'dailyReward'])] };

describe('writeSettings runs the settings effects', () => {
  let store: Store;
  let services: Services;
  let dispose: () => Promise<void>;

  before(async () => {
    ({ store, dispose } = await createTestStore());
    services = buildServices({
      config: testConfig(),
      store,
      client: null,
      logger: createLogger('silent'),
      clock: new ManualClock(Date.UTC(2026, 10, 2, 12)),
      features: [fakeFeature, welcomeFeature],
    });
  });
  after(() => dispose());
  beforeEach(() => {
    calls = [];
    refuseCheck = false;
    refuseApply = false;
    drifted = false;
  });
  const stored = () => services.settings.get(guild.id);

  test("only the effects whose keys changed run: check, then apply with the previous and next values; others' stale is asked only for keys sent", async () => {
    const before = (await stored()).xpCooldown;
    const changes = await writeSettings(services, guild, { xpCooldown: before + 5 }, actor, update);
    assert.deepEqual(
      changes.map((change) => change.field),
      ['xpCooldown'],
    );
    assert.deepEqual(calls, ['cooldown.check', `cooldown.apply ${before} -> ${before + 5}`]);
    assert.equal((await stored()).xpCooldown, before + 5);
  });

  test('a write that changes nothing runs no effect and stores nothing, unless an effect of a key sent says Discord drifted', async () => {
    const current = await stored();
    assert.deepEqual(await writeSettings(services, guild, { currencyName: current.currencyName }, actor, update), []);
    assert.deepEqual(calls, ['currency.stale'], 'asked whether Discord drifted, nothing run');

    calls = [];
    drifted = true;
    assert.deepEqual(await writeSettings(services, guild, { currencyName: current.currencyName }, actor, update), []);
    assert.deepEqual(calls, ['currency.stale', 'currency.check', `currency.apply ${current.currencyName} -> ${current.currencyName}`]);

    calls = [];
    await writeSettings(services, guild, { xpCooldown: current.xpCooldown }, actor, update);
    assert.deepEqual(calls, ['cooldown.stale', 'cooldown.check', `cooldown.apply ${current.xpCooldown} -> ${current.xpCooldown}`], 'only the page sent');
  });

  test('a check that refuses stores nothing and applies nothing', async () => {
    const before = await stored();
    refuseCheck = true;
    await assert.rejects(
      writeSettings(services, guild, { xpCooldown: before.xpCooldown + 1, currencyName: 'shells' }, actor, update),
      (error: unknown) => error instanceof InvalidInput && /refused by the check/.test(JSON.stringify(error.fields)),
    );
    assert.equal(
      calls.some((call) => call.includes('apply')),
      false,
    );
    assert.deepEqual(await stored(), before);
  });

  test('an apply that fails (Discord refusing) stores nothing', async () => {
    const before = await stored();
    refuseApply = true;
    await assert.rejects(writeSettings(services, guild, { currencyName: 'pebbles' }, actor, update), /Discord refused/);
    assert.deepEqual(calls, ['currency.check', `currency.apply ${before.currencyName} -> pebbles`]);
    assert.equal((await stored()).currencyName, before.currencyName);
  });

  test('a dry run checks, reports the change, and neither applies nor stores', async () => {
    const before = await stored();
    const changes = await writeSettings(services, guild, { dailyReward: before.dailyReward + 10 }, actor, { ...update, dryRun: true });
    assert.deepEqual(
      changes.map((change) => [change.field, change.to]),
      [['dailyReward', before.dailyReward + 10]],
    );
    assert.deepEqual(calls, ['currency.check']);
    assert.equal((await stored()).dailyReward, before.dailyReward);
  });

  test('the welcome effect refuses a template that can pass 2,000 characters once filled in, naming the field; one that fits is saved', async () => {
    // 600 characters typed; 100 mentions of up to 23 characters once filled in.
    const long = '{user}'.repeat(100);
    await assert.rejects(writeSettings(services, guild, { welcomeMessage: long }, actor, update), (error: unknown) => {
      assert.ok(error instanceof InvalidInput);
      assert.match(error.fields?.welcomeMessage ?? '', /can reach 2,\d{3} characters once the placeholders are filled in; Discord allows 2,000/);
      return true;
    });
    await assert.rejects(writeSettings(services, guild, { welcomeDmMessage: long }, actor, update), (error: unknown) => {
      assert.ok(error instanceof InvalidInput);
      assert.ok(error.fields?.welcomeDmMessage);
      return true;
    });
    assert.notEqual((await stored()).welcomeMessage, long);
    await writeSettings(services, guild, { welcomeMessage: 'Hi {user}, welcome to {server}!' }, actor, update);
    assert.equal((await stored()).welcomeMessage, 'Hi {user}, welcome to {server}!');
  });
});
