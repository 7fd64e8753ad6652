import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiscordAPIError, Events, type GuildMember, type TextChannel } from 'discord.js';
import { startBotHarness, waitForEvent, type BotHarness } from './helpers';

/** Runs `fn` and returns the DiscordAPIError code it fails with. */
async function apiErrorCode(fn: () => Promise<unknown>): Promise<number | string> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof DiscordAPIError, `expected DiscordAPIError, got ${String(error)}`);
    return error.code;
  }
  assert.fail('expected the call to fail');
}

describe('REST moderation and messages, with permissions and hierarchy', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness();
    // GUILD_CREATE carries only the bot (as on Discord); these tests pick members from the cache.
    await h.client.guilds.cache.get(h.sandbox.world.demo.guildId)?.members.fetch();
  });
  after(async () => {
    await h.close();
  });

  const demo = () => h.sandbox.world.demo;
  const guild = () => {
    const g = h.client.guilds.cache.get(demo().guildId);
    assert.ok(g);
    return g;
  };
  const crowdMember = (index: number): GuildMember => {
    const skip = new Set([demo().ownerUserId, demo().adminUserId, demo().plainMemberId, h.sandbox.world.botUserId]);
    const list = [...guild().members.cache.values()].filter(
      (m) => !skip.has(m.id) && m.roles.highest.id !== demo().roles.aboveBot && m.roles.highest.id !== demo().roles.moderator,
    );
    const member = list[index];
    assert.ok(member);
    return member;
  };

  it('sends, edits and deletes a message, and the sandbox holds what the bot wrote', async () => {
    const channel = (await h.client.channels.fetch(demo().channels.general)) as TextChannel;
    const sent = await channel.send({ content: 'hello from the bot', embeds: [{ title: 'Hi' }] });
    const stored = h.sandbox.world.messages.get(sent.id);
    assert.equal(stored?.content, 'hello from the bot');
    assert.equal(stored?.embeds[0]?.title, 'Hi');
    await sent.edit('edited');
    assert.equal(h.sandbox.world.messages.get(sent.id)?.content, 'edited');
    await sent.react('👍');
    assert.equal(h.sandbox.world.messages.get(sent.id)?.reactions.get('👍')?.userIds.has(h.sandbox.world.botUserId), true);
    await sent.delete();
    assert.equal(h.sandbox.world.messages.get(sent.id), undefined);
  });

  it('rejects content over 2000 characters with 50035 and a nested error', async () => {
    const channel = (await h.client.channels.fetch(demo().channels.general)) as TextChannel;
    try {
      await channel.send('x'.repeat(2001));
      assert.fail('expected 50035');
    } catch (error) {
      assert.ok(error instanceof DiscordAPIError);
      assert.equal(error.code, 50035);
      assert.match(error.message, /content.*2000 or fewer/s);
    }
  });

  it('fetches history and answers 10008 / 10007 / 50001 for unknown or inaccessible things', async () => {
    const channel = (await h.client.channels.fetch(demo().channels.general)) as TextChannel;
    const history = await channel.messages.fetch({ limit: 10 });
    assert.equal(history.size, 10);
    assert.equal(await apiErrorCode(() => channel.messages.fetch('1100000000000000000')), 10008);
    assert.equal(await apiErrorCode(() => guild().members.fetch({ user: '1100000000000000001', force: true })), 10007);
    assert.equal(await apiErrorCode(() => h.client.rest.get(`/guilds/${demo().secondGuildId}/roles`)), 50001);
  });

  it('lists members with limit and after', async () => {
    const page = (await h.client.rest.get(`/guilds/${demo().guildId}/members`, { query: new URLSearchParams({ limit: '1000' }) })) as Array<{
      user: { id: string };
    }>;
    assert.equal(page.length, 300);
    const last = page[99]?.user.id ?? '';
    const next = (await h.client.rest.get(`/guilds/${demo().guildId}/members`, { query: new URLSearchParams({ limit: '50', after: last }) })) as Array<{
      user: { id: string };
    }>;
    assert.equal(next.length, 50);
    assert.equal(next[0]?.user.id, page[100]?.user.id);
  });

  it('gives a role below its own and gets 50013 for a role at or above it', async () => {
    const member = crowdMember(0);
    const updated = waitForEvent<[GuildMember, GuildMember]>(h.client, Events.GuildMemberUpdate, (_old, now) => now.id === member.id);
    await member.roles.add(demo().roles.moderator);
    const [, now] = await updated;
    assert.ok(now.roles.cache.has(demo().roles.moderator));
    assert.ok(h.sandbox.world.guilds.get(demo().guildId)?.members.get(member.id)?.roleIds.includes(demo().roles.moderator));
    assert.equal(await apiErrorCode(() => member.roles.add(demo().roles.aboveBot)), 50013);
    assert.equal(await apiErrorCode(() => member.roles.add(demo().roles.admin)), 50013);
    assert.equal(await apiErrorCode(() => member.roles.add(demo().roles.bot)), 50013);
    await member.roles.remove(demo().roles.moderator);
  });

  it('bans and kicks members below it, never the owner or a higher member', async () => {
    assert.equal(await apiErrorCode(() => guild().members.ban(demo().ownerUserId)), 50013);
    assert.equal(await apiErrorCode(() => guild().members.ban(demo().adminUserId)), 50013);
    assert.equal(await apiErrorCode(() => guild().members.kick(demo().adminUserId)), 50013);
    const target = crowdMember(1);
    const banned = waitForEvent(h.client, Events.GuildBanAdd, (ban: { user: { id: string } }) => ban.user.id === target.id);
    const audit = waitForEvent(h.client, Events.GuildAuditLogEntryCreate, (entry: { targetId: string | null }) => entry.targetId === target.id);
    await guild().members.ban(target.id, { reason: 'spam' });
    await banned;
    await audit;
    const bans = await guild().bans.fetch();
    assert.equal(bans.get(target.id)?.reason, 'spam');
    await guild().members.unban(target.id);
    const kicked = crowdMember(2);
    const removed = waitForEvent(h.client, Events.GuildMemberRemove, (m: GuildMember) => m.id === kicked.id);
    await kicked.kick('bye');
    await removed;
    assert.equal(h.sandbox.world.guilds.get(demo().guildId)?.members.has(kicked.id), false);
  });

  it('times out a member below it and refuses an administrator', async () => {
    const target = crowdMember(3);
    await target.timeout(60_000, 'cool down');
    assert.ok(h.sandbox.world.guilds.get(demo().guildId)?.members.get(target.id)?.communicationDisabledUntil);
    const admin = await guild().members.fetch(demo().adminUserId);
    assert.equal(await apiErrorCode(() => admin.timeout(60_000)), 50013);
    await target.timeout(null);
    assert.equal(h.sandbox.world.guilds.get(demo().guildId)?.members.get(target.id)?.communicationDisabledUntil, null);
  });

  it('honours channel overwrites: posts in #rules (allowed for its role), not in a guild it left', async () => {
    const rules = (await h.client.channels.fetch(demo().channels.rules)) as TextChannel;
    await rules.send('Rule 5: be excellent');
    const world = h.sandbox.world;
    const secondChannel = [...(world.guilds.get(demo().secondGuildId)?.channels.keys() ?? [])][0] ?? '';
    assert.equal(await apiErrorCode(() => h.client.rest.post(`/channels/${secondChannel}/messages`, { body: { content: 'hi' } })), 50001);
  });
});
