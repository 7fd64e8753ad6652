import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import {
  type ApplicationFlags,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type GatewayDispatchPayload,
  type GatewayReceivePayload,
  type GatewayRequestGuildMembersData,
  type GatewaySendPayload,
} from 'discord-api-types/v10';
import { WebSocketServer, type WebSocket } from 'ws';
import { presentGuildCreate } from './presenters-guild';
import { presentMember } from './presenters';
import type { SandboxServices } from './services';
import type { WorldDispatch, WorldEvent } from './world';

/** Heartbeat interval announced in HELLO (Discord's usual value). */
export const HEARTBEAT_INTERVAL_MS = 41_250;
/** Dispatches kept per session for RESUME. */
const REPLAY_BUFFER = 10_000;
/** How long a disconnected session can still be resumed. */
const RESUME_WINDOW_MS = 5 * 60_000;

const I = GatewayIntentBits;
/** The intent each guild dispatch needs; events not listed always go out. */
const EVENT_INTENTS: Partial<Record<GatewayDispatchEvents, number>> = {
  [GatewayDispatchEvents.GuildCreate]: I.Guilds,
  [GatewayDispatchEvents.GuildDelete]: I.Guilds,
  [GatewayDispatchEvents.GuildMemberAdd]: I.GuildMembers,
  [GatewayDispatchEvents.GuildMemberRemove]: I.GuildMembers,
  [GatewayDispatchEvents.GuildMemberUpdate]: I.GuildMembers,
  [GatewayDispatchEvents.GuildBanAdd]: I.GuildModeration,
  [GatewayDispatchEvents.GuildBanRemove]: I.GuildModeration,
  [GatewayDispatchEvents.GuildAuditLogEntryCreate]: I.GuildModeration,
  [GatewayDispatchEvents.MessageCreate]: I.GuildMessages,
  [GatewayDispatchEvents.MessageUpdate]: I.GuildMessages,
  [GatewayDispatchEvents.MessageDelete]: I.GuildMessages,
  [GatewayDispatchEvents.MessageReactionAdd]: I.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemove]: I.GuildMessageReactions,
  [GatewayDispatchEvents.VoiceStateUpdate]: I.GuildVoiceStates,
};

interface Session {
  id: string;
  intents: number;
  seq: number;
  buffer: GatewayDispatchPayload[];
  socket: WebSocket | null;
  expiry: NodeJS.Timeout | null;
}

/**
 * Gateway v10 (JSON, no compression): HELLO, heartbeats, IDENTIFY (intents honoured), READY +
 * GUILD_CREATE, RESUME with replay, REQUEST_GUILD_MEMBERS, and every world dispatch to sessions allowed to see it.
 */
