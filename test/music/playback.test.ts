// Music through the sandbox, end to end: a member in a voice channel runs /play (slash and text)
// and the sandbox's voice server hears the library's tone; skip, pause, volume measured as a level.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { suggestNames } from '../../src/features/music/sources';
import { buildMember } from '../factories';
import { ffmpegAudio } from '../helpers/audio';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { musicKit } from './kit';

const h = useHarness({ ALLOW_PRIVATE_WEBHOOKS: '1' });
const { lounge, heard, hears, silent, enableMusic, uploadTone, joinVoice, botChannel } = musicKit(h);

describe('music playback through the sandbox voice server', () => {
  test('switched on, a member in voice plays a library track with /play and the channel hears it', async () => {
    await enableMusic();
    await uploadTone(440, 30, 'Concert A');
    const member = h().demo.plainMemberId;
    await joinVoice(member);
    const reply = await h().slash(member, 'play', { query: 'concert a' });
    assert.match(reply.body.content, /Now playing \*\*Concert A\*\*/);
    const first = await hears(440);
    assert.equal(first.decryptFailures, 0);
  });

  test('a text command queues the next track; /queue lists both; the only listener may pause, resume and set the volume', async () => {
    await uploadTone(660, 30, 'High E');
    const member = h().demo.plainMemberId;
    const queued = await h().say(member, '!play high e');
    assert.match(queued.content, /Queued \*\*High E\*\* \(0:30\) at place 1\./);
    const list = await h().slash(member, 'queue');
    assert.match(list.body.embeds[0]?.description ?? '', /Now playing: \*\*Concert A\*\*[\s\S]*1\. \*\*High E\*\* \(0:30\)/);

    assert.equal((await h().slash(member, 'pause')).body.content, 'Paused. Use /resume to go on.');
    await silent();
    assert.equal((await h().slash(member, 'pause')).body.content, 'The music is paused already. Use /resume to go on.');
    assert.equal((await h().slash(member, 'resume')).body.content, 'Resumed.');
    const loud = await hears(440);
    assert.equal((await h().slash(member, 'volume', { percent: 20 })).body.content, 'Volume set to 20%.');
    // 80% to 20% is a quarter of the amplitude: about 12 dB quieter.
    const quiet = await waitFor(
      async () => {
        const channel = await heard(1);
        return channel?.level !== null && channel?.level !== undefined && channel.level < (loud.level ?? 0) - 9 ? channel : null;
      },
      5000,
      'the level to drop',
    );
    assert.ok(quiet.dominantHz !== null && Math.abs(quiet.dominantHz - 440) <= 15, `dominant ${quiet.dominantHz} Hz`);
  });

  test('with others listening, a member’s skip is a vote; enough votes skip; stop is for DJs; an admin (DJ) stops', async () => {
    const member = h().demo.plainMemberId;
    const second = await buildMember(h());
    const third = await buildMember(h());
    await joinVoice(second.userId);
    await joinVoice(third.userId);
    // Three listeners at the default ratio 0.5: two votes.
    assert.equal((await h().slash(member, 'skip')).body.content, 'Vote to skip **Concert A** counted: 1 of 2 needed.');
    assert.equal((await h().slash(member, 'skip')).body.content, 'Vote to skip **Concert A** counted: 1 of 2 needed.');
    assert.match((await h().slash(second.userId, 'stop')).body.content, /Only a DJ can stop the music while others are listening/);
    assert.equal((await h().slash(second.userId, 'skip')).body.content, 'Skipped **Concert A**. Now playing **High E**.');
    await hears(660);
    const outsider = await buildMember(h());
    assert.match((await h().slash(outsider.userId, 'skip')).body.content, /Join <#\d+>, where the bot is playing, to control the music\./);
    await joinVoice(h().demo.adminUserId);
    assert.equal((await h().slash(h().demo.adminUserId, 'stop')).body.content, 'Stopped, and the queue is empty.');
    await silent();
    assert.equal((await h().slash(member, 'nowplaying')).body.content, 'Nothing is playing in this server right now. Start something with /play.');
    assert.equal((await h().slash(h().demo.adminUserId, 'leave')).body.content, `Left <#${lounge()}>.`);
    await waitFor(() => botChannel() === null || undefined, 5000, 'the bot to leave voice');
  });

  test('an audio file attached to /play, and to a !play message, plays; a file that is not audio is refused', async () => {
    const member = h().demo.plainMemberId;
    await joinVoice(member);
    const file = { filename: 'my song.mp3', contentType: 'audio/mpeg', dataBase64: (await ffmpegAudio('mp3', 20, {}, 770)).toString('base64') };
    const reply = await h().slash(member, 'play', { file });
    assert.match(reply.body.content, /Now playing \*\*my song\*\* \(live\) in <#\d+>\./);
    await hears(770);
    const general = h().demo.channels.general;
    const posted = await h().control<{ id: string }>('POST', `/channels/${general}/messages`, {
      authorId: member,
      content: '!play',
      attachments: [{ filename: 'second.ogg', dataBase64: (await ffmpegAudio('ogg', 5, {}, 330)).toString('base64') }],
    });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const queued = await h().waitForMessage(general, (m) => m.bot && m.replyTo === posted.body.id);
    assert.match(queued.content, /Queued \*\*second\*\* \(live\) at place 1\./);
    const text = { filename: 'notes.txt', contentType: 'text/plain', dataBase64: Buffer.from('not audio').toString('base64') };
    assert.equal(
      (await h().slash(member, 'play', { file: text })).body.content,
      '“notes.txt” is not an audio file. Attach an MP3, Ogg, Opus, FLAC, WAV or M4A file.',
    );
    // Others still listen from the test before: the admin skips as a DJ.
    assert.equal((await h().slash(h().demo.adminUserId, 'skip')).body.content, 'Skipped **my song**. Now playing **second**.');
    await hears(330);
    assert.equal((await h().slash(h().demo.adminUserId, 'stop')).body.content, 'Stopped, and the queue is empty.');
  });

  test('/play suggests library titles and stations containing what is typed, whatever its case; /radio only stations', async () => {
    const services = h().product.services;
    assert.deepEqual(await suggestNames(services, h().guildId, 'CERT', { tracks: true }), ['Concert A']);
    assert.deepEqual(await suggestNames(services, h().guildId, 'CERT', { tracks: false }), []);
    assert.deepEqual(await suggestNames(services, h().guildId, 'nothing like it', { tracks: true }), []);
  });

  test('refusals in words: not in voice, a YouTube link, nothing matching', async () => {
    const outsider = await buildMember(h());
    assert.equal(
      (await h().slash(outsider.userId, 'play', { query: 'concert a' })).body.content,
      'Join a voice channel first, then ask again: the bot plays in the channel you are in.',
    );
    const member = h().demo.plainMemberId;
    assert.match((await h().slash(member, 'play', { query: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })).body.content, /YouTube links are not played/);
    assert.match(
      (await h().slash(member, 'play', { query: 'no such song' })).body.content,
      /Nothing in this server’s library or stations matches “no such song”/,
    );
  });
});
