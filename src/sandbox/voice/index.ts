// The sandbox's voice server: what the bot's gateway op 4 starts (VOICE_STATE_UPDATE, then
// VOICE_SERVER_UPDATE naming this server), the voice WebSocket (gateway.ts), UDP (udp.ts), and what
// each voice channel heard (audio.ts), for the control API.
import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from 'discord-api-types/v10';
import type { Logger } from 'pino';
import { channelPermissions, hasPermission } from '../permissions';
import type { World } from '../world';
import type { WorldEvent } from '../world-state';
import { stereoToMono } from './analysis';
import { VoiceAudioRecorder, type ChannelAudioReport } from './audio';
import { ensureVoiceCertificate } from './certificate';
import { VoiceClose, VoiceGateway, VoiceOp } from './gateway';
import { decryptRtpSize, type RtpHeader } from './rtp';
import { VoiceSessions, type VoiceLink } from './state';
import { VoiceUdp } from './udp';

export { defaultCertDir, trustInProcess, type VoiceCertificate } from './certificate';
export type { ChannelAudioReport } from './audio';

/** The bot's gateway op 4, as read by gateway-frames.ts. */
export interface BotVoiceRequest {
  guild_id: string;
  channel_id: string | null;
  self_mute: boolean;
  self_deaf: boolean;
}

/** Where the voice server listens and which certificate it serves. */
export interface VoiceServerOptions {
  host: string;
  /** The voice WebSocket's port (0: a free one). */
  port: number;
  /** The directory of its certificate (made there when missing). */
  certDir: string;
}

/** A running voice server. */
export class VoiceServer {
  readonly audio = new VoiceAudioRecorder();
  /** Which voice channel each member sits in, as last dispatched (to tell links who came and went). */
  private readonly seated = new Map<string, string>();
  private readonly onDispatch = (event: WorldEvent) => this.followVoiceState(event);

  private constructor(
    private readonly world: World,
    /** The grants and voice connections. */
    readonly sessions: VoiceSessions,
    private readonly gateway: VoiceGateway,
    private readonly udp: VoiceUdp,
    /** `host:port` of the voice WebSocket, as VOICE_SERVER_UPDATE names it. */
    readonly endpoint: string,
    /** The certificate file a client must trust (NODE_EXTRA_CA_CERTS). */
    readonly certFile: string,
    /** The UDP socket's port (what Ready names). */
    readonly udpPort: number,
  ) {
    for (const guild of world.guilds.values()) for (const [userId, state] of guild.voice) this.seated.set(`${guild.id}:${userId}`, state.channelId);
    world.events.on('dispatch', this.onDispatch);
  }

  /** Starts the voice WebSocket (TLS) and the UDP socket. */
  static async start(world: World, logger: Logger, options: VoiceServerOptions): Promise<VoiceServer> {
    const certificate = await ensureVoiceCertificate(options.certDir);
    let server: VoiceServer | null = null;
    const udp = new VoiceUdp((packet, header) => server?.rtp(packet, header), logger);
    const udpPort = await udp.bind(options.host);
    const sessions = new VoiceSessions();
    const gateway = new VoiceGateway(
      certificate,
      sessions,
      {
        inVoice: (guildId, userId) => world.guilds.get(guildId)?.voice.has(userId) ?? false,
        udpPort: () => udpPort,
        ready: (link) => server?.announceOthers(link),
      },
      logger,
    );
    const port = await gateway.listen(options.port, options.host);
    server = new VoiceServer(world, sessions, gateway, udp, `${options.host}:${port}`, certificate.certFile, udpPort);
    return server;
  }

  /**
   * The bot's op 4. Joining or moving: Discord answers only when the bot may connect there (View
   * Channel and Connect, and room under the user limit unless it has Move Members); otherwise no event
   * comes and the client waits in signalling. Then VOICE_STATE_UPDATE first, VOICE_SERVER_UPDATE
   * second (the client connects only once it holds both). Leaving: VOICE_STATE_UPDATE with no channel,
   * and the voice socket closes (4014), as for any way out of voice.
   */
  botVoiceRequest(request: BotVoiceRequest): void {
    const { world } = this;
    const guild = world.guilds.get(request.guild_id);
    if (!guild || !world.isBotIn(guild.id)) return;
    const botId = world.botUserId;
    if (request.channel_id === null) {
      if (guild.voice.has(botId)) world.updateVoiceState(guild.id, botId, { channelId: null });
      else this.sessions.endMember(guild.id, botId, VoiceClose.Disconnected, 'Disconnected.');
      return;
    }
    const channel = guild.channels.get(request.channel_id);
    if (!channel || channel.type !== ChannelType.GuildVoice) return;
    const allowed = channelPermissions(guild, channel, botId);
    if (!hasPermission(allowed, P.ViewChannel | P.Connect)) return;
    const others = [...guild.voice.entries()].filter(([userId, state]) => userId !== botId && state.channelId === channel.id).length;
    if (channel.userLimit > 0 && others >= channel.userLimit && !hasPermission(allowed, P.MoveMembers)) return;
    world.updateVoiceState(guild.id, botId, { channelId: channel.id, selfMute: request.self_mute, selfDeaf: request.self_deaf });
    this.sendServerUpdate(guild.id);
  }

