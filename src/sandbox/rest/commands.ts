import { ApplicationCommandType } from 'discord-api-types/v10';
import { z } from 'zod';
import type { RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { missingAccess, unknownCommand } from '../errors';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botGuild } from './guards';
import { parseDiscordBody } from './validate';

const NAME = /^[-_\p{L}\p{N}]{1,32}$/u;

/** Slash commands (type 1, the default); user and message commands (2, 3) are context menu entries. */
const isChatInput = (command: { type?: number | undefined }) => (command.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;

const commandSchema = z
  .looseObject({
    name: z.string().min(1).max(32),
    type: z.number().int().min(1).max(4).optional(),
    description: z.string().max(100).optional(),
    options: z
      .array(z.looseObject({ name: z.string().regex(NAME), type: z.number().int() }))
      .max(25)
      .optional(),
  })
  // Context menu names are what the menu shows: capitals and spaces allowed ('Report message').
  .refine((c) => (isChatInput(c) ? NAME.test(c.name) : c.name.trim().length > 0), { message: 'Command name is invalid', path: ['name'] })
  .refine((c) => !isChatInput(c) || (c.description ?? '').length > 0, {
    message: 'Chat input commands need a description of 1-100 characters.',
    path: ['description'],
  })
  .refine((c) => isChatInput(c) || (c.options ?? []).length === 0, { message: 'Context menu commands take no options.', path: ['options'] });

function parseCommand(body: unknown): RESTPostAPIApplicationCommandsJSONBody {
  // zod checked the fields the sandbox relies on; the rest is stored as sent.
  return parseDiscordBody(commandSchema, body) as unknown as RESTPostAPIApplicationCommandsJSONBody;
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
      const bodies = parseDiscordBody(z.array(z.unknown()).max(200), body ?? []).map(parseCommand);
      return ok(world.commands.overwrite(world.applicationId, guildId, bodies, newId));
    });
    router.add('POST', base, 'bot', ({ params, body }) => {
      const guildId = scope(params);
      return ok(world.commands.upsert(world.applicationId, guildId, parseCommand(body), newId), 201);
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
      world.commands.delete(guildId, existing.id);
      return ok(world.commands.upsert(world.applicationId, guildId, merged, () => existing.id));
    });
    router.add('DELETE', `${base}/:commandId`, 'bot', ({ params }) => {
      if (!world.commands.delete(scope(params), params.commandId ?? '')) throw unknownCommand();
      return noContent();
    });
  }
}
