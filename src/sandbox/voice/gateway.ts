// The voice WebSocket, gateway version 8, as @discordjs/voice speaks it: hello (op 8), identify
// (op 0) checked against the grant of the last VOICE_SERVER_UPDATE, ready (op 2), select protocol
// (op 1) answered with the session description (op 4, DAVE version 0), heartbeats (op 3 with
// seq_ack, answered op 6), speaking (op 5), resume (op 7, answered op 9 and a replay). Served over
// TLS on its own port: the client always dials wss://.
import { createServer, type Server } from 'node:https';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import { AES_GCM_MODE, VOICE_MODES } from './rtp';
import type { VoiceLink, VoiceSessions } from './state';

/** Voice gateway opcodes (discord-api-types' VoiceOpcodes). */
export const VoiceOp = {
  Identify: 0,
  SelectProtocol: 1,
  Ready: 2,
  Heartbeat: 3,
  SessionDescription: 4,
  Speaking: 5,
  HeartbeatAck: 6,
  Resume: 7,
  Hello: 8,
  Resumed: 9,
  ClientsConnect: 11,
  ClientDisconnect: 13,
} as const;

/** Voice close codes (Discord's table). */
export const VoiceClose = {
  UnknownOpcode: 4001,
  FailedToDecode: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  SessionNoLongerValid: 4006,
  SessionTimeout: 4009,
  UnknownProtocol: 4012,
  Disconnected: 4014,
  UnknownEncryptionMode: 4016,
} as const;

/** Discord's voice heartbeat interval. */
export const VOICE_HEARTBEAT_INTERVAL_MS = 13_750;

const snowflake = z.string().regex(/^\d{17,20}$/);
const frame = z.discriminatedUnion('op', [
  z.object({
    op: z.literal(VoiceOp.Identify),
    d: z.object({ server_id: snowflake, user_id: snowflake, session_id: z.string(), token: z.string(), max_dave_protocol_version: z.number().optional() }),
  }),
  z.object({
    op: z.literal(VoiceOp.SelectProtocol),
    d: z.object({ protocol: z.string(), data: z.object({ address: z.string(), port: z.number().int(), mode: z.string() }) }),
  }),
  z.object({ op: z.literal(VoiceOp.Heartbeat), d: z.object({ t: z.number(), seq_ack: z.number().int().optional() }) }),
  z.object({ op: z.literal(VoiceOp.Speaking), d: z.object({ speaking: z.number().int(), delay: z.number().optional(), ssrc: z.number().int() }) }),
  z.object({
    op: z.literal(VoiceOp.Resume),
    d: z.object({ server_id: snowflake, session_id: z.string(), token: z.string(), seq_ack: z.number().int().optional() }),
  }),
]);

/** What the voice gateway asks of the rest of the voice server. */
export interface VoiceGatewayHooks {
  /** Whether the member still sits in voice in that guild (a grant outlives a disconnect otherwise). */
  inVoice(guildId: string, userId: string): boolean;
  /** The UDP socket's port, for Ready. */
  udpPort(): number;
  /** A link became ready (session description sent): tell it who else is in its channel. */
  ready(link: VoiceLink): void;
}

