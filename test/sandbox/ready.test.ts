import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBotHarness, type BotHarness } from './helpers';

describe('discord.js against the sandbox: ready', () => {
  let harness: BotHarness;
  before(async () => {
    harness = await startBotHarness({ memberCount: 300 });
  });
  after(async () => {
    await harness.close();
  });

  it('reaches ready as the sandbox bot, in the guilds the bot is in', () => {
    const { client, sandbox } = harness;
    assert.equal(client.user?.id, sandbox.world.botUserId);
    assert.equal(client.user?.bot, true);
    assert.equal(client.application?.id, sandbox.world.applicationId);
    const ids = [...client.guilds.cache.keys()].sort();
    assert.deepEqual(ids, [sandbox.world.demo.guildId, sandbox.world.demo.thirdGuildId].sort());
  });

  it('shows the demo guild with its member count and a complete member cache', () => {
    const { client, sandbox } = harness;
    const guild = client.guilds.cache.get(sandbox.world.demo.guildId);
    assert.ok(guild);
    assert.equal(guild.name, 'Sandbox Community');
    assert.equal(guild.memberCount, 300);
    assert.equal(guild.members.cache.size, 300);
    assert.equal(guild.ownerId, sandbox.world.demo.ownerUserId);
    assert.ok(guild.channels.cache.find((c) => c.name === 'general'));
    assert.equal(guild.roles.everyone.id, guild.id);
    assert.equal(guild.members.me?.roles.highest.id, sandbox.world.demo.roles.bot);
  });
});
