// The music player under load (issue 23): ten servers playing at once through the sandbox's voice
// server, and chat ingest while five play.
//
// Each run starts a sandbox process (music-sandbox-process.ts: the demo world with 5,000 members,
// plus ten guilds each with the bot, a voice channel and a listener) and then, in turn:
//   1. a bare discord.js client in this process receives N messages in the demo #general: the
//      sandbox's ceiling and the baseline of the ingest ratio (as leveling-throughput.ts measures it);
//   2. the product (product-process.ts, bundled, trusting the sandbox's voice certificate) starts;
//      an admin switches leveling and economy on in the demo guild and music on in the ten, and
//      uploads to each a tone of its own (300, 350, ... 750 Hz);
//   3. idle: the product's CPU (user + system, /proc) over 10 s and its RSS, nobody playing;
//   4. ten playing: each listener joins its voice channel and runs /play; once every channel hears
//      packets, what the sandbox heard is reset and for 30 s the product's CPU, its ffmpeg children's
//      CPU and RSS, and the product's RSS and event loop delay are measured; then each channel's
//      packet gaps (p50, p99, max: Opus frames are 20 ms apart), decrypt failures and dominant
//      frequency (the right tone, within 2 Hz) as the sandbox heard them over the window;
//   5. five playing: five listeners run /stop; after a 2,000-message warm-up, N messages are posted
//      and the product's ingest (messages/s until the Nth MESSAGE_CREATE went through the bot's
//      listeners) is measured, with the five channels' gaps over that time;
//   6. nobody playing: the other five stop, and the same N messages measure the product idle.
// Ingest idle is measured after ingest with five playing so both meet a product in the same state
// (warmed up, the same store); RSS idle is measured before any chat, so RSS ten playing is comparable.
// The sandbox decodes every Opus packet it receives in its own process, and on this 2-core machine
// the product, its ffmpeg children and the sandbox share the cores: gaps during ingest are the
// sandbox's busy event loop as much as the product's.
// The library's files go to the product's default music folder (data/music/<guildId>, git-ignored);
// the run removes its guilds' folders when it ends.
//
// Usage: node --import tsx scripts/bench/music-load.ts [runs=3]
//        (PRODUCT_LOG_LEVEL=info shows the product's log; warnings are shown by default)
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Events } from 'discord.js';
import { createBotClient } from '../../src/bot/client';
import { median, spawnJson, stop } from './child';
import { cpuMeter, heard, makeTone, resetHeard, slash, toneOf, sandboxControl, type MusicGuild, type MusicSandboxInfo } from './music-kit';
import { benchReport } from './report';
import {
  bulkPost,
  callApi,
  callControl,
  freePort,
  mb,
  signIn,
  startProductProcess,
  until,
  type ProductInfo,
  type ProductState,
  type Sampled,
} from './product-client';

const runs = Number(process.argv[2] ?? 3);
const GUILDS = 10;
const FIVE = 5;
const WINDOW_SECONDS = 30;
const IDLE_SECONDS = 10;
const MESSAGES = 100_000;
const WARM_UP = 2000;
const MEMBERS = 5000;
/** Long enough that no track ends within a run. */
const TONE_SECONDS = 600;
/** How far from its tone a channel's dominant frequency may be. */
const TONE_TOLERANCE_HZ = 2;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rate = (count: number, from: number, to: number) => Math.round(count / ((to - from) / 1000));
/** CPU seconds over a span, as percent of one core. */
const percent = (seconds: number, spanSeconds: number) => (seconds / spanSeconds) * 100;

