// What a queued track plays, decoded by ffmpeg into 48 kHz stereo 16-bit PCM, the input the voice
// player encodes to Opus: a library file read from disk (seeking to where a restart left it), or
// the bytes of a stream or an attachment fetched here and fed to ffmpeg's stdin. ffmpeg opens no
// address itself: its protocols are whitelisted to the one input it is given.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Silence this long on a live stream counts as a dead stream (a station that lost its source plays silence). */
export const SILENT_STREAM_SECONDS = 10;

/** Where the audio comes from, as ffmpeg reads it. */
export type AudioOrigin = { kind: 'file'; path: string } | { kind: 'bytes'; body: Readable; live: boolean };

/** A running decode. */
export interface AudioInput {
  /** s16le, 48 kHz, two channels. */
  pcm: Readable;
  /** Settles when ffmpeg exits: null when it decoded everything, else why it stopped, in words. */
  finished: Promise<string | null>;
  /** Stops the decode (and the download feeding it). */
  stop(): void;
}

/** Hooks a live stream's silence detection calls. */
export interface SilenceHooks {
  onSilence?(): void;
}

/** A reason in words from ffmpeg's last lines of error output. */
export function ffmpegReason(lines: readonly string[]): string {
  const text = lines.join(' ');
  if (/Invalid data found|could not find codec|Failed to find|does not contain any stream|Invalid argument/i.test(text)) {
    return 'it is not audio the bot can read';
  }
  if (/No such file/i.test(text)) return 'its file is missing from the library folder';
  if (/Connection reset|end of file|I\/O error|Broken pipe/i.test(text)) return 'the connection to it broke off';
  return 'ffmpeg could not decode it';
}

/** The ffmpeg arguments for an origin, starting `startSeconds` in. */
export function ffmpegArgs(origin: AudioOrigin, startSeconds: number): string[] {
  const live = origin.kind === 'bytes' && origin.live;
  const input = origin.kind === 'file' ? ['-protocol_whitelist', 'file', '-i', `file:${origin.path}`] : ['-protocol_whitelist', 'pipe', '-i', 'pipe:0'];
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    // silencedetect reports at the info level; otherwise errors only.
    '-loglevel',
    live ? 'info' : 'error',
    ...(startSeconds > 0 && !live ? ['-ss', startSeconds.toFixed(3)] : []),
    ...input,
    '-vn',
    ...(live ? ['-af', `silencedetect=noise=-60dB:d=${SILENT_STREAM_SECONDS}`] : []),
    '-f',
    's16le',
    '-ar',
    '48000',
    '-ac',
    '2',
    'pipe:1',
  ];
}

/** Starts ffmpeg on an origin. A missing ffmpeg shows as `finished` with the reason, not a crash. */
export function decode(ffmpegPath: string, origin: AudioOrigin, startSeconds: number, hooks: SilenceHooks = {}): AudioInput {
  const child = spawn(ffmpegPath, ffmpegArgs(origin, startSeconds), { stdio: ['pipe', 'pipe', 'pipe'] });
  const lastLines: string[] = [];
  let stopped = false;
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const lines = (partial + chunk).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('silence_start')) hooks.onSilence?.();
      else if (line.trim() && !line.includes('silencedetect')) lastLines.push(line.trim());
      if (lastLines.length > 5) lastLines.shift();
    }
  });
  if (origin.kind === 'bytes') {
    // ffmpeg closing its stdin early (it stopped, or read all it needs) is not an error of ours.
    child.stdin.on('error', () => undefined);
    origin.body.on('error', () => child.stdin.destroy());
    origin.body.pipe(child.stdin);
  } else {
    child.stdin.end();
  }
  const finished = new Promise<string | null>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ENOENT' ? 'ffmpeg is not installed on the bot’s host' : `ffmpeg could not start (${error.message})`);
    });
    child.on('close', (code) => {
      if (stopped || code === 0) resolve(null);
      else resolve(ffmpegReason(lastLines));
    });
  });
  return {
    pcm: child.stdout,
    finished,
    stop() {
      stopped = true;
      if (origin.kind === 'bytes') origin.body.destroy();
      child.kill('SIGKILL');
    },
  };
}
