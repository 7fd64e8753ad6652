import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { ALL_PERMISSIONS, canManageRole, channelPermissions, guildPermissions, hasPermission, outranks } from './permissions';
import { seedWorld } from './seed';

const world = seedWorld({ seed: 7, memberCount: 40, botToken: 't' });
const demo = world.demo;
const guild = world.requireGuild(demo.guildId);
const channel = (id: string) => {
  const c = guild.channels.get(id);
  assert.ok(c);
  return c;
};

describe('permissions', () => {
  it('gives the owner and Administrators everything, others their roles plus @everyone', () => {
    assert.equal(guildPermissions(guild, demo.ownerUserId), ALL_PERMISSIONS);
    assert.equal(guildPermissions(guild, demo.adminUserId), ALL_PERMISSIONS);
    const plain = guildPermissions(guild, demo.plainMemberId);
    assert.ok(hasPermission(plain, P.SendMessages));
    assert.ok(!hasPermission(plain, P.ManageGuild));
    assert.ok(hasPermission(guildPermissions(guild, world.botUserId), P.BanMembers));
    assert.equal(guildPermissions(guild, '1'), 0n);
  });

  it('applies channel overwrites: read-only #rules, hidden #mod-log', () => {
    assert.ok(!hasPermission(channelPermissions(guild, channel(demo.channels.rules), demo.plainMemberId), P.SendMessages));
    assert.ok(hasPermission(channelPermissions(guild, channel(demo.channels.rules), world.botUserId), P.SendMessages));
    assert.equal(channelPermissions(guild, channel(demo.channels.modLog), demo.plainMemberId), 0n);
    assert.ok(hasPermission(channelPermissions(guild, channel(demo.channels.modLog), world.botUserId), P.ViewChannel));
  });

  it('orders by role hierarchy and never lets anyone outrank the owner', () => {
    assert.ok(canManageRole(guild, world.botUserId, demo.roles.moderator));
    assert.ok(!canManageRole(guild, world.botUserId, demo.roles.bot));
    assert.ok(!canManageRole(guild, world.botUserId, demo.roles.aboveBot));
    assert.ok(outranks(guild, world.botUserId, demo.plainMemberId));
    assert.ok(!outranks(guild, world.botUserId, demo.adminUserId));
    assert.ok(!outranks(guild, demo.adminUserId, demo.ownerUserId));
  });
});

describe('seed', () => {
  it('is deterministic for a seed, with real-looking snowflakes', () => {
    const again = seedWorld({ seed: 7, memberCount: 40, botToken: 't' });
    assert.deepEqual(again.demo, demo);
    assert.deepEqual([...again.users.keys()], [...world.users.keys()]);
    assert.match(demo.guildId, /^\d{17,19}$/);
    assert.equal(guild.members.size, 40);
    assert.notDeepEqual(seedWorld({ seed: 8, memberCount: 40, botToken: 't' }).demo.guildId, demo.guildId);
  });

  it('builds the three guilds the access tests need', () => {
    assert.equal(world.requireGuild(demo.secondGuildId).ownerId, demo.adminUserId);
    assert.equal(world.isBotIn(demo.secondGuildId), false);
    const third = world.requireGuild(demo.thirdGuildId);
    assert.equal(third.ownerId, demo.otherAdminUserId);
    assert.ok(world.isBotIn(demo.thirdGuildId));
    assert.ok(!hasPermission(guildPermissions(guild, demo.otherAdminUserId), P.ManageGuild));
  });
});