/** The bare client's rate for MESSAGES in the demo #general, after a warm-up (leveling-throughput.ts's baseline). */
async function bareClientRate(sandbox: MusicSandboxInfo): Promise<number> {
  const client = createBotClient({ api: sandbox.apiBase, cdn: sandbox.cdnBase, globalRequestsPerSecond: 1000 });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(sandbox.botToken);
    await ready;
    let received = 0;
    let target = 0;
    let reached: (at: number) => void = () => undefined;
    client.on(Events.MessageCreate, () => {
      received += 1;
      if (received === target) reached(Date.now());
    });
    const receive = async (n: number) => {
      target = received + n;
      const done = new Promise<number>((resolve) => (reached = resolve));
      const started = Date.now();
      await bulkPost(sandbox, sandbox.demo.channels.general, n);
      return rate(n, started, await done);
    };
    await receive(WARM_UP);
    return await receive(MESSAGES);
  } finally {
    await client.destroy();
  }
}

/** The product's ingest of `count` messages in the demo #general: messages/s until the last went through the bot's listeners. */
async function productIngest(product: ProductInfo, sandbox: MusicSandboxInfo, count: number): Promise<number> {
  const { received } = await callControl<ProductState>(product, 'GET', '/state');
  const arrived = callControl<{ at: number }>(product, 'GET', `/wait?received=${received + count}`);
  const started = Date.now();
  await bulkPost(sandbox, sandbox.demo.channels.general, count);
  return rate(count, started, (await arrived).at);
}

