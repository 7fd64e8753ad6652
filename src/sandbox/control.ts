import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import type { Context, Middleware } from 'koa';
import { BodyTooLarge, parseBody, readRawBody } from './body';
import { MAX_ATTACHMENT_BYTES } from './attachments';
import { DiscordApiError } from './errors';
import { hasLoopbackHost, isCrossSite } from './origin';
import { registerChatControls } from './control-chat';
import { registerDemoControls } from './control-demo';
import { registerStructureControls } from './control-structure';
import { registerVoiceControls } from './control-voice';
import { newUserId, registerRaidControls } from './control-raids';
import { registerVoiceAudioControls } from './voice/control';
import { faultSchema, joinSchema, memberPatchSchema, moderationSchema, userPatchSchema } from './control-schemas';
import { guildPermissions, hasPermission, outranks } from './permissions';
import { ControlError, controlGuild, parseControlBody, requireMember } from './control-errors';
import { isManagedRole } from './presenters';
import { Router, noContent, ok, pathSegments } from './router';
import type { SandboxServices } from './services';
import type { GuildRecord } from './types';

function checkRoles(guild: GuildRecord, roleIds: string[] | undefined): void {
  const unknown = (roleIds ?? []).filter((id) => !guild.roles.has(id));
  if (unknown.length > 0) throw new ControlError(400, 'invalid_body', `Unknown role(s): ${unknown.join(', ')}`, { roles: 'Unknown role id.' });
}

