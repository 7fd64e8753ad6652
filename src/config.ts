import { z } from 'zod';

/** Raised for a missing or malformed environment variable; main prints its message alone. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** A development-only secret used in sandbox mode when none is set; never valid with a token. */
const SANDBOX_SESSION_SECRET = 'sandbox-mode-session-secret-not-for-production-use';

export const portNumber = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 (any free port) and 65535')
  .max(65535, 'must be between 0 (any free port) and 65535');
const port = (fallback: number) => portNumber.default(fallback);

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

/** A size in megabytes (decimals allowed, e.g. 0.5), as bytes. */
const megabytes = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'must be a size in megabytes, such as 50' })
    .positive(`must be a size in megabytes above 0 and at most ${max}`)
    .max(max, `must be a size in megabytes above 0 and at most ${max}`)
    .default(fallback)
    .transform((mb) => Math.floor(mb * 1024 * 1024));

const EnvSchema = z.object({
  PORT: port(3000),
  SANDBOX_PORT: portNumber.optional(),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://bot.example.com' }).optional()),
  DISCORD_TOKEN: optionalText,
  DISCORD_CLIENT_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{17,20}$/, 'must be the numeric application id')
      .optional(),
  ),
  DISCORD_CLIENT_SECRET: optionalText,
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, 'must start with sqlite: or postgres://')
      .optional(),
  ),
  TRUST_PROXY: z.coerce
    .number({ error: 'must be the number of proxies in front of the app (0 for none)' })
    .int('must be a whole number of proxies')
    .min(0, 'must be between 0 (no proxy) and 10')
    .max(10, 'must be between 0 (no proxy) and 10')
    .default(0),
  ALLOW_PRIVATE_WEBHOOKS: z
    .enum(['0', '1', 'true', 'false'], { error: 'must be 1 or 0' })
    .optional()
    .transform((value) => value === '1' || value === 'true'),
  /** Where the music library's files are kept (one folder per server, files named by their content hash). */
  MUSIC_DIR: optionalText,
  /** How much audio one server's library may hold. */
  MUSIC_QUOTA_MB: megabytes(500, 1_000_000),
  /** The largest audio file one upload may be. */
  MUSIC_MAX_FILE_MB: megabytes(50, 10_000),
  /** The ffmpeg program that decodes what the music player plays (Debian's `ffmpeg`, found on PATH by default). */
  FFMPEG_PATH: optionalText,
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** Sandbox mode only: the demo server starts with a month of history (on by default; the test harnesses turn it off). */
  DEMO_HISTORY: z.enum(['on', 'off'], { error: "must be 'on' (the demo server starts with a month of history) or 'off' (it starts empty)" }).default('on'),
  METRICS_TOKEN: optionalText.pipe(
    z
      .string()
      .min(16, 'must be at least 16 characters; openssl rand -hex 32 makes one')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent as an Authorization: Bearer header)')
      .optional(),
  ),
});

/** Variables whose values are credentials: an error names them but never echoes their value. */
const SECRET_VARIABLES = new Set(['DISCORD_TOKEN', 'DISCORD_CLIENT_SECRET', 'SESSION_SECRET', 'METRICS_TOKEN']);

/**
 * Reads `env` with `schema`, or throws a ConfigError naming the first wrong variable, what it must be
 * and what it was (a secret's length only, never its value).
 */
export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv, secrets: ReadonlySet<string> = new Set()): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0] ?? 'environment');
  const value = env[name] ?? '';
  const got = secrets.has(name) ? `${value.trim().length} characters` : JSON.stringify(value);
  throw new ConfigError(`${name} ${issue?.message ?? 'is invalid'} (got ${got})`);
}

