import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import type { Client } from 'discord.js';
import { createBotClient } from './bot/client';
import { botGateway } from './bot/gateway';
import { CommandLimiter } from './bot/limiter';
import { Messenger } from './bot/messenger';
import { startBot } from './bot';
import { ConfigError, loadConfig, type Config, type RuntimeConfig } from './config';
import { createAccessRule } from './core/access';
import { systemClock, type Clock } from './core/clock';
import { makeFeatureStates, type Feature } from './core/feature';
import { FeatureStates } from './core/feature-state';
import { LiveBus } from './core/live';
import { runShutdown, type ShutdownOutcome, type ShutdownStep } from './core/shutdown';
import type { Services } from './core/services';
import { GuildStateStore } from './db/guild-state';
import { openStore, type Store } from './db/store';
import { FEATURES } from './features';
import { startDemoHistory } from './features/demo-history';
import { levelingState } from './features/leveling/state';
import { GrantStore } from './db/grant-store';
import { createSecretBox } from './core/crypto';
import { DiscordOAuth } from './core/discord-oauth';
import { createSandboxDemo } from './sandbox-demo';
import { Notifier } from './core/notifier';
import { TtlCache } from './core/ttl-cache';
import { onGuildWrite } from './db/write-hooks';
import { SettingsStore } from './db/settings-store';
import { ActivityRecorder } from './core/activity';
import { WRITE_JOBS } from './write-jobs';
import type { ProductWriter } from './core/write-jobs';
import { inlineWriter, openStoreWriter } from './db/writer';
import { failureFields, storeFailure } from './core/store-errors';
import { createApp, type AppDeps } from './http/app';
import { answerClientErrors } from './http/client-errors';
import { drainable } from './http/drain';
import type { RateLimitSettings } from './http/middleware/rate-limit';
import { createLogger, type Logger } from './logger';
import { createMetrics } from './metrics';
import type { RateLimitOption, Sandbox, SandboxMount, startSandbox } from './sandbox';
import type { PublicMeta } from './shared/meta';
import { PRODUCT_NAME } from './shared/product';

/** Discord's own bases, used with a real token. */
const DISCORD = { app: 'https://discord.com', cdn: 'https://cdn.discordapp.com' };

/**
 * Starts the sandbox Discord, loaded only when it runs: a process talking to Discord never holds
 * its code or its copy of Discord's OpenAPI spec (about 14 MB of heap).
 */
async function startOwnSandbox(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const { startSandbox: start, trustSandboxVoice } = await import('./sandbox');
  const sandbox = await start(options);
  // The voice gateway is wss with a certificate of the sandbox's own, which the bot must trust.
  trustSandboxVoice(sandbox);
  return sandbox;
}

/** The running product: one HTTP server, one bot client, the services, and the sandbox when offline. */
export interface Product {
  url: string;
  config: RuntimeConfig;
  services: Services;
  store: Store;
  client: Client;
  sandbox?: Sandbox;
  /** The /api router (tests walk its routes). */
  api: Router;
  features: readonly Feature[];
  /**
   * Stops in order: HTTP (in-flight requests finish), gateway events, the features' stop hooks
   * (write-behind flushes), the gateway, the store. With a deadline, resolves by then naming what
   * had not finished.
   */
  close(options?: { deadlineMs?: number }): Promise<ShutdownOutcome>;
}

/** This build's version, from package.json beside the source or the bundle. */
function readVersion(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.resolve(here, '../package.json'), path.resolve(here, '../../package.json')]) {
    if (!existsSync(candidate)) continue;
    const { version } = JSON.parse(readFileSync(candidate, 'utf8')) as { version?: unknown };
    if (typeof version === 'string') return version;
  }
  return '0.0.0';
}

/** Where the built dashboard lives: dist/web beside dist/server (bundle) or the repo's dist (tsx). */
function defaultWebRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'server' ? path.resolve(here, '../web') : path.resolve(here, '../dist/web');
}

