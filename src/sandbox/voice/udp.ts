// The voice UDP socket: answers IP discovery, ignores the client's 8-byte keep-alives, and hands
// each RTP packet to the link whose SSRC it carries.
import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from 'pino';
import { ipDiscoveryReply, readRtpHeader, type RtpHeader } from './rtp';

/** The UDP side of the voice server. */
export class VoiceUdp {
  private readonly socket: Socket = createSocket('udp4');

  constructor(
    private readonly onRtp: (packet: Buffer, header: RtpHeader) => void,
    private readonly logger: Logger,
  ) {
    this.socket.on('error', (error) => this.logger.warn({ err: error }, 'voice UDP socket error'));
    this.socket.on('message', (packet, remote) => {
      try {
        const reply = ipDiscoveryReply(packet, remote.address, remote.port);
        if (reply) return void this.socket.send(reply, remote.port, remote.address);
        const header = readRtpHeader(packet);
        if (header) this.onRtp(packet, header);
      } catch (error) {
        this.logger.error({ err: error }, 'voice UDP: handling a packet failed');
      }
    });
  }

  /** Binds to `host` on a free port and answers it. */
  async bind(host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(0, host, () => resolve());
    });
    return this.socket.address().port;
  }

  /** Closes the socket. */
  close(): void {
    this.socket.close();
  }
}