/** The wss server of the voice gateway. */
export class VoiceGateway {
  private readonly server: Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  constructor(
    tlsOptions: { cert: string; key: string },
    private readonly sessions: VoiceSessions,
    private readonly hooks: VoiceGatewayHooks,
    private readonly logger: Logger,
    private readonly heartbeatIntervalMs = VOICE_HEARTBEAT_INTERVAL_MS,
  ) {
    this.server = createServer(tlsOptions, (_req, res) => {
      res.statusCode = 426;
      res.end('voice gateway: WebSocket only');
    });
    this.server.on('upgrade', (req, socket, head) => this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws)));
  }

  /** Listens on `host:port` (0: a free port) and answers the port. */
  async listen(port: number, host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  /** Closes every connection and the server. */
  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    ws.on('error', (error) => this.logger.debug({ err: error }, 'voice connection broke the WebSocket protocol'));
    let link: VoiceLink | null = null;
    let heartbeatDue = Date.now() + this.heartbeatIntervalMs * 2;
    const watchdog = setInterval(() => {
      if (Date.now() > heartbeatDue) ws.close(VoiceClose.SessionTimeout, 'Session timed out.');
    }, 1000);
    watchdog.unref();
    // Hello carries no seq (it opens the connection; a resume's numbering continues the link's).
    ws.send(JSON.stringify({ op: VoiceOp.Hello, d: { v: 8, heartbeat_interval: this.heartbeatIntervalMs } }));
    ws.on('close', () => {
      clearInterval(watchdog);
      if (link?.socket === ws) link.socket = null;
    });
    ws.on('message', (raw: RawData, isBinary: boolean) => {
      // DAVE's binary opcodes never come at protocol version 0.
      if (isBinary || ws.readyState !== ws.OPEN) return;
      try {
        link = this.handle(ws, link, raw.toString(), () => (heartbeatDue = Date.now() + this.heartbeatIntervalMs * 2));
      } catch (error) {
        this.logger.error({ err: error }, 'voice gateway: handling a message failed; the connection is closed with 4000');
        ws.close(4000, 'Unknown error.');
      }
    });
  }

  /** Handles one message; answers the connection's link (null until identify or resume). */
  private handle(ws: WebSocket, link: VoiceLink | null, text: string, heartbeat: () => void): VoiceLink | null {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      ws.close(VoiceClose.FailedToDecode, 'Failed to decode payload.');
      return link;
    }
    const op = (json as { op?: unknown } | null)?.op;
    if (typeof op !== 'number' || !Object.values(VoiceOp).includes(op as never)) {
      ws.close(VoiceClose.UnknownOpcode, 'Unknown opcode.');
      return link;
    }
    const parsed = frame.safeParse(json);
    if (!parsed.success) {
      ws.close(VoiceClose.FailedToDecode, 'Failed to decode payload.');
      return link;
    }
    const message = parsed.data;
    if (message.op === VoiceOp.Heartbeat) {
      heartbeat();
      ws.send(JSON.stringify({ op: VoiceOp.HeartbeatAck, d: { t: message.d.t } }));
      return link;
    }
    if (message.op === VoiceOp.Identify || message.op === VoiceOp.Resume) {
      if (link) {
        ws.close(VoiceClose.AlreadyAuthenticated, 'Already authenticated.');
        return link;
      }
      return message.op === VoiceOp.Identify ? this.identify(ws, message.d) : this.resume(ws, message.d);
    }
    if (!link) {
      ws.close(VoiceClose.NotAuthenticated, 'Not authenticated.');
      return link;
    }
    if (message.op === VoiceOp.SelectProtocol) {
      if (message.d.protocol !== 'udp') ws.close(VoiceClose.UnknownProtocol, 'Unknown protocol.');
      else if (message.d.data.mode !== AES_GCM_MODE) ws.close(VoiceClose.UnknownEncryptionMode, 'Unknown encryption mode.');
      else {
        link.secretKey = randomBytes(32);
        link.send(VoiceOp.SessionDescription, { mode: AES_GCM_MODE, secret_key: [...link.secretKey], dave_protocol_version: 0 });
        this.hooks.ready(link);
      }
      return link;
    }
    if (message.op === VoiceOp.Speaking) link.speaking = message.d.speaking !== 0;
    return link;
  }

  private identify(ws: WebSocket, d: { server_id: string; user_id: string; session_id: string; token: string }): VoiceLink | null {
    const grant = this.sessions.grant(d.server_id, d.user_id);
    if (!grant || grant.token !== d.token) {
      ws.close(VoiceClose.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    if (grant.sessionId !== d.session_id || !this.hooks.inVoice(grant.guildId, grant.userId)) {
      ws.close(VoiceClose.SessionNoLongerValid, 'Session no longer valid.');
      return null;
    }
    // A member has one voice connection per guild: an earlier one (a voice server change) is done.
    for (const earlier of this.sessions.linksOf(grant.guildId, grant.userId)) this.sessions.drop(earlier, 1000, 'Replaced by a new connection.');
    const link = this.sessions.link(grant, ws);
    link.send(VoiceOp.Ready, { ssrc: link.ssrc, ip: '127.0.0.1', port: this.hooks.udpPort(), modes: [...VOICE_MODES] });
    return link;
  }

  private resume(ws: WebSocket, d: { server_id: string; session_id: string; token: string; seq_ack?: number | undefined }): VoiceLink | null {
    const link = this.sessions.forResume(d.server_id, d.session_id, d.token);
    if (!link || !this.hooks.inVoice(link.grant.guildId, link.grant.userId)) {
      ws.close(VoiceClose.SessionNoLongerValid, 'Session no longer valid.');
      return null;
    }
    if (link.socket && link.socket !== ws) link.socket.close(VoiceClose.SessionNoLongerValid, 'Resumed elsewhere.');
    link.socket = ws;
    link.replayAfter(d.seq_ack ?? -1);
    link.send(VoiceOp.Resumed, null);
    return link;
  }
}
