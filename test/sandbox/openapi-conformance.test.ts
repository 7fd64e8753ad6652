import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { discordSpec, specAjv, specPathOf } from '../../src/sandbox/spec';
import { control } from './helpers';

/** Routes the sandbox serves that Discord's OpenAPI spec does not describe, with the reason. */
const NOT_IN_SPEC: Record<string, string> = {
  'POST /oauth2/token':
    'OAuth2 token endpoint: the spec documents only the REST API, not the OAuth2 protocol endpoints (tested with simple-oauth2 in oauth.test.ts).',
  'POST /oauth2/token/revoke': 'OAuth2 revocation endpoint: not in the spec for the same reason (tested in oauth.test.ts).',
  'GET /oauth2/authorize': 'The consent page is HTML on discord.com, not part of the REST API (tested in oauth.test.ts).',
};

/** Components used as parts of an allOf: their properties are completed by the other parts. */
function composedParts(spec: unknown): Set<string> {
  const parts = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const schema = value as Record<string, unknown>;
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf as Record<string, unknown>[]) if (typeof part.$ref === 'string') parts.add(part.$ref.split('/').at(-1) ?? '');
    Object.values(schema).forEach(walk);
  };
  walk(spec);
  return parts;
}

/**
 * The spec's schemas with unknown fields refused, so a renamed or invented field (tags.bot_id ->
 * botId) fails instead of passing as an extra: an object schema that lists its properties gets
 * additionalProperties: false, or unevaluatedProperties: false when allOf composes it (then its
 * parts stay open, as they complete one another).
 */
function strict(spec: unknown): unknown {
  const composed = composedParts(spec);
  const visit = (value: unknown, part: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, false));
    if (!value || typeof value !== 'object') return value;
    const schema = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === 'allOf' && Array.isArray(item) ? item.map((entry) => visit(entry, true)) : visit(item, false)]),
    ) as Record<string, unknown>;
    const types = ([] as unknown[]).concat(schema.type ?? []);
    if (part || !types.includes('object') || !schema.properties || 'additionalProperties' in schema) return schema;
    if (Array.isArray(schema.allOf)) schema.unevaluatedProperties = false;
    else schema.additionalProperties = false;
    return schema;
  };
  const copy = visit(spec, false) as { components: { schemas: Record<string, Record<string, unknown>> } };
  for (const name of composed) {
    const schema = copy.components.schemas[name];
    if (schema) delete schema.additionalProperties;
  }
  return copy;
}

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

