// GET /api/auth/servers keeps Discord's guild list cached (Discord rate-limits it) but decides
// what is listed, and with which rights, from the live gateway on every call: a role taken away
// in Discord removes the guild from the list at once, as the guild routes already refuse it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import { ServerListSchema } from '../../src/shared/auth';
import { hasAdministrator } from '../../src/shared/discord-urls';
import { signInAs } from '../helpers/product';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const h = useHarness();

describe('the server list follows live rights', () => {
  async function listed(session: Awaited<ReturnType<typeof signInAs>>) {
    return ServerListSchema.parse((await session.get('/api/auth/servers').expect(200)).body);
  }

  /** Changes a member's roles in the sandbox and waits until the bot's cache has the change. */
  async function setRoles(userId: string, roleIds: string[]) {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    world.setMemberRoles(world.demo.guildId, userId, roleIds);
    const guild = h().product.client.guilds.cache.get(world.demo.guildId);
    await waitFor(
      () => {
        const cached = [...(guild?.members.cache.get(userId)?.roles.cache.keys() ?? [])].filter((id) => id !== guild?.id).sort();
        return JSON.stringify(cached) === JSON.stringify([...roleIds].sort());
      },
      5000,
      'the role change to reach the bot',
    );
  }

  test('a role granted or revoked in Discord shows in the list on the next call, with its live permissions', async () => {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    const { guildId, plainMemberId, roles } = world.demo;
    const member = await h().signIn(plainMemberId);
    assert.ok(!(await listed(member)).some((server) => server.id === guildId), 'a plain member does not manage it');

    await setRoles(plainMemberId, [roles.moderator]);
    const granted = (await listed(member)).find((server) => server.id === guildId);
    assert.ok(granted, 'listed at once after Manage Server is granted');
    assert.equal(hasAdministrator(granted.permissions), false);
    assert.equal(granted.hasBot, true);

    await setRoles(plainMemberId, [roles.admin]);
    const admin = (await listed(member)).find((server) => server.id === guildId);
    assert.equal(admin && hasAdministrator(admin.permissions), true, 'the role badge follows the live permissions');

    await setRoles(plainMemberId, []);
    assert.ok(!(await listed(member)).some((server) => server.id === guildId), 'gone at once after the role is removed');
    await member.get(`/api/servers/${guildId}/overview`).expect(403);
  });

  test("a member without dashboard access finds the guild under 'Communities you're in', and leaves it when they manage it", async () => {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    const { guildId, plainMemberId, roles, secondGuildId } = world.demo;
    const member = await h().signIn(plainMemberId);
    const communities = async () => ServerListSchema.parse((await member.get('/api/auth/communities').expect(200)).body);
    const community = (await communities()).find((server) => server.id === guildId);
    assert.equal(community?.access, 'member');
    assert.equal(community?.hasBot, true);
    assert.ok(!(await communities()).some((server) => server.id === secondGuildId), 'a guild without the bot is not a community to open');
    await member.get(`/api/servers/${guildId}/users/${plainMemberId}/inventory`).expect(200);

    await setRoles(plainMemberId, [roles.moderator]);
    assert.ok(!(await communities()).some((server) => server.id === guildId), 'managed now: listed with the managed servers instead');
    assert.ok((await listed(member)).some((server) => server.id === guildId));
    await setRoles(plainMemberId, []);
    await request(h().product.url).get('/api/auth/communities').expect(401);
  });

  test('a guild without the bot is still listed from Discord', async () => {
    const world = h().product.sandbox?.world;
    assert.ok(world);
    const admin = await h().signIn(world.demo.adminUserId);
    const workshop = (await listed(admin)).find((server) => server.id === world.demo.secondGuildId);
    assert.equal(workshop?.hasBot, false);
    assert.equal(workshop?.owner, true);
  });
});
