// The voice sessions the sandbox handed out: a grant per member (the token of the last
// VOICE_SERVER_UPDATE), and a link per voice WebSocket that identified with one (its SSRC, secret
// key, Opus decoder and the numbered messages it was sent, for a resume to replay).
import { randomBytes, randomInt } from 'node:crypto';
import OpusScript from 'opusscript';
import type { WebSocket } from 'ws';

/** What VOICE_SERVER_UPDATE gave a member: identify must present exactly these. */
export interface VoiceGrant {
  guildId: string;
  userId: string;
  sessionId: string;
  token: string;
}

/** A numbered message the voice gateway sent. */
export interface VoiceMessage {
  op: number;
  d: unknown;
  seq: number;
}

/** Numbered messages kept per link for a resume. */
const REPLAY_KEPT = 50;

/** One identified voice connection. */
export class VoiceLink {
  /** Sent in Ready; the client's RTP packets carry it. */
  readonly ssrc = randomInt(1, 2 ** 31);
  /** Set by select protocol (op 4 session description). */
  secretKey: Buffer | null = null;
  /** The last op 5 speaking flag the client sent. */
  speaking = false;
  socket: WebSocket | null;
  private seq = 0;
  private readonly sent: VoiceMessage[] = [];
  private decoder: OpusScript | null = null;

  constructor(
    readonly grant: VoiceGrant,
    socket: WebSocket,
  ) {
    this.socket = socket;
  }

  /** Sends a message numbered as v8 requires (from 1: the client ignores a seq of 0). */
  send(op: number, d: unknown): void {
    this.seq += 1;
    const message = { op, d, seq: this.seq };
    this.sent.push(message);
    if (this.sent.length > REPLAY_KEPT) this.sent.shift();
    if (this.socket?.readyState === this.socket?.OPEN) this.socket?.send(JSON.stringify(message));
  }

  /** Sends again what the client had not acknowledged (after a resume). */
  replayAfter(seqAck: number): void {
    for (const message of this.sent) if (message.seq > seqAck) this.socket?.send(JSON.stringify(message));
  }

  /** Decodes one Opus packet to interleaved stereo s16le (a decoder per link: Opus decoding is stateful). */
  decode(opus: Buffer): Buffer | null {
    this.decoder ??= new OpusScript(48_000, 2);
    try {
      return this.decoder.decode(opus);
    } catch {
      return null;
    }
  }

  /** Closes the socket (when open) and frees the decoder. */
  end(code?: number, reason?: string): void {
    if (code !== undefined && this.socket && this.socket.readyState === this.socket.OPEN) this.socket.close(code, reason);
    this.socket = null;
    this.decoder?.delete();
    this.decoder = null;
  }
}

/** The grants and links of every guild. */
export class VoiceSessions {
  private readonly grants = new Map<string, VoiceGrant>();
  private readonly links = new Map<number, VoiceLink>();

  /** A new grant for the member (a new token each time, as Discord issues one per VOICE_SERVER_UPDATE). */
  issue(guildId: string, userId: string, sessionId: string): VoiceGrant {
    const grant = { guildId, userId, sessionId, token: randomBytes(16).toString('hex') };
    this.grants.set(`${guildId}:${userId}`, grant);
    return grant;
  }

  /** The member's current grant. */
  grant(guildId: string, userId: string): VoiceGrant | undefined {
    return this.grants.get(`${guildId}:${userId}`);
  }

  /** A link identified with `grant` on `socket`. */
  link(grant: VoiceGrant, socket: WebSocket): VoiceLink {
    const link = new VoiceLink(grant, socket);
    this.links.set(link.ssrc, link);
    return link;
  }

  /** The link whose client sends `ssrc`. */
  bySsrc(ssrc: number): VoiceLink | undefined {
    return this.links.get(ssrc);
  }

  /** The link a resume names: its guild, session and token. */
  forResume(serverId: string, sessionId: string, token: string): VoiceLink | undefined {
    return [...this.links.values()].find((l) => l.grant.guildId === serverId && l.grant.sessionId === sessionId && l.grant.token === token);
  }

  /** The member's links in the guild. */
  linksOf(guildId: string, userId?: string): VoiceLink[] {
    return [...this.links.values()].filter((l) => l.grant.guildId === guildId && (userId === undefined || l.grant.userId === userId));
  }

  /** Ends the member's voice session: links closed with `code`, the grant gone. */
  endMember(guildId: string, userId: string, code: number, reason: string): void {
    for (const link of this.linksOf(guildId, userId)) this.drop(link, code, reason);
    this.grants.delete(`${guildId}:${userId}`);
  }

  /** Closes and forgets one link. */
  drop(link: VoiceLink, code?: number, reason?: string): void {
    link.end(code, reason);
    this.links.delete(link.ssrc);
  }

  /** Closes everything. */
  close(): void {
    for (const link of this.links.values()) link.end(1001, 'Sandbox closing.');
    this.links.clear();
    this.grants.clear();
  }
}