/** The routes of the control API (see src/sandbox/README.md). */
export function buildControlRouter(services: SandboxServices): Router {
  const { world } = services;
  const router = new Router();

  router.add('GET', '/state', 'none', () => ok(controlState(services)));

  router.add('POST', '/guilds/:guildId/members', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(joinSchema, body);
    checkRoles(guild, input.roles);
    if (input.id && guild.bans.has(input.id)) throw new ControlError(403, 'banned', 'This user is banned from the guild.');
    if (input.id && guild.members.has(input.id)) throw new ControlError(409, 'already_member', 'This user is already a member.');
    if (input.id && input.accountAgeDays !== undefined)
      throw new ControlError(400, 'invalid_body', 'Give an id or an account age, not both.', { accountAgeDays: 'Not with an id.' });
    const member = world.addMember(guild.id, {
      ...(input.id ? { id: input.id } : input.accountAgeDays !== undefined ? { id: newUserId(world, input.accountAgeDays) } : {}),
      username: input.username,
      ...(input.globalName !== undefined ? { globalName: input.globalName } : {}),
      ...(input.discriminator ? { discriminator: input.discriminator } : {}),
      ...(input.roles ? { roleIds: input.roles } : {}),
    });
    return ok(presentControlMember(services, member.userId, guild), 201);
  });

  router.add('PATCH', '/guilds/:guildId/members/:userId', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const userId = params.userId ?? '';
    requireMember(guild, userId);
    const input = parseControlBody(memberPatchSchema, body);
    checkRoles(guild, input.roles);
    world.updateMember(guild.id, userId, {
      ...(input.roles ? { roleIds: input.roles } : {}),
      ...(input.nick !== undefined ? { nick: input.nick } : {}),
    });
    return ok(presentControlMember(services, userId, guild));
  });

  router.add('DELETE', '/guilds/:guildId/members/:userId', 'none', ({ params }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    requireMember(guild, params.userId ?? '');
    world.removeMember(guild.id, params.userId ?? '');
    return noContent();
  });

  router.add('POST', '/guilds/:guildId/moderation', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(moderationSchema, body);
    requireMember(guild, input.actorId);
    const needed = { ban: P.BanMembers, unban: P.BanMembers, kick: P.KickMembers, timeout: P.ModerateMembers, untimeout: P.ModerateMembers }[input.action];
    if (!hasPermission(guildPermissions(guild, input.actorId), needed))
      throw new ControlError(403, 'missing_permissions', `User ${input.actorId} may not ${input.action} here.`);
    const context = { actorId: input.actorId, reason: input.reason ?? null };
    if (input.action === 'unban') {
      if (!world.unban(guild.id, input.targetId, context)) throw new ControlError(404, 'unknown_ban', 'That user is not banned.');
      return noContent();
    }
    if (!world.users.has(input.targetId)) throw new ControlError(404, 'unknown_user', `No user ${input.targetId}.`);
    if (guild.members.has(input.targetId) && !outranks(guild, input.actorId, input.targetId)) {
      throw new ControlError(403, 'hierarchy', `User ${input.actorId} does not outrank ${input.targetId}.`);
    }
    if (input.action === 'ban') {
      world.ban(guild.id, input.targetId, context, input.deleteMessageSeconds ?? 0);
      return noContent();
    }
    requireMember(guild, input.targetId);
    if (input.action === 'kick') world.removeMember(guild.id, input.targetId, context);
    else {
      const until = input.action === 'timeout' ? (input.until ?? null) : null;
      if (input.action === 'timeout' && !until) throw new ControlError(400, 'invalid_body', 'A timeout needs until.', { until: 'Required for a timeout.' });
      if (until && Date.parse(until) - world.clock.ms() > 28 * 86_400_000)
        throw new ControlError(400, 'invalid_body', 'A timeout lasts at most 28 days.', { until: 'At most 28 days ahead.' });
      if (input.action === 'timeout' && (guildPermissions(guild, input.targetId) & P.Administrator) !== 0n)
        throw new ControlError(403, 'administrator', 'Administrators cannot be timed out.');
      world.updateMember(guild.id, input.targetId, { communicationDisabledUntil: until }, context);
    }
    return noContent();
  });

  router.add('PATCH', '/users/:userId', 'none', ({ params, body }) => {
    const userId = params.userId ?? '';
    if (!world.users.has(userId)) throw new ControlError(404, 'unknown_user', `No user ${userId}.`);
    const input = parseControlBody(userPatchSchema, body);
    if (input.dmsOpen) world.dms.closed.delete(userId);
    else world.dms.closed.add(userId);
    return ok({ id: userId, dmsOpen: input.dmsOpen });
  });

  router.add('GET', '/users/:userId/dms', 'none', ({ params }) => {
    const userId = params.userId ?? '';
    if (!world.users.has(userId)) throw new ControlError(404, 'unknown_user', `No user ${userId}.`);
    const channel = world.dms.ofUser(userId);
    return ok(
      (channel?.messages ?? []).map((message) => ({
        id: message.id,
        channelId: message.channelId,
        authorId: message.authorId,
        content: message.content,
        embeds: message.embeds,
        timestamp: message.timestamp,
      })),
    );
  });

  router.add('POST', '/faults', 'none', ({ body }) => {
    const input = parseControlBody(faultSchema, body);
    if ('dropGateway' in input) services.dropGateway();
    else if ('reconnect' in input) services.requestReconnect();
    else if ('clear' in input) services.faults.clear();
    else services.faults.add(input);
    return noContent();
  });

  registerChatControls(router, services);
  registerStructureControls(router, services);
  registerVoiceControls(router, services);
  registerRaidControls(router, services);
  registerVoiceAudioControls(router, services);
  registerDemoControls(router, services);
  return router;
}

function presentControlMember(services: SandboxServices, userId: string, guild: GuildRecord) {
  const member = guild.members.get(userId);
  const user = services.world.users.get(userId);
  return {
    id: userId,
    username: user?.username ?? '',
    globalName: user?.globalName ?? null,
    bot: user?.bot ?? false,
    nick: member?.nick ?? null,
    roleIds: member?.roleIds ?? [],
    joinedAt: member?.joinedAt ?? null,
    timeoutUntil: member?.communicationDisabledUntil ?? null,
    premiumSince: member?.premiumSince ?? null,
    voice: guild.voice.get(userId) ?? null,
  };
}

