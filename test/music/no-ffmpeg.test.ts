// Music switched on where ffmpeg does not run: refused with what to install, and nothing saved.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FFMPEG_MISSING } from '../../src/features/music/settings';
import { useHarness } from '../helpers/harness';

const h = useHarness({ FFMPEG_PATH: '/nonexistent/bin/ffmpeg' });

describe('music without ffmpeg', () => {
  test('switching music on is refused with how to fix it, and the switch stays off', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const refused = await admin.put(`/api/servers/${h().guildId}/settings`, { musicEnabled: true });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.fields.musicEnabled, FFMPEG_MISSING);
    assert.equal((await admin.get(`/api/servers/${h().guildId}/settings`)).body.musicEnabled, false);
  });
});
