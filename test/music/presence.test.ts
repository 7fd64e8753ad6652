// Where music bots break, through the sandbox: a voice server change (the music goes on), the bot
// kicked from its channel, its channel deleted (each stops the music and says so), and a channel
// left without listeners, which the bot leaves after the server's "leave when alone" time on the
// product's clock (advanced, not waited for).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { musicState } from '../../src/features/music/state';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { musicKit } from './kit';

const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
const h = useHarness({}, { clock });
const { guildId, lounge, heard, hears, enableMusic, uploadTone, joinVoice, botChannel } = musicKit(h);
const general = () => h().demo.channels.general;
const player = () => musicState.of(h().product.services).players.get(guildId());

/** The member plays the long tone in `channelId` and the channel hears it. */
async function playTone(member: string, channelId = lounge()) {
  await joinVoice(member, channelId);
  const reply = await h().slash(member, 'play', { query: 'long a' });
  assert.match(reply.body.content, /Now playing \*\*Long A\*\*/);
  await hears(440, 8000, channelId);
}

describe('music where voice connections break', () => {
  test('a voice server change: the bot connects to the new server and the music goes on', async () => {
    await enableMusic();
    await uploadTone(440, 120, 'Long A');
    const member = h().demo.plainMemberId;
    await playTone(member);
    const before = (await heard(10))?.packets ?? 0;
    assert.equal((await h().control('POST', `/guilds/${guildId()}/voice/bot/server-change`)).status, 204);
    await waitFor(async () => ((await heard(10))?.packets ?? 0) > before + 100 || undefined, 10_000, 'packets after the change');
    const after = await hears(440);
    assert.equal(after.decryptFailures, 0);
    assert.equal(player()?.status, 'playing');
  });

  test('kicked from the channel: the music stops, the channel is told, and the player leaves', async () => {
    assert.equal((await h().control('POST', `/guilds/${guildId()}/voice/bot/kick`)).status, 204);
    const note = await h().waitForMessage(general(), (m) => m.bot && m.content.includes('disconnected'), { timeoutMs: 15_000 });
    assert.equal(note.content, `The bot was disconnected from <#${lounge()}>, so the music stopped. Use /play to start again.`);
    assert.equal(player(), undefined);
    assert.equal(botChannel(), null);
  });

  test('its voice channel deleted: the music stops and the channel is told', async () => {
    const made = await h().control<{ id: string }>('POST', `/guilds/${guildId()}/channels`, { name: 'Pop-up stage', type: 'voice' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const member = h().demo.plainMemberId;
    await playTone(member, made.body.id);
    assert.equal((await h().control('DELETE', `/channels/${made.body.id}`)).status, 204);
    const note = await h().waitForMessage(general(), (m) => m.bot && m.content.includes('deleted'), { timeoutMs: 15_000 });
    assert.equal(note.content, 'The voice channel the bot played in was deleted, so the music stopped.');
    assert.equal(player(), undefined);
  });

  test('left alone: the bot leaves after the server’s time (60 s by default) on the product’s clock', async () => {
    const member = h().demo.plainMemberId;
    await playTone(member);
    await joinVoice(member, null);
    // The player notices on its next look (once a second); the clock then decides.
    await waitFor(() => player()?.aloneSince !== null || undefined, 5000, 'the player to notice it is alone');
    clock.advance(61_000);
    const note = await h().waitForMessage(general(), (m) => m.bot && m.content.startsWith('Left'), { timeoutMs: 5000 });
    assert.equal(note.content, `Left <#${lounge()}>: nobody was listening for 1:00.`);
    await waitFor(() => botChannel() === null || undefined, 5000, 'the bot to leave voice');
  });
});
