// Request bodies, path and query parameters are checked against Discord's OpenAPI spec and
// refused with Discord's 50035 shape, naming each field: a sandbox kinder than Discord would let
// a bot bug through to production.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox';

describe('requests are validated like Discord validates them', () => {
  let sandbox: Sandbox;
  before(async () => {
    // Relaxed: these raw requests test message rules, not rate limits (ratelimit.test.ts has those).
    sandbox = await startSandbox({ port: 0, memberCount: 20, rateLimits: 'relaxed' });
  });
  after(() => sandbox.close());

  /** Sends a request as the bot; returns the status and the JSON body. */
  async function send(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: { code: number; message: string; errors?: Record<string, unknown> } }> {
    const response = await fetch(`${sandbox.apiBase}/v10${path}`, {
      method,
      headers: { authorization: `Bot ${sandbox.botToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as never };
  }

  /** The first error at a dotted path of Discord's nested errors. */
  function errorAt(errors: Record<string, unknown> | undefined, path: string): { code: string; message: string } | undefined {
    let node: unknown = errors;
    for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    return (node as { _errors?: { code: string; message: string }[] } | undefined)?._errors?.[0];
  }

  const messages = () => `/channels/${sandbox.world.demo.channels.general}/messages`;

  const cases: [string, string, () => string, unknown, string, RegExp, string][] = [
    [
      'a 5,000-character footer',
      'POST',
      messages,
      { embeds: [{ title: 't', footer: { text: 'x'.repeat(5000) } }] },
      'embeds.0.footer.text',
      /^Must be 2048 or fewer in length\.$/,
      'BASE_TYPE_MAX_LENGTH',
    ],
    [
      'an unknown mention kind',
      'POST',
      messages,
      { content: 'hi', allowed_mentions: { parse: ['bogus'] } },
      'allowed_mentions.parse.0',
      /must be one of/,
      'BASE_TYPE_CHOICES',
    ],
    ['a colour as text', 'POST', messages, { embeds: [{ title: 't', color: 'red' }] }, 'embeds.0.color', /^Value "red" is not int\.$/, 'NUMBER_TYPE_COERCE'],
    [
      'a button outside an action row',
      'POST',
      messages,
      { content: 'x', components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] },
      'components.0.type',
      /one of \{1\}/,
      'BASE_TYPE_CHOICES',
    ],
    ['content as a number', 'POST', messages, { content: 123 }, 'content', /^Could not interpret "123" as string\.$/, 'STRING_TYPE_CONVERT'],
  ];
  for (const [what, method, path, body, field, message, code] of cases) {
    it(`refuses ${what} with 50035 naming ${field}`, async () => {
      const response = await send(method, path(), body);
      assert.equal(response.status, 400);
      assert.equal(response.body.code, 50035);
      assert.equal(response.body.message, 'Invalid Form Body');
      const error = errorAt(response.body.errors, field);
      assert.ok(error, `no error at ${field}: ${JSON.stringify(response.body.errors)}`);
      assert.equal(error.code, code);
      assert.match(error.message, message);
    });
  }

  it('refuses delete_message_seconds over a week', async () => {
    const { guildId, plainMemberId } = sandbox.world.demo;
    const response = await send('PUT', `/guilds/${guildId}/bans/${plainMemberId}`, { delete_message_seconds: 9_999_999 });
    assert.equal(response.status, 400);
    assert.deepEqual(errorAt(response.body.errors, 'delete_message_seconds'), {
      code: 'NUMBER_TYPE_MAX',
      message: 'int value should be less than or equal to 604800.',
    });
    assert.ok(sandbox.world.requireGuild(guildId).members.has(plainMemberId), 'nothing happened');
  });

  it('a malformed snowflake in the query or the path is 50035, never a 500', async () => {
    const before = await send('GET', `${messages()}?before=abc`);
    assert.equal(before.status, 400);
    assert.deepEqual(errorAt(before.body.errors, 'before'), { code: 'NUMBER_TYPE_COERCE', message: 'Value "abc" is not snowflake.' });
    const limit = await send('GET', `${messages()}?limit=500`);
    assert.equal(limit.status, 400);
    assert.equal(errorAt(limit.body.errors, 'limit')?.code, 'NUMBER_TYPE_MAX');
    const path = await send('GET', '/channels/not-a-channel/messages');
    assert.equal(path.status, 400);
    assert.equal(errorAt(path.body.errors, 'channel_id')?.message, 'Value "not-a-channel" is not snowflake.');
  });

  it('what discord.js sends passes: permissions as strings, allowed_mentions, embeds', async () => {
    const ok = await send('POST', messages(), {
      content: 'fine',
      embeds: [{ title: 'T', color: 0x5865f2, footer: { text: 'f' } }],
      allowed_mentions: { parse: [], users: [], roles: [] },
    });
    assert.equal(ok.status, 200);
    const command = await send('POST', `/applications/${sandbox.world.applicationId}/commands`, {
      name: 'check',
      description: 'd',
      default_member_permissions: '8192',
    });
    assert.equal(command.status, 201);
  });

  it('message commands are named as the menu shows them, and take no options; slash command names take no spaces', async () => {
    const commands = `/applications/${sandbox.world.applicationId}/commands`;
    const report = await send('POST', commands, { name: 'Report message', type: 3, default_member_permissions: '8192' });
    assert.equal(report.status, 201);
    const withOptions = await send('POST', commands, { name: 'Report message', type: 3, options: [{ name: 'why', description: 'reason', type: 3 }] });
    assert.equal(withOptions.status, 400);
    assert.equal(errorAt(withOptions.body.errors, 'options')?.message, 'Context menu commands take no options.');
    const spaced = await send('POST', commands, { name: 'report message', description: 'Reports' });
    assert.equal(spaced.status, 400);
    assert.equal(errorAt(spaced.body.errors, 'name')?.message, 'Command name is invalid');
  });
});