/** Uploads a file to the guild's music library as the signed-in admin; returns its title. */
async function upload(product: ProductInfo, cookie: string, guildId: string, file: string): Promise<string> {
  const response = await fetch(`${product.url}/api/servers/${guildId}/music/library?name=${encodeURIComponent(path.basename(file))}`, {
    method: 'POST',
    headers: { cookie, origin: new URL(product.url).origin, 'content-type': 'audio/mpeg' },
    body: readFileSync(file),
  });
  if (!response.ok) throw new Error(`upload to ${guildId} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { title: string }).title;
}

/**
 * The listener joins the voice channel and asks for the title; resolves once the sandbox hears its
 * packets, with how long /play took to answer, or null when the bot answered too late for Discord
 * (a 504 from the sandbox: the command may still have run, so the audio decides).
 */
async function startPlaying(sandbox: MusicSandboxInfo, guild: MusicGuild, title: string): Promise<number | null> {
  await sandboxControl(sandbox, 'POST', `/guilds/${guild.guildId}/voice`, { userId: guild.listenerId, channelId: guild.voiceChannelId });
  const asked = performance.now();
  let answeredMs: number | null = null;
  try {
    const reply = await slash(sandbox, guild, 'play', { query: title });
    if (!reply.startsWith('Now playing')) throw new Error(`/play in ${guild.guildId} answered: ${reply}`);
    answeredMs = performance.now() - asked;
  } catch (error) {
    if ((error as { status?: number }).status !== 504) throw error;
    console.log(`  /play in ${guild.guildId}: ${(error as Error).message}`);
  }
  await until(
    async () => (await heard(sandbox, guild.guildId, 1)).some((c) => c.channelId === guild.voiceChannelId && c.speaking),
    `audio in ${guild.guildId}`,
    30_000,
    200,
  );
  return answeredMs;
}

/** What one channel heard over a window. */
interface Heard {
  p50: number;
  p99: number;
  max: number;
  packets: number;
  decryptFailures: number;
  hz: number | null;
  toneOk: boolean;
}

/** What each of `guilds` heard since its last reset (the guild's index in the run picks its tone). */
async function hearAll(sandbox: MusicSandboxInfo, guilds: MusicGuild[]): Promise<Heard[]> {
  return Promise.all(
    guilds.map(async (guild) => {
      const channel = (await heard(sandbox, guild.guildId, 3)).find((c) => c.channelId === guild.voiceChannelId);
      const hz = channel?.dominantHz ?? null;
      const tone = toneOf(sandbox.musicGuilds.indexOf(guild));
      return {
        p50: channel?.gapMs.p50 ?? Number.NaN,
        p99: channel?.gapMs.p99 ?? Number.NaN,
        max: channel?.gapMs.max ?? Number.NaN,
        packets: channel?.packets ?? 0,
        decryptFailures: channel?.decryptFailures ?? 0,
        hz,
        toneOk: hz !== null && Math.abs(hz - tone) <= TONE_TOLERANCE_HZ,
      };
    }),
  );
}

interface Run {
  bare: number;
  ingestIdle: number;
  ingestFive: number;
  idleCpu: number;
  tenNodeCpu: number;
  tenFfmpegCpu: number;
  ffmpegCount: number;
  ffmpegPss: number;
  rssIdle: number;
  rssTen: number;
  rssTenPeak: number;
  loop: Sampled['eventLoopDelay'];
  /** The product's event loop delay during the ingest with five playing. */
  ingestLoop: Sampled['eventLoopDelay'];
  ten: Heard[];
  /** How long each /play took to answer (ms); null: too late for Discord. */
  playAnswers: (number | null)[];
  five: Heard[];
}

/** One run: a fresh sandbox, the bare client, then the product idle, with ten playing, with five playing during chat, and idle during chat. */
async function musicRun(files: string[]): Promise<Run> {
  const port = await freePort();
  const { child: sandboxChild, info: sandbox } = await spawnJson<MusicSandboxInfo>('scripts/bench/music-sandbox-process.ts', {
    SANDBOX_MEMBERS: String(MEMBERS),
    SANDBOX_RELAXED: '1',
    SANDBOX_REDIRECT_URIS: `http://127.0.0.1:${port}/auth/callback`,
    SANDBOX_MUSIC_GUILDS: String(GUILDS),
    SANDBOX_VOICE_CERT_DIR: mkdtempSync(path.join(tmpdir(), 'bench-voice-cert-')),
  });
  const guilds = sandbox.musicGuilds;
  try {
    const bare = await bareClientRate(sandbox);
    const { child, info: product } = await startProductProcess(sandbox, port, {
      NODE_EXTRA_CA_CERTS: sandbox.voiceCaFile,
      PRODUCT_LOG_LEVEL: process.env.PRODUCT_LOG_LEVEL ?? 'warn',
    });
    const pid = child.pid ?? 0;
    try {
      const cookie = await signIn(product, sandbox.demo.adminUserId);
      await callApi(product, cookie, 'PUT', `/api/servers/${sandbox.demo.guildId}/settings`, { levelingEnabled: true, economyEnabled: true });
      const titles: string[] = [];
      for (const [index, guild] of guilds.entries()) {
        await callApi(product, cookie, 'PUT', `/api/servers/${guild.guildId}/settings`, { musicEnabled: true });
        titles.push(await upload(product, cookie, guild.guildId, files[index] ?? ''));
      }

      await sleep(2000);
      const idleMeter = cpuMeter(pid, 'ffmpeg');
      await sleep(IDLE_SECONDS * 1000);
      const idle = idleMeter.stop();
      const rssIdle = (await callControl<ProductState>(product, 'GET', '/state')).rss;

      // One after another, as members of different servers would ask: ten /play in the same instant
      // once made every answer miss Discord's 3 s on a busy machine, and the burst is not what is measured.
      const playAnswers: (number | null)[] = [];
      for (const [index, guild] of guilds.entries()) playAnswers.push(await startPlaying(sandbox, guild, titles[index] ?? ''));
      await sleep(3000);
      await Promise.all(guilds.map((guild) => resetHeard(sandbox, guild.guildId)));
      await callControl(product, 'POST', '/sample/start');
      const meter = cpuMeter(pid, 'ffmpeg');
      const windowStart = performance.now();
      await sleep(WINDOW_SECONDS * 1000);
      const used = meter.stop();
      const span = (performance.now() - windowStart) / 1000;
      const sampled = await callControl<Sampled>(product, 'POST', '/sample/stop');
      const rssTen = (await callControl<ProductState>(product, 'GET', '/state')).rss;
      const ten = await hearAll(sandbox, guilds);

      for (const guild of guilds.slice(FIVE)) await slash(sandbox, guild, 'stop');
      const playing = guilds.slice(0, FIVE);
      await productIngest(product, sandbox, WARM_UP);
      await Promise.all(playing.map((guild) => resetHeard(sandbox, guild.guildId)));
      await callControl(product, 'POST', '/sample/start');
      const ingestFive = await productIngest(product, sandbox, MESSAGES);
      const ingestLoop = (await callControl<Sampled>(product, 'POST', '/sample/stop')).eventLoopDelay;
      const five = await hearAll(sandbox, playing);

      for (const guild of playing) await slash(sandbox, guild, 'stop');
      await sleep(2000);
      const ingestIdle = await productIngest(product, sandbox, MESSAGES);
      return {
        bare,
        ingestIdle,
        ingestFive,
        idleCpu: percent(idle.node, IDLE_SECONDS),
        tenNodeCpu: percent(used.node, span),
        tenFfmpegCpu: percent(used.children, span),
        ffmpegCount: used.childCount,
        ffmpegPss: used.peakChildrenPss,
        rssIdle,
        rssTen,
        rssTenPeak: sampled.maxRss,
        loop: sampled.eventLoopDelay,
        ingestLoop,
        ten,
        playAnswers,
        five,
      };
    } finally {
      await stop(child);
    }
  } finally {
    await stop(sandboxChild);
    // The library files the run uploaded (the product's default folder, data/music/<guildId>).
    for (const guild of guilds) rmSync(path.join(root, 'data/music', guild.guildId), { recursive: true, force: true });
    for (const dir of ['data/music/.incoming', 'data/music']) {
      try {
        if (readdirSync(path.join(root, dir)).length === 0) rmdirSync(path.join(root, dir));
      } catch {
        // Not there, or not empty: left as it was.
      }
    }
  }
}

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
/** Gap figures of channels: the median channel's p50 and p99, the worst channel's p99 and max. */
function gaps(channels: Heard[]) {
  return {
    p50: median(channels.map((c) => c.p50)),
    p99: median(channels.map((c) => c.p99)),
    worstP99: Math.max(...channels.map((c) => c.p99)),
    worstMax: Math.max(...channels.map((c) => c.max)),
    decryptFailures: channels.reduce((sum, c) => sum + c.decryptFailures, 0),
    tones: channels.filter((c) => c.toneOk).length,
    packets: Math.min(...channels.map((c) => c.packets)),
  };
}

