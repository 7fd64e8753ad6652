import { Status, type Client } from 'discord.js';
import type { Health } from '../shared/health';

/** The gateway's state as /api/health reports it. */
export type GatewayHealth = Health['gateway'];

/** What the HTTP face reads from the bot's live gateway connection. */
export interface BotGateway {
  /** Connection status, heartbeat ping and guild count. */
  health(): GatewayHealth;
  /** The discord.js client, or null when no bot runs (no token and no sandbox). */
  readonly client: Client | null;
}

/** Maps discord.js's WebSocket status to ours. */
function statusOf(client: Client): GatewayHealth['status'] {
  if (client.isReady() && client.ws.status === Status.Ready) return 'ready';
  switch (client.ws.status) {
    case Status.Reconnecting:
    case Status.Resuming:
      return 'reconnecting';
    case Status.Disconnected:
      return 'disconnected';
    case Status.Idle:
      return client.readyTimestamp ? 'disconnected' : 'connecting';
    default:
      return 'connecting';
  }
}

/** Wraps a discord.js client (or none) as the HTTP face's view of the gateway. */
export function botGateway(client: Client | null): BotGateway {
  return {
    client,
    health() {
      if (!client) return { status: 'not_configured', ping: -1, guilds: 0 };
      return { status: statusOf(client), ping: client.ws.ping, guilds: client.guilds.cache.size };
    },
  };
}
