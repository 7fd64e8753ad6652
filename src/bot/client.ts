import { Client, GatewayIntentBits, Options, Partials } from 'discord.js';

/** Where the client connects: Discord itself, or the sandbox's loopback URLs. */
export interface DiscordEndpoints {
  /** REST base without the version, e.g. `http://127.0.0.1:3001/api`; Discord's own when absent. */
  api?: string;
  /** CDN base for avatars and icons; Discord's own when absent. */
  cdn?: string;
  /** The client's own global request cap (Discord's is 50/s); only benchmarks against a relaxed sandbox raise it. */
  globalRequestsPerSecond?: number;
}

/** The gateway intents the features need: members, messages with content, reactions, moderation, voice. */
export const BOT_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.GuildModeration,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.GuildMessageReactions,
  GatewayIntentBits.GuildVoiceStates,
  GatewayIntentBits.MessageContent,
];

/** Messages kept per channel: enough for reaction roles on recent posts, ~2.2 KB each. */
export const MESSAGE_CACHE_PER_CHANNEL = 50;

/**
 * Creates the discord.js client. Nothing is pinged by default (`allowedMentions.parse` is empty),
 * reactions on uncached messages arrive as partials, and the message cache is capped.
 */
export function createBotClient(endpoints: DiscordEndpoints = {}): Client {
  return new Client({
    intents: BOT_INTENTS,
    partials: [Partials.Message, Partials.Reaction, Partials.Channel, Partials.GuildMember, Partials.User],
    allowedMentions: { parse: [] },
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: MESSAGE_CACHE_PER_CHANNEL,
    }),
    sweepers: {
      ...Options.DefaultSweeperSettings,
      messages: { interval: 3600, lifetime: 6 * 3600 },
    },
    rest: {
      ...(endpoints.api ? { api: endpoints.api } : {}),
      ...(endpoints.cdn ? { cdn: endpoints.cdn } : {}),
      ...(endpoints.globalRequestsPerSecond ? { globalRequestsPerSecond: endpoints.globalRequestsPerSecond } : {}),
    },
  });
}
