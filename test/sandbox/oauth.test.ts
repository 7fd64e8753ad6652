import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Events, type Guild } from 'discord.js';
import { AuthorizationCode } from 'simple-oauth2';
import { startBotHarness, waitForEvent, type BotHarness } from './helpers';

const REDIRECT = 'http://127.0.0.1:9/auth/callback';

describe('OAuth2 against the sandbox with simple-oauth2', () => {
  let h: BotHarness;
  let oauth: AuthorizationCode;
  before(async () => {
    h = await startBotHarness({ redirectUris: [REDIRECT] });
    const { clientId, clientSecret, tokenHost, tokenPath, revokePath, authorizePath } = h.sandbox.oauth;
    oauth = new AuthorizationCode({
      client: { id: clientId, secret: clientSecret },
      auth: { tokenHost, tokenPath, revokePath, authorizeHost: tokenHost, authorizePath },
    });
  });
  after(async () => {
    await h.close();
  });
  const demo = () => h.sandbox.world.demo;

  /** Opens the consent page, checks it, and submits the form for `userId`; returns the redirect. */
  async function consent(url: string, userId: string, action = 'authorize', extra: Record<string, string> = {}): Promise<Response> {
    const page = await fetch(url);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(`value="${userId}"`), 'the user is offered');
    const form = new URLSearchParams({ ...Object.fromEntries(new URL(url).searchParams), user_id: userId, action, ...extra });
    return fetch(`${h.sandbox.url}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  }

  it('runs the code flow and returns the user guilds with permissions as strings', async () => {
    const url = oauth.authorizeURL({ redirect_uri: REDIRECT, scope: 'identify guilds', state: 'st4te' });
    const html = await (await fetch(url)).text();
    assert.ok(html.indexOf('demo_admin') < html.indexOf('community_owner'), 'the demo admin comes first');
    const res = await consent(url, demo().adminUserId);
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get('location') ?? '');
    assert.equal(location.origin + location.pathname, REDIRECT);
    assert.equal(location.searchParams.get('state'), 'st4te');
    const code = location.searchParams.get('code') ?? '';
    const token = await oauth.getToken({ code, redirect_uri: REDIRECT, scope: 'identify guilds' });
    assert.equal(token.token.token_type, 'Bearer');
    assert.equal(token.token.expires_in, 604800);
    const auth = { authorization: `Bearer ${String(token.token.access_token)}` };
    const me = (await (await fetch(`${h.sandbox.apiBase}/v10/users/@me`, { headers: auth })).json()) as { id: string; username: string };
    assert.equal(me.id, demo().adminUserId);
    const guilds = (await (await fetch(`${h.sandbox.apiBase}/v10/users/@me/guilds?with_counts=true`, { headers: auth })).json()) as Array<{
      id: string;
      owner: boolean;
      permissions: string;
      approximate_member_count?: number;
    }>;
    const byId = new Map(guilds.map((g) => [g.id, g]));
    assert.equal(byId.get(demo().secondGuildId)?.owner, true);
    assert.equal(byId.get(demo().guildId)?.owner, false);
    assert.equal(typeof byId.get(demo().guildId)?.permissions, 'string');
    assert.equal(BigInt(byId.get(demo().guildId)?.permissions ?? '0') & 8n, 8n);
    assert.equal(byId.get(demo().guildId)?.approximate_member_count, 300);

    await assert.rejects(
      oauth.getToken({ code, redirect_uri: REDIRECT }),
      (error: { output?: { statusCode: number }; data?: { payload?: { error?: string } } }) => {
        assert.equal(error.output?.statusCode, 400);
        assert.equal(error.data?.payload?.error, 'invalid_grant');
        return true;
      },
    );

    const refreshed = await token.refresh();
    const refreshedAuth = { authorization: `Bearer ${String(refreshed.token.access_token)}` };
    assert.equal((await fetch(`${h.sandbox.apiBase}/v10/users/@me`, { headers: refreshedAuth })).status, 200);
    await refreshed.revoke('access_token');
    assert.equal((await fetch(`${h.sandbox.apiBase}/v10/users/@me`, { headers: refreshedAuth })).status, 401);
  });

  it('sends access_denied with the state on Cancel', async () => {
    const url = oauth.authorizeURL({ redirect_uri: REDIRECT, scope: 'identify', state: 'abc' });
    const res = await consent(url, demo().adminUserId, 'cancel');
    const location = new URL(res.headers.get('location') ?? '');
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), 'abc');
  });

  it('rejects a request without client_id or redirect_uri', async () => {
    assert.equal((await fetch(`${h.sandbox.url}/oauth2/authorize?scope=identify&response_type=code`)).status, 400);
    assert.equal((await fetch(`${h.sandbox.url}/oauth2/authorize?client_id=${h.sandbox.oauth.clientId}&scope=identify&response_type=code`)).status, 400);
  });

  it('adds the bot to a guild through the invite form, and the bot gets GUILD_CREATE', async () => {
    const url = `${h.sandbox.oauth.authorizeUrl}?client_id=${h.sandbox.oauth.clientId}&scope=bot%20applications.commands&permissions=268446806`;
    const html = await (await fetch(url)).text();
    assert.ok(html.includes(demo().secondGuildId), "the admin's own guild is offered");
    const created = waitForEvent<[Guild]>(h.client, Events.GuildCreate, (g) => g.id === demo().secondGuildId);
    const res = await consent(url, demo().adminUserId, 'authorize', { guild_id: demo().secondGuildId });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Bot added/);
    const [guild] = await created;
    assert.equal(guild.name, "Demo Admin's Workshop");
    assert.equal(h.sandbox.world.isBotIn(demo().secondGuildId), true);
    const denied = await consent(url, demo().plainMemberId, 'authorize', { guild_id: demo().guildId });
    assert.equal(denied.status, 400);
  });
});