/** What the services are made from. */
export interface ServiceParts {
  config: RuntimeConfig;
  store: Store;
  client: Client | null;
  logger: Logger;
  sandbox?: Sandbox;
  clock?: Clock;
  /** Waits between webhook retries (tests shorten them). */
  webhookRetryDelaysMs?: number[];
  /** The product's features (all of them by default). */
  features?: readonly Feature[];
  /** Where browsers reach the sandbox (its mount on the dashboard's port); the sandbox's own URLs when absent. */
  sandboxMount?: Pick<SandboxMount, 'url' | 'cdnBase'>;
  /** Where the write-behind writes run (openStoreWriter); on this thread, through the store, when absent. */
  writer?: ProductWriter;
}

/** Builds the one Services object every feature shares, and every feature's state. */
export function buildServices({
  config,
  store,
  client,
  logger,
  sandbox,
  clock = systemClock,
  webhookRetryDelaysMs,
  features = FEATURES,
  sandboxMount,
  writer = inlineWriter(store.sequelize, WRITE_JOBS),
}: ServiceParts): Services {
  // Links are for browsers (the sandbox's mount); token and REST calls stay on its loopback port.
  const sandboxLinks = sandbox ? (sandboxMount ?? { url: sandbox.url, cdnBase: sandbox.cdnBase }) : undefined;
  const meta: PublicMeta = {
    botName: PRODUCT_NAME,
    version: readVersion(),
    mode: config.mode,
    clientId: sandbox ? sandbox.oauth.clientId : (config.discord.clientId ?? ''),
    oauthBase: sandboxLinks?.url ?? DISCORD.app,
    cdnBase: sandboxLinks?.cdnBase ?? DISCORD.cdn,
    appBase: sandboxLinks?.url ?? DISCORD.app,
  };
  const discord = new DiscordOAuth({
    host: sandbox ? sandbox.url : DISCORD.app,
    authorizeUrl: sandboxLinks ? `${sandboxLinks.url}/oauth2/authorize` : undefined,
    clientId: meta.clientId,
    clientSecret: sandbox ? sandbox.oauth.clientSecret : (config.discord.clientSecret ?? ''),
    redirectUri: `${config.publicUrl}/auth/callback`,
  });
  const secrets = createSecretBox(config.sessionSecret);
  const gateway = botGateway(client);
  const settings = new SettingsStore({ store, clock, logger: logger.child({ face: 'settings' }) });
  const grants = new GrantStore({ store, clock });
  const messenger = new Messenger({ client, settings, logger: logger.child({ face: 'bot' }) });
  const guildState = new GuildStateStore({ store, clock });
  // What the dashboard reads is kept a second; a write through the models forgets its guild's answers.
  const readCache = new TtlCache<unknown>(1000);
  onGuildWrite(store.sequelize, (guildId) => readCache.invalidate(guildId ? `${guildId}:` : ''));
  const services: Services = {
    config,
    meta,
    store,
    writer,
    gateway,
    messenger,
    access: createAccessRule({ gateway, grants, clock }),
    grants,
    settings,
    notifier: new Notifier({
      settings,
      messenger,
      store,
      secrets,
      clock,
      logger: logger.child({ face: 'notifications' }),
      allowPrivateWebhooks: config.allowPrivateWebhooks,
      retryDelaysMs: webhookRetryDelaysMs,
    }),
    commandLimiter: new CommandLimiter(clock),
    activity: new ActivityRecorder(writer, logger.child({ face: 'stats' })),
    oauth: discord,
    secrets,
    guildState,
    readCache,
    // A notice prompts reads at once: the guild's cached answers (a second old at most) are forgotten first.
    live: new LiveBus((guildId) => readCache.invalidate(`${guildId}:`)),
    states: new FeatureStates(),
    features,
    demo: sandbox ? createSandboxDemo(sandbox, discord) : undefined,
    clock,
    logger,
  };
  makeFeatureStates(services, features);
  return services;
}

