import type { Context, Middleware } from 'koa';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { parseBody, readRawBody } from './body';
import { isCrossSite } from './origin';
import { SANDBOX_CLIENT_SECRET } from './constants';
import { renderConsentPage, renderMessagePage, type ConsentUser } from './oauth-page';
import { guildPermissions, hasPermission } from './permissions';
import type { RateLimiter } from './ratelimit';
import type { SandboxServices } from './services';

const TOKEN_PATH = /^\/api(?:\/v\d+)?\/oauth2\/token(\/revoke)?$/;
/** Scopes that need no redirect (the bot invite form). */
const INVITE_SCOPES = new Set(['bot', 'applications.commands']);
/** The query fields the consent forms carry along. */
const CARRIED = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'permissions', 'prompt'] as const;

type Fields = Record<string, string>;

function asFields(value: unknown): Fields {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function html(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

/** The users offered on the consent page: the demo admin first, then the other demo users and some members. */
function consentUsers(services: SandboxServices): ConsentUser[] {
  const { world } = services;
  const demo = world.demo;
  const community = world.requireGuild(demo.guildId);
  const notes: Record<string, string> = {
    [demo.adminUserId]: "Admin of Sandbox Community; owns Demo Admin's Workshop (no bot yet)",
    [demo.ownerUserId]: 'Owner of Sandbox Community',
    [demo.otherAdminUserId]: 'Owner of Other Community; no rights in Sandbox Community',
    [demo.plainMemberId]: 'Member of Sandbox Community without any rights',
  };
  const crowd = [...community.members.keys()].filter((id) => !(id in notes) && id !== world.botUserId).slice(0, 8);
  return [...Object.keys(notes), ...crowd].flatMap((id) => {
    const user = world.users.get(id);
    if (!user) return [];
    const guilds = [...world.guilds.values()]
      .filter((g) => hasPermission(guildPermissions(g, id), PermissionFlagsBits.ManageGuild))
      .map((g) => ({ id: g.id, name: g.name }));
    return [
      { id, label: user.globalName ? `${user.globalName} (@${user.username})` : `@${user.username}`, note: notes[id] ?? 'Member of Sandbox Community', guilds },
    ];
  });
}

/** Checks the request and returns the parsed scopes, or answers an error page and returns null. */
function checkAuthorizeRequest(ctx: Context, services: SandboxServices, fields: Fields): { scopes: string[]; bot: boolean; codeFlow: boolean } | null {
  if (fields.client_id !== services.world.applicationId) {
    html(ctx, 400, renderMessagePage('Unknown application', 'client_id is missing or does not name the sandbox application.'));
    return null;
  }
  const scopes = (fields.scope ?? '').split(/[\s+]+/).filter(Boolean);
  const bot = scopes.includes('bot');
  const codeFlow = scopes.some((s) => !INVITE_SCOPES.has(s));
  if (scopes.length === 0 || (codeFlow && (!fields.redirect_uri || fields.response_type !== 'code'))) {
    html(ctx, 400, renderMessagePage('Invalid OAuth2 request', 'scope is required; a sign-in needs redirect_uri and response_type=code.'));
    return null;
  }
  // As on Discord: the code goes only to a redirect registered for the application, matched exactly.
  if (fields.redirect_uri !== undefined && !services.redirectUris.has(fields.redirect_uri)) {
    html(ctx, 400, renderMessagePage('Invalid OAuth2 redirect_uri', 'redirect_uri is not registered for this application.'));
    return null;
  }
  return { scopes, bot, codeFlow };
}

function redirectWith(ctx: Context, base: string, params: Record<string, string | undefined>): void {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') url.searchParams.set(key, value);
  ctx.redirect(url.toString());
}

async function handleAuthorize(ctx: Context, services: SandboxServices): Promise<void> {
  if (ctx.method === 'GET') {
    const fields = Object.fromEntries(new URLSearchParams(ctx.querystring));
    const checked = checkAuthorizeRequest(ctx, services, fields);
    if (!checked) return;
    const hidden = Object.fromEntries(CARRIED.flatMap((key) => (fields[key] !== undefined ? [[key, fields[key]]] : [])));
    html(
      ctx,
      200,
      renderConsentPage({
        appName: 'AwesomeBot',
        scopes: checked.scopes,
        bot: checked.bot,
        hidden,
        preselectGuildId: fields.guild_id ?? null,
        users: consentUsers(services),
      }),
    );
    return;
  }
  // The consent form posts to itself; a page on another site must not consent for the user.
  if (isCrossSite(ctx, services.publicOrigins)) return html(ctx, 403, renderMessagePage('Refused', 'The consent form must be submitted from this page.'));
  const fields = asFields(parseBody(ctx.get('content-type') || undefined, await readRawBody(ctx.req)));
  const checked = checkAuthorizeRequest(ctx, services, fields);
  if (!checked) return;
  if (fields.action === 'cancel') {
    if (!fields.redirect_uri) return html(ctx, 200, renderMessagePage('Cancelled', 'Nothing was authorized.'));
    return redirectWith(ctx, fields.redirect_uri, {
      error: 'access_denied',
      error_description: 'The resource owner or authorization server denied the request',
      state: fields.state,
    });
  }
  const { world } = services;
  const userId = fields.user_id ?? '';
  if (!world.users.has(userId) || world.users.get(userId)?.bot) return html(ctx, 400, renderMessagePage('Unknown user', 'Pick a user from the list.'));
  let guildId: string | undefined;
  if (checked.bot) {
    guildId = fields.guild_id;
    const guild = guildId ? world.guilds.get(guildId) : undefined;
    if (!guild || !hasPermission(guildPermissions(guild, userId), PermissionFlagsBits.ManageGuild)) {
      return html(ctx, 400, renderMessagePage('Cannot add the bot', 'Pick a server where this user has Manage Server.'));
    }
    let permissions: bigint;
    try {
      permissions = BigInt(fields.permissions ?? '0');
    } catch {
      return html(ctx, 400, renderMessagePage('Invalid permissions', 'permissions must be a decimal integer.'));
    }
    world.addBotToGuild(guild.id, permissions);
  }
  if (!fields.redirect_uri)
    return html(ctx, 200, renderMessagePage('Bot added', `AwesomeBot was added to ${world.guilds.get(guildId ?? '')?.name ?? 'the server'}.`));
  const code = services.oauth.issueCode(userId, checked.scopes, fields.redirect_uri);
  redirectWith(ctx, fields.redirect_uri, {
    code,
    state: fields.state,
    ...(checked.bot ? { guild_id: guildId, permissions: fields.permissions ?? '0' } : {}),
  });
}

function clientCredentials(ctx: Context, fields: Fields): { id: string; secret: string } {
  const header = ctx.get('authorization');
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const unescape = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  }
  return { id: fields.client_id ?? '', secret: fields.client_secret ?? '' };
}

async function handleToken(ctx: Context, services: SandboxServices, revoke: boolean): Promise<void> {
  const fields = asFields(parseBody(ctx.get('content-type') || undefined, await readRawBody(ctx.req)));
  const client = clientCredentials(ctx, fields);
  ctx.set('Cache-Control', 'no-store');
  if (client.id !== services.world.applicationId || client.secret !== SANDBOX_CLIENT_SECRET) {
    ctx.status = 401;
    ctx.body = { error: 'invalid_client' };
    return;
  }
  if (revoke) {
    services.oauth.revoke(fields.token ?? '');
    ctx.status = 200;
    ctx.body = {};
    return;
  }
  const invalidGrant = (what: string) => {
    ctx.status = 400;
    ctx.body = { error: 'invalid_grant', error_description: `Invalid "${what}" in request.` };
  };
  if (fields.grant_type === 'authorization_code') {
    const tokens = services.oauth.redeemCode(fields.code ?? '', fields.redirect_uri);
    if (!tokens) return invalidGrant('code');
    ctx.body = tokens;
    return;
  }
  if (fields.grant_type === 'refresh_token') {
    const tokens = services.oauth.refreshTokens(fields.refresh_token ?? '');
    if (!tokens) return invalidGrant('refresh_token');
    ctx.body = tokens;
    return;
  }
  ctx.status = 400;
  ctx.body = { error: 'unsupported_grant_type' };
}

/** OAuth2: the consent page (`/oauth2/authorize`), the token and revoke endpoints under `/api[/vN]/oauth2/token`. */
export function oauthMiddleware(services: SandboxServices, limiter: RateLimiter): Middleware {
  return async (ctx, next) => {
    if (ctx.path === '/oauth2/authorize' && (ctx.method === 'GET' || ctx.method === 'POST')) return handleAuthorize(ctx, services);
    const token = TOKEN_PATH.exec(ctx.path);
    if (!token || ctx.method !== 'POST') return next();
    ctx.set(limiter.take({ routeKey: `POST /oauth2/token${token[1] ?? ''}`, majorId: '', token: null }).headers);
    return handleToken(ctx, services, Boolean(token[1]));
  };
}
