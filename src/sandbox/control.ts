import type { Middleware } from 'koa';
import { z } from 'zod';
import { parseBody, readRawBody } from './body';
import { registerChatControls } from './control-chat';
import { faultSchema, joinSchema, memberPatchSchema, voiceSchema } from './control-schemas';
import { Router, noContent, ok, pathSegments } from './router';
import type { SandboxServices } from './services';
import type { GuildRecord } from './types';

/** A control-API failure, answered as `{ error, message, fields? }`. */
export class ControlError extends Error {
  /** `error` is a short machine code, `fields` names bad body fields. */
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Parses a control body with zod; failures are 400 naming each bad field. */
export function parseControlBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.map(String).join('.') || '_root'] ??= issue.message;
  const summary = Object.entries(fields).map(([field, message]) => `${field}: ${message}`).join('; ');
  throw new ControlError(400, 'invalid_body', summary, fields);
}

/** The guild, or 404. */
export function controlGuild(services: SandboxServices, guildId: string): GuildRecord {
  const guild = services.world.guilds.get(guildId);
  if (!guild) throw new ControlError(404, 'unknown_guild', `No guild ${guildId}.`);
  return guild;
}

function requireMember(guild: GuildRecord, userId: string): void {
  if (!guild.members.has(userId)) throw new ControlError(404, 'unknown_member', `User ${userId} is not a member of ${guild.name}.`);
}

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
    const member = world.addMember(guild.id, {
      ...(input.id ? { id: input.id } : {}),
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

  router.add('POST', '/guilds/:guildId/voice', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(voiceSchema, body);
    requireMember(guild, input.userId);
    if (input.channelId && !guild.channels.has(input.channelId)) throw new ControlError(404, 'unknown_channel', 'No such channel in this guild.');
    world.setVoiceChannel(guild.id, input.userId, input.channelId);
    return noContent();
  });

  router.add('POST', '/faults', 'none', ({ body }) => {
    const input = parseControlBody(faultSchema, body);
    if ('dropGateway' in input) services.dropGateway();
    else if ('clear' in input) services.faults.clear();
    else services.faults.add(input);
    return noContent();
  });

  registerChatControls(router, services);
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
    guilds: [...world.guilds.values()].map((guild) => ({
      id: guild.id,
      name: guild.name,
      ownerId: guild.ownerId,
      botIn: guild.members.has(world.botUserId),
      memberCount: guild.members.size,
      channels: [...guild.channels.values()].map((c) => ({ id: c.id, name: c.name, type: c.type, parentId: c.parentId })),
      roles: [...guild.roles.values()]
        .sort((a, b) => b.position - a.position)
        .map((r) => ({ id: r.id, name: r.name, position: r.position, permissions: r.permissions.toString(), managed: r.botId !== null })),
      members: [...guild.members.keys()].map((id) => presentControlMember(services, id, guild)),
      bans: [...guild.bans.values()].map((b) => ({ userId: b.userId, reason: b.reason })),
    })),
  };
}

/** Serves `/_sandbox/*` with `{ error, message, fields }` errors. */
export function controlMiddleware(services: SandboxServices): Middleware {
  const router = buildControlRouter(services);
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/_sandbox/')) return next();
    try {
      const matched = router.match(ctx.method, pathSegments(ctx.path.slice('/_sandbox'.length)));
      if (!matched) throw new ControlError(404, 'not_found', `No control route ${ctx.method} ${ctx.path}.`);
      let body: unknown;
      try {
        body = parseBody(ctx.get('content-type') || undefined, await readRawBody(ctx.req));
      } catch {
        throw new ControlError(400, 'invalid_json', 'The body is not valid JSON.');
      }
      const result = await matched.route.handler({
        params: matched.params, query: new URLSearchParams(ctx.querystring), body, caller: { kind: 'none' }, reason: null,
      });
      ctx.status = result.status;
      if (result.body !== undefined) ctx.body = result.body;
    } catch (error) {
      if (!(error instanceof ControlError)) throw error;
      ctx.status = error.status;
      ctx.body = { error: error.error, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
    }
  };
}
