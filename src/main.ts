import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from 'discord.js';
import { createBotClient } from './bot/client';
import { botGateway } from './bot/gateway';
import { startBot } from './bot';
import { ConfigError, loadConfig, type Config, type RuntimeConfig } from './config';
import { openStore, type Store } from './db/store';
import { createSecretBox } from './features/auth/crypto';
import { DiscordOAuth } from './features/auth/discord';
import { GuildListCache, type AuthServices } from './features/auth/service';
import { createSandboxDemo } from './features/auth/sandboxDemo';
import { attachActivityListeners } from './features/stats/events';
import { ActivityRecorder } from './features/stats/recorder';
import { createApiRouter, createApp, type AppDeps } from './http/app';
import type { RateLimitSettings } from './http/middleware/rateLimit';
import type Router from '@koa/router';
import { createLogger, type Logger } from './logger';
import { startSandbox, type Sandbox } from './sandbox';
import { PRODUCT_NAME, type PublicMeta } from './shared/meta';

/** Discord's own bases, used with a real token. */
const DISCORD = { app: 'https://discord.com', cdn: 'https://cdn.discordapp.com' };

/** The running product: one HTTP server, one bot client, the store, and the sandbox when offline. */
export interface Product {
  url: string;
  config: RuntimeConfig;
  store: Store;
  client: Client;
  sandbox?: Sandbox;
  /** The /api router (tests walk its routes). */
  api: Router;
  /** Buffers activity counts; tests flush it to read stats at once. */
  recorder: ActivityRecorder;
  close(): Promise<void>;
}

/** Where the built dashboard lives: dist/web beside dist/server (bundle) or the repo's dist (tsx). */
function defaultWebRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'server' ? path.resolve(here, '../web') : path.resolve(here, '../dist/web');
}

/**
 * Starts everything in order: store (migrated) -> sandbox when there is no token -> bot ->
 * HTTP. The bot's readiness is not awaited: the dashboard serves at once and reports the
 * gateway's state on /api/health.
 */
export async function startProduct(
  config: Config,
  options: { logger?: Logger; webRoot?: string; rateLimits?: RateLimitSettings } = {},
): Promise<Product> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = await openStore(config.databaseUrl, logger.child({ face: 'db' }));
  await store.migrate();

  const sandbox =
    config.mode === 'sandbox'
      ? await startSandbox({ port: config.sandboxPort, logger: logger.child({ face: 'sandbox' }) })
      : undefined;
  const client = createBotClient(
    sandbox ? { api: sandbox.apiBase, cdn: sandbox.cdnBase, globalRequestsPerSecond: 1000 } : {},
  );

  const server = createServer();
  server.listen(config.port);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const runtime: RuntimeConfig = { ...config, publicUrl: config.publicUrl ?? `http://localhost:${port}` };

  const meta: PublicMeta = {
    botName: PRODUCT_NAME,
    mode: config.mode,
    clientId: sandbox ? sandbox.oauth.clientId : (config.discord.clientId ?? ''),
    oauthBase: sandbox ? sandbox.url : DISCORD.app,
    cdnBase: sandbox ? sandbox.cdnBase : DISCORD.cdn,
    appBase: sandbox ? sandbox.url : DISCORD.app,
  };
  const discord = new DiscordOAuth({
    host: sandbox ? sandbox.url : DISCORD.app,
    clientId: meta.clientId,
    clientSecret: sandbox ? sandbox.oauth.clientSecret : (config.discord.clientSecret ?? ''),
    redirectUri: `${runtime.publicUrl}/auth/callback`,
  });
  const auth: AuthServices = {
    store,
    discord,
    secrets: createSecretBox(config.sessionSecret),
    logger: logger.child({ face: 'auth' }),
    guildLists: new GuildListCache(),
  };
  const deps: AppDeps = {
    config: runtime,
    store,
    gateway: botGateway(client),
    logger,
    meta,
    webRoot: options.webRoot ?? defaultWebRoot(),
    auth,
    demo: sandbox ? createSandboxDemo(sandbox, discord) : undefined,
    rateLimits: options.rateLimits,
  };
  const api = createApiRouter(deps);
  server.on('request', createApp(deps, api).callback());

  const recorder = new ActivityRecorder(store, logger.child({ face: 'stats' }));
  attachActivityListeners(client, recorder);
  recorder.start();

  const token = sandbox ? sandbox.botToken : config.discord.token;
  const closeAll = async () => {
    await closeServer(server);
    await client.destroy();
    await recorder.stop();
    await sandbox?.close();
    await store.close();
  };
  if (token) {
    try {
      await startBot({
        client,
        token,
        services: { store, logger: logger.child({ face: 'bot' }) },
        onCommandUsed: (guildId, command) => recorder.command(guildId, command),
      });
    } catch (error) {
      await closeAll();
      throw error;
    }
  }

  return { url: `http://127.0.0.1:${port}`, config: runtime, store, client, sandbox, recorder, api, close: closeAll };
}

function closeServer(server: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

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
  console.log(`Dashboard: ${product.config.publicUrl}`);
  if (product.sandbox) console.log(`Sandbox Discord: ${product.sandbox.url} (offline mode; set DISCORD_TOKEN for real Discord)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await product.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

const isEntry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isEntry) void main();