  /** A new VOICE_SERVER_UPDATE for the bot in the guild (a voice server change: the client connects anew); false when it is not in voice. */
  changeServer(guildId: string): boolean {
    if (!this.world.guilds.get(guildId)?.voice.has(this.world.botUserId)) return false;
    this.sendServerUpdate(guildId);
    return true;
  }

  /** Disconnects the bot from voice as a moderator would: VOICE_STATE_UPDATE with no channel and close 4014. */
  kickBot(guildId: string): boolean {
    if (!this.world.guilds.get(guildId)?.voice.has(this.world.botUserId)) return false;
    this.world.updateVoiceState(guildId, this.world.botUserId, { channelId: null });
    return true;
  }

  /** What the guild's voice channels heard, the window measurements over the last `windowSeconds`. */
  report(guildId: string, windowSeconds: number): ChannelAudioReport[] {
    const speakingIn = (channelId: string) =>
      this.sessions.linksOf(guildId).some((link) => link.speaking && this.seated.get(`${guildId}:${link.grant.userId}`) === channelId);
    return this.audio.report(guildId, windowSeconds, speakingIn);
  }

  /** Stops listening and closes every voice connection. */
  async close(): Promise<void> {
    this.world.events.off('dispatch', this.onDispatch);
    this.sessions.close();
    this.udp.close();
    await this.gateway.close();
  }

  private sendServerUpdate(guildId: string): void {
    const botId = this.world.botUserId;
    const grant = this.sessions.issue(guildId, botId, `voice-${botId}`);
    this.world.emit(guildId, { t: GatewayDispatchEvents.VoiceServerUpdate, d: { token: grant.token, guild_id: guildId, endpoint: this.endpoint } });
  }

  /**
   * Follows every VOICE_STATE_UPDATE: a member out of voice has their voice socket closed with 4014
   * (kicked, disconnected by a moderator, their channel deleted, or leaving by op 4); links of the
   * channel a member entered or left are told (op 11 clients connect, op 13 client disconnect).
   */
  private followVoiceState(event: WorldEvent): void {
    if (event.dispatch.t !== GatewayDispatchEvents.VoiceStateUpdate || !event.guildId) return;
    const guildId = event.guildId;
    const { user_id: userId, channel_id: channelId } = event.dispatch.d;
    const key = `${guildId}:${userId}`;
    const before = this.seated.get(key) ?? null;
    if (channelId) this.seated.set(key, channelId);
    else this.seated.delete(key);
    if (!channelId) this.sessions.endMember(guildId, userId, VoiceClose.Disconnected, 'Disconnected.');
    if (before === channelId) return;
    for (const link of this.sessions.linksOf(guildId)) {
      if (link.grant.userId === userId) continue;
      const linkChannel = this.seated.get(`${guildId}:${link.grant.userId}`);
      if (linkChannel === channelId) link.send(VoiceOp.ClientsConnect, { user_ids: [userId] });
      else if (linkChannel === before) link.send(VoiceOp.ClientDisconnect, { user_id: userId });
    }
  }

  /** Tells a link that just became ready who else sits in its channel. */
  private announceOthers(link: VoiceLink): void {
    const { guildId, userId } = link.grant;
    const channelId = this.seated.get(`${guildId}:${userId}`);
    const others = [...this.seated.entries()]
      .filter(([key, seat]) => seat === channelId && key.startsWith(`${guildId}:`) && key !== `${guildId}:${userId}`)
      .map(([key]) => key.slice(guildId.length + 1));
    if (others.length > 0) link.send(VoiceOp.ClientsConnect, { user_ids: others });
  }

  /**
   * One RTP packet: counted for the sender's channel, decrypted (a bad tag counts as a decrypt
   * failure), refused when the sender may not speak there (no Speak, or server-muted: Discord relays
   * none of it), else decoded and heard.
   */
  private rtp(packet: Buffer, header: RtpHeader): void {
    const link = this.sessions.bySsrc(header.ssrc);
    if (!link?.secretKey) return;
    const { guildId, userId } = link.grant;
    const guild = this.world.guilds.get(guildId);
    const channelId = this.seated.get(`${guildId}:${userId}`);
    const channel = channelId ? guild?.channels.get(channelId) : undefined;
    if (!guild || !channelId || !channel) return;
    this.audio.packet(guildId, channelId, packet.length);
    const opus = decryptRtpSize(packet, header, link.secretKey);
    if (!opus) return void this.audio.decryptFailure(guildId, channelId);
    if (!hasPermission(channelPermissions(guild, channel, userId), P.Speak) || guild.members.get(userId)?.mute) {
      return void this.audio.refused(guildId, channelId);
    }
    const pcm = link.decode(opus);
    if (pcm) this.audio.heard(guildId, channelId, stereoToMono(pcm));
  }
}
