// The music commands, slash and text prefix alike (one Command each serves both faces): /play,
// /pause, /resume, /skip, /stop, /queue, /nowplaying, /volume, /remove, /shuffle, /loop, /radio,
// /leave. Each finds the member's standing (voice channel, DJ) and calls control.ts, which the
// Music page calls too; refusals come back as sentences.
import type { APIEmbed } from 'discord.js';
import { read, type Command, type CommandReply, type Invocation } from '../../bot/command';
import { pageButtons, pagedCommand } from '../../bot/paging';
import { LOOP_MODES, type LoopMode } from '../../shared/music-player';
import * as control from './control';
import { formatDuration, trackLength } from '../../shared/music';
import { QUEUE_PAGE_SIZE, type QueuedTrack } from './queue';
import { resolveAttachment, resolveQuery, resolveStation, suggestNames } from './sources';
import { musicState } from './state';

const actorOf = (invocation: Pick<Invocation, 'services' | 'guildId' | 'member'>) =>
  control.memberActor(invocation.services, invocation.guildId, invocation.member);

const lengthOf = (track: QueuedTrack) => trackLength(track.durationSeconds);

/** What /play and /radio answer once a track is queued. */
function queuedReply(queued: control.Queued): string {
  const { track, position, channelId } = queued;
  if (position === 0) return `Now playing **${track.title}** (${lengthOf(track)}) in <#${channelId}>.`;
  return `Queued **${track.title}** (${lengthOf(track)}) at place ${position}.`;
}

/** Autocomplete choices from names (Discord takes up to 100 characters each). */
const choices = (names: string[]) => names.map((name) => ({ name: name.slice(0, 100), value: name.slice(0, 100) }));

const play: Command = {
  name: 'play',
  description: 'Play a track from the library, a saved station, or a stream address',
  feature: 'music',
  // Joining a voice channel takes a second or more: deferred early, inside Discord's three seconds.
  deferAfterMs: 500,
  options: [
    {
      type: 'string',
      name: 'query',
      description: 'A library title, a station name, or an http(s) stream address',
      maxLength: 2000,
      autocomplete: async (invocation, typed) => choices(await suggestNames(invocation.services, invocation.guildId, typed, { tracks: true })),
    },
    { type: 'attachment', name: 'file', description: 'An audio file to play (MP3, Ogg, Opus, FLAC, WAV or M4A)' },
  ],
  async run(invocation) {
    const actor = await actorOf(invocation);
    const file = read.attachment(invocation, 'file');
    const query = read.string(invocation, 'query');
    if (file && query) return { content: 'Give either something to look up or a file, not both.', ephemeral: true };
    if (!file && !query) {
      const how = invocation.source === 'slash' ? '/play query:' : `${invocation.prefix}play `;
      return { content: `Say what to play (${how}<a library title, a station or a stream address>), or attach an audio file.`, ephemeral: true };
    }
    const track = file ? resolveAttachment(invocation.services, file, actor) : await resolveQuery(invocation.services, invocation.guildId, query ?? '', actor);
    return queuedReply(await control.enqueue(invocation.services, invocation.guildId, actor, track, { textChannelId: invocation.channelId }));
  },
};

const radio: Command = {
  name: 'radio',
  description: 'Play a saved internet radio station now, in place of the queue',
  feature: 'music',
  // Joining a voice channel takes a second or more: deferred early, inside Discord's three seconds.
  deferAfterMs: 500,
  options: [
    {
      type: 'string',
      name: 'station',
      description: 'The station’s name',
      required: true,
      maxLength: 50,
      autocomplete: async (invocation, typed) => choices(await suggestNames(invocation.services, invocation.guildId, typed, { tracks: false })),
    },
  ],
  async run(invocation) {
    const actor = await actorOf(invocation);
    const track = await resolveStation(invocation.services, invocation.guildId, read.string(invocation, 'station') ?? '', actor);
    return queuedReply(await control.enqueue(invocation.services, invocation.guildId, actor, track, { textChannelId: invocation.channelId, replace: true }));
  },
};

/** A command that acts on the player and answers one sentence. */
function action(
  name: string,
  description: string,
  act: (invocation: Invocation, actor: control.MusicActor) => Promise<string>,
  extra: Partial<Command> = {},
): Command {
  return { name, description, feature: 'music', ...extra, run: async (invocation) => act(invocation, await actorOf(invocation)) };
}

const pause = action('pause', 'Pause the music', async ({ services, guildId }, actor) => {
  await control.pause(services, guildId, actor);
  return 'Paused. Use /resume to go on.';
});

const resume = action('resume', 'Resume the paused music', async ({ services, guildId }, actor) => {
  await control.resume(services, guildId, actor);
  return 'Resumed.';
});

const skip = action('skip', 'Skip the track playing now (a vote unless you are a DJ)', async ({ services, guildId }, actor) => {
  const result = await control.skip(services, guildId, actor);
  if ('votes' in result) return `Vote to skip **${result.title}** counted: ${result.votes} of ${result.needed} needed.`;
  return result.next
    ? `Skipped **${result.skipped.title}**. Now playing **${result.next.title}**.`
    : `Skipped **${result.skipped.title}**. The queue is empty now.`;
});

