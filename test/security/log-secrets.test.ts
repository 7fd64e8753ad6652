// Nothing a client sends as a credential may reach the log, whatever field carries it: raw
// packets of malformed requests, headers, error messages. The log is read back and searched,
// both as text and as the bytes of any serialized Buffer.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Product } from '../../src/main';
import { createLogger } from '../../src/logger';
import { waitFor } from '../helpers/wait';
import { captureLogs } from '../helpers/logs';
import { startTestProduct } from '../helpers/product';

const COOKIE = 'sid=SECRETCOOKIEvalue123';
const BEARER = 'SECRETBEARERtoken456';
const BOT = 'MTAwMDAwMDAw.SECRETbot.token789';

/** Every string in a logged value, with serialized Buffers ({ type: 'Buffer', data }) decoded. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((item) => typeof item === 'number')) return [Buffer.from(value as number[]).toString('latin1')];
    return value.flatMap(strings);
  }
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)]);
  return [];
}

function leaks(lines: string[]): string[] {
  return lines.filter((line) => strings(JSON.parse(line)).some((text) => /SECRET/.test(text)));
}

/** Opens a keep-alive connection, sends `first` then a malformed request carrying credentials. */
function sendMalformed(port: number, first: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `${first}GET /api/auth/me HTTP/1.1\r\nHost: localhost\r\nCookie: ${COOKIE}\r\nAuthorization: Bearer ${BEARER}\r\nX-Token: Bot ` +
          `${BOT}\r\nContent-Length: abc\r\n\r\n`,
      );
    });
    socket.on('data', () => undefined);
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.on('close', done);
    socket.on('error', done);
    // A deadline, not a wait: a connection the server leaves open ends the exchange after a second.
    setTimeout(done, 1000);
  });
}

describe('credentials never reach the log', () => {
  let product: Product;
  const logs = captureLogs('trace');
  before(async () => {
    product = await startTestProduct({}, { logger: logs.logger });
  });
  after(() => product.close());

  test('a malformed request on a kept-alive connection logs no raw packet, cookie or token', async () => {
    const port = Number(new URL(product.url).port);
    const before = logs.lines.length;
    for (const first of [
      'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'GET /login HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'POST /api/auth/logout HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}',
      '',
    ]) {
      await sendMalformed(port, first);
    }
    // The barrier: each connection is closed (the garbage handled) and its well-formed request's line is written.
    const requestLines = () => logs.lines.slice(before).filter((line) => line.includes('"msg":"request"')).length;
    await waitFor(() => requestLines() >= 3, 5000, 'the three requests to be logged');
    const written = logs.lines.slice(before);
    assert.ok(written.length > 0, 'the requests were logged');
    assert.deepEqual(leaks(written), []);
    assert.ok(!written.some((line) => line.includes('rawPacket')));
    const loud = written.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level >= 50);
    assert.deepEqual(loud, [], 'a client sending garbage is not a server error');
  });

  test('errors logged with credentials in any field or in their message are scrubbed', () => {
    const local = captureLogs('info');
    const error = Object.assign(new Error(`request with Cookie: ${COOKIE} failed; Authorization: Bearer ${BEARER}`), {
      rawPacket: Buffer.from(`Cookie: ${COOKIE}`),
      headers: { cookie: COOKIE, authorization: `Bot ${BOT}` },
      config: { headers: { Authorization: `Bearer ${BEARER}` } },
      cause: new Error(`token Bot ${BOT}`),
    });
    local.logger.error({ err: error }, 'boom');
    local.logger.warn({ req: { headers: { cookie: COOKIE, authorization: `Bearer ${BEARER}` } }, headers: { Cookie: COOKIE } }, 'request');
    assert.equal(local.lines.length, 2);
    assert.deepEqual(leaks(local.lines), []);
    const [entry] = local.entries() as { err: { message: string; type: string } }[];
    assert.match(entry?.err.message ?? '', /request with Cookie: \[redacted\] failed/);
    assert.equal(entry?.err.type, 'Error');
    assert.ok(createLogger('silent'));
  });
});
