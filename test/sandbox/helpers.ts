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

/** Changes the permissions of the bot's role to `change(current)`, as an admin editing it in Discord would. */
export function changeBotPermissions(sandbox: Sandbox, change: (permissions: bigint) => bigint): void {
  const { guildId, roles } = sandbox.world.demo;
  const role = sandbox.world.requireGuild(guildId).roles.get(roles.bot);
  if (!role) throw new Error('the demo guild has no bot role');
  sandbox.world.structure.updateRole(guildId, role, { permissions: change(role.permissions) });
}

/** A raw REST call as the bot (v10): the status and the parsed body. */
export async function botApi<T = Record<string, unknown>>(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${sandbox.apiBase}/v10${path}`, {
    method,
    headers: { authorization: `Bot ${sandbox.botToken}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
