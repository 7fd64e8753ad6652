import type { ClientEvents, Guild } from 'discord.js';
import type { Command, MessageCommand } from '../bot/command';
import type { GuildSummary } from '../bot/gateway';
import type { RouteSpec } from '../http/route';
import type { Diagnostic } from '../shared/diagnostics';
import type { GuildSettings, SettingKey } from '../shared/settings';
import type { Services } from './services';

/** A gateway event handler, named for what it does (CountMessageActivity, NotifyMemberJoin). */
export interface Listener<E extends keyof ClientEvents = keyof ClientEvents> {
  event: E;
  name: string;
  run(services: Services, ...args: ClientEvents[E]): unknown;
}

/** Declares a listener; the bot attaches it and logs (never rethrows) what it throws. */
export function listener<E extends keyof ClientEvents>(event: E, name: string, run: (services: Services, ...args: ClientEvents[E]) => unknown): Listener {
  return { event, name, run } as unknown as Listener;
}

/**
 * What a feature does when a guild's settings change: refuse settings that cannot work, and make
 * Discord match the new ones (post the rules message) before they are stored, so a refusal from
 * Discord refuses the save and nothing is stored.
 */
export interface SettingsEffect {
  /** The settings it cares about: it runs when a write changes any of them. */
  keys: readonly SettingKey[];
  /** Throws InvalidInput naming the field when the settings cannot work in this guild. */
  check?(services: Services, guild: GuildSummary, next: GuildSettings): void | Promise<void>;
  /** True when Discord no longer matches the stored settings (the rules message was deleted): the next save applies again, even without a change. */
  stale?(services: Services, guild: GuildSummary, next: GuildSettings): Promise<boolean>;
  /** Makes Discord match `next` (not run for dry runs). */
  apply?(services: Services, guild: GuildSummary, next: GuildSettings, previous: GuildSettings): Promise<void>;
}

/**
 * A feature's manifest: everything it adds to the product. The HTTP app mounts its routes, the
 * bot registers its commands and attaches its listeners, main.ts starts and stops it. Adding a
 * feature is its folder, its src/shared schema, its web/features folder, and one line in FEATURES.
 */
export interface Feature {
  name: string;
  routes?: RouteSpec[];
  commands?: Command[];
  /** Commands on a message (Apps -> name), e.g. 'Report message'. */
  messageCommands?: MessageCommand[];
  listeners?: Listener[];
  /** Reactions to settings changes (checks and Discord-side effects), run by the settings service. */
  settingsEffects?: SettingsEffect[];
  /**
   * Catches up on what happened in a guild while the bot was not listening (reactions to honour,
   * joins to welcome): run at start for every guild, when the bot joins a guild, and after a new
   * gateway session replaced an old one (see bot/continuity.ts). Safe to repeat; what it throws is logged.
   */
  catchUp?(services: Services, guild: Guild): Promise<unknown>;
  /** What will fail now in this guild, each with how to fix it (from live gateway data). */
  diagnose?(services: Services, guildId: string, settings: GuildSettings): Diagnostic[] | Promise<Diagnostic[]>;
  /** Runs once the services exist, before the bot logs in. */
  start?(services: Services): void | Promise<void>;
  /** Runs at shutdown, in reverse order, before the store closes. */
  stop?(services: Services): void | Promise<void>;
}
