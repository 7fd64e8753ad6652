// How the management and add-bot screens split the managed servers.
import type { Server } from '../src/shared/auth';
import { hasAdministrator } from '../src/shared/discord-urls';

/** The managed servers split by bot presence, with totals. */
export interface ServerGroups {
  all: readonly Server[];
  withBot: readonly Server[];
  withoutBot: readonly Server[];
  /** Servers without the bot where the user may invite it with Administrator (owner or admin). */
  invitable: readonly Server[];
  /** Sum of the known member counts of the servers with the bot. */
  membersWithBot: number;
}

/** True when the user owns the server or holds Administrator there. */
export function isAdmin(server: Server): boolean {
  try {
    return server.owner || hasAdministrator(server.permissions);
  } catch {
    return server.owner;
  }
}

/** Splits `servers` into the groups the screens show. */
export function groupServers(servers: readonly Server[]): ServerGroups {
  const withBot = servers.filter((server) => server.hasBot);
  const withoutBot = servers.filter((server) => !server.hasBot);
  return {
    all: servers,
    withBot,
    withoutBot,
    invitable: withoutBot.filter(isAdmin),
    membersWithBot: withBot.reduce((sum, server) => sum + (server.memberCount ?? 0), 0),
  };
}
