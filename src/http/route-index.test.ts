import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Koa from 'koa';
import request from 'supertest';
import { FEATURES } from '../features';
import { routePath } from './route';
import { indexRoutes } from './route-index';
import { createRouter } from './router';

interface Route {
  method: 'get' | 'post';
  path: string;
}

/** A router over `routes` whose handlers answer which route ran. */
function routerOf(routes: readonly Route[]) {
  const router = createRouter({ prefix: '/api' });
  for (const route of routes) {
    router[route.method](route.path, (ctx) => {
      ctx.body = { ran: `${route.method} ${route.path}`, params: ctx.params };
    });
  }
  return router;
}

/** The app answering through the index (or, with `indexed` false, through one router over every route). */
function appOf(routes: readonly Route[], indexed: boolean) {
  const full = routerOf(routes);
  const app = new Koa();
  app.use(
    indexed
      ? indexRoutes('/api', routes, (group) => routerOf(group).routes() as unknown as Koa.Middleware, full.routes() as unknown as Koa.Middleware)
      : (full.routes() as unknown as Koa.Middleware),
  );
  app.use(full.allowedMethods());
  return app.callback();
}

const ROUTES: Route[] = [
  { method: 'get', path: '/health' },
  { method: 'get', path: '/servers/stats' },
  { method: 'get', path: '/servers/:guildId/leveling/stats' },
  { method: 'post', path: '/servers/:guildId/leveling/rewards' },
  { method: 'get', path: '/servers/:guildId/leveling/rewards' },
  { method: 'get', path: '/servers/:guildId/shop' },
  { method: 'get', path: '/servers/:guildId/shop/:itemId' },
  { method: 'get', path: '/auth/me' },
];

describe('the route index', () => {
  test('every request is answered as one router over every route answers it: the route, its params, 404 and 405', async () => {
    const indexed = appOf(ROUTES, true);
    const plain = appOf(ROUTES, false);
    const requests: [string, string][] = [
      ['get', '/api/health'],
      ['get', '/api/servers/stats'],
      ['get', '/api/servers/123/leveling/stats'],
      ['get', '/api/servers/123/leveling/rewards'],
      ['post', '/api/servers/123/leveling/rewards'],
      ['post', '/api/servers/123/leveling/stats'],
      ['get', '/api/servers/123/shop'],
      ['get', '/api/servers/123/shop/9'],
      ['get', '/api/servers/123'],
      ['get', '/api/servers/123/nothing'],
      ['get', '/api/servers/stats/leveling'],
      ['get', '/api/health/'],
      ['get', '/API/health'],
      ['get', '/api/auth/me'],
      ['get', '/api/auth/me/x/y'],
      ['get', '/elsewhere'],
    ];
    for (const [method, path] of requests) {
      const [a, b] = await Promise.all([request(indexed)[method as 'get'](path), request(plain)[method as 'get'](path)]);
      assert.equal(a.status, b.status, `${method} ${path}`);
      assert.deepEqual(a.body, b.body, `${method} ${path}`);
      assert.equal(a.headers.allow, b.headers.allow, `${method} ${path}`);
    }
    assert.equal((await request(indexed).get('/api/servers/123/shop/9')).body.ran, 'get /servers/:guildId/shop/:itemId');
    assert.equal((await request(indexed).post('/api/servers/123/leveling/stats')).status, 405);
  });

  test('routes that two groups could both match, or that use modifiers, are not indexed: every request goes to the full router', () => {
    const fallback: Koa.Middleware = (_ctx, next) => next();
    const mount = () => fallback;
    // `/servers/:guildId/stats` (group servers/*/stats) and `/servers/mine/stats` (group servers) both match /servers/mine/stats.
    assert.equal(indexRoutes('/api', [{ path: '/servers/:guildId/stats' }, { path: '/servers/mine/stats' }], mount, fallback), fallback);
    assert.equal(indexRoutes('/api', [{ path: '/files/:rest*' }], mount, fallback), fallback);
    assert.notEqual(indexRoutes('/api', ROUTES, mount, fallback), fallback);
  });

  test("the product's routes are indexed", () => {
    const fallback: Koa.Middleware = (_ctx, next) => next();
    const routes = FEATURES.flatMap((feature) => feature.routes ?? []).map((route) => ({ path: routePath(route) }));
    assert.ok(routes.length > 50);
    assert.notEqual(
      indexRoutes('/api', routes, () => fallback, fallback),
      fallback,
    );
  });
});
