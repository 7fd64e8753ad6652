// Discord refusing the bot's first answer to a slash command (a 400 on the interaction callback).
// The refused answer still spends the interaction, so answering it again is 40060: the bot tells the
// member through a follow-up on the interaction's webhook instead, privately, that the command ran
// but its answer could not be shown (not that it failed: the member would run it twice).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MessageFlags } from 'discord.js';
import { ANSWER_REFUSED_MESSAGE } from '../../src/bot/interactions';
import { buildMember } from '../factories';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

describe('a refused first answer to a slash command', () => {
  const h = useHarness();

  test('the member is told privately in a follow-up that the command ran; it ran once; the next run is answered', async () => {
    const { demo } = h();
    const moderator = await buildMember(h(), { roleIds: [demo.roles.moderator] });
    const target = await buildMember(h());
    const warn = () => h().slash(moderator.userId, 'warn', { member: target.userId, reason: 'Refused answer' });
    const cases = () => h().product.store.models.ModerationLog.count({ where: { guildId: h().guildId, targetId: target.userId, action: 'warn' } });
    const channelId = demo.channels.general;
    const armed = await h().control('POST', '/faults', {
      route: 'POST /interactions/:id/:token/callback',
      status: 400,
      count: 1,
      code: 50035,
      message: 'Invalid Form Body',
    });
    assert.equal(armed.status, 204, JSON.stringify(armed.body));
    const before = new Set(
      h()
        .world.messages.listEphemeral(channelId)
        .map((message) => message.id),
    );

    const reply = await warn();
    // The refusal spent the interaction: the member saw no answer to the command itself.
    assert.equal(reply.status, 504, JSON.stringify(reply.body));

    const told = await waitFor(
      () =>
        h()
          .world.messages.listEphemeral(channelId)
          .find((message) => !before.has(message.id) && message.content === ANSWER_REFUSED_MESSAGE),
      5000,
      'the private follow-up',
    );
    assert.equal(told.flags & MessageFlags.Ephemeral, MessageFlags.Ephemeral);
    assert.equal(told.authorId, h().world.botUserId);

    // The fault is spent: the next run is answered as usual.
    assert.equal(await cases(), 1, 'the warning was given once');
    const again = await warn();
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(await cases(), 2);
  });
});
