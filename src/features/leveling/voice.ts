// Voice XP: each full minute a member spends in a voice channel with at least one other human,
// not muted or deafened (by themselves or a moderator) and not in the AFK channel, earns XP times
// the voice multiplier. A tick every second adds the time since the last tick (by the product's
// clock) to each eligible member's progress and hands whole minutes to the accruals.
import type { Guild } from 'discord.js';
import type { Services } from '../../core/services';
import { messageXp } from './accruals';

/** How often progress is added up (real time; how much time passed asks the clock). */
export const VOICE_TICK_MS = 1000;
const MINUTE_MS = 60_000;

/** The members of a guild earning voice XP right now: user id -> booster. */
export function eligibleVoiceMembers(guild: Guild): Map<string, { username: string; booster: boolean }> {
  const byChannel = new Map<string, { userId: string; username: string; booster: boolean; silenced: boolean }[]>();
  for (const state of guild.voiceStates.cache.values()) {
    const member = state.member;
    if (!state.channelId || state.channelId === guild.afkChannelId || !member || member.user.bot) continue;
    const list = byChannel.get(state.channelId) ?? [];
    list.push({ userId: member.id, username: member.user.username, booster: member.premiumSinceTimestamp !== null, silenced: Boolean(state.selfMute || state.selfDeaf || state.serverMute || state.serverDeaf) });
    byChannel.set(state.channelId, list);
  }
  const eligible = new Map<string, { username: string; booster: boolean }>();
  for (const humans of byChannel.values()) {
    if (humans.length < 2) continue;
    for (const human of humans) if (!human.silenced) eligible.set(human.userId, { username: human.username, booster: human.booster });
  }
  return eligible;
}

/** Adds up voice time and turns whole minutes into XP. One per process, in Services. */
export class VoiceXp {
  private readonly progress = new Map<string, number>();
  private lastTick: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly services: Pick<Services, 'gateway' | 'settings' | 'clock' | 'logger' | 'accruals'>, private readonly random: () => number = Math.random) {}

  start(): void {
    this.lastTick = this.services.clock.ms();
    this.timer = setInterval(() => void this.tick(), VOICE_TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Adds the time since the last tick for everyone eligible now (one tick at a time). */
  tick(): Promise<void> {
    this.running ??= this.settle()
      .catch((error: unknown) => this.services.logger.error({ err: error }, 'voice XP tick failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async settle(): Promise<void> {
    const now = this.services.clock.ms();
    const elapsed = this.lastTick === null ? 0 : Math.max(0, now - this.lastTick);
    this.lastTick = now;
    const client = this.services.gateway.client;
    if (!client || elapsed === 0) return;
    for (const guild of client.guilds.cache.values()) {
      if (guild.voiceStates.cache.size < 2) continue;
      const settings = await this.services.settings.get(guild.id);
      if (!settings.levelingEnabled) continue;
      for (const [userId, member] of eligibleVoiceMembers(guild)) {
        const key = `${guild.id}:${userId}`;
        const total = (this.progress.get(key) ?? 0) + elapsed;
        const minutes = Math.floor(total / MINUTE_MS);
        this.progress.set(key, total - minutes * MINUTE_MS);
        let xp = 0;
        for (let minute = 0; minute < minutes; minute += 1) xp += messageXp({ ...settings, textMultiplier: settings.voiceMultiplier }, new Date(now), member.booster, this.random);
        this.services.accruals.voice(guild.id, userId, member.username, xp);
      }
    }
  }
}
