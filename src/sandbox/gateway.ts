import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import {
  type ApplicationFlags,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  PermissionFlagsBits,
  type GatewayDispatchPayload,
  type GatewayReceivePayload,
} from 'discord-api-types/v10';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { readClientFrame } from './gateway-frames';
import { readWire, type WireEncoder } from './gateway-wire';
import { intentNeeded, intentsRefusal, withIntents } from './gateway-intents';
import { MemberRequests } from './gateway-members';
import { guildPermissions, hasPermission } from './permissions';
import { presentGuildCreate } from './presenters-guild';
import type { SandboxServices } from './services';
import type { WorldDispatch, WorldEvent } from './world-state';

const I = GatewayIntentBits;

/** Heartbeat interval announced in HELLO (Discord's usual value). */
export const HEARTBEAT_INTERVAL_MS = 41_250;
/** Dispatches kept per session for RESUME (at least; between one and two times this many). */
export const REPLAY_BUFFER = 10_000;
/** How long a disconnected session can still be resumed. */
const RESUME_WINDOW_MS = 5 * 60_000;
/** Gateway sends allowed per connection per minute (Discord's limit; more closes with 4008). */
const SEND_LIMIT_PER_MINUTE = 120;
/** The largest message ws buffers from a client; larger ones close with 1009 unread. */
const MAX_BUFFERED_PAYLOAD_BYTES = 64 * 1024;
/** Gateway options of a sandbox: the heartbeat interval (tests shorten it) and the privileged intents the application has. */
export interface GatewayOptions {
  heartbeatIntervalMs?: number;
  /** Privileged intents the application may use; others close with 4014. Default: members and message content. */
  privilegedIntents?: number;
  /** Dispatches a session keeps for RESUME (REPLAY_BUFFER by default; tests shrink it to reach its end). */
  replayBuffer?: number;
}

interface Session {
  id: string;
  intents: number;
  seq: number;
  buffer: GatewayDispatchPayload[];
  socket: WebSocket | null;
  expiry: NodeJS.Timeout | null;
}

/**
 * Gateway v10 (JSON, plain or zlib-stream: gateway-wire.ts): HELLO, heartbeats, IDENTIFY (intents honoured), READY +
 * GUILD_CREATE, RESUME with replay, REQUEST_GUILD_MEMBERS, and every world dispatch to sessions allowed to see it.
 */
