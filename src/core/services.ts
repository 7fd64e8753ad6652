import type { Guild } from 'discord.js';
import type { BotGateway, GuildSummary } from '../bot/gateway';
import type { Messenger } from '../bot/messenger';
import type { CommandLimiter } from '../bot/limiter';
import type { RuntimeConfig } from '../config';
import type { GrantStore } from '../db/grant-store';
import type { GuildStateStore } from '../db/guild-state';
import type { SettingsStore } from '../db/settings-store';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import type { Diagnostic } from '../shared/diagnostics';
import type { PublicMeta } from '../shared/meta';
import type { GuildSettings, SettingKey } from '../shared/settings';
import type { AccessRule } from './access';
import type { ActivityRecorder } from './activity';
import type { Clock } from './clock';
import type { SecretBox } from './crypto';
import type { DemoSignIn } from './demo-sign-in';
import type { DiscordOAuth } from './discord-oauth';
import type { FeatureStates } from './feature-state';
import type { LiveBus } from './live';
import type { Notifier } from './notifier';
import type { TtlCache } from './ttl-cache';
import type { ProductWriter } from './write-jobs';

/**
 * Everything the features share, built once in main.ts and handed to every route, command,
 * listener and start hook. It names no feature: what a feature keeps across calls is its own
 * state (core/feature.ts, FeatureState), kept in `states`.
 */
export interface Services {
  config: RuntimeConfig;
  /** Links for the dashboard (invite, CDN), pointing at the sandbox in sandbox mode. */
  meta: PublicMeta;
  store: Store;
  /** Where the write-behind writes (XP and coin flushes, activity counts) run their transactions. */
  writer: ProductWriter;
  /** The live view of Discord through the bot's gateway connection. */
  gateway: BotGateway;
  /** Every message the bot posts goes through it (footer, mentions, Discord's refusals in words). */
  messenger: Messenger;
  /** The guild-access rule (owner, Administrator, Manage Server, delegated grants). */
  access: AccessRule;
  grants: GrantStore;
  /** Every guild's settings, cached, with their history. */
  settings: SettingsStore;
  /** Log-channel posts and webhook deliveries. */
  notifier: Notifier;
  /** Per-member command rate limits. */
  commandLimiter: CommandLimiter;
  /** Activity counters behind the dashboard's stats. */
  activity: ActivityRecorder;
  /** Discord's OAuth2 (sign-in, the signed-in user's servers). */
  oauth: DiscordOAuth;
  /** Encrypts secrets at rest (Discord tokens, the API key). */
  secrets: SecretBox;
  /** What the bot keeps about each guild between runs (the rules message it posted, when it last saw the guild). */
  guildState: GuildStateStore;
  /** Short-lived answers of busy reads (leaderboard, economy stats), cleared by each XP flush. */
  readCache: TtlCache<unknown>;
  /** What changed in each guild, for the dashboard's live streams (features/live). */
  live: LiveBus;
  /** Every feature's state, made at start (core/feature.ts, makeFeatureStates). */
  states: FeatureStates;
  /** What the services ask of every feature (settings effects, diagnostics, catch-ups). */
  features: readonly FeatureHooks[];
  /** The demo login; present only in sandbox mode. */
  demo?: DemoSignIn;
  clock: Clock;
  logger: Logger;
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

/** The part of a feature's manifest (core/feature.ts) that the services and the bot call on every feature. */
export interface FeatureHooks {
  name: string;
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
}
