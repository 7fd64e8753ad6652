// Audio files for the music library's tests: a tiny WAV made in code (each one different, so two
// uploads are never the same file), and real encoded files made with Debian's ffmpeg.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A mono 8 kHz 16-bit PCM WAV of `seconds` of noise: a valid file whose bytes differ every call. */
export function noiseWav(seconds = 0.25): Buffer {
  const rate = 8000;
  const data = randomBytes(Math.round(rate * seconds) * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The ffmpeg arguments that encode each format the library takes. */
const ENCODINGS = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k'],
  ogg: ['-c:a', 'libvorbis'],
  opus: ['-c:a', 'libopus', '-f', 'ogg'],
  flac: ['-c:a', 'flac'],
  wav: ['-c:a', 'pcm_s16le'],
  m4a: ['-c:a', 'aac', '-b:a', '64k'],
} as const;
export type TestFormat = keyof typeof ENCODINGS;

/**
 * A sine tone of `seconds` at `hz`, encoded by ffmpeg in `format`, with a title tag when given. Fails with
 * a sentence when ffmpeg is not installed: these tests must not pass by skipping.
 */
export async function ffmpegAudio(format: TestFormat, seconds: number, tags: { title?: string; artist?: string } = {}, hz = 440): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'music-test-'));
  const file = path.join(dir, `tone.${format}`);
  const metadata = Object.entries(tags).flatMap(([name, value]) => ['-metadata', `${name}=${value}`]);
  try {
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=${seconds}`, ...metadata, ...ENCODINGS[format], '-y', file]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('ffmpeg is not installed: the music library tests need it to make audio files (apt-get install ffmpeg).', { cause: error });
    }
    throw error;
  }
  return readFile(file);
}

/** `seconds` of digital silence as an MP3 (a station that lost its source sends this). */
export async function silentMp3(seconds: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'music-test-'));
  const file = path.join(dir, 'silence.mp3');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `anullsrc=r=44100:cl=stereo:d=${seconds}`, '-c:a', 'libmp3lame', '-b:a', '64k', '-y', file]);
  return readFile(file);
}
