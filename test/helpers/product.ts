import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Events } from 'discord.js';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { startProduct, type Product, type StartOptions } from '../../src/main';
import { createLogger } from '../../src/logger';
import type { RateLimitSettings } from '../../src/http/middleware/rate-limit';
import { compressedRateLimits } from '../../src/sandbox/ratelimit';

/** Limits high enough for suites that sign in dozens of times from one address. */
export const TEST_RATE_LIMITS: RateLimitSettings = { auth: { max: 1000, durationMs: 60_000 }, mutations: { max: 1000, durationMs: 60_000 } };

/**
 * The sandbox's limits in the product's tests: Discord's buckets with windows ten times shorter, so
 * discord.js still runs out of a bucket and waits for its reset, a tenth as long. The tests of the
 * limits themselves (test/bot/rate-limits.test.ts, test/sandbox/ratelimit.test.ts) use Discord's.
 */
export const TEST_SANDBOX_RATE_LIMITS = compressedRateLimits(10);

/**
 * The configuration of a product under test: sandbox mode on free ports, an in-memory store, the
 * music library in a folder of the test's own (never data/ of the working copy), and the demo server
 * empty (DEMO_HISTORY off: the tests count what they do from nothing); `env` adds or overrides.
 */
export function testConfig(env: NodeJS.ProcessEnv = {}) {
  const musicDir = mkdtempSync(path.join(tmpdir(), 'music-lib-'));
  return loadConfig({
    PORT: '0',
    SANDBOX_PORT: '0',
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
    MUSIC_DIR: musicDir,
    DEMO_HISTORY: 'off',
    ...env,
  });
}

/** Starts the whole product in sandbox mode on free ports with an in-memory store, and waits for the bot. */
export async function startTestProduct(env: NodeJS.ProcessEnv = {}, options: StartOptions = {}): Promise<Product> {
  const config = testConfig(env);
  const product = await startProduct(config, {
    ...options,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    rateLimits: options.rateLimits ?? TEST_RATE_LIMITS,
    sandboxRateLimits: options.sandboxRateLimits ?? TEST_SANDBOX_RATE_LIMITS,
  });
  if (!product.client.isReady()) await once(product.client, Events.ClientReady);
  return product;
}

/** A supertest agent on the product that keeps cookies and sends the same-origin header of a browser. */
export function browserAgent(product: Product) {
  const agent = request.agent(product.url);
  const write = (method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: object) => {
    const pending = agent[method](path).set('Origin', new URL(product.config.publicUrl).origin);
    return body === undefined ? pending : pending.send(body);
  };
  return {
    agent,
    get: (path: string) => agent.get(path),
    post: (path: string, body?: object) => write('post', path, body),
    put: (path: string, body?: object) => write('put', path, body),
    patch: (path: string, body?: object) => write('patch', path, body),
    delete: (path: string) => write('delete', path),
  };
}

/**
 * Runs the sandbox consent page as `userId` for an authorize URL, like a person clicking their
 * name, and returns the redirect target (our /auth/callback?code=...&state=...).
 */
export async function consentAs(authorizeUrl: string, userId: string): Promise<URL> {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams(url.searchParams);
  form.set('user_id', userId);
  form.set('action', 'authorize');
  const response = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`consent answered ${response.status}: ${await response.text()}`);
  return new URL(location);
}

/** Signs a sandbox user in through the real OAuth flow; returns the agent holding their session. */
export async function signInAs(product: Product, userId: string, redirect = '/dashboard') {
  const browser = browserAgent(product);
  const login = await browser.get(`/api/auth/discord/login?redirect=${encodeURIComponent(redirect)}`).expect(302);
  const callback = await consentAs(login.headers.location ?? '', userId);
  const code = callback.searchParams.get('code') ?? '';
  const state = callback.searchParams.get('state') ?? '';
  const response = await browser.post('/api/auth/discord/callback', { code, state });
  if (response.status !== 200) throw new Error(`callback answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { ...browser, code, state, redirectTo: response.body.redirectTo as string };
}
