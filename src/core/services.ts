import type { BotGateway } from '../bot/gateway';
import type { Messenger } from '../bot/messenger';
import type { RuntimeConfig } from '../config';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import type { PublicMeta } from '../shared/meta';
import type { SecretBox } from '../features/auth/crypto';
import type { DemoSignIn } from '../features/auth/demo';
import type { AuthServices } from '../features/auth/service';
import type { Notifier } from '../features/notifications/notifier';
import type { SettingsStore } from '../features/settings/store';
import type { ActivityRecorder } from '../features/stats/recorder';
import type { GrantStore } from '../features/access/grants';
import type { AccessRule } from './access';
import type { Clock } from './clock';
import type { CommandLimiter } from '../bot/limiter';
import type { GuildStateStore } from '../db/guild-state';
import type { LastSeenTracker } from '../features/welcome/catchup';
import type { ReactionRoleIndex } from '../features/reaction-roles/service';
import type { Accruals } from '../features/leveling/accruals';
import type { VoiceXp } from '../features/leveling/voice';
import type { TtlCache } from './ttl-cache';
import type { Feature } from './feature';
import type { ProductWriter } from '../features/write-jobs';

/**
 * Everything the features share, built once in main.ts and handed to every route, command,
 * listener and start hook. Features keep no module-level state: what lives across calls lives here.
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
  /** Sign-in with Discord. */
  auth: AuthServices;
  /** Encrypts secrets at rest (Discord tokens, the API key). */
  secrets: SecretBox;
  /** What the bot keeps about each guild between runs (the rules message it posted, when it last saw the guild). */
  guildState: GuildStateStore;
  /** When the bot last saw each guild (joins after it are caught up on at start). */
  lastSeen: LastSeenTracker;
  /** XP and coins earned in chat and voice, written in batches. */
  accruals: Accruals;
  /** Voice minutes turned into XP. */
  voiceXp: VoiceXp;
  /** Short-lived answers of busy reads (leaderboard, economy stats), cleared by each XP flush. */
  readCache: TtlCache<unknown>;
  /** Which messages have reaction roles (the reaction listener skips the rest). */
  reactionRoles: ReactionRoleIndex;
  /** Every feature of the product (settings effects and diagnostics iterate them). */
  features: readonly Feature[];
  /** The demo login; present only in sandbox mode. */
  demo?: DemoSignIn;
  clock: Clock;
  logger: Logger;
}
