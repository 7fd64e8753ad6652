import { z } from 'zod';
import type { RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { bulkProblems, checkCommandCounts, commandProblems, commandType } from '../command-rules';
import { invalidFormBody, missingAccess, unknownCommand } from '../errors';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botGuild } from './guards';
import { parseDiscordBody } from './validate';

/** A command body Discord takes (command-rules.ts), else 50035 naming each field. */
function parseCommand(body: unknown): RESTPostAPIApplicationCommandsJSONBody {
  const problems = commandProblems(body);
  if (Object.keys(problems).length > 0) throw invalidFormBody(problems);
  // The spec and the rules checked what Discord checks; the rest is stored as sent.
  return body as RESTPostAPIApplicationCommandsJSONBody;
}

/** A bulk overwrite Discord takes: every command valid, no name twice for a type, within the counts. One bad command refuses all. */
function parseBulk(body: unknown): RESTPostAPIApplicationCommandsJSONBody[] {
  const bodies = parseDiscordBody(z.array(z.unknown()).max(200), body ?? []);
  const problems = bulkProblems(bodies);
  if (Object.keys(problems).length > 0) throw invalidFormBody(problems);
  checkCommandCounts(bodies as { type?: unknown }[]);
  return bodies as RESTPostAPIApplicationCommandsJSONBody[];
}

/** Application commands, global and per guild: list, bulk overwrite, create, get, edit, delete. */
export function registerCommandRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;
  const newId = () => world.snowflakes.next();
  const scope = (params: Record<string, string>): string | null => {
    if (params.applicationId !== world.applicationId) throw missingAccess();
    if (params.guildId === undefined) return null;
    return botGuild(world, params.guildId).id;
  };

  for (const base of ['/applications/:applicationId/commands', '/applications/:applicationId/guilds/:guildId/commands']) {
    router.add('GET', base, 'bot', ({ params }) => ok(world.commands.list(scope(params))));
    router.add('PUT', base, 'bot', ({ params, body }) => {
      const guildId = scope(params);
      return ok(world.commands.overwrite(world.applicationId, guildId, parseBulk(body), newId));
    });
    router.add('POST', base, 'bot', ({ params, body }) => {
      const guildId = scope(params);
      const command = parseCommand(body);
      // An upsert of a name the scope holds replaces that command; a new one must fit the type's count.
      const others = world.commands.list(guildId).filter((c) => c.name !== command.name || c.type !== commandType(command));
      checkCommandCounts([...others, command]);
      const replaces = others.length < world.commands.list(guildId).length;
      // Discord answers 201 for a new command and 200 for one it replaced.
      return ok(world.commands.upsert(world.applicationId, guildId, command, newId), replaces ? 200 : 201);
    });
    router.add('GET', `${base}/:commandId`, 'bot', ({ params }) => {
      const command = world.commands.get(scope(params), params.commandId ?? '');
      if (!command) throw unknownCommand();
      return ok(command);
    });
    router.add('PATCH', `${base}/:commandId`, 'bot', ({ params, body }) => {
      const guildId = scope(params);
      const existing = world.commands.get(guildId, params.commandId ?? '');
      if (!existing) throw unknownCommand();
      const merged = parseCommand({ ...existing, ...(typeof body === 'object' && body !== null ? body : {}) });
      const taken = world.commands.list(guildId).some((c) => c.id !== existing.id && c.name === merged.name && c.type === commandType(merged));
      if (taken) throw invalidFormBody({ name: { code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' } });
      world.commands.delete(guildId, existing.id);
      return ok(world.commands.upsert(world.applicationId, guildId, merged, () => existing.id));
    });
    router.add('DELETE', `${base}/:commandId`, 'bot', ({ params }) => {
      if (!world.commands.delete(scope(params), params.commandId ?? '')) throw unknownCommand();
      return noContent();
    });
  }
}
