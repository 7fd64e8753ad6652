// Channels and roles changing at run time, as admins change them in Discord: each change reaches
// the bot (CHANNEL_*, GUILD_ROLE_*) and Discord's rules follow the new state at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiscordAPIError, Events, PermissionFlagsBits, type TextChannel } from 'discord.js';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('channels and roles at run time', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness({ memberCount: 20 });
  });
  after(() => h.close());
  const guildId = () => h.sandbox.world.demo.guildId;

  it('a channel is created, its overwrites take Send Messages from the bot (and the bot sees it), then it is deleted', async () => {
    const created = waitForEvent(h.client, Events.ChannelCreate);
    const made = await control<{ id: string }>(h.sandbox, 'POST', `/guilds/${guildId()}/channels`, { name: 'staff-only', type: 'text' });
    assert.equal(made.status, 201);
    await created;
    const channel = h.client.channels.cache.get(made.body.id) as TextChannel;
    assert.ok(channel.permissionsFor(channel.guild.members.me!).has(PermissionFlagsBits.SendMessages));
    await channel.send('allowed');

    const updated = waitForEvent(h.client, Events.ChannelUpdate);
    await control(h.sandbox, 'PATCH', `/channels/${channel.id}`, {
      overwrites: [{ id: h.sandbox.world.demo.roles.bot, type: 'role', deny: ['SendMessages'] }],
    });
    await updated;
    assert.equal(channel.permissionsFor(channel.guild.members.me!).has(PermissionFlagsBits.SendMessages), false);
    await assert.rejects(channel.send('refused'), (error: unknown) => error instanceof DiscordAPIError && error.code === 50013);

    const deleted = waitForEvent(h.client, Events.ChannelDelete);
    assert.equal((await control(h.sandbox, 'DELETE', `/channels/${channel.id}`)).status, 204);
    await deleted;
    assert.equal(h.client.channels.cache.has(channel.id), false);
  });

  it("a role's permissions and position change, and the hierarchy follows", async () => {
    const { roles, plainMemberId } = h.sandbox.world.demo;
    const guild = h.client.guilds.cache.get(guildId());
    assert.ok(guild);
    const senior = guild.roles.cache.get(roles.aboveBot);
    assert.ok(senior && senior.comparePositionTo(guild.members.me!.roles.highest) > 0);
    await assert.rejects(
      guild.members.addRole({ user: plainMemberId, role: roles.aboveBot }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50013,
    );

    const moved = waitForEvent(h.client, Events.GuildRoleUpdate, (_old: unknown, role: { id: string }) => role.id === roles.aboveBot);
    assert.equal((await control(h.sandbox, 'PATCH', `/guilds/${guildId()}/roles/${roles.aboveBot}`, { position: 1 })).status, 200);
    await moved;
    assert.ok(senior.comparePositionTo(guild.members.me!.roles.highest) < 0, 'now below the bot');
    await guild.members.addRole({ user: plainMemberId, role: roles.aboveBot });

    const stripped = waitForEvent(h.client, Events.GuildRoleUpdate, (_old: unknown, role: { id: string }) => role.id === roles.bot);
    const botRole = h.sandbox.world.requireGuild(guildId()).roles.get(roles.bot);
    assert.ok(botRole);
    // The bot's own managed role is not editable through the control API; an admin edits it in Discord.
    h.sandbox.world.structure.updateRole(guildId(), botRole, { permissions: botRole.permissions & ~PermissionFlagsBits.ManageRoles });
    await stripped;
    assert.equal(guild.members.me!.permissions.has(PermissionFlagsBits.ManageRoles), false);
    await assert.rejects(
      guild.members.removeRole({ user: plainMemberId, role: roles.aboveBot }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50013,
    );
  });

  it('a role is created and deleted; members lose a deleted role', async () => {
    const { plainMemberId } = h.sandbox.world.demo;
    const made = await control<{ id: string }>(h.sandbox, 'POST', `/guilds/${guildId()}/roles`, {
      name: 'Temp',
      permissions: ['ManageMessages'],
      mentionable: true,
    });
    assert.equal(made.status, 201);
    h.sandbox.world.setMemberRoles(guildId(), plainMemberId, [made.body.id]);
    const deleted = waitForEvent(h.client, Events.GuildRoleDelete);
    assert.equal((await control(h.sandbox, 'DELETE', `/guilds/${guildId()}/roles/${made.body.id}`)).status, 204);
    await deleted;
    assert.deepEqual(h.sandbox.world.requireGuild(guildId()).members.get(plainMemberId)?.roleIds, []);
  });
});