const toneDir = mkdtempSync(path.join(tmpdir(), 'bench-music-tones-'));
const files = await Promise.all(Array.from({ length: GUILDS }, (_, index) => makeTone(toneDir, toneOf(index), TONE_SECONDS)));
const results: Run[] = [];
const report = benchReport('music-load', 'Music: ten servers playing at once, and chat ingest while five play (issue 23)');
try {
  for (let i = 0; i < runs; i += 1) {
    const run = await musicRun(files);
    results.push(run);
    const ten = gaps(run.ten);
    const five = gaps(run.five);
    report.line(
      `run ${i + 1}: CPU idle ${fixed(run.idleCpu)}%, ten playing node ${fixed(run.tenNodeCpu)}% + ffmpeg ${fixed(run.tenFfmpegCpu)}% ` +
        `(${run.ffmpegCount} ffmpeg, ${mb(run.ffmpegPss)} MB PSS); RSS idle ${mb(run.rssIdle)} MB, ten playing ${mb(run.rssTen)} MB ` +
        `(peak ${mb(run.rssTenPeak)}); event loop p99 ${run.loop.p99Ms} ms, max ${run.loop.maxMs} ms; /play answered in ` +
        `${run.playAnswers.map((ms) => (ms === null ? 'late' : Math.round(ms))).join(' ')} ms`,
    );
    report.line(
      `       ten playing ${WINDOW_SECONDS} s: gaps median p50 ${fixed(ten.p50)} ms, median p99 ${fixed(ten.p99)} ms, worst p99 ` +
        `${fixed(ten.worstP99)} ms, worst max ${fixed(ten.worstMax)} ms; fewest packets ${ten.packets}; decrypt failures ` +
        `${ten.decryptFailures}; right tone ${ten.tones}/${GUILDS} (${run.ten.map((c) => fixed(c.hz ?? Number.NaN, 0)).join(' ')} Hz)`,
    );
    report.line(
      `       ingest: bare ${run.bare}, product idle ${run.ingestIdle}, five playing ${run.ingestFive} msg/s (${fixed(run.ingestFive / run.bare, 2)} ` +
        `of bare, ${fixed(run.ingestFive / run.ingestIdle, 2)} of idle); five's gaps during ingest: worst p99 ${fixed(five.worstP99)} ms, ` +
        `worst max ${fixed(five.worstMax)} ms, decrypt failures ${five.decryptFailures}, right tone ${five.tones}/${FIVE}; product event loop ` +
        `p99 ${run.ingestLoop.p99Ms} ms, max ${run.ingestLoop.maxMs} ms ` +
        `(load average ${loadavg()[0]?.toFixed(1)})`,
    );
  }
} finally {
  rmSync(toneDir, { recursive: true, force: true });
}

