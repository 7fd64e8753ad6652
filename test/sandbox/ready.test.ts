import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Events, type Client } from 'discord.js';
import { startBotHarness, type BotHarness } from './helpers';

describe('discord.js against the sandbox: ready and the member cache', () => {
  let harness: BotHarness;
  before(async () => {
    harness = await startBotHarness({ memberCount: 2500 });
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

  it('GUILD_CREATE carries the member count but only the bot and members in voice, as Discord sends it without presences', () => {
    const { client, sandbox } = harness;
    const guild = client.guilds.cache.get(sandbox.world.demo.guildId);
    assert.ok(guild);
    assert.equal(guild.name, 'Sandbox Community');
    assert.equal(guild.memberCount, 2500);
    const inVoice = sandbox.world.requireGuild(guild.id).voice.size;
    assert.equal(guild.members.cache.size, 1 + inVoice);
    assert.ok(guild.members.me, 'the bot itself is there');
    assert.equal(guild.roles.everyone.id, guild.id);
    assert.equal(guild.members.me?.roles.highest.id, sandbox.world.demo.roles.bot);
  });

  it('the rest come from REQUEST_GUILD_MEMBERS in chunks of up to 1,000, numbered', async () => {
    const { client, sandbox } = harness;
    const guild = client.guilds.cache.get(sandbox.world.demo.guildId);
    assert.ok(guild);
    const chunks: { index: number; count: number; size: number }[] = [];
    const onChunk = (members: Map<string, unknown>, _guild: unknown, data: { index: number; count: number }) =>
      chunks.push({ index: data.index, count: data.count, size: members.size });
    (client as Client).on(Events.GuildMembersChunk, onChunk as never);
    await guild.members.fetch();
    (client as Client).off(Events.GuildMembersChunk, onChunk as never);
    assert.equal(guild.members.cache.size, 2500);
    assert.deepEqual(
      chunks.map((chunk) => [chunk.index, chunk.count, chunk.size]),
      [
        [0, 3, 1000],
        [1, 3, 1000],
        [2, 3, 500],
      ],
    );
  });

  it('one member comes from REST or by id on demand', async () => {
    const { client, sandbox } = harness;
    const guild = client.guilds.cache.get(sandbox.world.demo.thirdGuildId);
    assert.ok(guild);
    const member = await guild.members.fetch(sandbox.world.demo.plainMemberId);
    assert.equal(member.user.username, 'plain_pat');
  });
});
