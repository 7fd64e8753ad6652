// The welcome card: drawn at its size with or without a readable avatar; an avatar that is slow,
// too big or refused is no avatar (the card draws the default one, the welcome goes out).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CARD_HEIGHT, CARD_WIDTH } from '../../shared/welcome-card';
import { AVATAR_MAX_BYTES, fetchAvatarBytes } from './avatar';
import { drawWelcomeCard } from './card';

const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const content = { title: 'Welcome to Cafe!', username: 'pat', memberNumber: 12, background: '#23272a', accent: '#5865f2' };
const svgAvatar = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="#3ba55c"/></svg>');
const silent = { debug: () => undefined } as unknown as Parameters<typeof fetchAvatarBytes>[1];

let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(AVATAR_MAX_BYTES + 1));
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 10_000).unref();
    } else if (req.url === '/ok') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(svgAvatar);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

test('the card is a PNG of the card size, with an avatar, without one, and with bytes that are no image', async () => {
  for (const avatar of [svgAvatar, null, Buffer.from('not an image')]) {
    assert.deepEqual(size(await drawWelcomeCard({ ...content, avatar })), { width: CARD_WIDTH, height: CARD_HEIGHT });
  }
});

test('the avatar and the colours change the drawing', async () => {
  const plain = await drawWelcomeCard({ ...content, avatar: null });
  assert.notDeepEqual(await drawWelcomeCard({ ...content, avatar: svgAvatar }), plain);
  assert.notDeepEqual(await drawWelcomeCard({ ...content, avatar: null, accent: '#ff0000' }), plain);
});

test('an avatar is fetched; too big, refused or unreachable is none', async () => {
  assert.deepEqual(await fetchAvatarBytes(`${base}/ok`, silent), svgAvatar);
  assert.equal(await fetchAvatarBytes(`${base}/big`, silent), null);
  assert.equal(await fetchAvatarBytes(`${base}/missing`, silent), null);
  assert.equal(await fetchAvatarBytes('http://127.0.0.1:1/nothing', silent), null);
});

test('a slow avatar is given up on after the timeout', { timeout: 8000 }, async () => {
  const started = Date.now();
  assert.equal(await fetchAvatarBytes(`${base}/slow`, silent), null);
  assert.ok(Date.now() - started < 5000);
});
