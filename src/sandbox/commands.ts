import type { APIApplicationCommand, RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { ApplicationCommandType } from 'discord-api-types/v10';

/** Registered application commands: global ones and per-guild ones, keyed by id. */
export class CommandStore {
  private readonly global = new Map<string, APIApplicationCommand>();
  private readonly byGuild = new Map<string, Map<string, APIApplicationCommand>>();

  /** The commands of a scope (`guildId` null = global). */
  list(guildId: string | null): APIApplicationCommand[] {
    return [...this.scope(guildId).values()];
  }

  /** A command by id within a scope. */
  get(guildId: string | null, commandId: string): APIApplicationCommand | undefined {
    return this.scope(guildId).get(commandId);
  }

  /** The command of a type (a slash command by default) a member can run by name in a guild: guild commands win over global ones. */
  findByName(guildId: string, name: string, type = ApplicationCommandType.ChatInput): APIApplicationCommand | undefined {
    const inScope = (scope: Map<string, APIApplicationCommand>) => [...scope.values()].find((c) => c.name === name && c.type === type);
    return inScope(this.scope(guildId)) ?? inScope(this.global);
  }

  /** Creates or replaces (same name and type keeps the id, as on Discord). */
  upsert(applicationId: string, guildId: string | null, body: RESTPostAPIApplicationCommandsJSONBody, newId: () => string): APIApplicationCommand {
    const scope = this.scope(guildId);
    const type = body.type ?? ApplicationCommandType.ChatInput;
    const existing = [...scope.values()].find((c) => c.name === body.name && c.type === type);
    const command = {
      ...body,
      id: existing?.id ?? newId(),
      application_id: applicationId,
      version: newId(),
      type,
      description: 'description' in body && typeof body.description === 'string' ? body.description : '',
      default_member_permissions: body.default_member_permissions ?? null,
      ...(guildId ? { guild_id: guildId } : {}),
    } as APIApplicationCommand;
    scope.set(command.id, command);
    return command;
  }

  /** Bulk overwrite: the scope holds exactly these commands afterwards. */
  overwrite(applicationId: string, guildId: string | null, bodies: RESTPostAPIApplicationCommandsJSONBody[], newId: () => string): APIApplicationCommand[] {
    const scope = this.scope(guildId);
    const kept = bodies.map((body) => this.upsert(applicationId, guildId, body, newId));
    const keep = new Set(kept.map((c) => c.id));
    for (const id of [...scope.keys()]) if (!keep.has(id)) scope.delete(id);
    return kept;
  }

  /** Deletes a command; false if unknown. */
  delete(guildId: string | null, commandId: string): boolean {
    return this.scope(guildId).delete(commandId);
  }

  private scope(guildId: string | null): Map<string, APIApplicationCommand> {
    if (guildId === null) return this.global;
    let scope = this.byGuild.get(guildId);
    if (!scope) {
      scope = new Map();
      this.byGuild.set(guildId, scope);
    }
    return scope;
  }
}