/** Everything tests need to see at once: guilds, channels, roles, members, bans, demo ids. */
export function controlState(services: SandboxServices) {
  const { world } = services;
  return {
    botUserId: world.botUserId,
    applicationId: world.applicationId,
    demoAdminUserId: world.demo.adminUserId,
    demo: world.demo,
    botPresence: world.botPresence,
    guilds: [...world.guilds.values()].map((guild) => ({
      id: guild.id,
      name: guild.name,
      ownerId: guild.ownerId,
      botIn: guild.members.has(world.botUserId),
      memberCount: guild.members.size,
      channels: [...guild.channels.values()].map((c) => ({ id: c.id, name: c.name, type: c.type, parentId: c.parentId })),
      roles: [...guild.roles.values()]
        .sort((a, b) => b.position - a.position)
        .map((r) => ({ id: r.id, name: r.name, position: r.position, permissions: r.permissions.toString(), managed: isManagedRole(r) })),
      members: [...guild.members.keys()].map((id) => presentControlMember(services, id, guild)),
      bans: [...guild.bans.values()].map((b) => ({ userId: b.userId, reason: b.reason })),
    })),
  };
}

/**
 * Refuses what a web page in the developer's browser could send: a Host other than loopback
 * (DNS rebinding could otherwise read /_sandbox/state), a cross-site write, and a body that is not
 * JSON (a form or text/plain post needs no CORS preflight).
 */
function guardControlRequest(ctx: Context, raw: string): void {
  if (!hasLoopbackHost(ctx)) throw new ControlError(403, 'forbidden_host', 'The control API answers only on 127.0.0.1, localhost or [::1].');
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && isCrossSite(ctx)) {
    throw new ControlError(403, 'cross_site', 'Cross-site requests to the control API are refused.');
  }
  if (raw.length > 0 && !ctx.is('application/json')) throw new ControlError(415, 'unsupported_media_type', 'Send the body as application/json.');
}

/**
 * The largest control body: a post's files may add up to MAX_ATTACHMENT_BYTES, which base64 makes a
 * third larger, with room for the rest of the JSON.
 */
const MAX_CONTROL_BODY_BYTES = Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 1024 * 1024;

/** The raw body, or 413 past MAX_CONTROL_BODY_BYTES. */
async function controlBody(ctx: Context): Promise<string> {
  try {
    return await readRawBody(ctx.req, MAX_CONTROL_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new ControlError(413, 'body_too_large', `The body is larger than ${error.limit} bytes.`);
    throw error;
  }
}

/** Serves `/_sandbox/*` with `{ error, message, fields }` errors. */
export function controlMiddleware(services: SandboxServices): Middleware {
  const router = buildControlRouter(services);
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/_sandbox/')) return next();
    try {
      const raw = await controlBody(ctx);
      guardControlRequest(ctx, raw);
      const matched = router.match(ctx.method, pathSegments(ctx.path.slice('/_sandbox'.length)));
      if (!matched) throw new ControlError(404, 'not_found', `No control route ${ctx.method} ${ctx.path}.`);
      let body: unknown;
      try {
        body = parseBody(ctx.get('content-type') || undefined, raw);
      } catch {
        throw new ControlError(400, 'invalid_json', 'The body is not valid JSON.');
      }
      const result = await matched.route.handler({
        params: matched.params,
        query: new URLSearchParams(ctx.querystring),
        body,
        caller: { kind: 'none' },
        reason: null,
      });
      ctx.status = result.status;
      if (result.body !== undefined) ctx.body = result.body;
    } catch (error) {
      if (error instanceof DiscordApiError) {
        // A Discord rule the member's action broke (an unknown emoji): said as Discord would.
        ctx.status = error.status;
        ctx.body = { error: 'discord_error', code: error.code, message: error.message };
        return;
      }
      if (!(error instanceof ControlError)) throw error;
      ctx.status = error.status;
      ctx.body = { error: error.error, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
    }
  };
}
