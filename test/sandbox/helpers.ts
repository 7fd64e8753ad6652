import { once } from 'node:events';
import { Events, type Client } from 'discord.js';
import { createBotClient } from '../../src/bot/client';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox';

/** A sandbox plus a discord.js client that reached ready against it. */
export interface BotHarness {
  sandbox: Sandbox;
  client: Client;
  close(): Promise<void>;
}

/** Starts a sandbox on an ephemeral port and logs the real bot client into it. */
export async function startBotHarness(options: SandboxOptions = {}): Promise<BotHarness> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const client = createBotClient({ api: sandbox.apiBase, cdn: sandbox.cdnBase });
  const ready = once(client, Events.ClientReady);
  await client.login(sandbox.botToken);
  await ready;
  return {
    sandbox,
    client,
    close: async () => {
      await client.destroy();
      await sandbox.close();
    },
  };
}

/** Waits for the first `event` whose arguments pass `filter`, failing after `ms`. */
export function waitForEvent<T extends unknown[]>(client: Client, event: string, filter: (...args: T) => boolean = () => true, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`timed out waiting for ${event}`));
    }, ms);
    const listener = (...args: T) => {
      if (!filter(...args)) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args);
    };
    client.on(event, listener);
  });
}

/** Calls the control API and parses JSON. */
export async function control<T = unknown>(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}
