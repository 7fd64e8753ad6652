// The 24/7 radio: with a radio channel and a station set (Music settings), the bot plays that
// station in that channel whenever nothing else plays in the server: at start, once the settings
// are saved, and after the queue ran out or a DJ stopped it (looked at once a minute). A station
// that cannot be played is tried again at most every five minutes, so its note is not repeated.
// (Looked at by the players' once-a-minute tick; the last starts are kept in music's state.)
import type { Services } from '../../core/services';
import type { GuildSettings } from '../../shared/settings';
import { enqueue } from './control';
import { resolveRow } from './sources';
import { musicState } from './state';

/** The least time between two starts of a server's station (the product's clock). */
export const RADIO_RETRY_MS = 5 * 60_000;

/** Starts every server's 24/7 station where nothing plays (the players' once-a-minute look). */
export async function keepAllRadios(services: Services): Promise<void> {
  for (const guildId of services.gateway.client?.guilds.cache.keys() ?? []) await keepRadio(services, guildId);
}

/**
 * Starts the server's station in its radio channel when nothing plays there. `settings`: the
 * settings just saved (not stored yet); a save starts at once, whatever the last start.
 */
export async function keepRadio(services: Services, guildId: string, { settings }: { settings?: GuildSettings } = {}): Promise<void> {
  const current = settings ?? (await services.settings.get(guildId));
  const { musicEnabled, musicRadioChannelId: channelId, musicRadioStationId: stationId } = current;
  if (!musicEnabled || !channelId || stationId === null) return;
  const state = musicState.of(services);
  if (state.players.get(guildId)?.queue.current) return;
  const now = services.clock.ms();
  const last = state.radioStarts.get(guildId);
  if (!settings && last !== undefined && now - last < RADIO_RETRY_MS) return;
  state.radioStarts.set(guildId, now);
  const me = services.gateway.client?.user;
  const actor = { id: me?.id ?? '0', name: me?.username ?? 'the bot', dj: true };
  try {
    const track = await resolveRow(services, guildId, { stationId }, actor);
    await enqueue(services, guildId, actor, track, { channelId });
  } catch (error) {
    services.logger.warn({ err: error, guildId }, 'music: could not start the 24/7 station');
  }
}
