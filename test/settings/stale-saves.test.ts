// A stale page never undoes a colleague's save (issue 20, point 3). Two admins have the same page
// open; A saves; B, whose copy is older, saves too. B's page sends only what B changed and the
// version it loaded: what A changed to other fields is kept, and where B's save would undo A's
// change, nothing is saved and B is told what changed meanwhile, by whom, in words; saving again
// over the current version keeps B's values. The same for settings, shop items, reaction roles
// and scheduled announcements.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AnnouncementSchema } from '../../src/shared/announcements';
import { ShopItemSchema } from '../../src/shared/economy';
import { ReactionRoleSchema } from '../../src/shared/reaction-roles';
import { HistoryPageSchema, SettingsViewSchema } from '../../src/shared/settings';
import { useHarness } from '../helpers/harness';
import { buildAccount } from '../factories';

const h = useHarness();
const base = () => `/api/servers/${h().guildId}`;
/** Two admins of the demo guild: A (the demo admin) and B (a second Administrator). */
async function admins() {
  const a = await h().signIn(h().demo.adminUserId);
  const b = await buildAccount(h(), { roleIds: [h().demo.roles.admin] });
  return { a, b: b.session, bName: b.username };
}

describe('settings saved from an outdated page', () => {
  test('A saves the text multiplier; B, loaded earlier, saves only the level-up bonus: both kept, the history names each for their own change', async () => {
    const { a, b, bName } = await admins();
    const loaded = SettingsViewSchema.parse((await b.get(`${base()}/settings`).expect(200)).body);
    const mine = SettingsViewSchema.parse((await a.get(`${base()}/settings`).expect(200)).body);
    assert.equal(mine.version, loaded.version);

    const saved = SettingsViewSchema.parse((await a.put(`${base()}/settings`, { textMultiplier: 1.7, baseVersion: mine.version }).expect(200)).body);
    assert.equal(saved.version, loaded.version + 1);
    const merged = SettingsViewSchema.parse((await b.put(`${base()}/settings`, { levelUpBonus: 150, baseVersion: loaded.version }).expect(200)).body);
    assert.equal(merged.textMultiplier, 1.7, "A's multiplier stays");
    assert.equal(merged.levelUpBonus, 150);

    const history = HistoryPageSchema.parse((await a.get(`${base()}/audit-log`).expect(200)).body);
    const [latest, previous] = history.entries;
    assert.deepEqual(
      latest?.changes.map((change) => change.field),
      ['levelUpBonus'],
    );
    assert.equal(latest?.actor.name, bName);
    assert.deepEqual(
      previous?.changes.map((change) => change.field),
      ['textMultiplier'],
    );
  });

  test(
    "B would undo A's change: 409 naming what changed, who and from what to what; nothing saved; saving again over the new version keeps B's " + 'value',
    async () => {
      const { a, b } = await admins();
      const loaded = SettingsViewSchema.parse((await b.get(`${base()}/settings`).expect(200)).body);
      const before = loaded.voiceMultiplier;
      await a.put(`${base()}/settings`, { voiceMultiplier: 0.8, baseVersion: loaded.version }).expect(200);

      const refused = await b.put(`${base()}/settings`, { voiceMultiplier: 1.2, baseVersion: loaded.version });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.error, 'stale_version');
      const adminName = h().world.users.get(h().demo.adminUserId)?.username;
      assert.equal(
        refused.body.message,
        `While you were editing, ${adminName} changed Voice multiplier from ${before} to 0.8. Reload to see the current values, or save again to keep yours.`,
      );
      assert.equal(refused.body.stale.changes[0].by, adminName);
      assert.deepEqual(
        refused.body.stale.changes.map(({ field, label, from, to }: Record<string, string>) => ({ field, label, from, to })),
        [{ field: 'voiceMultiplier', label: 'Voice multiplier', from: String(before), to: '0.8' }],
      );
      assert.equal((await h().product.services.settings.get(h().guildId)).voiceMultiplier, 0.8, 'nothing saved');

      // The same value as A's is no conflict; B keeping theirs saves over the current version.
      await b.put(`${base()}/settings`, { voiceMultiplier: 0.8, baseVersion: loaded.version }).expect(200);
      const kept = SettingsViewSchema.parse(
        (await b.put(`${base()}/settings`, { voiceMultiplier: 1.2, baseVersion: refused.body.stale.version }).expect(200)).body,
      );
      assert.equal(kept.voiceMultiplier, 1.2);
    },
  );

  test('role and channel ids read as their names in what changed meanwhile', async () => {
    const { a, b } = await admins();
    const loaded = SettingsViewSchema.parse((await b.get(`${base()}/settings`).expect(200)).body);
    await a.put(`${base()}/settings`, { welcomeChannelId: h().demo.channels.welcome, baseVersion: loaded.version }).expect(200);
    const refused = await b.put(`${base()}/settings`, { welcomeChannelId: h().demo.channels.general, baseVersion: loaded.version });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.stale.changes[0].to, '#welcome');
    assert.equal(refused.body.stale.changes[0].label, 'Welcome channel');
  });

  test('a base version that is not a number is refused naming the field', async () => {
    const { a } = await admins();
    const bad = await a.put(`${base()}/settings`, { xpCooldown: 30, baseVersion: 'latest' });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fields.baseVersion);
  });
});

