import type { z } from 'zod';
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
  const summary = Object.entries(fields)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  throw new ControlError(400, 'invalid_body', summary, fields);
}

/** The guild, or 404. */
export function controlGuild(services: SandboxServices, guildId: string): GuildRecord {
  const guild = services.world.guilds.get(guildId);
  if (!guild) throw new ControlError(404, 'unknown_guild', `No guild ${guildId}.`);
  return guild;
}

/** 404 unless `userId` is a member of the guild. */
export function requireMember(guild: GuildRecord, userId: string): void {
  if (!guild.members.has(userId)) throw new ControlError(404, 'unknown_member', `User ${userId} is not a member of ${guild.name}.`);
}
