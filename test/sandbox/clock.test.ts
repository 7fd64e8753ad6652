// The sandbox and the product share one controllable clock: a timeout ends when the clock says so,
// message times and ids follow it, and a test advances it instead of sleeping.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { snowflakeTime } from '../../src/sandbox/snowflake';
import { control } from './helpers';

describe('the sandbox clock', () => {
  const clock = new ManualClock(Date.UTC(2030, 5, 1, 12));
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20, clock });
  });
  after(() => sandbox.close());

  it('a timed-out member may post again once the clock passes the timeout', async () => {
    const { guildId, plainMemberId, channels } = sandbox.world.demo;
    sandbox.world.updateMember(guildId, plainMemberId, { communicationDisabledUntil: new Date(clock.ms() + 3_600_000).toISOString() });
    const refused = await control(sandbox, 'POST', `/channels/${channels.general}/messages`, { authorId: plainMemberId, content: 'let me talk' });
    assert.equal(refused.status, 403);
    clock.advance(3_600_001);
    const posted = await control<{ id: string; timestamp: string }>(sandbox, 'POST', `/channels/${channels.general}/messages`, {
      authorId: plainMemberId,
      content: 'thanks',
    });
    assert.equal(posted.status, 201);
    assert.equal(posted.body.timestamp, clock.now().toISOString());
    assert.equal(snowflakeTime(posted.body.id), clock.ms(), 'ids carry the clock time');
  });
});
