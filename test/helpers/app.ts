import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { botGateway, type BotGateway } from '../../src/bot/gateway';
import { loadConfig, type RuntimeConfig } from '../../src/config';
import type { Store } from '../../src/db/store';
import { createApp, type AppDeps } from '../../src/http/app';
import { createLogger } from '../../src/logger';
import { createSecretBox } from '../../src/features/auth/crypto';
import { DiscordOAuth } from '../../src/features/auth/discord';
import { GuildListCache } from '../../src/features/auth/service';

/** A built-dashboard stand-in: an index.html and one hashed asset, in a temp folder. */
export async function createWebRoot(): Promise<{ root: string; asset: string; dispose(): Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'web-'));
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>dashboard</title><div id="root"></div>');
  const asset = '/assets/main-ABC123.js';
  await writeFile(path.join(root, asset), 'console.log("app")');
  return { root, asset, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** A runtime config for tests: sandbox mode, silent, on a fixed public URL. */
export function testConfig(overrides: NodeJS.ProcessEnv = {}): RuntimeConfig {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'sqlite::memory:', ...overrides });
  return { ...config, publicUrl: config.publicUrl ?? 'http://localhost:3000' };
}

/** Builds an app around a store with sensible test defaults; any dependency can be overridden. */
export function buildApp(store: Store, overrides: Partial<AppDeps> & { gateway?: BotGateway } = {}) {
  const config = overrides.config ?? testConfig();
  const logger = createLogger('silent');
  return createApp({
    config,
    auth: {
      store,
      logger,
      secrets: createSecretBox(config.sessionSecret),
      guildLists: new GuildListCache(),
      discord: new DiscordOAuth({
        host: 'https://discord.com',
        clientId: '100000000000000001',
        clientSecret: 'secret',
        redirectUri: `${config.publicUrl}/auth/callback`,
      }),
    },
    store,
    gateway: botGateway(null),
    logger,
    meta: {
      botName: 'AwesomeBot',
      mode: 'sandbox',
      clientId: '100000000000000001',
      oauthBase: 'http://127.0.0.1:3001',
      cdnBase: 'http://127.0.0.1:3001/cdn',
      appBase: 'http://127.0.0.1:3001',
    },
    webRoot: '/nonexistent',
    ...overrides,
  });
}
