import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { decryptRtpSize, encryptRtpSize, ipDiscoveryReply, readRtpHeader, rtpHeader } from './rtp';

describe('voice RTP', () => {
  const key = randomBytes(32);
  const opus = Buffer.from([0xf8, 0xff, 0xfe]);

  it('decrypts aead_aes256_gcm_rtpsize as @discordjs/voice encrypts it', () => {
    const packet = encryptRtpSize(rtpHeader(4242, 7, 960), opus, key, 1);
    const header = readRtpHeader(packet);
    assert.ok(header);
    assert.deepEqual(
      { ssrc: header.ssrc, sequence: header.sequence, timestamp: header.timestamp, payloadType: header.payloadType },
      {
        ssrc: 4242,
        sequence: 7,
        timestamp: 960,
        payloadType: 120,
      },
    );
    assert.deepEqual(decryptRtpSize(packet, header, key), opus);
  });

  it('refuses a packet with a wrong key, a changed header byte or a changed payload byte', () => {
    const packet = encryptRtpSize(rtpHeader(1, 2, 3), opus, key, 9);
    const header = readRtpHeader(packet);
    assert.ok(header);
    assert.equal(decryptRtpSize(packet, header, randomBytes(32)), null);
    for (const at of [5, 12]) {
      const tampered = Buffer.from(packet);
      tampered[at] = (tampered[at] ?? 0) ^ 1;
      assert.equal(decryptRtpSize(tampered, header, key), null, `byte ${at}`);
    }
  });

  it('authenticates the extension preamble and strips the extension body', () => {
    const header = Buffer.concat([rtpHeader(5, 1, 1), Buffer.from([0xbe, 0xde, 0x00, 0x01])]);
    header[0] = 0x90;
    const body = Buffer.concat([Buffer.from([0x10, 0xaa, 0, 0]), opus]);
    const packet = encryptRtpSize(header, body, key, 3);
    const read = readRtpHeader(packet);
    assert.equal(read?.headerLength, 16);
    assert.ok(read);
    assert.deepEqual(decryptRtpSize(packet, read, key), opus);
  });

  it('answers IP discovery with the address and port seen, and takes keep-alives for nothing', () => {
    const request = Buffer.alloc(74);
    request.writeUInt16BE(1, 0);
    request.writeUInt16BE(70, 2);
    request.writeUInt32BE(4242, 4);
    const reply = ipDiscoveryReply(request, '127.0.0.1', 50_000);
    assert.ok(reply);
    assert.equal(reply.readUInt16BE(0), 2);
    assert.equal(reply.readUInt32BE(4), 4242);
    assert.equal(reply.subarray(8, reply.indexOf(0, 8)).toString(), '127.0.0.1');
    assert.equal(reply.readUInt16BE(72), 50_000);
    assert.equal(ipDiscoveryReply(Buffer.alloc(8), '127.0.0.1', 1), null);
    assert.equal(readRtpHeader(Buffer.alloc(8)), null);
  });
});
