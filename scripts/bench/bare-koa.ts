// Bare Koa with @koa/router in a process of its own: the ceiling the product's HTTP figures are
// compared with. GET /api/health answers a small JSON body. Prints one JSON line `{ url }`.
import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';

const app = new Koa();
const router = new Router({ prefix: '/api' });
router.get('/health', (ctx) => {
  ctx.body = { status: 'ok', db: 'ok' };
});
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
