import { ApplicationFlags, Locale, type APIApplication, type RESTGetAPICurrentUserResult, type RESTGetAPIGatewayBotResult } from 'discord-api-types/v10';
import { unauthorized, unknownGuild, unknownMember, unknownUser } from '../errors';
import { presentPartialGuild } from '../presenters-guild';
import { presentMember, presentUser } from '../presenters';
import { z } from 'zod';
import { noContent, ok, type Caller, type Router } from '../router';
import { parseDiscordBody } from './validate';
import type { SandboxServices } from '../services';

/** The user id behind a caller (the bot user for the bot token). */
export function callerUserId(services: SandboxServices, caller: Caller, scope?: string): string {
  if (caller.kind === 'bot') return services.world.botUserId;
  if (caller.kind === 'bearer' && (!scope || caller.scopes.includes(scope))) return caller.userId;
  throw unauthorized();
}

/** Gateway discovery, the current user and their guilds, other users, and the application. */
export function registerUserRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/gateway', 'none', () => ok({ url: services.urls.gateway }));
  router.add('GET', '/gateway/bot', 'bot', () =>
    ok({
      url: services.urls.gateway,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    } satisfies RESTGetAPIGatewayBotResult),
  );

  router.add('GET', '/users/@me', 'bot-or-bearer', ({ caller }) => {
    const user = world.users.get(callerUserId(services, caller, 'identify'));
    if (!user) throw unknownUser();
    const withEmail = caller.kind === 'bearer' && caller.scopes.includes('email');
    return ok({
      ...presentUser(user),
      mfa_enabled: false,
      locale: Locale.EnglishUS,
      premium_type: 0,
      verified: true,
      ...(withEmail ? { email: user.email } : {}),
    } satisfies RESTGetAPICurrentUserResult);
  });

  router.add('GET', '/users/@me/guilds', 'bot-or-bearer', ({ caller, query }) => {
    const userId = callerUserId(services, caller, caller.kind === 'bearer' ? 'guilds' : undefined);
    const limit = Math.min(200, Math.max(1, Number(query.get('limit') ?? 200) || 200));
    const after = query.get('after');
    const before = query.get('before');
    const withCounts = query.get('with_counts') === 'true';
    const guilds = [...world.guilds.values()]
      .filter((g) => g.members.has(userId))
      .filter((g) => (!after || BigInt(g.id) > BigInt(after)) && (!before || BigInt(g.id) < BigInt(before)))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
      .slice(0, limit);
    return ok(guilds.map((g) => presentPartialGuild(g, userId, withCounts)));
  });

  router.add('POST', '/users/@me/channels', 'bot', ({ body }) => {
    const input = parseDiscordBody(z.looseObject({ recipient_id: z.string() }), body);
    if (!world.users.has(input.recipient_id)) throw unknownUser();
    return ok(world.dms.presentChannel(world.dms.open(input.recipient_id)));
  });

  router.add('GET', '/users/@me/guilds/:guildId/member', 'bearer', ({ caller, params }) => {
    const userId = callerUserId(services, caller, 'guilds.members.read');
    const guild = world.guilds.get(params.guildId ?? '');
    if (!guild) throw unknownGuild();
    const member = guild.members.get(userId);
    if (!member) throw unknownMember();
    return ok(presentMember(world, member));
  });

  // The bot leaves a guild (10004 for one it is not in); the guild is then unknown to it (50001 on its routes).
  router.add('DELETE', '/users/@me/guilds/:guildId', 'bot', ({ params }) => {
    const guild = world.guilds.get(params.guildId ?? '');
    if (!guild || !guild.members.has(world.botUserId)) throw unknownGuild();
    world.removeBotFromGuild(guild.id);
    return noContent();
  });

  router.add('GET', '/users/:userId', 'bot', ({ params }) => {
    const user = world.users.get(params.userId ?? '');
    if (!user) throw unknownUser();
    return ok(presentUser(user));
  });

  router.add('GET', '/applications/@me', 'bot', () => ok(presentApplication(services)));
}

/** The bot's application, as `GET /applications/@me` shows it to its owner. */
export function presentApplication(
  services: SandboxServices,
): Omit<APIApplication, 'summary'> & { explicit_content_filter: number; type: null; eligible_oauth2_scopes: string[] } {
  const { world } = services;
  // The demo admin owns the application, as a self-hoster owns their own bot: the bot-wide settings (the status message) are theirs.
  const owner = world.users.get(world.demo.adminUserId);
  return {
    id: world.applicationId,
    name: 'AwesomeBot',
    icon: null,
    description: 'The community bot, running against the sandbox Discord.',
    rpc_origins: [],
    bot_public: true,
    bot_require_code_grant: false,
    bot: world.botUser(),
    verify_key: '0'.repeat(64),
    flags: ApplicationFlags.GatewayGuildMembersLimited | ApplicationFlags.GatewayMessageContentLimited,
    flags_new: String(ApplicationFlags.GatewayGuildMembersLimited | ApplicationFlags.GatewayMessageContentLimited),
    owner: owner ? presentUser(owner) : world.botUser(),
    team: null,
    redirect_uris: [...services.redirectUris],
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
    approximate_guild_count: [...world.guilds.values()].filter((g) => g.members.has(world.botUserId)).length,
    approximate_user_install_count: 0,
    approximate_user_authorization_count: 0,
    event_webhooks_url: null,
    event_webhooks_status: 1,
    explicit_content_filter: 0,
    type: null,
    eligible_oauth2_scopes: ['bot', 'applications.commands', 'identify', 'guilds', 'email', 'guilds.members.read'],
  };
}
