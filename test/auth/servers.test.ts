import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServerStatsSchema } from '../../src/shared/auth';
import { ServerOverviewSchema } from '../../src/shared/servers';
import { ECONOMY_DEFAULTS } from '../../src/shared/economy';
import type { Product } from '../../src/main';
import { signInAs, startTestProduct } from '../helpers/product';
import { waitFor } from '../helpers/wait';
import { levelingState } from '../../src/features/leveling/state';

describe('server stats and the per-server dashboard', () => {
  let product: Product;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let sandboxUrl: string;
  let guildId: string;

  before(async () => {
    product = await startTestProduct();
    const demo = product.sandbox?.world.demo;
    assert.ok(demo && product.sandbox);
    sandboxUrl = product.sandbox.url;
    guildId = demo.guildId;
    admin = await signInAs(product, demo.adminUserId);
  });
  after(() => product.close());

  const control = (path: string, body: object) =>
    fetch(`${sandboxUrl}/_sandbox${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  test('messages, a join and a slash command show up in the counts and the 30-day chart', async () => {
    const demo = product.sandbox?.world.demo;
    assert.ok(demo);
    const members = [...(product.sandbox?.world.guilds.get(guildId)?.members.keys() ?? [])].filter((id) => id !== product.sandbox?.world.botUserId).slice(0, 3);
    for (const authorId of members) {
      assert.equal((await control(`/channels/${demo.channels.general}/messages`, { authorId, content: 'hello there' })).status, 201);
    }
    assert.equal((await control(`/guilds/${guildId}/members`, { username: 'newcomer_stats' })).status, 201);
    const reply = await control('/interactions', { guildId, channelId: demo.channels.general, userId: members[0], name: 'ping', options: [] });
    assert.equal(reply.status, 200);
    assert.match(((await reply.json()) as { content: string }).content, /^Pong!/);

    const overview = await waitFor(
      async () => {
        await product.services.activity.flush();
        await levelingState.of(product.services).accruals.flush();
        const body = ServerOverviewSchema.parse((await admin.get(`/api/servers/${guildId}/overview`).expect(200)).body);
        const today = body.activity.at(-1);
        return today && today.messages === 3 && today.joins === 1 && body.commandsUsed === 1 ? body : null;
      },
      5000,
      'the activity to be counted',
    );

    assert.equal(overview.activity.length, 30);
    assert.equal(overview.activity.at(-1)?.date, new Date().toISOString().slice(0, 10));
    assert.equal(overview.activeUsers, 3);
    assert.equal(overview.memberCount, product.client.guilds.cache.get(guildId)?.memberCount);
    assert.equal(overview.name, 'Sandbox Community');

    const stats = ServerStatsSchema.parse((await admin.get('/api/servers/stats').expect(200)).body);
    // Each of the three messages earned the default base reward (economy is on by default).
    assert.deepEqual(stats, { totalMembers: overview.memberCount, totalCommands: 1, activeUsers: 3, totalCurrency: 3 * ECONOMY_DEFAULTS.baseReward });
  });

  test('stats count only guilds the user manages', async () => {
    const plain = await signInAs(product, product.sandbox?.world.demo.plainMemberId ?? '');
    const stats = ServerStatsSchema.parse((await plain.get('/api/servers/stats').expect(200)).body);
    assert.deepEqual(stats, { totalMembers: 0, totalCommands: 0, activeUsers: 0, totalCurrency: 0 });
  });

  test('stats need a session', async () => {
    const response = await fetch(`${product.url}/api/servers/stats`);
    assert.equal(response.status, 401);
  });
});
