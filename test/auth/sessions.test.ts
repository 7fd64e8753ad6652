// Logout ends this browser's session; "Sign out everywhere" ends every session of the user and
// revokes the Discord grant. Another user's sessions are never touched.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSecretBox } from '../../src/core/crypto';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const h = useHarness();

describe('sessions', () => {
  /** The user's current Discord access token, decrypted from the store. */
  async function discordToken(userId: string): Promise<string | null> {
    const user = await h().product.store.models.Account.findOne({ where: { userId } });
    return user?.accessToken ? createSecretBox(h().product.config.sessionSecret).open(user.accessToken) : null;
  }

  async function discordAccepts(token: string): Promise<boolean> {
    const response = await fetch(`${h().product.sandbox?.apiBase}/v10/users/@me`, { headers: { Authorization: `Bearer ${token}` } });
    return response.status === 200;
  }

  test('logout ends only this session while another browser stays signed in with a working Discord grant', async () => {
    const userId = h().product.sandbox?.world.demo.ownerUserId ?? '';
    const laptop = await h().signIn(userId);
    const phone = await h().signIn(userId);
    await laptop.post('/api/auth/logout').expect(204);
    await laptop.get('/api/auth/me').expect(401);
    await phone.get('/api/auth/me').expect(200);
    await phone.get('/api/auth/servers').expect(200);
    const token = await discordToken(userId);
    assert.ok(token && (await discordAccepts(token)), 'the grant lives on for the other session');
  });

  test('sign out everywhere ends every session of the user, revokes the Discord grant, and leaves other users alone', async () => {
    const { adminUserId, plainMemberId } = h().product.sandbox?.world.demo ?? { adminUserId: '', plainMemberId: '' };
    const laptop = await h().signIn(adminUserId);
    const phone = await h().signIn(adminUserId);
    const someoneElse = await h().signIn(plainMemberId);
    const token = await discordToken(adminUserId);
    assert.ok(token && (await discordAccepts(token)));

    await laptop.post('/api/auth/logout-everywhere').expect(204);
    await laptop.get('/api/auth/me').expect(401);
    await phone.get('/api/auth/me').expect(401);
    await someoneElse.get('/api/auth/me').expect(200);
    assert.equal(await discordAccepts(token), false, 'the Discord grant is revoked');
    assert.equal(await discordToken(adminUserId), null, 'no token is kept');
    const user = await h().product.store.models.Account.findOne({ where: { userId: adminUserId } });
    assert.equal(await h().product.store.models.Session.count({ where: { accountId: user?.id ?? -1 } }), 0);
  });

  test('sign out everywhere needs a session', async () => {
    const response = await fetch(`${h().product.url}/api/auth/logout-everywhere`, { method: 'POST', headers: { Origin: h().product.config.publicUrl } });
    assert.equal(response.status, 401);
  });

  test('a signed-in read sends no cookie and writes nothing; an anonymous request gets no session at all', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const sessions = () => h().product.store.models.Session.count();
    const before = await sessions();
    const me = await admin.get('/api/auth/me').expect(200);
    assert.equal(me.headers['set-cookie'], undefined, 'an unchanged session in its first half is not re-sent');
    const health = await fetch(`${h().product.url}/api/health`);
    assert.equal(health.headers.get('set-cookie'), null);
    const anonymous = await fetch(`${h().product.url}/api/auth/me`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('set-cookie'), null);
    assert.equal(await sessions(), before, 'no row made or dropped');
  });
});

describe('a session in use', () => {
  test('is renewed in the second half of its life: the cookie and the stored expiry move 30 days on', async () => {
    const world = h().world;
    const member = world.addMember(h().guildId, { username: `renewing_${Date.now()}` });
    const session = await h().signIn(member.userId);
    const { Account, Session } = h().product.store.models;
    const account = await Account.findOne({ where: { userId: member.userId } });
    assert.ok(account);
    const [row] = await Session.findAll({ where: { accountId: account.id } });
    assert.ok(row);
    // Signed in 20 days ago: 10 days left, past the middle of its 30.
    const day = 24 * 3600 * 1000;
    await row.update({ expiresAt: new Date(Date.now() + 10 * day) });
    h().product.store.cached.sessions.clear();

    const answer = await session.get('/api/auth/me').expect(200);
    const cookie = (answer.headers['set-cookie'] as unknown as string[] | undefined)?.find((line) => line.startsWith('sid='));
    assert.ok(cookie, 'the cookie is sent again');
    const expires = Date.parse(/expires=([^;]+)/i.exec(cookie)?.[1] ?? '');
    assert.ok(expires > Date.now() + 29 * day, `the cookie lasts 30 days from now (${new Date(expires).toISOString()})`);
    await waitFor(
      async () => (await row.reload()).expiresAt.getTime() > Date.now() + 29 * day || null,
      5000,
      'the stored session to last 30 days from now too',
    );
    // The barrier the next request reads through: the product's own cache of the row. The stored row
    // can show the new expiry (committed) a moment before the write's answer reaches the product and
    // its cache forgets the old one; a request in that moment renews again, harmlessly.
    await waitFor(
      async () => ((await h().product.store.cached.sessions.get(row.id))?.expiresAt.getTime() ?? 0) > Date.now() + 29 * day || null,
      5000,
      'the product to read the renewed session',
    );

    // A fresh session is not written again on every request.
    const again = await session.get('/api/auth/me').expect(200);
    assert.equal(again.headers['set-cookie'], undefined);
  });
});
