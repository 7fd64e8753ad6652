import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ConfigError, DEFAULT_DATABASE_URL, loadConfig } from './config';

const PRODUCTION = {
  DISCORD_TOKEN: 'MTAw.abc-DEF.ghi_jkl',
  DISCORD_CLIENT_ID: '123456789012345678',
  DISCORD_CLIENT_SECRET: 'client-secret',
  SESSION_SECRET: 's'.repeat(40),
  PUBLIC_URL: 'https://bot.example.com/',
};

describe('loadConfig', () => {
  test('without a token it runs in sandbox mode with defaults', () => {
    const config = loadConfig({});
    assert.equal(config.mode, 'sandbox');
    assert.equal(config.port, 3000);
    assert.equal(config.sandboxPort, undefined, 'the sandbox takes any free loopback port; browsers reach it under /_discord');
    assert.equal(loadConfig({ SANDBOX_PORT: '3001' }).sandboxPort, 3001);
    assert.equal(config.databaseUrl, DEFAULT_DATABASE_URL);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.trustProxyHops, 0);
    assert.equal(config.allowPrivateWebhooks, false);
    assert.equal(loadConfig({ ALLOW_PRIVATE_WEBHOOKS: '1' }).allowPrivateWebhooks, true);
    assert.equal(config.publicUrl, undefined);
  });

  test('with a token and every credential it runs against Discord', () => {
    const config = loadConfig(PRODUCTION);
    assert.equal(config.mode, 'discord');
    assert.equal(config.publicUrl, 'https://bot.example.com');
    assert.equal(config.discord.clientId, '123456789012345678');
  });

  const cases: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['PORT', { PORT: 'eighty' }, /^PORT must be a port number/],
    ['PORT', { PORT: '70000' }, /^PORT must be between 0 \(any free port\) and 65535/],
    ['SANDBOX_PORT', { SANDBOX_PORT: 'x' }, /^SANDBOX_PORT must be a port number/],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be the number of proxies in front of the app/],
    ['TRUST_PROXY', { TRUST_PROXY: '-1' }, /^TRUST_PROXY must be between 0 \(no proxy\) and 10/],
    ['ALLOW_PRIVATE_WEBHOOKS', { ALLOW_PRIVATE_WEBHOOKS: 'maybe' }, /^ALLOW_PRIVATE_WEBHOOKS must be 1 or 0/],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with sqlite: or postgres:\/\//],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }, /^PUBLIC_URL must be an http\(s\) URL/],
    ['SESSION_SECRET', { SESSION_SECRET: 'short' }, /^SESSION_SECRET must be at least 32 characters/],
    ['DISCORD_CLIENT_ID', { ...PRODUCTION, DISCORD_CLIENT_ID: 'abc' }, /^DISCORD_CLIENT_ID must be the numeric application id/],
    ['DISCORD_CLIENT_SECRET', { ...PRODUCTION, DISCORD_CLIENT_SECRET: '' }, /^DISCORD_CLIENT_SECRET is required when DISCORD_TOKEN is set/],
    ['SESSION_SECRET', { ...PRODUCTION, SESSION_SECRET: undefined }, /^SESSION_SECRET is required when DISCORD_TOKEN is set/],
    ['PUBLIC_URL', { ...PRODUCTION, PUBLIC_URL: undefined }, /^PUBLIC_URL is required when DISCORD_TOKEN is set/],
    ['DISCORD_TOKEN', { ...PRODUCTION, DISCORD_TOKEN: 'not-a-token' }, /^DISCORD_TOKEN must be a bot token/],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short-token' }, /^METRICS_TOKEN must be at least 16 characters/],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'sixteen chars or more' }, /^METRICS_TOKEN must be printable ASCII without spaces/],
  ];
  for (const [name, env, message] of cases) {
    test(`a bad ${name} is named in the error (${JSON.stringify(env[name] ?? null)})`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }

  test('METRICS_TOKEN is off by default and kept when long enough', () => {
    assert.equal(loadConfig({}).metricsToken, undefined);
    assert.equal(loadConfig({ METRICS_TOKEN: '  ' }).metricsToken, undefined);
    assert.equal(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken, 'a'.repeat(16));
  });

  test('the music library: data/music, 500 MB per server and 50 MB per file by default; sizes in megabytes, checked', () => {
    assert.deepEqual(loadConfig({}).music, { dir: 'data/music', quotaBytes: 500 * 1024 * 1024, maxFileBytes: 50 * 1024 * 1024, ffmpegPath: 'ffmpeg' });
    assert.deepEqual(loadConfig({ MUSIC_DIR: '/srv/music', MUSIC_QUOTA_MB: '1', MUSIC_MAX_FILE_MB: '0.5' }).music, {
      dir: '/srv/music',
      quotaBytes: 1024 * 1024,
      maxFileBytes: 512 * 1024,
      ffmpegPath: 'ffmpeg',
    });
    assert.equal(loadConfig({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg' }).music.ffmpegPath, '/opt/ffmpeg/bin/ffmpeg');
    assert.throws(() => loadConfig({ MUSIC_QUOTA_MB: 'lots' }), { message: 'MUSIC_QUOTA_MB must be a size in megabytes, such as 50 (got "lots")' });
    assert.throws(() => loadConfig({ MUSIC_MAX_FILE_MB: '0' }), {
      message: 'MUSIC_MAX_FILE_MB must be a size in megabytes above 0 and at most 10000 (got "0")',
    });
    assert.throws(() => loadConfig({ MUSIC_QUOTA_MB: '10', MUSIC_MAX_FILE_MB: '20' }), /MUSIC_MAX_FILE_MB must not be larger than MUSIC_QUOTA_MB/);
  });

  test('an error about a secret names the variable but never echoes its value', () => {
    for (const [name, value] of [
      ['METRICS_TOKEN', 'hunter2-secret'],
      ['SESSION_SECRET', 'hunter2-secret'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) =>
          error instanceof ConfigError && error.message.startsWith(name) && !error.message.includes('hunter2') && error.message.endsWith('(got 14 characters)'),
      );
    }
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /\(got "eighty"\)$/);
  });

  test('the process stops with one line naming the variable, and no stack trace', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, ...PRODUCTION, DISCORD_CLIENT_ID: undefined },
      encoding: 'utf8',
      timeout: 60_000, // tsx compiles main.ts first: slow on a busy machine
    });
    assert.equal(result.status, 1);
    assert.equal(result.stderr.trim(), 'Configuration error: DISCORD_CLIENT_ID is required when DISCORD_TOKEN is set');
    assert.doesNotMatch(result.stderr, /\bat .*\.ts:\d+/);
  });
});
