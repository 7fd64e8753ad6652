import type { Middleware } from 'koa';
import { BodyTooLarge, parseBody, readRawBytes } from '../body';
import { parseMultipart, type UploadedFile } from '../multipart';
import { MAX_ATTACHMENT_BYTES } from '../attachments';
import { DiscordApiError, invalidFormBody, notFoundRoute, unauthorized } from '../errors';
import { RequestValidator } from '../spec';
import { RateLimiter, rateLimitedBody } from '../ratelimit';
import { Router, pathSegments, type Caller, type Route } from '../router';
import type { SandboxServices } from '../services';
import { registerBanRoutes } from './bans';
import { registerChannelAdminRoutes } from './channel-admin';
import { registerChannelRoutes } from './channels';
import { registerCommandRoutes } from './commands';
import { INTERACTION_CALLBACK_ROUTE, registerInteractionRoutes } from './interactions';
import { registerGuildRoutes } from './guilds';
import { registerIncidentRoutes } from './incidents';
import { registerMemberRoutes } from './members';
import { registerPinRoutes } from './pins';
import { registerReactionRoutes } from './reactions';
import { registerRoleRoutes } from './roles';
import { registerUserRoutes } from './users';
import { registerInviteRoutes } from './invites';
import { registerThreadRoutes } from './threads';
import { registerWebhookRoutes } from './webhooks';

/** Every REST route of the sandbox, registered resource by resource. */
export function buildRestRouter(services: SandboxServices): Router {
  const router = new Router();
  registerUserRoutes(router, services);
  registerGuildRoutes(router, services);
  registerIncidentRoutes(router, services);
  registerMemberRoutes(router, services);
  registerBanRoutes(router, services);
  registerRoleRoutes(router, services);
  registerChannelRoutes(router, services);
  registerChannelAdminRoutes(router, services);
  registerPinRoutes(router, services);
  registerReactionRoutes(router, services);
  registerCommandRoutes(router, services);
  registerInteractionRoutes(router, services);
  registerInviteRoutes(router, services);
  registerWebhookRoutes(router, services);
  registerThreadRoutes(router, services);
  return router;
}

const API_PREFIX = /^\/api(?:\/v\d+)?(?=\/|$)/;

function resolveCaller(services: SandboxServices, route: Route, header: string | undefined): Caller {
  if (route.auth === 'none') return { kind: 'none' };
  const [scheme, value] = (header ?? '').split(' ', 2);
  if (scheme === 'Bot' && value === services.world.botToken && route.auth !== 'bearer') return { kind: 'bot' };
  if (scheme === 'Bearer' && value && route.auth !== 'bot') {
    const grant = services.oauth.resolve(value);
    if (grant) return { kind: 'bearer', userId: grant.userId, scopes: grant.scopes };
  }
  throw unauthorized();
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** One validator for every sandbox of the process: compiled schemas are reused. */
let validator: RequestValidator | null = null;
function specValidator(): RequestValidator {
  validator ??= new RequestValidator();
  return validator;
}

/** The major parameter of a route (Discord buckets per channel, guild or webhook). */
function majorId(params: Record<string, string>): string {
  return params.channelId ?? params.guildId ?? params.token ?? params.webhookId ?? params.interactionToken ?? '';
}

/**
 * Serves `/api[/vN]/...`: rate limits (Discord's by default: a bucket per route and major id, the
 * global cap per token) and faults first (429/5xx; an injected 400 as a refusal of the route), then auth, the body and parameters checked
 * against Discord's OpenAPI spec (50035), the handler, and Discord's error shape.
 * Every answer carries `X-RateLimit-*` headers.
 */
export function restMiddleware(services: SandboxServices, router: Router, limiter: RateLimiter): Middleware {
  // Compiled at start, not on the first interaction: that would spend the bot's 3 seconds.
  specValidator().prepare('POST', INTERACTION_CALLBACK_ROUTE);
  return async (ctx, next) => {
    const prefix = API_PREFIX.exec(ctx.path);
    if (!prefix) return next();
    const segments = pathSegments(ctx.path.slice(prefix[0].length));
    const matched = router.match(ctx.method, segments);
    const routeKey = matched ? `${ctx.method} ${matched.route.pattern}` : `${ctx.method} unknown`;
    // Interaction callbacks and webhook-token routes are not under the global cap (as on Discord).
    const token = matched && matched.route.auth !== 'none' ? ctx.get('authorization') || null : null;
    const verdict = limiter.take({ routeKey, majorId: matched ? majorId(matched.params) : '', token });
    ctx.set(verdict.headers);
    if (verdict.limited) {
      services.logger.debug({ route: routeKey, global: verdict.limited.global }, 'sandbox rate limit hit');
      ctx.status = 429;
      ctx.body = rateLimitedBody(verdict.limited.retryAfter, verdict.limited.global);
      return;
    }
    const fault = services.faults.take(ctx.method, segments);
    // A refusal is answered as the route's own refusals are (below): a refused interaction response still spends the interaction.
    const refusal = fault?.status === 400 ? new DiscordApiError(400, fault.code, fault.message) : null;
    if (fault && !refusal) {
      ctx.status = fault.status;
      if (fault.status === 429) {
        ctx.set({
          'Retry-After': String(Math.ceil(fault.retryAfter)),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset-After': String(fault.retryAfter),
          'X-RateLimit-Scope': 'user',
        });
        ctx.body = rateLimitedBody(fault.retryAfter, false);
      } else {
        ctx.body = { message: `${fault.status}: Server Error`, code: 0 };
      }
      return;
    }
    try {
      if (!matched) throw notFoundRoute();
      if (refusal) throw refusal;
      const caller = resolveCaller(services, matched.route, ctx.get('authorization') || undefined);
      let body: unknown;
      let files: UploadedFile[] = [];
      try {
        const contentType = ctx.get('content-type') || undefined;
        // Room for a message's files (25 MiB together) and the form around them.
        const raw = await readRawBytes(ctx.req, MAX_ATTACHMENT_BYTES + 1024 * 1024);
        if (contentType?.toLowerCase().includes('multipart/form-data')) ({ json: body, files } = parseMultipart(contentType, raw));
        else body = parseBody(contentType, raw.toString('utf8'));
      } catch (error) {
        if (error instanceof BodyTooLarge) throw new DiscordApiError(413, 40005, 'Request entity too large');
        throw new DiscordApiError(400, 50109, 'The request body contains invalid JSON.');
      }
      const query = new URLSearchParams(ctx.querystring);
      // Like Discord: every path and query parameter and the body checked against the API's schema.
      const problems =
        specValidator().parameters(ctx.method, matched.route.pattern, matched.params, query) ?? specValidator().body(ctx.method, matched.route.pattern, body);
      if (problems) throw invalidFormBody(problems);
      const rawReason = ctx.get('x-audit-log-reason');
      const reason = rawReason ? safeDecode(rawReason) : null;
      const result = await matched.route.handler({ params: matched.params, query, body, files, caller, reason });
      ctx.status = result.status;
      if (result.body !== undefined) ctx.body = result.body;
    } catch (error) {
      if (!(error instanceof DiscordApiError)) {
        services.logger.error({ err: error, path: ctx.path }, 'sandbox REST handler failed');
        throw error;
      }
      if (matched && error.status < 500) matched.route.refused?.(matched.params, error);
      ctx.status = error.status;
      ctx.body = error.toJSON();
    }
  };
}
