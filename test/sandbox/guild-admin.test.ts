// The guild and role routes bots use, held to Discord's rules: guild settings (Manage Server), roles
// created, edited, reordered and deleted under Manage Roles and the role hierarchy, and the bot
// leaving a guild. Each change reaches the bot's gateway and the audit log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditLogEvent, DiscordAPIError, Events, GuildVerificationLevel, PermissionFlagsBits as P, type Guild, type GuildMember, type Role } from 'discord.js';
import { botApi, changeBotPermissions, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('guild and role routes bots use', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness({ memberCount: 20, rateLimits: 'relaxed' });
  });
  after(() => h.close());
  const demo = () => h.sandbox.world.demo;
  const world = () => h.sandbox.world;
  const guild = (): Guild => {
    const found = h.client.guilds.cache.get(demo().guildId);
    assert.ok(found);
    return found;
  };
  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => botApi<T>(h.sandbox, method, path, body);
  const code = (expected: number) => (error: unknown) => error instanceof DiscordAPIError && error.code === expected;
  /** Gives the bot's role `add` and takes `remove` (an admin editing it in Discord). */
  const setBotPermissions = (add: bigint, remove = 0n) => changeBotPermissions(h.sandbox, (permissions) => (permissions | add) & ~remove);
  const auditOf = (action: AuditLogEvent) =>
    world()
      .requireGuild(demo().guildId)
      .auditLog.filter((e) => e.action_type === action);

  it("guild settings change with Manage Server (GUILD_UPDATE, audit log), within Discord's values", async () => {
    await assert.rejects(guild().setName('Renamed'), code(50013));
    setBotPermissions(P.ManageGuild);
    try {
      const updated = waitForEvent(h.client, Events.GuildUpdate);
      await guild().edit({ name: 'Sandbox Renamed', verificationLevel: GuildVerificationLevel.High, afkTimeout: 900, reason: 'tidy' });
      const [, next] = (await updated) as [Guild, Guild];
      assert.deepEqual([next.name, next.verificationLevel, next.afkTimeout], ['Sandbox Renamed', GuildVerificationLevel.High, 900]);
      const [entry] = auditOf(AuditLogEvent.GuildUpdate);
      assert.equal(entry?.reason, 'tidy');
      assert.deepEqual(
        entry?.changes?.map((c) => c.key),
        ['name', 'afk_timeout', 'verification_level'],
      );
      const fetched = await api<{ name: string; verification_level: number }>('GET', `/guilds/${demo().guildId}`);
      assert.deepEqual([fetched.body.name, fetched.body.verification_level], ['Sandbox Renamed', 3]);

      for (const [body, field] of [
        [{ verification_level: 5 }, 'verification_level'],
        [{ afk_timeout: 61 }, 'afk_timeout'],
        [{ name: 'x' }, 'name'],
        [{ afk_channel_id: demo().channels.general }, 'afk_channel_id'],
        [{ system_channel_id: demo().channels.voice }, 'system_channel_id'],
      ] as const) {
        const bad = await api<{ code: number; errors: Record<string, unknown> }>('PATCH', `/guilds/${demo().guildId}`, body);
        assert.equal(bad.body.code, 50035, JSON.stringify(body));
        assert.ok(field in bad.body.errors, `${field}: ${JSON.stringify(bad.body.errors)}`);
      }
      await guild().setName('Sandbox Community');
    } finally {
      setBotPermissions(0n, P.ManageGuild);
    }
  });

  it("roles are created with Discord's defaults and only with permissions the bot holds; 250 at most", async () => {
    const created = waitForEvent(h.client, Events.GuildRoleCreate);
    const fresh = await api<{ id: string; name: string; permissions: string; position: number }>('POST', `/guilds/${demo().guildId}/roles`, {});
    await created;
    const everyone = world().requireGuild(demo().guildId).roles.get(demo().guildId);
    assert.deepEqual([fresh.body.name, fresh.body.permissions, fresh.body.position], ['new role', String(everyone?.permissions), 1]);
    assert.ok(auditOf(AuditLogEvent.RoleCreate).some((e) => e.target_id === fresh.body.id));

    const role = await guild().roles.create({
      name: 'Helpers',
      permissions: [P.ManageMessages, P.KickMembers],
      colors: { primaryColor: 0x00ff00 },
      reason: 'helpers',
    });
    assert.deepEqual([role.name, role.colors.primaryColor, role.permissions.has(P.KickMembers)], ['Helpers', 0x00ff00, true]);
    await assert.rejects(guild().roles.create({ name: 'Too strong', permissions: [P.Administrator] }), code(50013));
    await assert.rejects(guild().roles.create({ name: 'Server', permissions: [P.ManageGuild] }), code(50013));
    assert.equal((await api<{ name: string }>('GET', `/guilds/${demo().guildId}/roles/${role.id}`)).body.name, 'Helpers');
    assert.equal((await api('GET', `/guilds/${demo().guildId}/roles/1100000000000000000`)).body?.code, 10011);

    const roles = world().requireGuild(demo().guildId).roles;
    const filler: string[] = [];
    while (roles.size < 250) filler.push(world().structure.createRole(demo().guildId, { name: `filler ${roles.size}` }).id);
    const full = await api<{ code: number; message: string }>('POST', `/guilds/${demo().guildId}/roles`, { name: 'one more' });
    assert.deepEqual([full.status, full.body.code, full.body.message], [400, 30005, 'Maximum number of guild roles reached (250)']);
    for (const id of filler) {
      const record = roles.get(id);
      if (record) world().structure.deleteRole(demo().guildId, record);
    }
    await api('DELETE', `/guilds/${demo().guildId}/roles/${fresh.body.id}`);
  });

  it('roles are edited and reordered only below the bot, never granting what it lacks', async () => {
    const role = await guild().roles.create({ name: 'Editable' });
    const updated = waitForEvent(h.client, Events.GuildRoleUpdate, (_old: Role, next: Role) => next.id === role.id && next.name === 'Edited');
    await role.edit({ name: 'Edited', mentionable: true, permissions: [P.ManageMessages] });
    await updated;
    const [entry] = auditOf(AuditLogEvent.RoleUpdate).filter((e) => e.target_id === role.id);
    assert.deepEqual(
      entry?.changes?.map((c) => c.key),
      ['name', 'permissions', 'mentionable'],
    );
    await assert.rejects(role.setPermissions([P.ManageMessages, P.ManageGuild]), code(50013));
    // Keeping a permission the bot lacks is fine; adding one is not.
    world().structure.updateRole(demo().guildId, world().requireGuild(demo().guildId).roles.get(role.id)!, { permissions: P.ManageGuild });
    await role.setName('Still editable');

    const above = guild().roles.cache.get(demo().roles.aboveBot);
    const own = guild().roles.cache.get(demo().roles.bot);
    assert.ok(above && own);
    await assert.rejects(above.setName('Not mine'), code(50013));
    await assert.rejects(own.setName('Not even mine'), code(50013));

    // Positions: discord.js sends every role with its index; moving below the bot is fine, at or above it not.
    const botPosition = own.position;
    await role.setPosition(2);
    assert.equal(world().requireGuild(demo().guildId).roles.get(role.id)?.position, 2);
    await assert.rejects(role.setPosition(botPosition), code(50013));
    await assert.rejects(guild().roles.setPositions([{ role: above.id, position: 1 }]), code(50013));
    const moved = await api<Array<{ id: string; position: number }>>('PATCH', `/guilds/${demo().guildId}/roles`, [{ id: role.id, position: 1 }]);
    assert.equal(moved.body.find((r) => r.id === role.id)?.position, 1);
    assert.equal(world().requireGuild(demo().guildId).roles.get(demo().roles.bot)?.position, botPosition, 'the bot keeps its place');
    await role.delete();
  });

  it('roles are deleted under the hierarchy; @everyone and managed roles cannot be (50028); members lose a deleted role', async () => {
    const role = await guild().roles.create({ name: 'Temporary' });
    const memberId = demo().plainMemberId;
    await guild().members.addRole({ user: memberId, role: role.id });
    const lost = waitForEvent(
      h.client,
      Events.GuildMemberUpdate,
      (_old: GuildMember, next: GuildMember) => next.id === memberId && !next.roles.cache.has(role.id),
    );
    const deleted = waitForEvent(h.client, Events.GuildRoleDelete, (r: Role) => r.id === role.id);
    await role.delete('not needed');
    await Promise.all([lost, deleted]);
    assert.equal(world().requireGuild(demo().guildId).members.get(memberId)?.roleIds.includes(role.id), false);
    const [entry] = auditOf(AuditLogEvent.RoleDelete).filter((e) => e.target_id === role.id);
    assert.equal(entry?.reason, 'not needed');
    assert.ok(entry?.changes?.some((c) => c.key === 'name' && c.old_value === 'Temporary'));

    for (const [roleId, expected] of [
      [demo().guildId, 50028],
      [demo().roles.bot, 50028],
      [demo().roles.aboveBot, 50013],
      [demo().roles.admin, 50013],
    ] as const) {
      assert.equal((await api('DELETE', `/guilds/${demo().guildId}/roles/${roleId}`)).body?.code, expected, roleId);
    }
    setBotPermissions(0n, P.ManageRoles);
    try {
      assert.equal((await api('POST', `/guilds/${demo().guildId}/roles`, { name: 'x' })).body?.code, 50013);
    } finally {
      setBotPermissions(P.ManageRoles);
    }
  });

  it('the bot leaves a guild: GUILD_DELETE without unavailable, then the guild is out of reach', async () => {
    const { thirdGuildId } = demo();
    const third = h.client.guilds.cache.get(thirdGuildId);
    assert.ok(third);
    const gone = waitForEvent(h.client, Events.GuildDelete, (g: Guild) => g.id === thirdGuildId);
    await third.leave();
    const [left] = (await gone) as [Guild];
    assert.equal(left.available, true, 'removed, not unavailable');
    assert.equal(h.client.guilds.cache.has(thirdGuildId), false);
    const record = world().requireGuild(thirdGuildId);
    assert.equal(record.members.has(world().botUserId), false);
    assert.equal(
      [...record.roles.values()].some((r) => r.botId === world().botUserId),
      false,
      'its managed role is gone',
    );
    assert.equal((await api('GET', `/guilds/${thirdGuildId}`)).body?.code, 50001);
    assert.equal((await api('DELETE', `/users/@me/guilds/${thirdGuildId}`)).body?.code, 10004);
    assert.equal((await api('DELETE', '/users/@me/guilds/1100000000000000000')).body?.code, 10004);
    const guilds = await api<Array<{ id: string }>>('GET', '/users/@me/guilds');
    assert.equal(
      guilds.body.some((g) => g.id === thirdGuildId),
      false,
    );
    // The sandbox can add it back (GUILD_CREATE), as an admin re-inviting the bot.
    const back = waitForEvent(h.client, Events.GuildCreate, (g: Guild) => g.id === thirdGuildId);
    world().addBotToGuild(thirdGuildId, P.ViewChannel);
    await back;
    assert.equal((await api('GET', `/guilds/${thirdGuildId}`)).status, 200);
  });
});
