// The 24/7 radio: with a radio channel and a station set (Music settings), the bot plays that
// station in that channel whenever nothing else plays in the server: at start, once the settings
// are saved, and after the queue ran out or a DJ stopped it (looked at once a minute). A station
// that cannot be played is tried again at most every five minutes, so its note is not repeated.
import type { Services } from '../../core/services';
import { PeriodicTask } from '../../core/periodic';
import type { GuildSettings } from '../../shared/settings';
import { enqueue } from './control';
import { resolveRow } from './sources';
import { musicState } from './state';

/** How often idle radio channels are looked at (real time). */
const LOOK_EVERY_MS = 60_000;
/** The least time between two starts of a server's station (the product's clock). */
export const RADIO_RETRY_MS = 5 * 60_000;

/** Keeps each server's 24/7 station playing. One per product, in music's state. */
export class RadioKeeper {
  private readonly lastStart = new Map<string, number>();
  private readonly task: PeriodicTask;

  constructor(private readonly services: Services) {
    this.task = new PeriodicTask('music radio', () => this.keepAll(), services.logger, LOOK_EVERY_MS);
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  private async keepAll(): Promise<void> {
    for (const guildId of this.services.gateway.client?.guilds.cache.keys() ?? []) await this.keep(guildId);
  }

  /**
   * Starts the server's station in its radio channel when nothing plays there. `settings`: the
   * settings just saved (not stored yet); a save starts at once, whatever the last start.
   */
  async keep(guildId: string, { settings }: { settings?: GuildSettings } = {}): Promise<void> {
    const current = settings ?? (await this.services.settings.get(guildId));
    const { musicEnabled, musicRadioChannelId: channelId, musicRadioStationId: stationId } = current;
    if (!musicEnabled || !channelId || stationId === null) return;
    const player = musicState.of(this.services).players.get(guildId);
    if (player?.queue.current) return;
    const now = this.services.clock.ms();
    const last = this.lastStart.get(guildId);
    if (!settings && last !== undefined && now - last < RADIO_RETRY_MS) return;
    this.lastStart.set(guildId, now);
    const me = this.services.gateway.client?.user;
    const actor = { id: me?.id ?? '0', name: me?.username ?? 'the bot', dj: true };
    try {
      const track = await resolveRow(this.services, guildId, { stationId }, actor);
      await enqueue(this.services, guildId, actor, track, { channelId });
    } catch (error) {
      this.services.logger.warn({ err: error, guildId }, 'music: could not start the 24/7 station');
    }
  }
}