export class GatewayServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private readonly onDispatch = (event: WorldEvent) => this.broadcast(event);

  /** Listens to the world's dispatches. */
  constructor(private readonly services: SandboxServices) {
    services.world.events.on('dispatch', this.onDispatch);
  }

  /** Takes over an HTTP upgrade request for the gateway path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  /** Closes every connection with `code` (4000 = unknown error: discord.js resumes). Sessions stay resumable. */
  dropAll(code: number = GatewayCloseCodes.UnknownError): void {
    for (const session of this.sessions.values()) {
      session.socket?.close(code, 'sandbox fault: connection dropped');
      session.socket = null;
      this.scheduleExpiry(session);
    }
  }

  /** Number of live connections (for tests). */
  get connectionCount(): number {
    return this.wss.clients.size;
  }

  /** Closes everything; sessions are forgotten. */
  close(): void {
    this.services.world.events.off('dispatch', this.onDispatch);
    for (const session of this.sessions.values()) if (session.expiry) clearTimeout(session.expiry);
    this.sessions.clear();
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    let session: Session | null = null;
    this.send(ws, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL_MS }, s: null, t: null });
    ws.on('message', (raw) => {
      let payload: GatewaySendPayload;
      try {
        payload = JSON.parse(raw.toString()) as GatewaySendPayload;
      } catch {
        ws.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
        return;
      }
      switch (payload.op) {
        case GatewayOpcodes.Heartbeat:
          this.send(ws, { op: GatewayOpcodes.HeartbeatAck, d: undefined, s: null, t: null });
          return;
        case GatewayOpcodes.Identify:
          if (!this.tokenOk(payload.d.token)) return void ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
          if (session) return void ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
          session = this.identify(ws, Number(payload.d.intents));
          return;
        case GatewayOpcodes.Resume:
          if (!this.tokenOk(payload.d.token)) return void ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
          session = this.resume(ws, payload.d.session_id, payload.d.seq);
          return;
        case GatewayOpcodes.RequestGuildMembers:
          if (session) this.sendMembers(session, payload.d);
          return;
        default:
          return;
      }
    });
    ws.on('close', (code) => {
      if (!session || session.socket !== ws) return;
      session.socket = null;
      // A client closing normally (1000/1001) ends its session, as on Discord.
      if (code === 1000 || code === 1001) this.forget(session);
      else this.scheduleExpiry(session);
    });
  }

  private tokenOk(token: string): boolean {
    return token.replace(/^Bot /, '') === this.services.world.botToken;
  }

  private identify(ws: WebSocket, intents: number): Session {
    const { world } = this.services;
    const session: Session = { id: randomBytes(16).toString('hex'), intents, seq: 0, buffer: [], socket: ws, expiry: null };
    this.sessions.set(session.id, session);
    const botGuilds = [...world.guilds.values()].filter((g) => g.members.has(world.botUserId));
    this.deliver(session, {
      t: GatewayDispatchEvents.Ready,
      d: {
        v: 10,
        user: world.botUser(),
        guilds: botGuilds.map((g) => ({ id: g.id, unavailable: true })),
        session_id: session.id,
        resume_gateway_url: this.services.urls.gateway,
        shard: [0, 1],
        application: { id: world.applicationId, flags: 0 as ApplicationFlags, flags_new: '0' },
      },
    });
    for (const guild of botGuilds) {
      if ((intents & I.Guilds) === 0) break;
      const payload = presentGuildCreate(world, guild, world.botUserId);
      // Without GUILD_MEMBERS Discord only sends the bot itself in GUILD_CREATE.
      if ((intents & I.GuildMembers) === 0) payload.members = payload.members.filter((m) => m.user.id === world.botUserId);
      this.deliver(session, { t: GatewayDispatchEvents.GuildCreate, d: payload });
    }
    return session;
  }

  private resume(ws: WebSocket, sessionId: string, seq: number): Session | null {
    const session = this.sessions.get(sessionId);
    if (!session) {
      this.send(ws, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return null;
    }
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = null;
    session.socket?.close(GatewayCloseCodes.SessionTimedOut, 'Resumed elsewhere.');
    session.socket = ws;
    for (const payload of session.buffer) if (payload.s > seq) this.send(ws, payload);
    this.deliver(session, { t: GatewayDispatchEvents.Resumed, d: {} as never });
    return session;
  }

  private sendMembers(session: Session, request: GatewayRequestGuildMembersData): void {
    const { world } = this.services;
    const guild = world.guilds.get(request.guild_id);
    if (!guild || !guild.members.has(world.botUserId)) return;
    const wanted = 'user_ids' in request && request.user_ids ? [request.user_ids].flat() : null;
    const query = 'query' in request ? (request.query ?? '').toLowerCase() : '';
    const limit = 'limit' in request && request.limit > 0 ? request.limit : Number.POSITIVE_INFINITY;
    const members = [];
    for (const member of guild.members.values()) {
      if (members.length >= limit) break;
      if (wanted && !wanted.includes(member.userId)) continue;
      const name = world.users.get(member.userId)?.username ?? '';
      if (!wanted && query && !name.toLowerCase().startsWith(query)) continue;
      members.push(presentMember(world, member));
    }
    this.deliver(session, {
      t: GatewayDispatchEvents.GuildMembersChunk,
      d: {
        guild_id: guild.id,
        members,
        chunk_index: 0,
        chunk_count: 1,
        ...(wanted ? { not_found: wanted.filter((id) => !guild.members.has(id)) } : {}),
        ...(request.nonce ? { nonce: request.nonce } : {}),
      },
    });
  }

  private broadcast(event: WorldEvent): void {
    const { world } = this.services;
    if (event.guildId && !world.isBotIn(event.guildId)) return;
    const needed = EVENT_INTENTS[event.dispatch.t];
    for (const session of this.sessions.values()) {
      if (needed !== undefined && (session.intents & needed) === 0) continue;
      this.deliver(session, this.forSession(session, event.dispatch));
    }
  }

  /** Without MESSAGE_CONTENT, others' messages arrive with empty content (unless they mention the bot). */
  private forSession(session: Session, dispatch: WorldDispatch): WorldDispatch {
    if ((session.intents & I.MessageContent) !== 0) return dispatch;
    if (dispatch.t !== GatewayDispatchEvents.MessageCreate && dispatch.t !== GatewayDispatchEvents.MessageUpdate) return dispatch;
    const botId = this.services.world.botUserId;
    if (dispatch.d.author.id === botId || dispatch.d.mentions.some((m) => m.id === botId)) return dispatch;
    return { ...dispatch, d: { ...dispatch.d, content: '', embeds: [], attachments: [], components: [] } } as WorldDispatch;
  }

  private deliver(session: Session, dispatch: WorldDispatch): void {
    session.seq += 1;
    const payload = { ...dispatch, op: GatewayOpcodes.Dispatch, s: session.seq } as GatewayDispatchPayload;
    session.buffer.push(payload);
    if (session.buffer.length > REPLAY_BUFFER) session.buffer.splice(0, session.buffer.length - REPLAY_BUFFER);
    if (session.socket) this.send(session.socket, payload);
  }

  private send(ws: WebSocket, payload: GatewayReceivePayload): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
  }

  private scheduleExpiry(session: Session): void {
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = setTimeout(() => this.forget(session), RESUME_WINDOW_MS);
    session.expiry.unref();
  }

  private forget(session: Session): void {
    if (session.expiry) clearTimeout(session.expiry);
    this.sessions.delete(session.id);
  }
}
