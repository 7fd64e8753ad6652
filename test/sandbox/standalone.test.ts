// `npm run sandbox`: the sandbox on its own, as a developer starts it to point another library at it.
// The built entry (npm test builds first) prints where to connect and with what token, serves that
// token, and stops on SIGTERM; a wrong variable is named and nothing starts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readSandboxEnv } from '../../src/sandbox-server';

const entry = path.resolve(import.meta.dirname, '../../dist/server/sandbox.js');
const TOKEN = 'MTA1ODg5NzU5NDk0NTc2NTM3Ng.standalone.fixed-token-for-the-test';

describe('npm run sandbox: its environment', () => {
  test('defaults: port 3001 on loopback, Discord rate limits, 300 members, a generated token', () => {
    const env = readSandboxEnv({});
    assert.deepEqual(
      [env.SANDBOX_PORT, env.SANDBOX_HOST, env.SANDBOX_RATE_LIMITS, env.SANDBOX_MEMBERS, env.SANDBOX_BOT_TOKEN],
      [3001, '127.0.0.1', 'discord', 300, undefined],
    );
  });

  test('a wrong variable is named with what it must be; a malformed token is not echoed', () => {
    assert.throws(() => readSandboxEnv({ SANDBOX_PORT: '70000' }), /^ConfigError: SANDBOX_PORT must be between 0 \(any free port\) and 65535 \(got "70000"\)$/);
    assert.throws(() => readSandboxEnv({ SANDBOX_RATE_LIMITS: 'off' }), /^ConfigError: SANDBOX_RATE_LIMITS must be 'discord' .* or 'relaxed'/);
    assert.throws(() => readSandboxEnv({ SANDBOX_MEMBERS: '0' }), /^ConfigError: SANDBOX_MEMBERS must be between 1 and 100,000/);
    assert.throws(
      () => readSandboxEnv({ SANDBOX_BOT_TOKEN: 'secret-without-dots' }),
      (error: Error) => error.message === 'SANDBOX_BOT_TOKEN must be a bot token of three dot-separated parts (got 19 characters)',
    );
  });
});

describe('npm run sandbox: the process', () => {
  let cwd: string;
  before(async () => {
    if (!existsSync(entry)) throw new Error('dist/server/sandbox.js is missing: run `npm run build` first');
    // Away from the repo, so a developer's .env is not read.
    cwd = await mkdtemp(path.join(tmpdir(), 'sandbox-standalone-'));
  });
  after(() => rm(cwd, { recursive: true, force: true }));

  /** Starts the entry with `env`; resolves with its printout once it lists the control API, or with its exit. */
  function start(env: Record<string, string>) {
    const child = spawn(process.execPath, [entry], { cwd, env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const printed = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Control API:')) resolve(stdout);
      });
      child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
      void exited.then((code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
    });
    return { child, printed, exited, stderr: () => stderr };
  }

  test('prints its REST URL, gateway URL and token; serves that token; stops on SIGTERM', { timeout: 30_000 }, async () => {
    const sandbox = start({ SANDBOX_PORT: '0', SANDBOX_BOT_TOKEN: TOKEN });
    try {
      const printed = await sandbox.printed;
      const rest = /REST API:\s+(\S+)/.exec(printed)?.[1] ?? '';
      const gateway = /Gateway:\s+(\S+)/.exec(printed)?.[1] ?? '';
      assert.match(rest, /^http:\/\/127\.0\.0\.1:\d+\/api\/v10$/);
      assert.match(printed, new RegExp(`Bot token:\\s+${TOKEN.replace(/\./g, '\\.')}`));
      const bot = { authorization: `Bot ${TOKEN}` };
      const me = await fetch(`${rest}/users/@me`, { headers: bot });
      assert.equal(me.status, 200);
      assert.equal(((await me.json()) as { bot: boolean }).bot, true);
      const handedOut = (await (await fetch(`${rest}/gateway/bot`, { headers: bot })).json()) as { url: string };
      assert.equal(handedOut.url, gateway);
      assert.equal((await fetch(`${rest}/users/@me`, { headers: { authorization: 'Bot another.token.here' } })).status, 401);
    } finally {
      sandbox.child.kill('SIGTERM');
    }
    assert.equal(await sandbox.exited, 0);
  });

  test('a wrong variable: the error names it and the process exits 1 without listening', { timeout: 30_000 }, async () => {
    const sandbox = start({ SANDBOX_PORT: 'abc' });
    assert.equal(await sandbox.exited, 1);
    assert.equal(sandbox.stderr().trim(), 'Configuration error: SANDBOX_PORT must be a port number (got "abc")');
    await assert.rejects(sandbox.printed);
  });
});
