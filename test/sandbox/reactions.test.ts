// Reactions as the features need them: the guild's custom emojis (in GUILD_CREATE and over REST),
// 10014 for anything that is not an emoji the bot can use, reactions keyed by a custom emoji's id,
// Add Reactions needed only by the first reactor, and bulk removal with its dispatches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiscordAPIError, Events, OverwriteType, PermissionFlagsBits, type TextChannel } from 'discord.js';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('reactions and custom emojis', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness({ memberCount: 20 });
  });
  after(() => h.close());

  const general = async () => (await h.client.channels.fetch(h.sandbox.world.demo.channels.general)) as TextChannel;
  const wave = () => [...h.sandbox.world.requireGuild(h.sandbox.world.demo.guildId).emojis.values()].find((emoji) => emoji.name === 'sandbox_wave');

  it('the guild custom emojis arrive in GUILD_CREATE and from GET /guilds/:id/emojis', async () => {
    const guild = h.client.guilds.cache.get(h.sandbox.world.demo.guildId);
    assert.deepEqual([...(guild?.emojis.cache.values() ?? [])].map((emoji) => emoji.name).sort(), ['party_parrot', 'sandbox_star', 'sandbox_wave']);
    const fetched = await guild?.emojis.fetch();
    assert.equal(fetched?.size, 3);
    assert.equal(fetched?.find((emoji) => emoji.name === 'party_parrot')?.animated, true);
  });

  it('reacts with a custom emoji by id; an unknown custom emoji or a non-emoji is 10014', async () => {
    const message = await (await general()).send('react to me');
    const emoji = wave();
    assert.ok(emoji);
    await message.react(`<:sandbox_wave:${emoji.id}>`);
    const stored = h.sandbox.world.messages.get(message.id);
    assert.deepEqual([...(stored?.reactions.keys() ?? [])], [emoji.id], 'keyed by the emoji id');
    for (const bad of ['hello', '<:nope:1100000000000000001>', '👍👍']) {
      await assert.rejects(message.react(bad), (error: unknown) => error instanceof DiscordAPIError && error.code === 10014, bad);
    }
    const member = await control(
      h.sandbox,
      'PUT',
      `/channels/${message.channelId}/messages/${message.id}/reactions/${encodeURIComponent('not-an-emoji')}/${h.sandbox.world.demo.plainMemberId}`,
    );
    assert.equal(member.status, 400);
  });

  it('Add Reactions is needed only to be the first with an emoji', async () => {
    const { demo } = h.sandbox.world;
    const guild = h.sandbox.world.requireGuild(demo.guildId);
    const channel = guild.channels.get(demo.channels.general);
    assert.ok(channel);
    channel.overwrites.push(
      { id: guild.id, type: OverwriteType.Role, allow: 0n, deny: PermissionFlagsBits.AddReactions },
      { id: demo.roles.bot, type: OverwriteType.Role, allow: PermissionFlagsBits.AddReactions, deny: 0n },
    );
    try {
      const message = await (await general()).send('vote');
      const path = (emoji: string) => `/channels/${message.channelId}/messages/${message.id}/reactions/${encodeURIComponent(emoji)}/${demo.plainMemberId}`;
      assert.equal((await control(h.sandbox, 'PUT', path('🎉'))).status, 403, 'a member without Add Reactions cannot start a reaction');
      await message.react('🎉');
      assert.equal((await control(h.sandbox, 'PUT', path('🎉'))).status, 204, 'but may join one');
    } finally {
      channel.overwrites.splice(-2, 2);
    }
  });

  it('removes all reactions of one emoji, then all reactions, with their dispatches', async () => {
    const message = await (await general()).send('clear me');
    await message.react('✅');
    await message.react('❌');
    await control(
      h.sandbox,
      'PUT',
      `/channels/${message.channelId}/messages/${message.id}/reactions/${encodeURIComponent('✅')}/${h.sandbox.world.demo.plainMemberId}`,
    );
    const oneEmoji = waitForEvent(h.client, Events.MessageReactionRemoveEmoji);
    await message.reactions.cache.get('✅')?.remove();
    await oneEmoji;
    assert.deepEqual([...(h.sandbox.world.messages.get(message.id)?.reactions.keys() ?? [])], ['❌']);
    const all = waitForEvent(h.client, Events.MessageReactionRemoveAll);
    await message.reactions.removeAll();
    await all;
    assert.equal(h.sandbox.world.messages.get(message.id)?.reactions.size, 0);
  });
});
