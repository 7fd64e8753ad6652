// The dashboard's access check asks Discord for a member the bot has not cached: when Discord does
// not answer (5xx after discord.js's retries), the request is refused in words naming Discord,
// not as "Something went wrong on our side", and works again once Discord answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useHarness } from '../helpers/harness';

describe('the access check while Discord fails', () => {
  const h = useHarness();

  test('an uncached member during a 5xx storm gets 422 naming Discord, then 200', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const url = `/api/servers/${h().guildId}/settings`;
    h().product.client.guilds.cache.get(h().guildId)?.members.cache.delete(h().demo.adminUserId);
    assert.equal((await h().control('POST', '/faults', { route: 'GET /guilds/:id/members/:id', status: 503, count: 50 })).status, 204);
    try {
      const refused = await admin.get(url);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.error, 'discord_refused');
      assert.match(refused.body.message, /^Discord did not answer \(503 /);
    } finally {
      await h().control('POST', '/faults', { clear: true });
    }
    assert.equal((await admin.get(url)).status, 200);
  });
});
