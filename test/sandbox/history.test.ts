// The sandbox keeps the last N messages of each channel (MESSAGES_KEPT_PER_CHANNEL, 10 here): an
// older one is gone from every index and REST answers for it exactly as for a message that never
// existed (404, code 10008 Unknown Message), its reactions with it; listings stop at what is kept;
// and however many are posted, the store holds N a channel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { control } from './helpers';

const KEPT = 10;

describe('bounded message history', () => {
  let sandbox: Sandbox;
  before(async () => {
    // Relaxed: these raw requests test the history, not rate limits (ratelimit.test.ts has those).
    sandbox = await startSandbox({ port: 0, memberCount: 20, rateLimits: 'relaxed', messagesKeptPerChannel: KEPT });
  });
  after(() => sandbox.close());

  async function rest(method: string, path: string, body?: object) {
    const response = await fetch(`${sandbox.apiBase}/v10${path}`, {
      method,
      headers: { authorization: `Bot ${sandbox.botToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as unknown };
  }
  async function botPosts(channelId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let n = 1; n <= count; n += 1) {
      const posted = await rest('POST', `/channels/${channelId}/messages`, { content: `message ${n}` });
      assert.equal(posted.status, 200);
      ids.push((posted.body as { id: string }).id);
    }
    return ids;
  }
  const listedIds = async (channelId: string, query = 'limit=100') =>
    ((await rest('GET', `/channels/${channelId}/messages?${query}`)).body as { id: string }[]).map((m) => m.id);
  const unknownMessage = { status: 404, body: { message: 'Unknown Message', code: 10008 } };

  it('of N + k messages posted, the oldest k answer 10008 to every message route and are gone from listings; the newest N are there', async () => {
    const channelId = sandbox.world.demo.channels.announcements;
    const k = 4;
    // The first one gets a member's reaction before it is pushed out.
    const [first = ''] = await botPosts(channelId, 1);
    assert.equal(
      (await control(sandbox, 'PUT', `/channels/${channelId}/messages/${first}/reactions/${encodeURIComponent('👍')}/${sandbox.world.demo.adminUserId}`))
        .status,
      204,
    );
    const ids = [first, ...(await botPosts(channelId, KEPT + k - 1))];
    const evicted = ids.slice(0, k);
    const kept = ids.slice(k);

    const thumbs = encodeURIComponent('👍');
    for (const id of evicted) {
      const path = `/channels/${channelId}/messages/${id}`;
      assert.deepEqual(await rest('GET', path), unknownMessage, `GET ${id}`);
      assert.deepEqual(await rest('PATCH', path, { content: 'edited' }), unknownMessage, `PATCH ${id}`);
      assert.deepEqual(await rest('PUT', `${path}/reactions/${thumbs}/@me`), unknownMessage, `react to ${id}`);
      assert.deepEqual(await rest('GET', `${path}/reactions/${thumbs}`), unknownMessage, `reactions of ${id}`);
      assert.deepEqual(await rest('DELETE', `${path}/reactions`), unknownMessage, `clear reactions of ${id}`);
      assert.deepEqual(await rest('DELETE', path), unknownMessage, `DELETE ${id}`);
    }
    const newest = kept.at(-1) ?? '';
    assert.equal((await rest('GET', `/channels/${channelId}/messages/${newest}`)).status, 200);
    assert.equal((await rest('PATCH', `/channels/${channelId}/messages/${newest}`, { content: 'edited' })).status, 200);

    assert.deepEqual(await listedIds(channelId), [...kept].reverse(), 'the newest N, newest first');
    assert.deepEqual(await listedIds(channelId, `limit=100&before=${kept[0]}`), [], 'nothing before the oldest kept');
    assert.deepEqual(await listedIds(channelId, `limit=100&after=${evicted[0]}`), [...kept].reverse(), 'after an evicted one: only what is kept');
    assert.deepEqual((await listedIds(channelId, `limit=4&around=${evicted[1]}`)).length, 4, 'around an evicted one: kept messages only');
    assert.ok((await listedIds(channelId, `limit=100&around=${evicted[1]}`)).every((id) => kept.includes(id)));
    const listedByControl = (await control<{ id: string }[]>(sandbox, 'GET', `/channels/${channelId}/messages`)).body.map((m) => m.id);
    assert.deepEqual(listedByControl, kept, 'the control API lists the same');
  });

  it('deleting messages inside the window keeps the order and the bound right', async () => {
    const channelId = sandbox.world.demo.channels.rules;
    const ids = await botPosts(channelId, KEPT);
    for (const id of [ids[0], ids[4], ids[5]]) assert.equal((await rest('DELETE', `/channels/${channelId}/messages/${id}`)).status, 204);
    const more = await botPosts(channelId, 5);
    const expected = [...ids.filter((_, index) => ![0, 4, 5].includes(index)), ...more].slice(-KEPT);
    assert.deepEqual(await listedIds(channelId), [...expected].reverse());
    assert.deepEqual(await rest('GET', `/channels/${channelId}/messages/${ids[1]}`), unknownMessage, 'the oldest left is pushed out next');
  });

  it('however many are posted, the store holds N messages a channel, and a DM channel keeps its last N too', async () => {
    const { channels, plainMemberId } = sandbox.world.demo;
    for (const channelId of [channels.general, channels.modLog]) {
      assert.equal((await control(sandbox, 'POST', `/channels/${channelId}/messages/bulk`, { count: 2000 })).status, 201);
      assert.equal(sandbox.world.messages.list(channelId).length, KEPT);
    }
    const perChannel = [...sandbox.world.guilds.values()].flatMap((guild) => [...guild.channels.keys()]).map((id) => sandbox.world.messages.list(id).length);
    assert.ok(
      perChannel.every((count) => count <= KEPT),
      `at most ${KEPT} a channel: ${perChannel.join(', ')}`,
    );
    assert.equal(
      sandbox.world.messages.size,
      perChannel.reduce((sum, count) => sum + count, 0),
      'no message is held anywhere else',
    );

    const dm = (await rest('POST', '/users/@me/channels', { recipient_id: plainMemberId })).body as { id: string };
    const sent = await botPosts(dm.id, KEPT + 3);
    const dms = (await control<{ id: string }[]>(sandbox, 'GET', `/users/${plainMemberId}/dms`)).body.map((m) => m.id);
    assert.deepEqual(dms, sent.slice(3));
  });
});
