import type { Logger } from 'pino';
import type { FaultInjector } from './faults';
import type { InteractionStore } from './interactions';
import type { OAuthStore } from './oauth-store';
import type { VoiceServer } from './voice';
import type { World } from './world';

/** Everything the sandbox's HTTP and gateway faces share. */
export interface SandboxServices {
  world: World;
  faults: FaultInjector;
  oauth: OAuthStore;
  interactions: InteractionStore;
  /** The voice server: the bot's op 4, voice connections, what channels heard. */
  voice: VoiceServer;
  logger: Logger;
  /** The OAuth2 redirect URIs registered for the application (exact match, as on Discord). */
  redirectUris: Set<string>;
  /** Origins the sandbox is mounted under (the dashboard's): its consent form may be posted from them, its pages named by their Host. */
  publicOrigins: Set<string>;
  /** Filled in once the server listens. */
  urls: { http: string; gateway: string };
  /** Drops every gateway connection with close code 4000 (discord.js resumes). */
  dropGateway: () => void;
  /** Sends op 7 Reconnect to every connection (discord.js closes and resumes). */
  requestReconnect: () => void;
  /** The most bytes waiting to be sent on any gateway connection (what its client has not read yet). */
  gatewayBacklog: () => number;
}
