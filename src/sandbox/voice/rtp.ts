// The UDP side of a voice connection as Discord speaks it: IP discovery, and RTP packets encrypted
// with aead_aes256_gcm_rtpsize (AES-256-GCM; the RTP header is the additional data, the 4-byte
// nonce counter is appended to the packet and padded with zeros to the 12-byte IV).
import { createCipheriv, createDecipheriv } from 'node:crypto';

/** The encryption modes offered in Ready, Discord's preferred first: the client picks the first it supports. */
export const VOICE_MODES = ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'] as const;
/** The one mode the sandbox decrypts. */
export const AES_GCM_MODE = 'aead_aes256_gcm_rtpsize';
/** An IP discovery request or reply: type, length, SSRC, 64 bytes of address, port. */
const DISCOVERY_LENGTH = 74;
const AUTH_TAG_LENGTH = 16;
const NONCE_LENGTH = 4;

/** The reply to an IP discovery request (type 2), or null when `packet` is not one (type 1, 74 bytes). */
export function ipDiscoveryReply(packet: Buffer, address: string, port: number): Buffer | null {
  if (packet.length !== DISCOVERY_LENGTH || packet.readUInt16BE(0) !== 1) return null;
  const reply = Buffer.alloc(DISCOVERY_LENGTH);
  reply.writeUInt16BE(2, 0);
  reply.writeUInt16BE(70, 2);
  reply.writeUInt32BE(packet.readUInt32BE(4), 4);
  reply.write(address, 8, 64, 'utf8');
  reply.writeUInt16BE(port, 72);
  return reply;
}

/** What the sandbox reads of an RTP packet's fixed header. */
export interface RtpHeader {
  ssrc: number;
  sequence: number;
  timestamp: number;
  payloadType: number;
  /** Bytes that are authenticated but not encrypted: the fixed header, CSRCs and (rtpsize) the extension preamble. */
  headerLength: number;
}

/** The header of an RTP packet (version 2), or null for anything else (keep-alives are 8 bytes). */
export function readRtpHeader(packet: Buffer): RtpHeader | null {
  if (packet.length < 12 + AUTH_TAG_LENGTH + NONCE_LENGTH) return null;
  const first = packet[0] ?? 0;
  if (first >> 6 !== 2) return null;
  const csrcCount = first & 0x0f;
  const extension = (first >> 4) & 1;
  // rtpsize: the extension's 4-byte preamble is authenticated in the clear; its body is encrypted.
  const headerLength = 12 + 4 * csrcCount + (extension ? 4 : 0);
  if (packet.length < headerLength + AUTH_TAG_LENGTH + NONCE_LENGTH) return null;
  return {
    payloadType: (packet[1] ?? 0) & 0x7f,
    sequence: packet.readUInt16BE(2),
    timestamp: packet.readUInt32BE(4),
    ssrc: packet.readUInt32BE(8),
    headerLength,
  };
}

/**
 * The payload of an aead_aes256_gcm_rtpsize packet, or null when its tag does not verify (a wrong
 * key, a tampered byte). With an extension, its body (the first words of the plaintext) is removed.
 */
export function decryptRtpSize(packet: Buffer, header: RtpHeader, secretKey: Buffer): Buffer | null {
  const iv = Buffer.alloc(12);
  packet.copy(iv, 0, packet.length - NONCE_LENGTH);
  const tagStart = packet.length - NONCE_LENGTH - AUTH_TAG_LENGTH;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey, iv);
    decipher.setAAD(packet.subarray(0, header.headerLength));
    decipher.setAuthTag(packet.subarray(tagStart, tagStart + AUTH_TAG_LENGTH));
    const plain = Buffer.concat([decipher.update(packet.subarray(header.headerLength, tagStart)), decipher.final()]);
    const hasExtension = ((packet[0] ?? 0) >> 4) & 1;
    if (!hasExtension) return plain;
    const words = packet.readUInt16BE(header.headerLength - 2);
    return plain.subarray(4 * words);
  } catch {
    return null;
  }
}

/** Encrypts an Opus payload as @discordjs/voice does (for tests of the decryption). */
export function encryptRtpSize(header: Buffer, payload: Buffer, secretKey: Buffer, nonce: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(nonce, 0);
  const cipher = createCipheriv('aes-256-gcm', secretKey, iv);
  cipher.setAAD(header);
  const sealed = Buffer.concat([cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([header, sealed, iv.subarray(0, NONCE_LENGTH)]);
}

/** A 12-byte RTP header of an Opus packet (payload type 120), as the client builds it. */
export function rtpHeader(ssrc: number, sequence: number, timestamp: number): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = 120;
  header.writeUInt16BE(sequence & 0xffff, 2);
  header.writeUInt32BE(timestamp >>> 0, 4);
  header.writeUInt32BE(ssrc >>> 0, 8);
  return header;
}
