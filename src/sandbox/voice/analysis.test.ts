import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpusScript from 'opusscript';
import { dbfs, dominantHz, percentile, rms, stereoToMono } from './analysis';

/** `seconds` of a sine as interleaved stereo s16le. */
function sineStereo(hz: number, seconds: number, amplitude = 12_000): Buffer {
  const frames = Math.round(48_000 * seconds);
  const pcm = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i += 1) {
    const sample = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 48_000));
    pcm.writeInt16LE(sample, i * 4);
    pcm.writeInt16LE(sample, i * 4 + 2);
  }
  return pcm;
}

describe('voice audio analysis', () => {
  it('finds the dominant frequency between FFT bins', () => {
    for (const hz of [220, 440, 660, 1000, 3000]) {
      const found = dominantHz(stereoToMono(sineStereo(hz, 1)));
      assert.ok(found !== null && Math.abs(found - hz) < 1, `${hz} Hz read as ${found}`);
    }
  });

  it('reads a tone after an Opus round trip, as the voice server hears it', () => {
    const encoder = new OpusScript(48_000, 2, OpusScript.Application.AUDIO);
    const decoder = new OpusScript(48_000, 2);
    const pcm = sineStereo(440, 1);
    const decoded: Float32Array[] = [];
    for (let offset = 0; offset + 3840 <= pcm.length; offset += 3840) {
      decoded.push(stereoToMono(decoder.decode(encoder.encode(pcm.subarray(offset, offset + 3840), 960))));
    }
    encoder.delete();
    decoder.delete();
    const all = new Float32Array(decoded.reduce((n, part) => n + part.length, 0));
    decoded.reduce((offset, part) => (all.set(part, offset), offset + part.length), 0);
    const found = dominantHz(all);
    assert.ok(found !== null && Math.abs(found - 440) < 2, `read as ${found}`);
  });

  it('has no frequency for silence or too little audio, and no level for digital silence', () => {
    assert.equal(dominantHz(new Float32Array(48_000)), null);
    assert.equal(dominantHz(new Float32Array(100).fill(1000)), null);
    assert.equal(dbfs(rms(new Float32Array(960))), null);
  });

  it('gives the level of a sine in dBFS (amplitude / sqrt 2)', () => {
    const level = dbfs(rms(stereoToMono(sineStereo(440, 0.5, 16_384))));
    assert.ok(level !== null && Math.abs(level - -9.03) < 0.1, `level ${level}`);
  });

  it('takes percentiles by nearest rank', () => {
    assert.equal(percentile([], 0.5), null);
    assert.equal(percentile([30, 10, 20], 0.5), 20);
    assert.equal(
      percentile(
        [...Array(100).keys()].map((n) => n + 1),
        0.99,
      ),
      99,
    );
  });
});
