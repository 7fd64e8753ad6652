// Message semantics the features lean on: allowed_mentions decides who is pinged (and the control
// API records it), @everyone needs Mention Everyone, replies carry their reference, and Discord's
// limits on embeds hold.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { control } from './helpers';

interface Listed {
  id: string;
  type: number;
  replyTo: string | null;
  pinged: { users: string[]; roles: string[]; everyone: boolean };
}

describe('message semantics', () => {
  let sandbox: Sandbox;
  before(async () => {
    // Relaxed: these raw requests test message rules, not rate limits (ratelimit.test.ts has those).
    sandbox = await startSandbox({ port: 0, memberCount: 20, rateLimits: 'relaxed' });
  });
  after(() => sandbox.close());

  const general = () => sandbox.world.demo.channels.general;
  async function botPost(body: object) {
    const response = await fetch(`${sandbox.apiBase}/v10/channels/${general()}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${sandbox.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { id: string; errors?: Record<string, unknown> } };
  }
  async function listed(id: string): Promise<Listed> {
    const { body } = await control<Listed[]>(sandbox, 'GET', `/channels/${general()}/messages`);
    const message = body.find((candidate) => candidate.id === id);
    assert.ok(message);
    return message;
  }

  it('allowed_mentions decides who is pinged: nobody with parse [], only the listed user with users', async () => {
    const { plainMemberId, ownerUserId, roles } = sandbox.world.demo;
    const content = `<@${plainMemberId}> <@${ownerUserId}> <@&${roles.member}> @everyone`;
    const quiet = await botPost({ content, allowed_mentions: { parse: [] } });
    assert.equal(quiet.status, 200);
    assert.deepEqual(quiet.body.mentions, []);
    assert.equal(quiet.body.mention_everyone, false);
    assert.deepEqual((await listed(quiet.body.id)).pinged, { users: [], roles: [], everyone: false });

    const one = await botPost({ content, allowed_mentions: { parse: [], users: [plainMemberId] } });
    assert.deepEqual((await listed(one.body.id)).pinged, { users: [plainMemberId], roles: [], everyone: false });
  });

  it('@everyone and an unmentionable role ping only for an author with Mention Everyone', async () => {
    const { adminUserId, roles } = sandbox.world.demo;
    const bot = await botPost({ content: `@everyone <@&${roles.member}>` });
    assert.deepEqual((await listed(bot.body.id)).pinged, { users: [], roles: [], everyone: false }, 'the bot lacks Mention Everyone');
    const admin = await control<Listed>(sandbox, 'POST', `/channels/${general()}/messages`, {
      authorId: adminUserId,
      content: `@everyone <@&${roles.member}>`,
    });
    assert.deepEqual(admin.body.pinged, { users: [], roles: [roles.member], everyone: true });
  });

  it('parse users together with a users list is refused', async () => {
    const response = await botPost({ content: 'x', allowed_mentions: { parse: ['users'], users: [sandbox.world.demo.plainMemberId] } });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 50035);
  });

  it('a reply is type 19 with its reference, and pings the replied-to author unless replied_user is off', async () => {
    const { plainMemberId } = sandbox.world.demo;
    const question = await control<Listed>(sandbox, 'POST', `/channels/${general()}/messages`, { authorId: plainMemberId, content: 'question?' });
    const quiet = await botPost({
      content: 'answer',
      message_reference: { message_id: question.body.id },
      allowed_mentions: { parse: [], replied_user: false },
    });
    assert.equal(quiet.status, 200);
    assert.equal(quiet.body.type, 19);
    assert.deepEqual(quiet.body.message_reference, { type: 0, message_id: question.body.id, channel_id: general(), guild_id: sandbox.world.demo.guildId });
    assert.equal((quiet.body.referenced_message as { id: string }).id, question.body.id);
    assert.deepEqual((await listed(quiet.body.id)).pinged.users, []);
    const loud = await botPost({ content: 'answer', message_reference: { message_id: question.body.id } });
    assert.deepEqual((await listed(loud.body.id)).pinged.users, [plainMemberId]);
    assert.equal((await listed(loud.body.id)).replyTo, question.body.id);
  });

  it('a reply to an unknown message is 50035', async () => {
    const response = await botPost({ content: 'answer', message_reference: { message_id: '1100000000000000000' } });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 50035);
  });

  it('embeds over 6,000 characters together are refused', async () => {
    const embeds = [0, 1].map(() => ({ title: 'T', description: 'x'.repeat(3500) }));
    const response = await botPost({ embeds });
    assert.equal(response.status, 400);
    assert.deepEqual((response.body.errors as { embeds: { _errors: unknown[] } }).embeds._errors[0], {
      code: 'MAX_EMBED_SIZE_EXCEEDED',
      message: 'Embed size exceeds maximum size of 6000',
    });
  });
});
