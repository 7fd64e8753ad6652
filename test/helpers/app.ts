import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type RuntimeConfig } from '../../src/config';
import type { Store } from '../../src/db/store';
import { FEATURES } from '../../src/features';
import { createApp } from '../../src/http/app';
import type { RateLimitSettings } from '../../src/http/middleware/rate-limit';
import { createLogger } from '../../src/logger';
import { buildServices } from '../../src/main';

/** A built-dashboard stand-in: an index.html and one hashed asset, in a temp folder. */
export async function createWebRoot(): Promise<{ root: string; asset: string; dispose(): Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'web-'));
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><title>dashboard</title><div id="root"></div>');
  const asset = '/assets/main-ABC123.js';
  await writeFile(path.join(root, asset), 'console.log("app")');
  return { root, asset, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** A runtime config for tests: sandbox mode, silent, on a fixed public URL. */
export function testConfig(overrides: NodeJS.ProcessEnv = {}): RuntimeConfig {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'sqlite::memory:', ...overrides });
  return { ...config, publicUrl: config.publicUrl ?? 'http://localhost:3000' };
}

/** Builds the HTTP app around a store with no bot (the gateway reports not_configured), as main.ts does. */
export function buildApp(store: Store, overrides: { config?: RuntimeConfig; webRoot?: string; rateLimits?: RateLimitSettings } = {}) {
  const config = overrides.config ?? testConfig();
  const services = buildServices({ config, store, client: null, logger: createLogger('silent') });
  const routes = FEATURES.flatMap((feature) => feature.routes ?? []);
  return createApp(services, routes, { webRoot: overrides.webRoot ?? '/nonexistent', rateLimits: overrides.rateLimits }).app;
}
