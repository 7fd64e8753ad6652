import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import { pino, type Logger } from 'pino';
import { systemClock, type Clock } from '../core/clock';
import { attachmentsMiddleware } from './attachments';
import { controlMiddleware } from './control';
import { cdnMiddleware } from './cdn';
import { SANDBOX_CLIENT_SECRET } from './constants';
import { FaultInjector } from './faults';
import { GatewayServer } from './gateway';
import { InteractionStore } from './interactions';
import { createMount, mountGate, SANDBOX_MOUNT_PATH, type SandboxMount } from './mount';
import { oauthMiddleware } from './oauth';
import { OAuthStore } from './oauth-store';
import { RateLimiter, rateLimitTable, type RateLimitOption } from './ratelimit';
import { buildRestRouter, restMiddleware } from './rest';
import { seedWorld } from './seed';
import { VIEWER_SCRIPT_HASH, viewerMiddleware } from './viewer';
import { defaultCertDir, trustInProcess, VoiceServer } from './voice';
import type { SandboxServices } from './services';
import type { World } from './world';

export type { World } from './world';
export type { DemoIds, NewMemberInput } from './types';
export type { SandboxMount } from './mount';
export { compressedRateLimits, DISCORD_RATE_LIMITS, type RateLimitOption, type RateLimitTable } from './ratelimit';
export { MESSAGES_KEPT_PER_CHANNEL } from './channel-messages';
export { applyDemoHistory, demoHistoryControl, DEMO_HISTORY_DAYS } from './demo-history';
export type { DemoHistory, DemoResetOutcome } from './demo-history-types';

/** Options of `startSandbox`; everything has a default. */
export interface SandboxOptions {
  /** TCP port; 0 picks a free one. Default 3001. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Seed of the demo world (same seed, same ids and names). Default 1. */
  seed?: number;
  /** Members of 'Sandbox Community'. Default 300. */
  memberCount?: number;
  /** Logger (pino); silent by default. */
  logger?: Logger;
  /** The bot token the sandbox accepts; generated when absent. */
  botToken?: string;
  /** Gateway heartbeat interval announced in HELLO; a client silent for longer (plus grace) is closed with 4009. Default 41,250 ms. */
  heartbeatIntervalMs?: number;
  /** Dispatches a gateway session keeps for RESUME (10,000 by default; a resume from before them fails with op 9). */
  replayBuffer?: number;
  /** The world's time: timeouts, message times, token lifetimes (tests pass a ManualClock shared with the product). */
  clock?: Clock;
  /** Redirect URIs registered for the OAuth2 application; more can be added with `oauth.registerRedirectUri`. */
  redirectUris?: string[];
  /**
   * REST rate limits: `'discord'` (default) answers 429 as Discord does (5 messages per 5 s per channel,
   * 50 requests per second per token, ...); `'relaxed'` only advertises headers (load tests); or a table.
   */
  rateLimits?: RateLimitOption;
  /**
   * Messages kept per channel; older ones are gone as if deleted without an event (REST answers
   * 10008). Default MESSAGES_KEPT_PER_CHANNEL (1,000); tests make it small.
   */
  messagesKeptPerChannel?: number;
  /** The voice WebSocket's port (wss, its own port); 0 (default) picks a free one. */
  voicePort?: number;
  /**
   * Where the voice certificate is kept (made there when missing): default SANDBOX_VOICE_CERT_DIR, else
   * data/sandbox-voice. The bot's process must trust it (NODE_EXTRA_CA_CERTS; see README, "Voice").
   */
  voiceCertDir?: string;
}

/**
 * The gateway's paths: the URL handed out, and that URL with the `/` libraries append before their
 * query (`/gateway/?v=10&encoding=json`, as they do to Discord's `wss://gateway.discord.gg`).
 */
const GATEWAY_PATHS = new Set(['/gateway', '/gateway/']);

/**
 * JSON goes out as `Content-Type: application/json`, as Discord sends it: Koa adds `; charset=utf-8`,
 * and libraries that compare the type exactly (Oceanic.js, Eris) then read every body as bytes.
 */
async function exactJsonType(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (ctx.response.type === 'application/json') ctx.set('Content-Type', 'application/json');
}

/** What simple-oauth2's AuthorizationCode needs, plus the client credentials. */
export interface SandboxOAuth {
  clientId: string;
  clientSecret: string;
  /** Full URL of the consent page. */
  authorizeUrl: string;
  /** Base for the token endpoints (simple-oauth2 `auth.tokenHost`; also `authorizeHost`). */
  tokenHost: string;
  tokenPath: string;
  revokePath: string;
  authorizePath: string;
  /** Registers a redirect URI (as in the developer portal): codes are only ever sent to registered ones. */
  registerRedirectUri(uri: string): void;
}