const stop = action('stop', 'Stop the music and empty the queue', async ({ services, guildId }, actor) => {
  await control.stop(services, guildId, actor);
  return 'Stopped, and the queue is empty.';
});

const volume = action(
  'volume',
  'Set the volume, 1 to 150 percent',
  async (invocation, actor) => {
    const percent = read.number(invocation, 'percent') ?? 0;
    await control.setVolume(invocation.services, invocation.guildId, actor, percent);
    return `Volume set to ${percent}%.`;
  },
  { options: [{ type: 'integer', name: 'percent', description: 'Percent, 1 to 150', required: true, min: 1, max: 150 }] },
);

const remove = action(
  'remove',
  'Remove a track from the queue by its place',
  async (invocation, actor) => {
    const removed = await control.removeTrack(invocation.services, invocation.guildId, actor, { position: read.number(invocation, 'position') ?? 0 });
    return `Removed **${removed.title}** from the queue.`;
  },
  { options: [{ type: 'integer', name: 'position', description: 'Its place in /queue (1 is next)', required: true, min: 1, max: 500 }] },
);

const shuffle = action('shuffle', 'Shuffle the tracks waiting in the queue', async ({ services, guildId }, actor) => {
  const count = await control.shuffle(services, guildId, actor);
  return `Shuffled the ${count} tracks waiting.`;
});

const LOOP_WORDS: Record<LoopMode, string> = {
  off: 'Looping is off: each track plays once.',
  track: 'Looping the track playing now.',
  queue: 'Looping the queue: each track goes to the back once it has played.',
};

const loop = action(
  'loop',
  'Loop the track, the queue, or nothing',
  async (invocation, actor) => {
    const mode = (read.string(invocation, 'mode') ?? 'off') as LoopMode;
    await control.setLoop(invocation.services, invocation.guildId, actor, mode);
    return LOOP_WORDS[mode];
  },
  {
    options: [
      { type: 'string', name: 'mode', description: 'off, track or queue', required: true, choices: LOOP_MODES.map((mode) => ({ name: mode, value: mode })) },
    ],
  },
);

const leave = action('leave', 'Make the bot leave the voice channel', async ({ services, guildId }, actor) => {
  const channelId = await control.leave(services, guildId, actor);
  return `Left <#${channelId}>.`;
});

/** A progress bar of 20 cells. */
function progressBar(position: number, length: number): string {
  const filled = Math.min(20, Math.max(0, Math.round((position / Math.max(1, length)) * 20)));
  return `${'▬'.repeat(filled)}🔘${'▬'.repeat(20 - filled)}`;
}

const nowplaying: Command = {
  name: 'nowplaying',
  description: 'Show what is playing and how far along it is',
  feature: 'music',
  ephemeral: true,
  async run({ services, guildId }) {
    const player = musicState.of(services).players.get(guildId);
    const current = player?.current;
    if (!player || !current) return 'Nothing is playing in this server right now. Start something with /play.';
    const { track, positionSeconds } = current;
    const progress =
      track.durationSeconds === null
        ? `Live for ${formatDuration(positionSeconds)}`
        : `${progressBar(positionSeconds, track.durationSeconds)}\n${formatDuration(positionSeconds)} / ${formatDuration(track.durationSeconds)}`;
    const embed: APIEmbed = {
      title: player.paused ? 'Paused' : 'Now playing',
      description: `**${track.title}**\n${progress}`,
      fields: [
        { name: 'Asked for by', value: track.requestedByName, inline: true },
        { name: 'Volume', value: `${player.volume}%`, inline: true },
        { name: 'Loop', value: player.queue.loop, inline: true },
      ],
      color: 0x5865f2,
    };
    return { embeds: [embed], ephemeral: true } satisfies CommandReply;
  },
};

const queue = pagedCommand({
  name: 'queue',
  description: 'Show the music queue',
  feature: 'music',
  maxPage: 50,
  async reply(services, guildId, wanted) {
    const player = musicState.of(services).players.get(guildId);
    if (!player?.queue.current) return { content: 'The queue is empty. Add something with /play.' };
    const page = player.queue.page(wanted);
    const lines = page.tracks.map(({ position, track }) => `${position}. **${track.title}** (${lengthOf(track)}), by ${track.requestedByName}`);
    const current = page.current as QueuedTrack;
    const embed: APIEmbed = {
      title: 'Queue',
      description: `Now playing: **${current.title}** (${lengthOf(current)})\n\n${lines.join('\n') || 'Nothing after it.'}`,
      footer: { text: `${page.total} waiting · loop ${player.queue.loop} · ${QUEUE_PAGE_SIZE} per page` },
      color: 0x5865f2,
    };
    return { embeds: [embed], components: pageButtons('queue', page.page, page.pages) };
  },
});

export const musicCommands: Command[] = [play, pause, resume, skip, stop, queue, nowplaying, volume, remove, shuffle, loop, radio, leave];
