// The demo login (sandbox mode) may only create or reuse demo accounts it made itself: it
// must never sign in as, or hand the Admin role to, a user who already exists in the sandbox.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEMO_LOGIN_DEFAULTS, DEMO_LOGIN_ID_MESSAGE } from '../../src/shared/demo-login';
import { browserAgent } from '../helpers/product';
import { useHarness } from '../helpers/harness';

const h = useHarness();

describe('demo login', () => {
  /** The sandbox's guilds, users and members as JSON, to prove a refused login changed nothing. */
  const worldSnapshot = async () => {
    const { botPresence: _presence, ...state } = (await (await fetch(`${h().product.sandbox?.url}/_sandbox/state`)).json()) as Record<string, unknown>;
    return JSON.stringify(state);
  };

  test('an id of an existing sandbox user (owner, admin of another guild, member, the bot) is refused with 409 naming id, and changes nothing', async () => {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    const taken = {
      owner: world.demo.ownerUserId,
      'other guild admin': world.demo.otherAdminUserId,
      'plain member': world.demo.plainMemberId,
      bot: world.botUserId,
    };
    for (const [who, id] of Object.entries(taken)) {
      const before = await worldSnapshot();
      const browser = browserAgent(h().product);
      const response = await browser.post('/api/auth/mock-login', { username: 'sneaky', id, discriminator: '0000' });
      assert.equal(response.status, 409, `${who}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.fields?.id ?? '', /already belongs to a sandbox user/, who);
      assert.equal(await worldSnapshot(), before, `${who}: the world is unchanged`);
      await browser.get('/api/auth/me').expect(401);
      assert.equal(await h().product.store.models.Account.count({ where: { userId: id } }), 0, `${who}: no account was made`);
    }
  });

  test('an id that is not a canonical Discord user id is refused with 400 naming id, and changes nothing', async () => {
    for (const id of [
      '0123456789012345678',
      '00935480000000000001',
      '1234567890123456',
      '123456789012345678901',
      '18446744073709551616',
      '12345678901234567a',
      ' 123456789012345678',
    ]) {
      const before = await worldSnapshot();
      const browser = browserAgent(h().product);
      const response = await browser.post('/api/auth/mock-login', { username: 'sneaky', id, discriminator: '0000' });
      assert.equal(response.status, 400, `${id}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.fields?.id, `ID ${DEMO_LOGIN_ID_MESSAGE}.`, id);
      assert.equal(await worldSnapshot(), before, `${id}: the world is unchanged`);
      await browser.get('/api/auth/me').expect(401);
    }
  });

  test('the id of a server, role, channel, emoji or message in the sandbox is refused with 409 naming id, and changes nothing', async () => {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    const guild = world.requireGuild(world.demo.guildId);
    const said = world.messages.create(world.demo.channels.general, { authorId: world.demo.plainMemberId, content: 'hello' });
    const emoji = [...guild.emojis.keys()][0];
    const things: [string, string | undefined][] = [
      ['server', world.demo.guildId],
      ['server', world.demo.secondGuildId],
      ['role', world.demo.roles.member],
      ['channel', world.demo.channels.general],
      ['emoji', emoji],
      ['message', said.id],
    ];
    for (const [kind, id] of things) {
      if (!id) continue;
      const before = await worldSnapshot();
      const browser = browserAgent(h().product);
      const response = await browser.post('/api/auth/mock-login', { username: 'sneaky', id, discriminator: '0000' });
      assert.equal(response.status, 409, `${kind}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.fields?.id, `${id} is the id of a ${kind} in the sandbox, not of a user. Use another id.`, kind);
      assert.equal(await worldSnapshot(), before, `${kind}: the world is unchanged`);
      await browser.get('/api/auth/me').expect(401);
      assert.equal(await h().product.store.models.Account.count({ where: { userId: id } }), 0, `${kind}: no account was made`);
    }
  });

  test('a new id becomes a demo admin of the demo guild, and the same id signs in again as the same account', async () => {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    const id = '123456789012345678';
    const first = browserAgent(h().product);
    await first.post('/api/auth/mock-login', { username: 'demo_tester', id, discriminator: '0000' }).expect(200);
    assert.ok(world.guilds.get(world.demo.guildId)?.members.get(id)?.roleIds.includes(world.demo.roles.admin));
    await first.get(`/api/servers/${world.demo.guildId}/overview`).expect(200);

    const before = await worldSnapshot();
    const second = browserAgent(h().product);
    const again = await second.post('/api/auth/mock-login', { username: 'demo_tester', id, discriminator: '0000' }).expect(200);
    assert.equal(again.body.user.discordId, id);
    assert.equal(await worldSnapshot(), before, 'reusing the account changes nothing');
    assert.equal(await h().product.store.models.Account.count({ where: { userId: id } }), 1);
  });

  test("the form's default identity is the seeded demo admin, who also owns a guild without the bot", async () => {
    const browser = browserAgent(h().product);
    const response = await browser.post('/api/auth/mock-login', { ...DEMO_LOGIN_DEFAULTS }).expect(200);
    assert.equal(response.body.user.discordId, h().product.sandbox?.world.demo.adminUserId);
    assert.ok(response.body.user.avatar, 'the demo admin has an avatar');
    const servers = (await browser.get('/api/auth/servers').expect(200)).body as { id: string; hasBot: boolean; owner: boolean }[];
    assert.ok(servers.some((server) => server.id === h().product.sandbox?.world.demo.secondGuildId && !server.hasBot && server.owner));
  });
});