const pick = (f: (run: Run) => number) => median(results.map(f));
const perGuild = (f: (run: Run) => number) => fixed(pick(f) / GUILDS, 2);
report.line('');
report.line(`medians of ${runs} runs (${GUILDS} guilds, ${WINDOW_SECONDS} s window; ${MESSAGES} messages from ${MEMBERS} members per ingest):`);
report.line(
  `  CPU per playing guild (target <= 2% of a core): node ${perGuild((r) => r.tenNodeCpu)}%, node + ffmpeg ` +
    `${perGuild((r) => r.tenNodeCpu + r.tenFfmpegCpu)}%, node above idle ${perGuild((r) => r.tenNodeCpu - r.idleCpu)}%`,
);
report.line(
  `  CPU in all: idle ${fixed(pick((r) => r.idleCpu))}%, ten playing node ${fixed(pick((r) => r.tenNodeCpu))}% + ffmpeg ` +
    `${fixed(pick((r) => r.tenFfmpegCpu))}% of a core; ffmpeg PSS ${mb(pick((r) => r.ffmpegPss))} MB in all`,
);
report.line(
  `  RSS of the product: idle ${mb(pick((r) => r.rssIdle))} MB, ten playing ${mb(pick((r) => r.rssTen))} MB (peak ${mb(pick((r) => r.rssTenPeak))} MB); ` +
    `event loop p99 ${pick((r) => r.loop.p99Ms)} ms`,
);
report.line(
  `  gaps between Opus frames, ten playing (target p99 <= 40 ms): median channel p50 ${fixed(pick((r) => gaps(r.ten).p50))} ms, ` +
    `p99 ${fixed(pick((r) => gaps(r.ten).p99))} ms; worst channel p99 ${fixed(pick((r) => gaps(r.ten).worstP99))} ms, max ` +
    `${fixed(pick((r) => gaps(r.ten).worstMax))} ms; decrypt failures ${pick((r) => gaps(r.ten).decryptFailures)} (must be 0); right tone ` +
    `${pick((r) => gaps(r.ten).tones)}/${GUILDS}`,
);
report.line(
  `  chat ingest (target >= 0.75 of bare): bare ${pick((r) => r.bare)}, product idle ${pick((r) => r.ingestIdle)}, five playing ` +
    `${pick((r) => r.ingestFive)} msg/s; five playing / bare ${fixed(
      pick((r) => r.ingestFive / r.bare),
      2,
    )}, ` +
    `five playing / product idle ${fixed(
      pick((r) => r.ingestFive / r.ingestIdle),
      2,
    )}`,
);
report.line(
  `  while five play during ingest: worst channel p99 gap ${fixed(pick((r) => gaps(r.five).worstP99))} ms, max ` +
    `${fixed(pick((r) => gaps(r.five).worstMax))} ms; the product's event loop p99 ${pick((r) => r.ingestLoop.p99Ms)} ms, max ` +
    `${pick((r) => r.ingestLoop.maxMs)} ms (the sandbox, sending the chat, shares the cores)`,
);
report.save();
