// `npm run sandbox`: the sandbox Discord on its own, for pointing any Discord library at it. Prints
// its REST URL, gateway URL, bot token and OAuth2 client, and runs until Ctrl+C. Read from the
// environment (.env included), each checked and named when wrong:
//   SANDBOX_PORT (default 3001), SANDBOX_HOST (default 127.0.0.1), SANDBOX_BOT_TOKEN (a fixed token,
//   three dot-separated parts; generated when absent), SANDBOX_RATE_LIMITS (discord | relaxed),
//   SANDBOX_MEMBERS (the demo guild's member count, default 300), LOG_LEVEL (default info).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError, LOG_LEVELS, parseEnv, portNumber } from './config';
import { createLogger } from './logger';
import { startSandbox, type Sandbox } from './sandbox';

const EnvSchema = z.object({
  SANDBOX_PORT: portNumber.default(3001),
  SANDBOX_HOST: z.string().trim().min(1, 'must name an address to listen on, such as 127.0.0.1 or 0.0.0.0').default('127.0.0.1'),
  SANDBOX_BOT_TOKEN: z
    .string()
    .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'must be a bot token of three dot-separated parts')
    .optional(),
  SANDBOX_RATE_LIMITS: z.enum(['discord', 'relaxed'], { error: "must be 'discord' (Discord's limits) or 'relaxed' (headers only)" }).default('discord'),
  SANDBOX_MEMBERS: z.coerce
    .number({ error: 'must be a number of members' })
    .int('must be a whole number of members')
    .min(1, 'must be between 1 and 100,000')
    .max(100_000, 'must be between 1 and 100,000')
    .default(300),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

/** What `npm run sandbox` reads from the environment. */
export type SandboxServerEnv = z.infer<typeof EnvSchema>;

/** Reads the environment, or says which variable is wrong and why (a malformed token by its length only). */
export function readSandboxEnv(env: NodeJS.ProcessEnv): SandboxServerEnv {
  return parseEnv(EnvSchema, env, new Set(['SANDBOX_BOT_TOKEN']));
}

/** The lines printed once the sandbox listens: where to point a library, and with what token. */
export function describeSandbox(sandbox: Sandbox): string {
  const { demo } = sandbox.world;
  return [
    'Sandbox Discord listening (Ctrl+C stops it).',
    `  REST API:       ${sandbox.apiBase}/v10`,
    `  Gateway:        ${sandbox.gatewayUrl}  (GET /gateway/bot hands it out too)`,
    `  Voice:          wss://${sandbox.voiceEndpoint}  (trust it: NODE_EXTRA_CA_CERTS=${sandbox.voiceCaFile} for the bot's process)`,
    `  Bot token:      ${sandbox.botToken}`,
    `  OAuth2 client:  ${sandbox.oauth.clientId} / ${sandbox.oauth.clientSecret}  (authorize at ${sandbox.oauth.authorizeUrl})`,
    `  Demo server:    ${demo.guildId}  (admin user ${demo.adminUserId})`,
    `  Channel viewer: ${sandbox.url}/`,
    `  Control API:    ${sandbox.url}/_sandbox  (members join, post and react; faults; see src/sandbox/README.md)`,
    'discord.js:  new Client({ intents, rest: { api: "<REST API without /v10>" } }).login("<bot token>")',
  ].join('\n');
}

async function main(): Promise<number> {
  const dotenv = await import('dotenv');
  dotenv.config({ quiet: true });
  let env: SandboxServerEnv;
  try {
    env = readSandboxEnv(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    return 1;
  }
  const sandbox = await startSandbox({
    port: env.SANDBOX_PORT,
    host: env.SANDBOX_HOST,
    botToken: env.SANDBOX_BOT_TOKEN,
    rateLimits: env.SANDBOX_RATE_LIMITS,
    memberCount: env.SANDBOX_MEMBERS,
    logger: createLogger(env.LOG_LEVEL),
  });
  process.stdout.write(`${describeSandbox(sandbox)}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  return 0;
}

const isEntry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isEntry) process.exitCode = await main();