describe('REST responses conform to Discord OpenAPI 3.1 spec', () => {
  let sandbox: Sandbox;
  const spec = discordSpec as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const ajv = specAjv(strict(discordSpec));
  const covered = new Set<string>();
  let bearer = '';

  before(async () => {
    // Relaxed: this walks every route with plain fetch, faster than Discord's buckets allow (ratelimit.test.ts has those).
    sandbox = await startSandbox({ port: 0, memberCount: 60, redirectUris: ['http://127.0.0.1:9/cb'], rateLimits: 'relaxed' });
  });
  after(async () => {
    await sandbox.close();
  });

  function validate(schemaRef: string, body: unknown, label: string): void {
    const check = ajv.getSchema(schemaRef);
    assert.ok(check, `no schema at ${schemaRef}`);
    if (check(body)) return;
    const unknown = (error: { keyword: string }) => error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties';
    const extras = (check.errors ?? []).filter(unknown).map((error) => {
      const params = error.params as { additionalProperty?: string; unevaluatedProperty?: string };
      return `${error.instancePath || '/'} has ${String(params.additionalProperty ?? params.unevaluatedProperty)}`;
    });
    const other = (check.errors ?? [])
      .filter((error) => !unknown(error))
      .slice(0, 5)
      .map((error) => `${error.instancePath} ${error.message ?? ''}`);
    assert.fail(`${label}: unknown fields: ${[...new Set(extras)].join(', ') || 'none'}; ${other.join('; ')}\n${JSON.stringify(body).slice(0, 600)}`);
  }

  /** Calls a route, checks the status is one the spec lists, and validates a JSON body against its schema. */
  async function call(
    method: string,
    pattern: string,
    concrete: string,
    options: { body?: unknown; auth?: 'bot' | 'bearer' | 'none'; query?: string; status?: number } = {},
  ) {
    const auth = options.auth ?? 'bot';
    const headers: Record<string, string> = {};
    if (auth === 'bot') headers.authorization = `Bot ${sandbox.botToken}`;
    if (auth === 'bearer') headers.authorization = `Bearer ${bearer}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${sandbox.apiBase}/v10${concrete}${options.query ?? ''}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    const label = `${method} ${pattern} -> ${res.status}`;
    assert.equal(res.status, options.status ?? (text ? 200 : 204), `${label}: ${text.slice(0, 300)}`);
    const specPath = specPathOf(pattern);
    const operation = spec.paths[specPath]?.[method.toLowerCase()];
    assert.ok(operation, `spec lacks ${method} ${specPath}`);
    assert.ok(String(res.status) in operation.responses, `${label}: the spec does not list ${res.status}`);
    covered.add(`${method} ${pattern}`);
    if (res.status === 204) {
      assert.equal(text, '');
      assert.equal(res.headers.get('content-type'), null);
      return undefined;
    }
    const body: unknown = JSON.parse(text);
    validate(
      `openapi#/${pointer('paths', specPath, method.toLowerCase(), 'responses', String(res.status), 'content', 'application/json', 'schema')}`,
      body,
      label,
    );
    return body as Record<string, unknown> & Array<Record<string, unknown>>;
  }

  it('validates every route it serves', async () => {
    const demo = sandbox.world.demo;
    const g = demo.guildId;
    const app = sandbox.world.applicationId;
    const guild = sandbox.world.requireGuild(g);
    const crowd = [...guild.members.values()]
      .filter((m) => m.roleIds.length === 0 || m.roleIds.every((r) => r === demo.roles.verified || r === demo.roles.member))
      .map((m) => m.userId)
      .filter((id) => ![demo.ownerUserId, demo.plainMemberId, sandbox.world.botUserId].includes(id));
    const [a = '', b = '', c = ''] = crowd;

    // A booster: the managed booster role (tags.premium_subscriber) and premium_since are in the shapes below.
    await control(sandbox, 'PUT', `/guilds/${g}/boosts/${demo.plainMemberId}`);
    await call('GET', '/gateway', '/gateway', { auth: 'none' });
    await call('GET', '/gateway/bot', '/gateway/bot');
    await call('GET', '/users/@me', '/users/@me');
    await call('GET', '/users/@me/guilds', '/users/@me/guilds', { query: '?with_counts=true' });
    await call('GET', '/users/:userId', `/users/${demo.plainMemberId}`);
    await call('GET', '/applications/@me', '/applications/@me');
    await call('GET', '/guilds/:guildId', `/guilds/${g}`, { query: '?with_counts=true' });
    await call('GET', '/guilds/:guildId/channels', `/guilds/${g}/channels`);
    await call('GET', '/guilds/:guildId/roles', `/guilds/${g}/roles`);
    await call('GET', '/guilds/:guildId/members', `/guilds/${g}/members`, { query: '?limit=5' });
    await call('GET', '/guilds/:guildId/members/search', `/guilds/${g}/members/search`, { query: '?query=a&limit=5' });
    await call('GET', '/guilds/:guildId/members/:userId', `/guilds/${g}/members/${demo.plainMemberId}`);
    await call('PATCH', '/guilds/:guildId/members/@me', `/guilds/${g}/members/@me`, { body: { nick: 'Bot' } });
    await call('PATCH', '/guilds/:guildId/members/:userId', `/guilds/${g}/members/${a}`, {
      body: { nick: 'renamed', communication_disabled_until: new Date(Date.now() + 60_000).toISOString() },
    });
    await call('PUT', '/guilds/:guildId/members/:userId/roles/:roleId', `/guilds/${g}/members/${a}/roles/${demo.roles.moderator}`);
    await call('DELETE', '/guilds/:guildId/members/:userId/roles/:roleId', `/guilds/${g}/members/${a}/roles/${demo.roles.moderator}`);
    await call('PUT', '/guilds/:guildId/bans/:userId', `/guilds/${g}/bans/${b}`, { body: { delete_message_seconds: 0 } });
    await call('GET', '/guilds/:guildId/bans', `/guilds/${g}/bans`);
    await call('GET', '/guilds/:guildId/bans/:userId', `/guilds/${g}/bans/${b}`);
    await call('DELETE', '/guilds/:guildId/bans/:userId', `/guilds/${g}/bans/${b}`);
    await call('GET', '/guilds/:guildId/audit-logs', `/guilds/${g}/audit-logs`, { query: '?limit=10&action_type=22' });
    await call('DELETE', '/guilds/:guildId/members/:userId', `/guilds/${g}/members/${c}`);

    const ch = demo.channels.general;
    await call('GET', '/channels/:channelId', `/channels/${ch}`);
    const sent = await call('POST', '/channels/:channelId/messages', `/channels/${ch}/messages`, {
      body: { content: 'conformance', embeds: [{ title: 'T', description: 'D' }] },
    });
    const messageId = String(sent?.id);
    await call('GET', '/channels/:channelId/messages', `/channels/${ch}/messages`, { query: '?limit=5' });
    await call('GET', '/channels/:channelId/messages/:messageId', `/channels/${ch}/messages/${messageId}`);
    await call('PATCH', '/channels/:channelId/messages/:messageId', `/channels/${ch}/messages/${messageId}`, { body: { content: 'edited' } });
    const emoji = encodeURIComponent('👍');
    await call('PUT', '/channels/:channelId/messages/:messageId/reactions/:emoji/@me', `/channels/${ch}/messages/${messageId}/reactions/${emoji}/@me`);
    await control(sandbox, 'PUT', `/channels/${ch}/messages/${messageId}/reactions/${emoji}/${demo.plainMemberId}`);
    const withReactions = await call('GET', '/channels/:channelId/messages/:messageId', `/channels/${ch}/messages/${messageId}`);
    assert.ok(Array.isArray(withReactions?.reactions));
    await call('GET', '/channels/:channelId/messages/:messageId/reactions/:emoji', `/channels/${ch}/messages/${messageId}/reactions/${emoji}`);
    await call('DELETE', '/channels/:channelId/messages/:messageId/reactions/:emoji/@me', `/channels/${ch}/messages/${messageId}/reactions/${emoji}/@me`);
    await call(
      'DELETE',
      '/channels/:channelId/messages/:messageId/reactions/:emoji/:userId',
      `/channels/${ch}/messages/${messageId}/reactions/${emoji}/${demo.plainMemberId}`,
    );
    await call('PUT', '/channels/:channelId/messages/:messageId/reactions/:emoji/@me', `/channels/${ch}/messages/${messageId}/reactions/${emoji}/@me`);
    await call('DELETE', '/channels/:channelId/messages/:messageId/reactions/:emoji', `/channels/${ch}/messages/${messageId}/reactions/${emoji}`);
    await call('DELETE', '/channels/:channelId/messages/:messageId/reactions', `/channels/${ch}/messages/${messageId}/reactions`);
    await call('GET', '/guilds/:guildId/emojis', `/guilds/${g}/emojis`);
    await control(sandbox, 'POST', `/guilds/${g}/voice`, { userId: demo.plainMemberId, channelId: demo.channels.voice, selfMute: true });
    await call('GET', '/guilds/:guildId/voice-states/:userId', `/guilds/${g}/voice-states/${demo.plainMemberId}`);
    await control(sandbox, 'POST', `/guilds/${g}/voice`, { userId: demo.plainMemberId, channelId: null });
    await call('DELETE', '/channels/:channelId/messages/:messageId', `/channels/${ch}/messages/${messageId}`);
    const bulk = await Promise.all([1, 2].map(() => call('POST', '/channels/:channelId/messages', `/channels/${ch}/messages`, { body: { content: 'bulk' } })));
    await call('POST', '/channels/:channelId/messages/bulk-delete', `/channels/${ch}/messages/bulk-delete`, {
      body: { messages: bulk.map((m) => String(m?.id)) },
    });

    const dm = await call('POST', '/users/@me/channels', '/users/@me/channels', { body: { recipient_id: demo.plainMemberId } });
    const dmId = String(dm?.id);
    await call('GET', '/channels/:channelId', `/channels/${dmId}`);
    await call('POST', '/channels/:channelId/messages', `/channels/${dmId}/messages`, { body: { content: 'a direct message' } });
    await call('GET', '/channels/:channelId/messages', `/channels/${dmId}/messages`);

    for (const [base, concrete] of [
      ['/applications/:applicationId/commands', `/applications/${app}/commands`],
      ['/applications/:applicationId/guilds/:guildId/commands', `/applications/${app}/guilds/${g}/commands`],
    ] as const) {
      await call('PUT', base, concrete, {
        body: [
          { name: 'ping', description: 'Replies pong', options: [{ name: 'who', description: 'someone', type: 6 }] },
          { name: 'Report message', type: 3 },
        ],
      });
      await call('GET', base, concrete);
      const created = await call('POST', base, concrete, { body: { name: 'extra', description: 'An extra command' }, status: 201 });
      const id = String(created?.id);
      await call('GET', `${base}/:commandId`, `${concrete}/${id}`);
      await call('PATCH', `${base}/:commandId`, `${concrete}/${id}`, { body: { description: 'Changed' } });
      await call('DELETE', `${base}/:commandId`, `${concrete}/${id}`);
    }

    // Interactions: run /ping as a member and answer it over the raw callback and webhook routes.
    const nextToken = () =>
      new Promise<{ id: string; token: string }>((resolve) => {
        const listener = (event: { dispatch: { t: string; d: unknown } }) => {
          if (event.dispatch.t !== 'INTERACTION_CREATE') return;
          sandbox.world.events.off('dispatch', listener);
          const d = event.dispatch.d as { id: string; token: string };
          resolve({ id: d.id, token: d.token });
        };
        sandbox.world.events.on('dispatch', listener);
      });
    const run = () =>
      control(sandbox, 'POST', '/interactions', { guildId: g, channelId: ch, userId: demo.plainMemberId, name: 'ping', options: { who: demo.adminUserId } });
    let tokenReady = nextToken();
    let reply = run();
    let { id, token } = await tokenReady;
    await call('POST', '/interactions/:interactionId/:token/callback', `/interactions/${id}/${token}/callback`, {
      auth: 'none',
      body: { type: 4, data: { content: 'pong' } },
    });
    assert.equal((await reply).status, 200);
    tokenReady = nextToken();
    reply = run();
    ({ id, token } = await tokenReady);
    await call('POST', '/interactions/:interactionId/:token/callback', `/interactions/${id}/${token}/callback`, {
      auth: 'none',
      body: { type: 5 },
      query: '?with_response=true',
    });
    const hook = `/webhooks/${app}/${token}`;
    await call('GET', '/webhooks/:applicationId/:token/messages/@original', `${hook}/messages/@original`, { auth: 'none' });
    await call('PATCH', '/webhooks/:applicationId/:token/messages/@original', `${hook}/messages/@original`, { auth: 'none', body: { content: 'done' } });
    assert.equal((await reply).status, 200);
    const follow = await call('POST', '/webhooks/:applicationId/:token', hook, { auth: 'none', body: { content: 'follow-up' }, query: '?wait=true' });
    const followId = String(follow?.id);
    await call('GET', '/webhooks/:applicationId/:token/messages/:messageId', `${hook}/messages/${followId}`, { auth: 'none' });
    await call('PATCH', '/webhooks/:applicationId/:token/messages/:messageId', `${hook}/messages/${followId}`, {
      auth: 'none',
      body: { content: 'follow-up edited' },
    });
    await call('DELETE', '/webhooks/:applicationId/:token/messages/:messageId', `${hook}/messages/${followId}`, { auth: 'none' });
    await call('DELETE', '/webhooks/:applicationId/:token/messages/@original', `${hook}/messages/@original`, { auth: 'none' });

    // Bearer routes, with a token from the code flow.
    const redirect = 'http://127.0.0.1:9/cb';
    const form = new URLSearchParams({
      client_id: app,
      redirect_uri: redirect,
      response_type: 'code',
      scope: 'identify guilds guilds.members.read',
      user_id: demo.adminUserId,
      action: 'authorize',
    });
    const consent = await fetch(`${sandbox.url}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokenRes = await fetch(`${sandbox.url}/api/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: app, client_secret: sandbox.oauth.clientSecret }),
    });
    bearer = String(((await tokenRes.json()) as { access_token: string }).access_token);
    await call('GET', '/users/@me', '/users/@me', { auth: 'bearer' });
    await call('GET', '/users/@me/guilds', '/users/@me/guilds', { auth: 'bearer' });
    await call('GET', '/users/@me/guilds/:guildId/member', `/users/@me/guilds/${g}/member`, { auth: 'bearer' });
  });

  it('validates invite, webhook and thread routes', async () => {
    const demo = sandbox.world.demo;
    const g = demo.guildId;
    const ch = demo.channels.general;
    const guild = sandbox.world.requireGuild(g);
    const botRole = guild.roles.get(demo.roles.bot);
    assert.ok(botRole);
    // What a bot that runs invites, webhooks and threads is given.
    sandbox.world.structure.updateRole(g, botRole, {
      permissions:
        botRole.permissions |
        PermissionFlagsBits.ManageChannels |
        PermissionFlagsBits.ManageGuild |
        PermissionFlagsBits.ManageWebhooks |
        PermissionFlagsBits.CreateInstantInvite |
        PermissionFlagsBits.CreatePublicThreads |
        PermissionFlagsBits.CreatePrivateThreads |
        PermissionFlagsBits.SendMessagesInThreads |
        PermissionFlagsBits.ManageThreads,
    });

    const invite = await call('POST', '/channels/:channelId/invites', `/channels/${ch}/invites`, { body: { max_age: 3600, max_uses: 5, unique: true } });
    const code = String(invite?.code);
    await call('GET', '/channels/:channelId/invites', `/channels/${ch}/invites`);
    await call('GET', '/guilds/:guildId/invites', `/guilds/${g}/invites`);
    await call('GET', '/invites/:code', `/invites/${code}`, { auth: 'none', query: '?with_counts=true&with_expiration=true' });
    await call('DELETE', '/invites/:code', `/invites/${code}`);
    await call('GET', '/guilds/:guildId/audit-logs', `/guilds/${g}/audit-logs`, { query: '?action_type=40' });

    const webhook = await call('POST', '/channels/:channelId/webhooks', `/channels/${ch}/webhooks`, { body: { name: 'Relay' } });
    const hook = `/webhooks/${String(webhook?.id)}`;
    const byToken = `${hook}/${String(webhook?.token)}`;
    await call('GET', '/channels/:channelId/webhooks', `/channels/${ch}/webhooks`);
    await call('GET', '/guilds/:guildId/webhooks', `/guilds/${g}/webhooks`);
    await call('GET', '/webhooks/:webhookId', hook);
    await call('PATCH', '/webhooks/:webhookId', hook, { body: { name: 'Relay II' } });
    await call('GET', '/webhooks/:webhookId/:token', byToken, { auth: 'none' });
    await call('PATCH', '/webhooks/:webhookId/:token', byToken, { auth: 'none', body: { name: 'Relay III' } });
    // Executing shares its routes with interaction follow-ups (`:applicationId` is then the webhook's id).
    const posted = await call('POST', '/webhooks/:applicationId/:token', byToken, {
      auth: 'none',
      query: '?wait=true',
      body: { content: 'from a webhook', username: 'Relay bot', avatar_url: 'https://example.com/a.png' },
    });
    await call('POST', '/webhooks/:applicationId/:token', byToken, { auth: 'none', body: { content: 'without waiting' } });
    const posting = `${byToken}/messages/${String(posted?.id)}`;
    await call('GET', '/webhooks/:applicationId/:token/messages/:messageId', posting, { auth: 'none' });
    await call('PATCH', '/webhooks/:applicationId/:token/messages/:messageId', posting, { auth: 'none', body: { content: 'edited by the webhook' } });
    await call('DELETE', '/webhooks/:applicationId/:token/messages/:messageId', posting, { auth: 'none' });
    await call('DELETE', '/webhooks/:webhookId/:token', byToken, { auth: 'none' });
    const second = await call('POST', '/channels/:channelId/webhooks', `/channels/${ch}/webhooks`, { body: { name: 'Another' } });
    await call('DELETE', '/webhooks/:webhookId', `/webhooks/${String(second?.id)}`);

    const thread = await call('POST', '/channels/:channelId/threads', `/channels/${ch}/threads`, {
      body: { name: 'conformance', type: 11, auto_archive_duration: 60 },
      status: 201,
    });
    const threadId = String(thread?.id);
    await call('GET', '/channels/:channelId', `/channels/${threadId}`);
    await call('POST', '/channels/:channelId/messages', `/channels/${threadId}/messages`, { body: { content: 'in a thread' } });
    const starter = await call('POST', '/channels/:channelId/messages', `/channels/${ch}/messages`, { body: { content: 'a thread starts here' } });
    await call('POST', '/channels/:channelId/messages/:messageId/threads', `/channels/${ch}/messages/${String(starter?.id)}/threads`, {
      body: { name: 'from a message' },
      status: 201,
    });
    const withThread = await call('GET', '/channels/:channelId/messages/:messageId', `/channels/${ch}/messages/${String(starter?.id)}`);
    assert.equal((withThread?.thread as { id?: string } | undefined)?.id, String(starter?.id));
    await call('DELETE', '/channels/:channelId/thread-members/@me', `/channels/${threadId}/thread-members/@me`);
    await call('PUT', '/channels/:channelId/thread-members/@me', `/channels/${threadId}/thread-members/@me`);
    await call('PUT', '/channels/:channelId/thread-members/:userId', `/channels/${threadId}/thread-members/${demo.plainMemberId}`);
    await call('GET', '/channels/:channelId/thread-members', `/channels/${threadId}/thread-members`, { query: '?with_member=true&limit=10' });
    await call('GET', '/channels/:channelId/thread-members/:userId', `/channels/${threadId}/thread-members/${demo.plainMemberId}`, {
      query: '?with_member=true',
    });
    await call('DELETE', '/channels/:channelId/thread-members/:userId', `/channels/${threadId}/thread-members/${demo.plainMemberId}`);
    await call('GET', '/guilds/:guildId/threads/active', `/guilds/${g}/threads/active`);
    const record = sandbox.world.threads.get(threadId);
    assert.ok(record);
    // A thread is a channel to PATCH and DELETE too: its own rules, its own shape.
    await call('PATCH', '/channels/:channelId', `/channels/${threadId}`, { body: { name: 'renamed thread', auto_archive_duration: 1440 } });
    sandbox.world.threads.update(record, { archived: true });
    await call('GET', '/channels/:channelId/threads/archived/public', `/channels/${ch}/threads/archived/public`, { query: '?limit=10' });
    await call('GET', '/guilds/:guildId/audit-logs', `/guilds/${g}/audit-logs`, { query: '?action_type=110' });
  });

  it('validates the channel, role and guild routes bots manage with', async () => {
    const demo = sandbox.world.demo;
    const g = demo.guildId;
    const guild = sandbox.world.requireGuild(g);
    const botRole = guild.roles.get(demo.roles.bot);
    assert.ok(botRole);
    // The demo bot moderates but does not run the server: these routes need more.
    sandbox.world.structure.updateRole(g, botRole, {
      permissions: botRole.permissions | PermissionFlagsBits.ManageChannels | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.PinMessages,
    });

    await call('PATCH', '/guilds/:guildId', `/guilds/${g}`, { body: { name: 'Sandbox Community', verification_level: 2, afk_timeout: 900 } });
    const paused = new Date(Date.now() + 3_600_000).toISOString();
    await call('PUT', '/guilds/:guildId/incident-actions', `/guilds/${g}/incident-actions`, {
      body: { invites_disabled_until: paused, dms_disabled_until: null },
    });
    await call('PUT', '/guilds/:guildId/incident-actions', `/guilds/${g}/incident-actions`, { body: { invites_disabled_until: null } });
    const role = await call('POST', '/guilds/:guildId/roles', `/guilds/${g}/roles`, { body: { name: 'Conformance', permissions: '0', mentionable: true } });
    const roleId = String(role?.id);
    await call('GET', '/guilds/:guildId/roles/:roleId', `/guilds/${g}/roles/${roleId}`);
    await call('PATCH', '/guilds/:guildId/roles/:roleId', `/guilds/${g}/roles/${roleId}`, { body: { name: 'Conformance 2', color: 0x123456 } });
    await call('PATCH', '/guilds/:guildId/roles', `/guilds/${g}/roles`, { body: [{ id: roleId, position: 2 }] });

    const made = await call('POST', '/guilds/:guildId/channels', `/guilds/${g}/channels`, {
      body: { name: 'conformance-news', type: 5, topic: 'News', permission_overwrites: [{ id: roleId, type: 0, allow: '1024', deny: '0' }] },
      status: 201,
    });
    const ch = String(made?.id);
    await call('PATCH', '/channels/:channelId', `/channels/${ch}`, { body: { name: 'conformance-news-2', rate_limit_per_user: 10, nsfw: true } });
    await call('PUT', '/channels/:channelId/permissions/:overwriteId', `/channels/${ch}/permissions/${roleId}`, {
      body: { type: 0, allow: '2048', deny: '0' },
    });
    await call('DELETE', '/channels/:channelId/permissions/:overwriteId', `/channels/${ch}/permissions/${roleId}`);
    await call('POST', '/channels/:channelId/typing', `/channels/${ch}/typing`);

    const posted = await Promise.all(
      [1, 2].map((n) => call('POST', '/channels/:channelId/messages', `/channels/${ch}/messages`, { body: { content: `news ${n}` } })),
    );
    const [first = '', second = ''] = posted.map((m) => String(m?.id));
    await call('PUT', '/channels/:channelId/pins/:messageId', `/channels/${ch}/pins/${first}`);
    await call('PUT', '/channels/:channelId/messages/pins/:messageId', `/channels/${ch}/messages/pins/${second}`);
    const pins = await call('GET', '/channels/:channelId/pins', `/channels/${ch}/pins`);
    assert.deepEqual(
      pins?.map((m) => m.id),
      [second, first],
    );
    const page = await call('GET', '/channels/:channelId/messages/pins', `/channels/${ch}/messages/pins`, { query: '?limit=1' });
    assert.equal(page?.has_more, true);
    await call('DELETE', '/channels/:channelId/pins/:messageId', `/channels/${ch}/pins/${first}`);
    await call('DELETE', '/channels/:channelId/messages/pins/:messageId', `/channels/${ch}/messages/pins/${second}`);
    const crossposted = await call('POST', '/channels/:channelId/messages/:messageId/crosspost', `/channels/${ch}/messages/${first}/crosspost`);
    assert.equal(Number(crossposted?.flags) & 1, 1);
    await call('DELETE', '/channels/:channelId', `/channels/${ch}`);
    await call('DELETE', '/guilds/:guildId/roles/:roleId', `/guilds/${g}/roles/${roleId}`);
    await call('DELETE', '/users/@me/guilds/:guildId', `/users/@me/guilds/${demo.thirdGuildId}`);
  });

  // Areas of routes add their own `it` above this one; this one comes last and checks them all.
  it('validated every route it serves, or lists it with a reason', (context) => {
    const missing = sandbox.restRoutes.filter((route) => !covered.has(route) && !(route in NOT_IN_SPEC));
    assert.deepEqual(missing, [], 'every served route is validated or listed with a reason');
    const operations = Object.values(spec.paths).reduce(
      (total, path) => total + Object.keys(path).filter((method) => ['get', 'put', 'post', 'patch', 'delete'].includes(method)).length,
      0,
    );
    context.diagnostic(`${covered.size} of the spec's ${operations} operations served, their requests and responses validated`);
  });

  it('shapes errors and 429s like the spec', async () => {
    const g = sandbox.world.demo.guildId;
    const errorSchema = `openapi#/${pointer('components', 'responses', 'ClientErrorResponse', 'content', 'application/json', 'schema')}`;
    const limitedSchema = `openapi#/${pointer('components', 'responses', 'ClientRatelimitedResponse', 'content', 'application/json', 'schema')}`;
    const auth = { authorization: `Bot ${sandbox.botToken}`, 'content-type': 'application/json' };
    const cases: Array<[string, RequestInit, number, number]> = [
      [`/guilds/${g}/members/1100000000000000000`, { headers: auth }, 404, 10007],
      [`/guilds/${g}/bans/${sandbox.world.demo.ownerUserId}`, { method: 'PUT', headers: auth, body: '{}' }, 403, 50013],
      [
        `/channels/${sandbox.world.demo.channels.general}/messages`,
        { method: 'POST', headers: auth, body: JSON.stringify({ content: 'x'.repeat(2001) }) },
        400,
        50035,
      ],
      ['/guilds/1100000000000000000', { headers: auth }, 404, 10004],
    ];
    for (const [route, init, status, code] of cases) {
      const res = await fetch(`${sandbox.apiBase}/v10${route}`, init);
      const body = (await res.json()) as { code: number };
      assert.equal(res.status, status, route);
      assert.equal(body.code, code, route);
      if (code === 50035) {
        // Known spec deviation: the spec types `_errors[].code` as an integer, but Discord sends string codes
        // such as BASE_TYPE_MAX_LENGTH (and discord.js prints them). The sandbox follows Discord, so the
        // nested part is checked by hand and the envelope against the spec.
        const { errors, ...envelope } = body as { code: number; errors: { content: { _errors: Array<{ code: string; message: string }> } } };
        assert.equal(errors.content._errors[0]?.code, 'BASE_TYPE_MAX_LENGTH');
        validate(errorSchema, envelope, route);
        continue;
      }
      validate(errorSchema, body, route);
    }
    await control(sandbox, 'POST', '/faults', { route: 'GET /gateway', status: 429, count: 1, retryAfter: 1 });
    const limited = await fetch(`${sandbox.apiBase}/v10/gateway`);
    assert.equal(limited.status, 429);
    validate(limitedSchema, await limited.json(), '429');

    // A real 429 from Discord's limits (the sixth message in five seconds), not an injected one.
    const strictSandbox = await startSandbox({ port: 0, memberCount: 10 });
    try {
      const post = () =>
        fetch(`${strictSandbox.apiBase}/v10/channels/${strictSandbox.world.demo.channels.general}/messages`, {
          method: 'POST',
          headers: { authorization: `Bot ${strictSandbox.botToken}`, 'content-type': 'application/json' },
          body: '{"content":"hi"}',
        });
      for (let i = 0; i < 5; i += 1) assert.equal((await post()).status, 200);
      const real = await post();
      assert.equal(real.status, 429);
      validate(limitedSchema, await real.json(), 'a real 429');
    } finally {
      await strictSandbox.close();
    }
  });
});
