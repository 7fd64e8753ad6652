// Voice XP: each full minute a member spends in a voice channel with at least one other human,
// not muted or deafened (by themselves or a moderator) and not in the AFK channel, earns XP times
// the voice multiplier. A tick every second adds the time since the last tick (by the product's
// clock) to each member eligible at both ends of it, and hands whole minutes to the accruals.
import type { Guild } from 'discord.js';
import type { Services } from '../../core/services';
import { PeriodicTask } from '../../core/periodic';
import { messageXp, type Accruals } from './accruals';
import { xpRuleFactor } from '../../shared/xp-rules';

/** How often progress is added up (real time; how much time passed asks the clock). */
export const VOICE_TICK_MS = 1000;
const MINUTE_MS = 60_000;

/** A member earning voice XP: their name, boost, and where and with which roles (for the XP rules). */
interface VoiceEarner {
  username: string;
  booster: boolean;
  channelIds: string[];
  roleIds: string[];
}

/** The members of a guild earning voice XP right now, by user id. */
export function eligibleVoiceMembers(guild: Guild): Map<string, VoiceEarner> {
  const byChannel = new Map<string, ({ userId: string; silenced: boolean } & VoiceEarner)[]>();
  for (const state of guild.voiceStates.cache.values()) {
    const member = state.member;
    if (!state.channelId || state.channelId === guild.afkChannelId || !member || member.user.bot) continue;
    const list = byChannel.get(state.channelId) ?? [];
    list.push({
      userId: member.id,
      username: member.user.username,
      booster: member.premiumSinceTimestamp !== null,
      channelIds: state.channel?.parentId ? [state.channelId, state.channel.parentId] : [state.channelId],
      roleIds: [...member.roles.cache.keys()],
      silenced: Boolean(state.selfMute || state.selfDeaf || state.serverMute || state.serverDeaf),
    });
    byChannel.set(state.channelId, list);
  }
  const eligible = new Map<string, VoiceEarner>();
  for (const humans of byChannel.values()) {
    if (humans.length < 2) continue;
    for (const { userId, silenced, ...human } of humans) if (!silenced) eligible.set(userId, human);
  }
  return eligible;
}

/** Adds up voice time and turns whole minutes into XP. One per product, in leveling's state. */
export class VoiceXp {
  private readonly progress = new Map<string, number>();
  private lastTick: number | null = null;
  private readonly task: PeriodicTask;

  constructor(
    private readonly services: Pick<Services, 'gateway' | 'settings' | 'clock' | 'logger'>,
    private readonly accruals: Pick<Accruals, 'voice'>,
    private readonly random: () => number = Math.random,
  ) {
    this.task = new PeriodicTask('voice XP tick', () => this.settle(), services.logger, VOICE_TICK_MS);
  }

  start(): void {
    this.lastTick = this.services.clock.ms();
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Adds the time since the last tick for everyone eligible now (after any tick in progress). */
  tick(): Promise<void> {
    return this.task.run();
  }

  private async settle(): Promise<void> {
    const now = this.services.clock.ms();
    const elapsed = this.lastTick === null ? 0 : Math.max(0, now - this.lastTick);
    this.lastTick = now;
    const client = this.services.gateway.client;
    if (!client) return;
    const seen = new Set<string>();
    for (const guild of client.guilds.cache.values()) {
      if (guild.voiceStates.cache.size < 2) continue;
      const settings = await this.services.settings.get(guild.id);
      if (!settings.levelingEnabled) continue;
      for (const [userId, member] of eligibleVoiceMembers(guild)) {
        const key = `${guild.id}:${userId}`;
        seen.add(key);
        // Time counts from the first tick that sees the member eligible, never from before it.
        const previous = this.progress.get(key);
        if (previous === undefined) {
          this.progress.set(key, 0);
          continue;
        }
        const total = previous + elapsed;
        const minutes = Math.floor(total / MINUTE_MS);
        this.progress.set(key, total - minutes * MINUTE_MS);
        // The XP rules apply to voice as to text: a no-XP channel or role earns nothing.
        const factor = xpRuleFactor(settings, member);
        let xp = 0;
        for (let minute = 0; minute < minutes && factor > 0; minute += 1)
          xp += messageXp({ ...settings, textMultiplier: settings.voiceMultiplier }, new Date(now), member.booster, this.random, factor);
        this.accruals.voice(guild.id, userId, member.username, xp);
      }
    }
    // Leaving, muting or being left alone ends the streak: partial minutes are not kept.
    for (const key of this.progress.keys()) if (!seen.has(key)) this.progress.delete(key);
  }
}
