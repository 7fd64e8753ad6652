// The product under Discord's real rate limits (the sandbox's default; the other product tests compress them): a burst larger than a
// channel's bucket (5 messages per 5 s) loses nothing; discord.js waits for the reset.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const h = useHarness({}, { sandboxRateLimits: 'discord' });

describe('under real rate limits', () => {
  test('seven members join at once: all seven join notices reach the log channel, none refused', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const saved = await admin.put(`/api/servers/${h().guildId}/settings`, { logChannelId: h().demo.channels.modLog, notifyJoinLeave: true });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const names = Array.from({ length: 7 }, (_, i) => `raid_${i + 1}`);
    for (const username of names) h().world.addMember(h().guildId, { username });
    const notices = await waitFor(
      async () => {
        const posted = (await h().messages(h().demo.channels.modLog)).filter((m) => m.bot && m.embeds[0]?.title === 'Member joined');
        return posted.length >= names.length ? posted : undefined;
      },
      15_000,
      'seven join notices',
    );
    for (const username of names)
      assert.ok(
        notices.some((m) => (m.embeds[0]?.description ?? '').includes(`${username} joined`)),
        username,
      );
    assert.equal(h().product.sandbox?.rateLimited.bucket, 0, 'discord.js waited instead of running into 429s');
  });
});