export class GatewayServer {
  // A message over maxPayload is refused by ws (1009) before it is buffered whole; up to it, the
  // gateway answers Discord's 4002 for anything over 4096 bytes.
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BUFFERED_PAYLOAD_BYTES });
  private readonly sessions = new Map<string, Session>();
  private readonly onDispatch = (event: WorldEvent) => this.broadcast(event);
  /** How each open connection's payloads go out (plain JSON, or through its zlib stream). */
  private readonly encoders = new WeakMap<WebSocket, WireEncoder>();
  /** REQUEST_GUILD_MEMBERS, rate limited per guild as Discord limits it. */
  private readonly memberRequests: MemberRequests;

  private readonly heartbeatIntervalMs: number;
  private readonly replayBuffer: number;
  private readonly privilegedIntents: number;

  /** Listens to the world's dispatches. */
  constructor(
    private readonly services: SandboxServices,
    options: GatewayOptions = {},
  ) {
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
    this.replayBuffer = options.replayBuffer ?? REPLAY_BUFFER;
    this.privilegedIntents = options.privilegedIntents ?? I.GuildMembers | I.MessageContent;
    this.memberRequests = new MemberRequests(services.world);
    services.world.events.on('dispatch', this.onDispatch);
  }

  /** Takes over an HTTP upgrade request for the gateway path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req.url ?? ''));
  }

  /** Closes every connection with `code` (4000 = unknown error: discord.js resumes). Sessions stay resumable. */
  dropAll(code: number = GatewayCloseCodes.UnknownError): void {
    for (const session of this.sessions.values()) {
      session.socket?.close(code, 'sandbox fault: connection dropped');
      session.socket = null;
      this.scheduleExpiry(session);
    }
  }

  /** Asks every connected client to reconnect (op 7); discord.js closes and resumes. */
  requestReconnect(): void {
    for (const session of this.sessions.values()) {
      if (session.socket) this.send(session.socket, { op: GatewayOpcodes.Reconnect, d: null as never, s: null, t: null });
    }
  }

  /** The most bytes queued for any connection and not yet taken by its client. */
  backlogBytes(): number {
    let most = 0;
    for (const ws of this.wss.clients) most = Math.max(most, ws.bufferedAmount);
    return most;
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

  /**
   * One connection, held to Discord's rules: HELLO at once; a heartbeat at least every interval
   * (plus grace) or close 4009; nothing but heartbeats before IDENTIFY (4003); known opcodes only
   * (4001); payloads shaped as their opcode requires, at most 4096 bytes (4002); one IDENTIFY
   * (4005) with the bot's token (4004), a valid shard (4010) and valid, allowed intents (4013,
   * 4014); at most 120 sends a minute (4008); gateway version 10 (4012).
   */
  private accept(ws: WebSocket, url: string): void {
    // A frame that breaks the WebSocket protocol (unmasked, too large for maxPayload, bad UTF-8) is
    // closed by ws itself (1002, 1007, 1009); it then emits 'error', which without a listener would
    // throw out of the process.
    ws.on('error', (error) => this.services.logger.debug({ err: error }, 'gateway connection broke the WebSocket protocol'));
    const wire = readWire(url);
    if ('code' in wire) return void ws.close(wire.code, wire.reason);
    this.encoders.set(ws, wire.encode);
    let session: Session | null = null;
    const sends: number[] = [];
    const grace = Math.max(1000, this.heartbeatIntervalMs / 2);
    let heartbeatDue = Date.now() + this.heartbeatIntervalMs + grace;
    const watchdog = setInterval(
      () => {
        if (Date.now() > heartbeatDue) ws.close(GatewayCloseCodes.SessionTimedOut, 'Session timed out: no heartbeat.');
      },
      Math.min(1000, this.heartbeatIntervalMs),
    );
    watchdog.unref();
    ws.on('close', () => clearInterval(watchdog));
    this.send(ws, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null });
    ws.on(
      'message',
      this.guarded(ws, (raw: RawData) => {
        // Once a payload was refused, what the client sent after it is not read.
        if (ws.readyState !== ws.OPEN) return;
        const now = Date.now();
        sends.push(now);
        while ((sends[0] ?? now) <= now - 60_000) sends.shift();
        if (sends.length > SEND_LIMIT_PER_MINUTE) return void ws.close(GatewayCloseCodes.RateLimited, 'You are being rate limited.');
        const read = readClientFrame(asBuffer(raw), session !== null);
        if ('refusal' in read) return void ws.close(read.refusal.close, read.refusal.reason);
        const { frame } = read;
        switch (frame.op) {
          case GatewayOpcodes.Heartbeat:
            heartbeatDue = now + this.heartbeatIntervalMs + grace;
            this.send(ws, { op: GatewayOpcodes.HeartbeatAck, d: undefined, s: null, t: null });
            return;
          case GatewayOpcodes.Identify: {
            if (session) return void ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
            if (!this.tokenOk(frame.d.token)) return void ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
            const shard = frame.d.shard ?? [0, 1];
            const [shardId, shardCount] = shard;
            if (shardCount < 1 || shardId < 0 || shardId >= shardCount) return void ws.close(GatewayCloseCodes.InvalidShard, 'Invalid shard.');
            const { intents } = frame.d;
            const refused = intentsRefusal(intents, this.privilegedIntents);
            if (refused) return void ws.close(refused.close, refused.reason);
            session = this.identify(ws, intents, shard);
            return;
          }
          case GatewayOpcodes.Resume:
            if (session) return void ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
            if (!this.tokenOk(frame.d.token)) return void ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
            session = this.resume(ws, frame.d.session_id, frame.d.seq);
            return;
          case GatewayOpcodes.RequestGuildMembers:
            if (session) for (const answer of this.memberRequests.answer(frame.d, session.intents)) this.deliver(session, answer);
            return;
          case GatewayOpcodes.PresenceUpdate:
            // The bot's status (online, custom status); kept for the control API, as Discord shows it to members.
            this.services.world.botPresence = {
              status: frame.d.status,
              activities: frame.d.activities.map((a) => ({ type: a.type, name: a.name, state: a.state ?? null })),
            };
            return;
          case GatewayOpcodes.VoiceStateUpdate:
            // The bot joins, moves or leaves voice (an identified connection only, as Discord reads it).
            if (session) this.services.voice.botVoiceRequest(frame.d);
            return;
          case GatewayOpcodes.RequestSoundboardSounds:
            return;
        }
      }),
    );
    ws.on(
      'close',
      this.guarded(ws, (code: number) => {
        if (!session || session.socket !== ws) return;
        session.socket = null;
        // A client closing normally (1000/1001) ends its session, as on Discord.
        if (code === 1000 || code === 1001) this.forget(session);
        else this.scheduleExpiry(session);
      }),
    );
  }

  /**
   * A socket handler that cannot throw: an exception in it (a defect, since what a client sends is
   * read by readClientFrame first) is logged and closes that one connection with 4000, as Discord
   * does on its own errors, instead of escaping into the process that hosts the sandbox.
   */
  private guarded<A extends unknown[]>(ws: WebSocket, handler: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      try {
        handler(...args);
      } catch (error) {
        this.services.logger.error({ err: error }, 'gateway: handling a connection failed; it is closed with 4000');
        if (ws.readyState === ws.OPEN) ws.close(GatewayCloseCodes.UnknownError, 'Unknown error.');
      }
    };
  }

  private tokenOk(token: string): boolean {
    return token.replace(/^Bot /, '') === this.services.world.botToken;
  }

  private identify(ws: WebSocket, intents: number, shard: [number, number]): Session {
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
        shard,
        application: { id: world.applicationId, flags: 0 as ApplicationFlags, flags_new: '0' },
      },
    });
    for (const guild of botGuilds) {
      if ((intents & I.Guilds) === 0) break;
      const payload = presentGuildCreate(world, guild, world.botUserId, world.threads.presentForGuildCreate(guild, world.botUserId));
      // Without GUILD_PRESENCES, Discord sends only the bot and the members in voice channels; the
      // rest come from REQUEST_GUILD_MEMBERS (chunks) or REST, so a bot must fetch who it needs.
      payload.members = payload.members.filter((m) => m.user.id === world.botUserId || guild.voice.has(m.user.id));
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
    // A client cannot have seen events the session never sent.
    if (seq > session.seq) {
      ws.close(GatewayCloseCodes.InvalidSeq, 'Invalid seq.');
      return null;
    }
    // Events after `seq` that the session no longer holds cannot be replayed: as Discord does, the
    // resume fails (op 9, not resumable) and the client identifies anew, knowing it has a gap,
    // rather than resuming with events silently missing.
    const oldest = session.buffer[0]?.s;
    if (seq < session.seq && (oldest === undefined || oldest > seq + 1)) {
      this.forget(session);
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

  private broadcast(event: WorldEvent): void {
    const { world } = this.services;
    if (event.guildId && !world.isBotIn(event.guildId)) return;
    // Audit-log entries reach only a bot that may read the audit log there.
    if (event.dispatch.t === GatewayDispatchEvents.GuildAuditLogEntryCreate && event.guildId) {
      const guild = world.guilds.get(event.guildId);
      if (!guild || !hasPermission(guildPermissions(guild, world.botUserId), PermissionFlagsBits.ViewAuditLog)) return;
    }
    const needed = intentNeeded(event.dispatch, world.botUserId);
    for (const session of this.sessions.values()) {
      if (needed !== undefined && (session.intents & needed) === 0) continue;
      this.deliver(session, withIntents(session.intents, world.botUserId, event.dispatch));
    }
  }

  private deliver(session: Session, dispatch: WorldDispatch): void {
    session.seq += 1;
    const payload = { ...dispatch, op: GatewayOpcodes.Dispatch, s: session.seq } as GatewayDispatchPayload;
    session.buffer.push(payload);
    // Trimmed in batches (it holds between one and two buffers' worth): a splice per event costs
    // more than the rest of the delivery.
    if (session.buffer.length >= 2 * this.replayBuffer) session.buffer.splice(0, session.buffer.length - this.replayBuffer);
    if (session.socket) this.send(session.socket, payload);
  }

  private send(ws: WebSocket, payload: GatewayReceivePayload): void {
    if (ws.readyState !== ws.OPEN) return;
    const encode = this.encoders.get(ws);
    ws.send(encode ? encode(JSON.stringify(payload)) : JSON.stringify(payload));
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

/** A message as ws hands it over (one buffer, fragments, or an ArrayBuffer), as one buffer. */
function asBuffer(raw: RawData): Buffer {
  if (Buffer.isBuffer(raw)) return raw;
  return Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);
}
