// The product in a process of its own, against a sandbox Discord that runs in the test's process,
// so the test can `kill -9` the product while Discord carries on. Reads the sandbox's URLs and bot
// token from CRASH_SANDBOX (JSON) and the store from DATABASE_URL, and runs on the real clock until
// killed. Not a test file: crash.test.ts spawns it.
//
// On stdout, one line each (writes to a pipe are synchronous on Linux, so every line written
// before the kill reaches the test):
//   {"url":...,"pid":...}      once the bot is ready
//   r <userId> <ms>            a member's message reached the bot (the product accrues it in the same tick)
//   h <ms>                     a heartbeat every HEARTBEAT_MS: the gaps show how late this process's timers ran
import { Events } from 'discord.js';
import type { Sandbox } from '../../src/sandbox';
import { startTestProduct } from '../helpers/product';

/** What the test passes about its sandbox: the parts of a Sandbox that cross a process boundary. */
export interface RemoteSandboxInfo {
  url: string;
  apiBase: string;
  cdnBase: string;
  gatewayUrl: string;
  botToken: string;
  oauth: { clientId: string; clientSecret: string; authorizeUrl: string; tokenHost: string; tokenPath: string; revokePath: string; authorizePath: string };
}

/** The first line this process prints, when the bot is ready. */
export interface CrashProductReady {
  url: string;
  pid: number;
}

/** How often the heartbeat line is written. */
export const HEARTBEAT_MS = 50;

/**
 * A Sandbox as the product sees it from another process: URLs, token and OAuth client. The world
 * lives in the test's process; only the demo login would reach for it, and nothing here signs in.
 */
function remoteSandbox(info: RemoteSandboxInfo): Sandbox {
  const unavailable = () => {
    throw new Error('the sandbox world lives in the test process');
  };
  const remote = {
    ...info,
    oauth: { ...info.oauth, registerRedirectUri: () => undefined },
    world: new Proxy({}, { get: unavailable }),
    voice: new Proxy({}, { get: unavailable }),
    voiceEndpoint: '',
    voiceCaFile: '',
    restRoutes: [],
    rateLimited: { bucket: 0, global: 0 },
    dropGateway: unavailable,
    mount: unavailable,
    close: async () => undefined,
  } satisfies Record<keyof Sandbox, unknown>;
  return remote as unknown as Sandbox;
}

// Only when run as a process (the test imports the types and HEARTBEAT_MS).
if (process.env.CRASH_SANDBOX) {
  const info = JSON.parse(process.env.CRASH_SANDBOX) as RemoteSandboxInfo;
  const product = await startTestProduct({ DATABASE_URL: process.env.DATABASE_URL }, { sandbox: remoteSandbox(info) });
  // Registered after the product's own listener, so it runs in the same emit, before the
  // product's accrual (which follows a settings read from cache): a counted message was reported.
  product.client.on(Events.MessageCreate, (message) => {
    if (message.author.bot) return;
    process.stdout.write(`r ${message.author.id} ${Date.now()}\n`);
  });
  setInterval(() => process.stdout.write(`h ${Date.now()}\n`), HEARTBEAT_MS);
  const ready: CrashProductReady = { url: product.url, pid: process.pid };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  process.on('SIGTERM', () => void product.close().then(() => process.exit(0)));
}