/** Options of startProduct beyond the configuration. */
export interface StartOptions {
  logger?: Logger;
  webRoot?: string;
  rateLimits?: RateLimitSettings;
  clock?: Clock;
  webhookRetryDelaysMs?: number[];
  features?: readonly Feature[];
  /**
   * A sandbox Discord that outlives this product (tests of restarts: the bot goes offline while
   * Discord carries on). Used instead of starting one; not closed with the product.
   */
  sandbox?: Sandbox;
  /** The rate limits of the sandbox this product starts (Discord's by default; tests compress them). */
  sandboxRateLimits?: RateLimitOption;
}

/**
 * Starts everything in order: store (migrated) -> sandbox when there is no token -> HTTP ->
 * features -> bot. The bot's readiness is not awaited: the dashboard serves at once and reports
 * the gateway's state on /api/health.
 */
export async function startProduct(config: Config, options: StartOptions = {}): Promise<Product> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const features = options.features ?? FEATURES;
  const store = await openStore(config.databaseUrl, logger.child({ face: 'db' }));
  await store.migrate();
  const writer = await openStoreWriter(config.databaseUrl, store.sequelize, WRITE_JOBS, logger.child({ face: 'db' }));

  const ownSandbox = config.mode === 'sandbox' && !options.sandbox;
  const sandbox =
    config.mode !== 'sandbox'
      ? undefined
      : (options.sandbox ??
        (await startOwnSandbox({
          port: config.sandboxPort ?? 0,
          logger: logger.child({ face: 'sandbox' }),
          clock: options.clock,
          rateLimits: options.sandboxRateLimits,
        })));
  const server = createServer();
  const http = drainable(server);
  answerClientErrors(server);
  server.listen(config.port);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const runtime: RuntimeConfig = { ...config, publicUrl: config.publicUrl ?? `http://localhost:${port}` };
  sandbox?.oauth.registerRedirectUri(`${runtime.publicUrl}/auth/callback`);
  // Our own sandbox is also served under /_discord on this port, so a browser needs one origin and
  // one published port (a container): consent page, avatars and the channel view for anyone, the
  // rest only from this machine. The bot keeps talking to the sandbox on its loopback port.
  const sandboxMount = ownSandbox ? sandbox?.mount({ publicUrl: runtime.publicUrl }) : undefined;
  // Against the sandbox as against Discord: its rate limits bite, so the client keeps Discord's 50/s.
  // The avatar URLs it builds end up in pages, so they use the CDN browsers reach.
  const client = createBotClient(sandbox ? { api: sandbox.apiBase, cdn: sandboxMount?.cdnBase ?? sandbox.cdnBase } : {});

  const services = buildServices({
    config: runtime,
    store,
    client,
    logger,
    sandbox,
    clock: options.clock,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs,
    features,
    sandboxMount,
    writer,
  });
  const routes = features.flatMap((feature) => feature.routes ?? []);
  const metrics = runtime.metricsToken ? createMetrics({ ...services, client, accruals: levelingState.of(services).accruals }) : undefined;
  const deps: AppDeps = { webRoot: options.webRoot ?? defaultWebRoot(), rateLimits: options.rateLimits, metrics };
  const { app, api } = createApp(services, routes, deps);
  const dashboard = app.callback();
  server.on('request', (req, res) => {
    if (!sandboxMount?.handle(req, res)) void dashboard(req, res);
  });

  const started: Feature[] = [];
  // Aborted at shutdown: the bot stops handling gateway events before the features write what they hold.
  const intake = new AbortController();
  const shutdownSteps = (): ShutdownStep[] => [
    {
      name: 'HTTP server',
      run: async () => {
        // Live streams never finish by themselves: ended first, so the drain waits only for real requests.
        services.live.close();
        const cut = await http.drain();
        if (cut > 0) logger.warn({ cut }, 'requests still running at shutdown were cut');
      },
    },
    { name: 'gateway events', run: () => intake.abort() },
    ...[...started].reverse().map((feature) => ({ name: `feature ${feature.name}`, run: () => feature.stop?.(services) })),
    { name: 'Discord gateway', run: () => client.destroy() },
    ...(ownSandbox && sandbox ? [{ name: 'sandbox', run: () => sandbox.close() }] : []),
    { name: 'store writer', run: () => writer.close() },
    { name: 'store', run: () => store.close() },
  ];
  let closing: Promise<ShutdownOutcome> | null = null;
  const closeAll = (closeOptions: { deadlineMs?: number } = {}) => (closing ??= runShutdown(shutdownSteps(), { logger, deadlineMs: closeOptions.deadlineMs }));
  try {
    // Sandbox mode: the demo server's month of history, before the features start (the reaction roles' index reads it).
    if (config.demoHistory && sandbox) await startDemoHistory(services, (await import('./sandbox')).demoHistoryControl(sandbox.world));
    for (const feature of features) {
      await feature.start?.(services);
      started.push(feature);
    }
    const token = sandbox ? sandbox.botToken : config.discord.token;
    if (token) await startBot({ client, token, services, features, signal: intake.signal });
  } catch (error) {
    await closeAll();
    throw error;
  }

  return { url: `http://127.0.0.1:${port}`, config: runtime, services, store, client, sandbox, api, features, close: closeAll };
}

