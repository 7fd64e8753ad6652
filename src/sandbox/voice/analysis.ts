// What a voice channel heard, measured on decoded PCM: loudness per 20 ms frame, and the dominant
// frequency of a stretch of audio (a Hann-windowed FFT with parabolic interpolation between bins,
// which reads a 440 Hz tone after an Opus round trip as 440.0 Hz rather than the nearest bin's 439.5).

/** Opus in Discord: 48 kHz. */
export const SAMPLE_RATE = 48_000;
/** The loudest int16 sample: 0 dBFS. */
const FULL_SCALE = 32_768;

/** Interleaved stereo s16le (what Opus decodes to) as mono samples, the two channels averaged. */
export function stereoToMono(pcm: Buffer): Float32Array {
  const frames = Math.floor(pcm.length / 4);
  const mono = new Float32Array(frames);
  for (let i = 0; i < frames; i += 1) mono[i] = (pcm.readInt16LE(i * 4) + pcm.readInt16LE(i * 4 + 2)) / 2;
  return mono;
}

/** Root mean square of int16-scaled samples (0 for none). */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

/** A level in dBFS (0 = a full-scale square wave; a full-scale sine is about -3), or null for digital silence. */
export function dbfs(level: number): number | null {
  if (level <= 0) return null;
  return 20 * Math.log10(level / FULL_SCALE);
}

/**
 * The strongest frequency in `samples` (mono, int16 scale), in Hz, or null when there is too little
 * audio (under 1,024 samples, about 21 ms) or nothing but silence. The FFT takes the latest
 * power-of-two count of samples up to `maxSize` (65,536: 1.4 s, 0.73 Hz bins).
 */
export function dominantHz(samples: Float32Array, sampleRate = SAMPLE_RATE, maxSize = 65_536): number | null {
  let n = 1024;
  if (samples.length < n) return null;
  while (n * 2 <= samples.length && n * 2 <= maxSize) n *= 2;
  const offset = samples.length - n;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i += 1) re[i] = (samples[offset + i] ?? 0) * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
  fft(re, im);
  const magnitude = (k: number) => Math.hypot(re[k] ?? 0, im[k] ?? 0);
  let best = 1;
  for (let k = 2; k < n / 2; k += 1) if (magnitude(k) > magnitude(best)) best = k;
  if (magnitude(best) === 0) return null;
  // Parabolic interpolation on log magnitudes around the peak bin.
  const [a, b, c] = [magnitude(best - 1), magnitude(best), magnitude(best + 1)].map((m) => Math.log(m || Number.MIN_VALUE)) as [number, number, number];
  const denominator = a - 2 * b + c;
  const shift = denominator === 0 ? 0 : (0.5 * (a - c)) / denominator;
  return ((best + shift) * sampleRate) / n;
}

/** In-place iterative radix-2 FFT (`re.length` a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i += 1) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] ?? 0, re[i] ?? 0];
      [im[i], im[j]] = [im[j] ?? 0, im[i] ?? 0];
    }
  }
  for (let length = 2; length <= n; length <<= 1) {
    const angle = (-2 * Math.PI) / length;
    const half = length / 2;
    for (let k = 0; k < half; k += 1) {
      const wr = Math.cos(angle * k);
      const wi = Math.sin(angle * k);
      for (let i = k; i < n; i += length) {
        const q = i + half;
        const vr = (re[q] ?? 0) * wr - (im[q] ?? 0) * wi;
        const vi = (re[q] ?? 0) * wi + (im[q] ?? 0) * wr;
        re[q] = (re[i] ?? 0) - vr;
        im[q] = (im[i] ?? 0) - vi;
        re[i] = (re[i] ?? 0) + vr;
        im[i] = (im[i] ?? 0) + vi;
      }
    }
  }
}

/** The value below which `share` of the sorted `values` fall (nearest rank), or null for none. */
export function percentile(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return sorted[rank] ?? null;
}