/** A running sandbox Discord. */
export interface Sandbox {
  /** e.g. `http://127.0.0.1:3001`. */
  url: string;
  /** What discord.js `rest.api` takes: `url + '/api'`. */
  apiBase: string;
  /** What discord.js `rest.cdn` takes. */
  cdnBase: string;
  /** The gateway URL (`ws://.../gateway`). */
  gatewayUrl: string;
  /** The voice server's endpoint as VOICE_SERVER_UPDATE names it (`127.0.0.1:<port>`, dialled as wss). */
  voiceEndpoint: string;
  /** The certificate the voice server serves: what NODE_EXTRA_CA_CERTS must name for a client to connect. */
  voiceCaFile: string;
  /** The voice server (its control routes are under /_sandbox/guilds/:guildId/voice/...). */
  voice: VoiceServer;
  oauth: SandboxOAuth;
  botToken: string;
  /** The in-memory Discord state with its typed mutations (`addMember`, `setMemberRoles`, `demo` ids...). */
  world: World;
  /** Every REST route served, as `METHOD /pattern` (the conformance test checks each one). */
  restRoutes: string[];
  /** Requests refused with 429 by the rate limits so far (not injected faults). */
  rateLimited: { bucket: number; global: number };
  /** Closes every gateway connection with 4000 (the bot resumes). */
  dropGateway(): void;
  /**
   * Serves this sandbox also under `path` (default `/_discord`) of another server, whose browsers
   * reach it at `publicUrl`: the consent page, the CDN and the channel view for anyone, everything
   * else (REST, OAuth2 token, control API) only from this machine (see mount.ts). The bot keeps
   * using `url`. WebSocket upgrades are not taken: an open socket would hold the other server open.
   */
  mount(options: { publicUrl: string; path?: string }): SandboxMount;
  /** Stops the server and the gateway. */
  close(): Promise<void>;
}

export { SANDBOX_CLIENT_SECRET } from './constants';

/**
 * Makes this process trust the sandbox's voice certificate, for a bot in the same process (npm start
 * without a token): named in NODE_EXTRA_CA_CERTS, added to the default CAs (Node 22.19, 24.5 on), or
 * trusted for connections to this machine only on an older Node (voice/certificate.ts).
 */
export function trustSandboxVoice(sandbox: Pick<Sandbox, 'voiceCaFile'>): boolean {
  return trustInProcess({ certFile: sandbox.voiceCaFile, cert: readFileSync(sandbox.voiceCaFile, 'utf8') });
}

/** Starts the sandbox Discord (REST, gateway, OAuth2, control API) with the seeded demo world. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? pino({ level: 'silent' });
  const seed = options.seed ?? 1;
  const provisional = options.botToken ?? '';
  const clock = options.clock ?? systemClock;
  const world = seedWorld({
    seed,
    memberCount: options.memberCount ?? 300,
    botToken: provisional,
    clock,
    messagesKeptPerChannel: options.messagesKeptPerChannel,
  });
  const botToken = options.botToken ?? `${Buffer.from(world.botUserId).toString('base64url')}.sandbox.${randomBytes(18).toString('base64url')}`;
  world.botToken = botToken;

  const voice = await VoiceServer.start(world, logger, { host, port: options.voicePort ?? 0, certDir: options.voiceCertDir ?? defaultCertDir() });

  const urls = { http: '', gateway: '' };
  let gateway: GatewayServer | null = null;
  const services: SandboxServices = {
    world,
    faults: new FaultInjector(),
    oauth: new OAuthStore(() => clock.ms()),
    interactions: new InteractionStore(world),
    voice,
    logger,
    urls,
    redirectUris: new Set(options.redirectUris ?? []),
    publicOrigins: new Set(),
    dropGateway: () => gateway?.dropAll(),
    requestReconnect: () => gateway?.requestReconnect(),
    gatewayBacklog: () => gateway?.backlogBytes() ?? 0,
  };
  gateway = new GatewayServer(services, { heartbeatIntervalMs: options.heartbeatIntervalMs, replayBuffer: options.replayBuffer });
  const liveGateway = gateway;

  const app = new Koa();
  const limiter = new RateLimiter(rateLimitTable(options.rateLimits));
  app.use(mountGate([VIEWER_SCRIPT_HASH]));
  app.use(exactJsonType);
  app.use(oauthMiddleware(services, limiter));
  app.use(controlMiddleware(services));
  const restRouter = buildRestRouter(services);
  app.use(restMiddleware(services, restRouter, limiter));
  app.use(attachmentsMiddleware(world.attachments));
  app.use(cdnMiddleware());
  app.use(viewerMiddleware(services));
  const serve = app.callback();
  const server: Server = createServer(serve);
  server.on('upgrade', (req, socket, head) => {
    if (GATEWAY_PATHS.has((req.url ?? '').split('?')[0] ?? '')) liveGateway.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3001, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 3001);
  urls.http = `http://${host}:${port}`;
  urls.gateway = `ws://${host}:${port}/gateway`;
  world.attachments.origin = urls.http;
  logger.info({ url: urls.http, guildId: world.demo.guildId }, 'sandbox Discord listening');

  return {
    url: urls.http,
    apiBase: `${urls.http}/api`,
    cdnBase: `${urls.http}/cdn`,
    gatewayUrl: urls.gateway,
    voiceEndpoint: voice.endpoint,
    voiceCaFile: voice.certFile,
    voice,
    oauth: {
      clientId: world.applicationId,
      clientSecret: SANDBOX_CLIENT_SECRET,
      authorizeUrl: `${urls.http}/oauth2/authorize`,
      tokenHost: urls.http,
      tokenPath: '/api/oauth2/token',
      revokePath: '/api/oauth2/token/revoke',
      authorizePath: '/oauth2/authorize',
      registerRedirectUri: (uri) => void services.redirectUris.add(uri),
    },
    botToken,
    world,
    restRoutes: restRouter.routes.map((r) => `${r.method} ${r.pattern}`),
    rateLimited: limiter.refused,
    dropGateway: () => liveGateway.dropAll(),
    mount: ({ publicUrl, path = SANDBOX_MOUNT_PATH }) => {
      services.publicOrigins.add(new URL(publicUrl).origin);
      return createMount(serve, path, publicUrl);
    },
    close: async () => {
      services.interactions.close();
      liveGateway.close();
      await voice.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
