// Direct messages: discord.js opens a DM channel and sends; the control API reads what the bot
// sent; a member who closed DMs (or shares no server with the bot) gets 50007, as on Discord.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiscordAPIError } from 'discord.js';
import { control, startBotHarness, type BotHarness } from './helpers';

describe('direct messages', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness({ memberCount: 20 });
  });
  after(() => h.close());

  it('the bot DMs a member through discord.js and the control API shows the DM', async () => {
    const { plainMemberId } = h.sandbox.world.demo;
    const user = await h.client.users.fetch(plainMemberId);
    const sent = await user.send({ content: 'Welcome!', embeds: [{ title: 'Rules' }] });
    assert.equal(sent.content, 'Welcome!');
    const dms = await control<{ content: string; authorId: string; embeds: { title: string }[] }[]>(h.sandbox, 'GET', `/users/${plainMemberId}/dms`);
    assert.equal(dms.status, 200);
    assert.deepEqual(
      dms.body.map((dm) => [dm.content, dm.authorId, dm.embeds[0]?.title]),
      [['Welcome!', h.sandbox.world.botUserId, 'Rules']],
    );
  });

  it('a member with closed DMs gets 50007 "Cannot send messages to this user", and nothing is stored', async () => {
    const { ownerUserId } = h.sandbox.world.demo;
    assert.equal((await control(h.sandbox, 'PATCH', `/users/${ownerUserId}`, { dmsOpen: false })).status, 200);
    const user = await h.client.users.fetch(ownerUserId);
    await assert.rejects(
      user.send('hello'),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50007 && error.message === 'Cannot send messages to this user',
    );
    assert.deepEqual((await control<unknown[]>(h.sandbox, 'GET', `/users/${ownerUserId}/dms`)).body, []);
    await control(h.sandbox, 'PATCH', `/users/${ownerUserId}`, { dmsOpen: true });
    await user.send('now it works');
  });

  it('a user who shares no server with the bot gets 50007', async () => {
    const workshopOnly = [...h.sandbox.world.requireGuild(h.sandbox.world.demo.secondGuildId).members.keys()].find(
      (id) => ![...h.sandbox.world.guilds.values()].some((g) => g.id !== h.sandbox.world.demo.secondGuildId && g.members.has(id)),
    );
    assert.ok(workshopOnly);
    const user = await h.client.users.fetch(workshopOnly);
    await assert.rejects(user.send('hi'), (error: unknown) => error instanceof DiscordAPIError && error.code === 50007);
  });
});