describe('items saved from an outdated page', () => {
  test(
    "shop items: B changes the description over A's new price (kept); B's price would undo A's (409, then kept over the new version); a full PUT " +
      'from the old copy is refused too',
    async () => {
      const { a, b } = await admins();
      const item = ShopItemSchema.parse((await a.post(`${base()}/shop`, { name: 'Lantern', price: 50, type: 'cosmetic' }).expect(200)).body);
      assert.equal(item.version, 0);
      const priced = ShopItemSchema.parse((await a.patch(`${base()}/shop/${item.id}`, { price: 60, baseVersion: item.version }).expect(200)).body);
      assert.equal(priced.version, 1);

      const described = ShopItemSchema.parse(
        (await b.patch(`${base()}/shop/${item.id}`, { description: 'Lights the way', baseVersion: item.version }).expect(200)).body,
      );
      assert.equal(described.price, 60, "A's price stays");
      assert.equal(described.description, 'Lights the way');

      const refused = await b.patch(`${base()}/shop/${item.id}`, { price: 45, baseVersion: item.version });
      assert.equal(refused.status, 409);
      assert.deepEqual(
        refused.body.stale.changes.map(({ label, from, to }: Record<string, string>) => [label, from, to]),
        [['Price', '50', '60']],
      );
      const fullPut = await b.put(`${base()}/shop/${item.id}`, { name: 'Lantern', price: 50, type: 'cosmetic', baseVersion: item.version });
      assert.equal(fullPut.status, 409, 'a full save from the old copy would undo the price and the description');
      assert.equal((await h().product.store.models.ShopItem.findByPk(item.id))?.price, 60, 'nothing saved');

      const kept = ShopItemSchema.parse((await b.patch(`${base()}/shop/${item.id}`, { price: 45, baseVersion: refused.body.stale.version }).expect(200)).body);
      assert.equal(kept.price, 45);
      assert.equal(kept.version, 3);
    },
  );

  test('two saves of the same field from the same copy at once: one lands, the other is refused, never both', async () => {
    const { a, b } = await admins();
    const item = ShopItemSchema.parse((await a.post(`${base()}/shop`, { name: 'Bell', price: 10, type: 'cosmetic' }).expect(200)).body);
    const answers = await Promise.all([
      a.patch(`${base()}/shop/${item.id}`, { price: 11, baseVersion: item.version }),
      b.patch(`${base()}/shop/${item.id}`, { price: 12, baseVersion: item.version }),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    const winner = answers.find((answer) => answer.status === 200);
    assert.equal((await h().product.store.models.ShopItem.findByPk(item.id))?.price, winner?.body.price);
  });

  test("a purchase does not make an admin's page outdated: only edits count", async () => {
    const { a } = await admins();
    const item = ShopItemSchema.parse((await a.post(`${base()}/shop`, { name: 'Candle', price: 0, type: 'cosmetic', stock: 5 }).expect(200)).body);
    const bought = await h().slash(h().demo.plainMemberId, 'buy', { item: String(item.id) });
    assert.match(bought.body.content, /You bought \*\*Candle\*\*/);
    const saved = ShopItemSchema.parse((await a.patch(`${base()}/shop/${item.id}`, { name: 'Tall candle', baseVersion: item.version }).expect(200)).body);
    assert.equal(saved.stock, 4, 'the purchase is kept: the page sent only the name');
  });

  test('reaction roles: a mode changed meanwhile refuses another mode from the old copy; switching the entry off is kept alongside', async () => {
    const { a, b } = await admins();
    const posted = await h().control<{ id: string }>('POST', `/channels/${h().demo.channels.general}/messages`, {
      authorId: h().demo.adminUserId,
      content: 'Pick a colour',
    });
    const entry = ReactionRoleSchema.parse(
      (
        await a
          .post(`${base()}/reaction-roles`, { messageId: posted.body.id, channelId: h().demo.channels.general, emoji: '🟢', roleId: h().demo.roles.verified })
          .expect(200)
      ).body,
    );
    await a.patch(`${base()}/reaction-roles/${entry.id}`, { mode: 'unique', baseVersion: entry.version }).expect(200);
    const off = ReactionRoleSchema.parse(
      (await b.patch(`${base()}/reaction-roles/${entry.id}`, { isActive: false, baseVersion: entry.version }).expect(200)).body,
    );
    assert.equal(off.mode, 'unique');
    assert.equal(off.isActive, false);
    const refused = await b.patch(`${base()}/reaction-roles/${entry.id}`, { mode: 'drop', baseVersion: entry.version });
    assert.equal(refused.status, 409);
    assert.deepEqual(
      refused.body.stale.changes.map(({ label, from, to }: Record<string, string>) => [label, from, to]),
      [['Mode', 'normal', 'unique']],
    );
  });

  test('scheduled announcements: a title changed meanwhile refuses another title from the old copy; the message is kept alongside', async () => {
    const { a, b } = await admins();
    const scheduleTime = new Date(h().product.services.clock.ms() + 3_600_000).toISOString();
    const created = AnnouncementSchema.parse(
      (await a.post(`${base()}/announcements`, { title: 'Game night', message: 'Friday at 8', channelId: h().demo.channels.general, scheduleTime }).expect(200))
        .body,
    );
    await a.patch(`${base()}/announcements/${created.id}`, { title: 'Game night (moved)', baseVersion: created.version }).expect(200);
    const kept = AnnouncementSchema.parse(
      (await b.patch(`${base()}/announcements/${created.id}`, { message: 'Saturday at 8', baseVersion: created.version }).expect(200)).body,
    );
    assert.equal(kept.title, 'Game night (moved)');
    assert.equal(kept.message, 'Saturday at 8');
    const refused = await b.patch(`${base()}/announcements/${created.id}`, { title: 'Board games', baseVersion: created.version });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /changed Title from Game night to Game night \(moved\)/);
  });
});