/** How long a signalled shutdown may take before the process gives up and exits 1. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** The process entry: load .env, parse the config (one clear line on error), start, stop on signals. */
async function main(): Promise<void> {
  const dotenv = await import('dotenv');
  dotenv.config({ quiet: true });
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let product: Product;
  try {
    product = await startProduct(config, { logger });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Could not start: ${message}`);
    process.exit(1);
  }
  process.stdout.write(`Dashboard: ${product.config.publicUrl}\n`);
  if (product.sandbox) {
    process.stdout.write(
      `Sandbox Discord: ${product.services.meta.appBase} (offline mode; set DISCORD_TOKEN for real Discord; the bot reaches it on ${product.sandbox.url})\n`,
    );
  }

  // One shutdown for every cause: a second signal, or an exception while stopping, waits for the
  // same close; the process then exits with the worst code any cause asked for.
  let stopping: Promise<void> | null = null;
  let exitCode = 0;
  const shutDown = (code: number): Promise<void> => {
    exitCode = Math.max(exitCode, code);
    stopping ??= (async () => {
      const outcome = await product.close({ deadlineMs: SHUTDOWN_DEADLINE_MS });
      if (!outcome.finished) {
        logger.error(
          { unfinished: outcome.unfinished },
          `shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s, still waiting for: ${outcome.unfinished.join(', ')}`,
        );
        process.exit(1);
      }
      logger.info('stopped');
      process.exit(exitCode);
    })();
    return stopping;
  };
  const onSignal = (signal: string) => {
    if (stopping) return;
    logger.info({ signal }, 'shutting down');
    void shutDown(0);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // An exception nothing caught cut some handler short (an event listener, a timer, a stream), and
  // what it was changing may be half changed: the process is not trusted to go on. What waits in
  // memory (XP, coins, activity counts) is written as on a signal, within the same deadline so a
  // hung step cannot keep a broken process alive, and the process exits 1 for its supervisor
  // (Docker's restart policy, systemd) to start a fresh one.
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception: writing what waits, then exiting 1 to be restarted');
    void shutDown(1);
  });
  // A promise nobody awaited failed (a bug, or the store failing under one): logged, and the bot
  // keeps serving every other guild rather than exiting. Unlike an uncaught exception, it cut no
  // handler of Node's or a library's short: it is one of our own async calls (a Discord call or a
  // write nobody awaited) that failed. Exiting would let anyone who can make one Discord call or one
  // write fail (a missing permission, a locked store) restart the bot for every guild. The tests
  // run without this, so such a rejection fails them.
  process.on('unhandledRejection', (reason) => {
    const failure = storeFailure(reason);
    if (failure) logger.warn(failureFields(failure, reason), 'the store failed background work');
    else logger.error({ err: reason }, 'unhandled rejection');
  });
}

const isEntry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isEntry) void main();