/** The process configuration, parsed once from the environment. */
export interface Config {
  /** 'discord' with a bot token; 'sandbox' runs the offline Discord of src/sandbox. */
  mode: 'discord' | 'sandbox';
  port: number;
  /**
   * The sandbox's own loopback port, where the bot talks to it (any free one when unset). Browsers
   * reach it under /_discord on `port` either way.
   */
  sandboxPort?: number;
  /** The dashboard's public origin, without a trailing slash; derived from the listening port when unset. */
  publicUrl?: string;
  discord: { token?: string; clientId?: string; clientSecret?: string };
  sessionSecret: string;
  databaseUrl: string;
  /**
   * How many reverse proxies stand in front of the app. X-Forwarded-* headers are believed only
   * when > 0, and the client address is taken that many entries from the right of X-Forwarded-For.
   */
  trustProxyHops: number;
  /**
   * Lets webhook URLs and radio stream URLs reach loopback, private and link-local addresses (a receiver
   * or a stream on the self-hoster's own network; tests). ALLOW_PRIVATE_WEBHOOKS, one setting for both.
   */
  allowPrivateWebhooks: boolean;
  /** The music library: where its files live, each server's quota and the largest upload, in bytes. */
  music: { dir: string; quotaBytes: number; maxFileBytes: number; ffmpegPath: string };
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Sandbox mode: the demo server starts with a month of plausible history, made on the first start
   * (DEMO_HISTORY, on by default; always off with a token).
   */
  demoHistory: boolean;
  /** Turns GET /metrics on; scrapers send it as `Authorization: Bearer <token>`. Unset: /metrics is a 404. */
  metricsToken?: string;
}

/** The default store: a SQLite file in data/, relative to the working directory. */
export const DEFAULT_DATABASE_URL = 'sqlite:data/bot.sqlite';

/** The default music library folder, beside the default store, relative to the working directory. */
export const DEFAULT_MUSIC_DIR = 'data/music';

/**
 * Parses the environment. Throws ConfigError with one line naming the first bad variable.
 * With DISCORD_TOKEN set (production), the OAuth credentials, session secret and public URL are required.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const vars = parseEnv(EnvSchema, env, SECRET_VARIABLES);
  const mode = vars.DISCORD_TOKEN ? 'discord' : 'sandbox';
  if (vars.MUSIC_MAX_FILE_MB > vars.MUSIC_QUOTA_MB) {
    throw new ConfigError(`MUSIC_MAX_FILE_MB must not be larger than MUSIC_QUOTA_MB (a file that large could never fit in a server's library)`);
  }
  if (mode === 'discord') {
    const required = ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'SESSION_SECRET', 'PUBLIC_URL'] as const;
    for (const name of required) {
      if (!vars[name]) throw new ConfigError(`${name} is required when DISCORD_TOKEN is set`);
    }
    if (vars.DISCORD_TOKEN && !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(vars.DISCORD_TOKEN)) {
      throw new ConfigError('DISCORD_TOKEN must be a bot token of three dot-separated parts');
    }
  }
  return {
    mode,
    port: vars.PORT,
    sandboxPort: vars.SANDBOX_PORT,
    publicUrl: vars.PUBLIC_URL?.replace(/\/+$/, ''),
    discord: { token: vars.DISCORD_TOKEN, clientId: vars.DISCORD_CLIENT_ID, clientSecret: vars.DISCORD_CLIENT_SECRET },
    sessionSecret: vars.SESSION_SECRET ?? SANDBOX_SESSION_SECRET,
    databaseUrl: vars.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    trustProxyHops: vars.TRUST_PROXY,
    allowPrivateWebhooks: vars.ALLOW_PRIVATE_WEBHOOKS,
    music: {
      dir: vars.MUSIC_DIR ?? DEFAULT_MUSIC_DIR,
      quotaBytes: vars.MUSIC_QUOTA_MB,
      maxFileBytes: vars.MUSIC_MAX_FILE_MB,
      ffmpegPath: vars.FFMPEG_PATH ?? 'ffmpeg',
    },
    logLevel: vars.LOG_LEVEL,
    demoHistory: mode === 'sandbox' && vars.DEMO_HISTORY === 'on',
    metricsToken: vars.METRICS_TOKEN,
  };
}

/** The configuration once the process knows its public URL (after listening). */
export type RuntimeConfig = Config & { publicUrl: string };
