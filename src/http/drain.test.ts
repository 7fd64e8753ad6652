import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, test } from 'node:test';
import { drainable, type Drainable } from './drain';
import { waitFor } from '../../test/helpers/wait';

/** A server whose /slow requests wait until released; /fast answers at once. */
async function slowServer(): Promise<{ server: Server; port: number; drain: Drainable; arrived: Promise<void>; release(): void }> {
  const server = createServer();
  const drain = drainable(server);
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  server.on('request', (request, response) => {
    if (request.url === '/slow') {
      arrive();
      void released.then(() => response.end('slow done'));
    } else {
      response.end('fast');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, drain, arrived, release };
}

/** A raw kept-alive connection and everything it received. */
async function rawConnection(port: number): Promise<{ socket: Socket; received(): string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const closed = once(socket, 'close').then(() => undefined);
  return { socket, received: () => text, closed };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

describe('draining the HTTP server', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.closeAllConnections();
  });

  test('refuses new connections, closes idle kept-alive ones, and lets a request in flight finish with Connection: close', async () => {
    const { server, port, drain, arrived, release } = await slowServer();
    servers.push(server);
    const idle = await rawConnection(port);
    idle.socket.write(get('/fast'));
    await waitFor(() => idle.received().endsWith('fast'), 3000, 'the fast answer');
    const busy = await rawConnection(port);
    busy.socket.write(get('/slow'));
    await arrived;

    const drained = drain.drain(5000);
    await idle.closed;
    const refused = connect(port, '127.0.0.1');
    const [error] = (await once(refused, 'error')) as [NodeJS.ErrnoException];
    assert.equal(error.code, 'ECONNREFUSED');

    release();
    await busy.closed;
    assert.match(busy.received(), /^HTTP\/1\.1 200/);
    assert.match(busy.received(), /\r\nConnection: close\r\n/i);
    assert.match(busy.received(), /slow done$/);
    assert.equal(await drained, 0);
  });

  test('cuts a request still running after the grace period and says so', async () => {
    const { server, port, drain, arrived } = await slowServer();
    servers.push(server);
    const busy = await rawConnection(port);
    busy.socket.write(get('/slow'));
    await arrived;
    const started = Date.now();
    assert.equal(await drain.drain(100), 1);
    assert.ok(Date.now() - started < 2000);
    await busy.closed;
    assert.equal(busy.received(), '');
  });

  test('a second drain waits for the first', async () => {
    const { server, drain } = await slowServer();
    servers.push(server);
    const first = drain.drain(100);
    assert.equal(drain.drain(100), first);
    assert.equal(await first, 0);
  });
});
