// Delegated dashboard access: the owner or an Administrator grants a role or a member view or
// edit access, optionally until a date; the access rule reads grants live; every grant and
// revocation is in the history.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { GrantSchema, HistoryPageSchema } from '../../src/shared/settings';
import { ServerListSchema } from '../../src/shared/auth';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember } from '../factories';

const clock = new ManualClock(Date.now());
const h = useHarness({}, { clock });

const accessUrl = () => `/api/servers/${h().guildId}/access`;

describe('delegated dashboard access', () => {
  test('only the owner or an Administrator grants: 401, 400 naming the field, 403 for a manager, then 200', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const manager = await buildAccount(h(), { roleIds: [h().demo.roles.moderator] });
    const helper = await buildMember(h());
    const anonymous = await fetch(`${h().product.url}${accessUrl()}`, {
      method: 'POST',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(anonymous.status, 401);
    const bad = await admin.post(accessUrl(), { subjectType: 'member', subjectId: helper.userId, level: 'owner' }).expect(400);
    assert.equal(bad.body.fields.level, 'Level must be view or edit.');
    const refused = await manager.session.post(accessUrl(), { subjectType: 'member', subjectId: helper.userId, level: 'view' }).expect(403);
    assert.equal(refused.body.message, 'Only the server owner or an Administrator can do that.');
    const grant = GrantSchema.parse((await admin.post(accessUrl(), { subjectType: 'member', subjectId: helper.userId, level: 'view' }).expect(200)).body);
    assert.equal(grant.subjectName, helper.username);
    const listed = (await manager.session.get(accessUrl()).expect(200)).body as unknown[];
    assert.ok(
      listed.some((row) => (row as { id: number }).id === grant.id),
      'a manager can see the grants',
    );
  });

  test('a grant must name a role or member of this server (not @everyone) and a future date', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const cases: [object, string, RegExp][] = [
      [{ subjectType: 'role', subjectId: '123456789012345678', level: 'view' }, 'subjectId', /not a role of this server/],
      [{ subjectType: 'role', subjectId: h().guildId, level: 'view' }, 'subjectId', /@everyone/],
      [{ subjectType: 'member', subjectId: h().demo.otherAdminUserId, level: 'view' }, 'subjectId', /not a member of this server/],
      [
        { subjectType: 'member', subjectId: h().demo.plainMemberId, level: 'view', expiresAt: new Date(clock.ms() - 1000).toISOString() },
        'expiresAt',
        /future/,
      ],
      [{ subjectType: 'member', subjectId: h().demo.plainMemberId, level: 'view', expiresAt: 'tomorrow' }, 'expiresAt', /date and time/],
    ];
    for (const [body, field, message] of cases) {
      const response = await admin.post(accessUrl(), body).expect(400);
      assert.match(response.body.fields?.[field] ?? '', message, JSON.stringify(body));
    }
  });

  test('a role grant gives its members access; the guild shows in their server list with that level; revoking ends it at once', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await buildAccount(h(), { roleIds: [h().demo.roles.member] });
    const overview = `/api/servers/${h().guildId}/overview`;
    await member.session.get(overview).expect(403);
    const grant = GrantSchema.parse((await admin.post(accessUrl(), { subjectType: 'role', subjectId: h().demo.roles.member, level: 'edit' }).expect(200)).body);
    assert.equal(grant.subjectName, 'Member');
    await member.session.get(overview).expect(200);
    await member.session.put(`/api/servers/${h().guildId}/settings`, { xpCooldown: 42 }).expect(200);
    const servers = ServerListSchema.parse((await member.session.get('/api/auth/servers').expect(200)).body);
    assert.equal(servers.find((server) => server.id === h().guildId)?.access, 'edit');
    await member.session.post(accessUrl(), { subjectType: 'role', subjectId: h().demo.roles.verified, level: 'view' }).expect(403);

    await admin.delete(`${accessUrl()}/${grant.id}`).expect(204);
    await member.session.get(overview).expect(403);
    await admin.delete(`${accessUrl()}/${grant.id}`).expect(404);
    const history = HistoryPageSchema.parse((await admin.get(`/api/servers/${h().guildId}/audit-log?pageSize=5`)).body);
    const kinds = history.entries.map((entry) => `${entry.kind}: ${entry.summary}`);
    assert.ok(kinds.includes('revoke: Revoked edit access from @Member'), kinds.join('\n'));
    assert.ok(kinds.includes('grant: Granted edit access to @Member'), kinds.join('\n'));
  });

  test('a grant until a date ends when the clock passes it', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await buildAccount(h());
    const until = new Date(clock.ms() + 3_600_000).toISOString();
    await admin.post(accessUrl(), { subjectType: 'member', subjectId: member.userId, level: 'view', expiresAt: until }).expect(200);
    const overview = `/api/servers/${h().guildId}/overview`;
    await member.session.get(overview).expect(200);
    clock.advance(3_600_001);
    await member.session.get(overview).expect(403);
  });

  test('a member who leaves the server loses the access granted to them', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await buildAccount(h());
    await admin.post(accessUrl(), { subjectType: 'member', subjectId: member.userId, level: 'view' }).expect(200);
    await member.session.get(`/api/servers/${h().guildId}/settings`).expect(200);
    h().world.removeMember(h().guildId, member.userId);
    await waitFor(() => !h().product.client.guilds.cache.get(h().guildId)?.members.cache.has(member.userId), 5000, 'the leave to reach the bot');
    await member.session.get(`/api/servers/${h().guildId}/settings`).expect(403);
  });
});
