import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiscordAPIError, HTTPError, RESTJSONErrorCodes } from 'discord.js';
import { DiscordRefused } from '../../core/errors';
import { callDiscord, refusalOf, type GrantCall } from './grants';

const route = { method: 'PUT', url: 'https://discord.test/api/v10/guilds/1/members/2/roles/3' };
const refusal = (code: number, message: string) =>
  new DiscordAPIError({ code, message }, code, code === RESTJSONErrorCodes.UnknownMember ? 404 : 403, route.method, route.url, {});
const failWith = (error: unknown) =>
  callDiscord(
    () => Promise.reject(error),
    'AwesomeBot',
    (code) => (code === RESTJSONErrorCodes.MissingPermissions ? 'AwesomeBot cannot give @Senior Staff.' : undefined),
  );
const troubleOf = (call: GrantCall<unknown>) => (call.ok ? null : call.trouble);

test('Discord not answering is retried: a 5xx after discord.js gave up, a timeout, the network; said without "try again"', async () => {
  for (const [error, message] of [
    [new HTTPError(503, 'Service Unavailable', route.method, route.url, {}), 'Discord did not answer (503 Service Unavailable).'],
    [Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }), 'Discord could not be reached (a timeout).'],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), 'Discord could not be reached (ECONNREFUSED).'],
    [
      new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }),
      'Discord could not be reached (UND_ERR_SOCKET).',
    ],
  ] as const) {
    assert.deepEqual(troubleOf(await failWith(error)), { kind: 'unavailable', message });
  }
});

test('a refusal that retrying will not change fails at once, in words; an unknown member is dropped', async () => {
  const missing = troubleOf(await failWith(refusal(RESTJSONErrorCodes.MissingPermissions, 'Missing Permissions')));
  assert.equal(missing?.kind, 'refused');
  assert.ok(missing?.kind === 'refused' && missing.error.code === 50013 && missing.error.message === 'AwesomeBot cannot give @Senior Staff.');
  const unknownRole = troubleOf(await failWith(refusal(RESTJSONErrorCodes.UnknownRole, 'Unknown Role')));
  assert.ok(unknownRole?.kind === 'refused' && unknownRole.error.message === 'That role no longer exists.');
  assert.deepEqual(troubleOf(await failWith(refusal(RESTJSONErrorCodes.UnknownMember, 'Unknown Member'))), {
    kind: 'gone',
    message: 'The member is no longer in the server.',
  });
});

test('anything else is a bug and is thrown as it is', async () => {
  const bug = new TypeError('member.roles is undefined');
  await assert.rejects(failWith(bug), (error) => error === bug);
});

test('several changes: only the refused roles are named, in one refusal', () => {
  const first = new DiscordRefused(50013, 'AwesomeBot cannot give @Senior Staff.');
  const second = new DiscordRefused(10011, 'That role no longer exists.');
  assert.equal(
    refusalOf([
      { status: 'done', changed: true },
      { status: 'pending', grantId: 1, message: 'Discord did not answer (503 Service Unavailable).' },
    ]),
    null,
  );
  const refused = refusalOf([
    { status: 'failed', error: first },
    { status: 'done', changed: true },
    { status: 'failed', error: second },
  ]);
  assert.equal(refused?.code, 50013);
  assert.equal(refused?.message, 'AwesomeBot cannot give @Senior Staff. That role no longer exists.');
});
