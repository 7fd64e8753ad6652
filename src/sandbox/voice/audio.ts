// What each voice channel heard: the decoded audio of the last seconds and counters since the last
// reset. Timing here is real time (performance.now()), not the sandbox clock: packets arrive on the
// sender's real 20 ms timer, and a test's ManualClock standing still must not make a playing channel
// look silent or squeeze its packet gaps to zero.
import { performance } from 'node:perf_hooks';
import { dbfs, dominantHz, percentile, rms, SAMPLE_RATE } from './analysis';

/** A 20 ms frame quieter than this (int16 RMS, about -50 dBFS) counts as silent. */
export const SILENCE_RMS = 100;
/** Audio kept per channel for the window measurements. */
const KEPT_MS = 15_000;
/** Packet gaps kept per channel for the timing percentiles. */
const GAPS_KEPT = 5_000;
/** A channel is speaking while packets keep arriving within this long (the sender's frames are 20 ms). */
export const SPEAKING_WITHIN_MS = 250;

interface HeardFrame {
  at: number;
  samples: Float32Array;
}

/** One channel's measurements since its last reset. */
class ChannelAudio {
  packets = 0;
  bytes = 0;
  decryptFailures = 0;
  /** Packets from a member who may not speak there (no Speak, or server-muted): Discord relays none. */
  refusedPackets = 0;
  samples = 0;
  silentSamples = 0;
  lastPacketAt: number | null = null;
  readonly gaps: number[] = [];
  readonly frames: HeardFrame[] = [];

  constructor(
    readonly guildId: string,
    readonly channelId: string,
  ) {}
}

/** What `GET /_sandbox/guilds/:guildId/voice/audio` answers for a channel. */
export interface ChannelAudioReport {
  channelId: string;
  /** Seconds of audio decoded since the last reset. */
  seconds: number;
  /** Of those, seconds in 20 ms frames below the silence threshold (decoder pre-roll and silence frames included). */
  silentSeconds: number;
  /** The strongest frequency of the audio heard in the window, null when it heard nothing there. */
  dominantHz: number | null;
  /** RMS level of the window in dBFS, null when it heard nothing (or digital silence) there. */
  level: number | null;
  /** A sender said it is speaking (op 5) and its packets are still arriving. */
  speaking: boolean;
  packets: number;
  bytes: number;
  decryptFailures: number;
  refusedPackets: number;
  /** Real-time gaps between packets (ms): median, 99th percentile, largest. */
  gapMs: { p50: number | null; p99: number | null; max: number | null };
}

/** Per voice channel: counters, packet gaps and the recent decoded audio. */
export class VoiceAudioRecorder {
  private readonly channels = new Map<string, ChannelAudio>();

  private channel(guildId: string, channelId: string): ChannelAudio {
    let channel = this.channels.get(channelId);
    if (!channel) {
      channel = new ChannelAudio(guildId, channelId);
      this.channels.set(channelId, channel);
    }
    return channel;
  }

  /** A packet arrived for the channel (counted before it is decrypted, so gaps are the wire's). */
  packet(guildId: string, channelId: string, bytes: number): void {
    const channel = this.channel(guildId, channelId);
    const now = performance.now();
    if (channel.lastPacketAt !== null) {
      channel.gaps.push(now - channel.lastPacketAt);
      if (channel.gaps.length > GAPS_KEPT) channel.gaps.splice(0, channel.gaps.length - GAPS_KEPT);
    }
    channel.lastPacketAt = now;
    channel.packets += 1;
    channel.bytes += bytes;
  }

  /** A packet whose tag did not verify. */
  decryptFailure(guildId: string, channelId: string): void {
    this.channel(guildId, channelId).decryptFailures += 1;
  }

  /** A packet from a member who may not speak in the channel. */
  refused(guildId: string, channelId: string): void {
    this.channel(guildId, channelId).refusedPackets += 1;
  }

  /** Decoded mono audio (int16 scale, 48 kHz) heard in the channel. */
  heard(guildId: string, channelId: string, samples: Float32Array): void {
    const channel = this.channel(guildId, channelId);
    const now = performance.now();
    channel.samples += samples.length;
    if (rms(samples) < SILENCE_RMS) channel.silentSamples += samples.length;
    channel.frames.push({ at: now, samples });
    while ((channel.frames[0]?.at ?? now) < now - KEPT_MS) channel.frames.shift();
  }

  /** Forgets what the guild's channels heard (the control API's DELETE). */
  reset(guildId: string): void {
    for (const [id, channel] of this.channels) if (channel.guildId === guildId) this.channels.delete(id);
  }

  /** The guild's channels that heard anything since the last reset; window measurements over the last `windowSeconds`. */
  report(guildId: string, windowSeconds: number, speaking: (channelId: string) => boolean): ChannelAudioReport[] {
    const now = performance.now();
    return [...this.channels.values()]
      .filter((channel) => channel.guildId === guildId)
      .map((channel) => {
        const recent = channel.frames.filter((frame) => frame.at >= now - windowSeconds * 1000);
        const window = concat(recent.map((frame) => frame.samples));
        const arriving = channel.lastPacketAt !== null && now - channel.lastPacketAt <= SPEAKING_WITHIN_MS;
        return {
          channelId: channel.channelId,
          seconds: channel.samples / SAMPLE_RATE,
          silentSeconds: channel.silentSamples / SAMPLE_RATE,
          dominantHz: dominantHz(window),
          level: dbfs(rms(window)),
          speaking: arriving && speaking(channel.channelId),
          packets: channel.packets,
          bytes: channel.bytes,
          decryptFailures: channel.decryptFailures,
          refusedPackets: channel.refusedPackets,
          gapMs: { p50: percentile(channel.gaps, 0.5), p99: percentile(channel.gaps, 0.99), max: channel.gaps.length ? Math.max(...channel.gaps) : null },
        };
      });
  }
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
