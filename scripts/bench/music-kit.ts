// What scripts/bench/music-load.ts needs besides the product kit: tone files to play, the sandbox's
// voice control routes (members in voice, slash commands, what each channel heard), and the CPU
// and memory of the product's ffmpeg children, read from /proc (Linux).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ChannelAudioReport } from '../../src/sandbox/voice';
import { cpuSeconds } from './load-kit';
import type { SandboxInfo } from './product-client';

/** A music guild of music-sandbox-process.ts. */
export interface MusicGuild {
  guildId: string;
  textChannelId: string;
  voiceChannelId: string;
  listenerId: string;
}

/** What music-sandbox-process.ts prints. */
export interface MusicSandboxInfo extends SandboxInfo {
  voiceCaFile: string;
  musicGuilds: MusicGuild[];
}

/** The tone guild `index` plays (Hz): 50 Hz apart, so a channel hearing another's audio shows. */
export const toneOf = (index: number) => 300 + 50 * index;

/**
 * An mp3 of a sine at `hz` lasting `seconds`, made by ffmpeg in `dir`; returns its path. Stereo
 * 48 kHz at 128 kb/s, like a music file: the product's ffmpeg decodes real mp3 frames.
 */
export async function makeTone(dir: string, hz: number, seconds: number): Promise<string> {
  const file = path.join(dir, `tone-${hz}.mp3`);
  await promisify(execFile)('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${hz}:duration=${seconds}:sample_rate=48000`,
    '-ac',
    '2',
    '-b:a',
    '128k',
    file,
  ]);
  return file;
}

/** A call to the sandbox's control API; throws on an answer other than 2xx. */
export async function sandboxControl<T>(sandbox: SandboxInfo, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandbox.url}/_sandbox${route}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw Object.assign(new Error(`sandbox ${method} ${route} answered ${response.status}: ${text}`), { status: response.status });
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Runs a slash command as a member and returns the bot's reply text. The product registers a
 * guild's commands once it has seen the guild, so "unknown command" is retried for a while.
 */
export async function slash(sandbox: SandboxInfo, guild: MusicGuild, name: string, options: Record<string, string> = {}): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const body = { guildId: guild.guildId, channelId: guild.textChannelId, userId: guild.listenerId, name, options };
      const reply = await sandboxControl<{ content?: string }>(sandbox, 'POST', '/interactions', body);
      return reply.content ?? '';
    } catch (error) {
      if ((error as { status?: number }).status !== 404 || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** What the guild's voice channels heard over the last `windowSeconds`. */
export async function heard(sandbox: SandboxInfo, guildId: string, windowSeconds = 3): Promise<ChannelAudioReport[]> {
  return (await sandboxControl<{ channels: ChannelAudioReport[] }>(sandbox, 'GET', `/guilds/${guildId}/voice/audio?windowSeconds=${windowSeconds}`)).channels;
}

/** Forgets what the guild's channels heard, so the next report's counters and gaps start now. */
export async function resetHeard(sandbox: SandboxInfo, guildId: string): Promise<void> {
  await sandboxControl(sandbox, 'DELETE', `/guilds/${guildId}/voice/audio`);
}

/** The pids of `parentPid`'s children named `comm` (a scan of /proc: the children file needs a kernel option). */
export function childrenNamed(parentPid: number, comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parentPid && name === comm) pids.push(Number(entry));
    } catch {
      // The process ended while the scan ran.
    }
  }
  return pids;
}

/**
 * A process's proportional share of resident memory in bytes (0 once it is gone): the ffmpeg
 * processes share their libraries' pages, which RSS would count once per process.
 */
export function pssOf(pid: number): number {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of a process and of its children named `comm`, from now on. Children are looked at
 * every 500 ms, so one that starts and ends between looks is missed; a child's last reading counts
 * after it ends (a stop or a track change inside the window would be undercounted by under 500 ms).
 */
export function cpuMeter(pid: number, comm: string) {
  const nodeStart = cpuSeconds(pid);
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let peakChildrenPss = 0;
  const look = () => {
    let pss = 0;
    for (const child of childrenNamed(pid, comm)) {
      const seconds = cpuSeconds(child);
      if (!Number.isFinite(seconds)) continue;
      if (!first.has(child)) first.set(child, started ? 0 : seconds);
      last.set(child, seconds);
      pss += pssOf(child);
    }
    peakChildrenPss = Math.max(peakChildrenPss, pss);
  };
  let started = false;
  look();
  started = true;
  const timer = setInterval(look, 500);
  return {
    /** Stops looking: CPU seconds of the process and of its children since the start, the children's count and their peak PSS in all. */
    stop() {
      look();
      clearInterval(timer);
      let children = 0;
      for (const [child, seconds] of last) children += seconds - (first.get(child) ?? 0);
      return { node: cpuSeconds(pid) - nodeStart, children, childCount: last.size, peakChildrenPss };
    },
  };
}
