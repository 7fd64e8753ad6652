import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import { GUILD_ROUTE_PREFIX, guildRouteSpecs } from '../../src/http/guildRoute';
import type { Product } from '../../src/main';
import { signInAs, startTestProduct } from '../helpers/product';
import { waitFor } from '../helpers/wait';

type Session = Awaited<ReturnType<typeof signInAs>>;

describe('access control on every /api/servers/:serverId route', () => {
  let product: Product;
  let admin: Session;
  let plainMember: Session;
  let otherAdmin: Session;
  let guildId: string;

  before(async () => {
    product = await startTestProduct();
    const demo = product.sandbox?.world.demo;
    assert.ok(demo);
    guildId = demo.guildId;
    admin = await signInAs(product, demo.adminUserId);
    plainMember = await signInAs(product, demo.plainMemberId);
    otherAdmin = await signInAs(product, demo.otherAdminUserId);
  });
  after(() => product.close());

  /** Every guild route, read from the router itself: a route added later is covered without editing this test. */
  function guildRoutes() {
    const prefix = `/api${GUILD_ROUTE_PREFIX}`;
    return product.api.stack.flatMap((layer) => {
      const path = typeof layer.path === 'string' ? layer.path : '';
      if (!path.startsWith(prefix)) return [];
      return layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path, relative: path.slice(prefix.length) }));
    });
  }

  function call(session: Session | null, route: { method: string; path: string; relative: string }, serverId: string) {
    const spec = guildRouteSpecs.get(`${route.method} ${route.relative}`);
    let path = route.path.replace(':serverId', serverId);
    for (const [name, value] of Object.entries(spec?.example.params ?? {})) path = path.replace(`:${name}`, value);
    if (spec?.example.query) path += `?${new URLSearchParams(spec.example.query)}`;
    const agent = session ? session.agent : request(product.url);
    const pending = agent[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path).set('Origin', product.config.publicUrl);
    return spec?.example.body === undefined ? pending : pending.send(spec.example.body as object);
  }

  test('the router has guild routes, each declared with an example', () => {
    const routes = guildRoutes();
    assert.ok(routes.length > 0);
    for (const route of routes) assert.ok(guildRouteSpecs.has(`${route.method} ${route.relative}`), `${route.method} ${route.path} was declared with guildRoute()`);
  });

  test('anonymous: 401', async () => {
    for (const route of guildRoutes()) {
      const response = await call(null, route, guildId);
      assert.equal(response.status, 401, `${route.method} ${route.path}`);
    }
  });

  test('a malformed server id: 400 naming serverId', async () => {
    for (const route of guildRoutes()) {
      const response = await call(admin, route, 'not-an-id');
      assert.equal(response.status, 400, `${route.method} ${route.path}`);
      assert.ok(response.body.fields?.serverId, `${route.method} ${route.path} names serverId`);
    }
  });

  test('a member without rights: 403 on admin routes', async () => {
    for (const route of guildRoutes()) {
      const spec = guildRouteSpecs.get(`${route.method} ${route.relative}`);
      const response = await call(plainMember, route, guildId);
      if (spec?.access === 'manager') assert.equal(response.status, 403, `${route.method} ${route.path}`);
      else assert.ok(response.status < 300, `${route.method} ${route.path} is the member's own data`);
    }
  });

  test("the admin of another guild: 403 on this guild's routes", async () => {
    for (const route of guildRoutes()) {
      const response = await call(otherAdmin, route, guildId);
      assert.equal(response.status, 403, `${route.method} ${route.path}`);
    }
  });

  test('the admin: 2xx', async () => {
    for (const route of guildRoutes()) {
      const response = await call(admin, route, guildId);
      assert.ok(response.status >= 200 && response.status < 300, `${route.method} ${route.path} answered ${response.status} ${JSON.stringify(response.body)}`);
    }
  });

  test('a guild without the bot: 404', async () => {
    const other = product.sandbox?.world.demo.secondGuildId ?? '';
    for (const route of guildRoutes()) {
      const response = await call(admin, route, other);
      assert.equal(response.status, 404, `${route.method} ${route.path}`);
    }
  });

  test('granting and then removing Manage Server in Discord takes effect on the next request', async () => {
    const world = product.sandbox?.world;
    assert.ok(world);
    const userId = world.demo.plainMemberId;
    const guild = product.client.guilds.cache.get(guildId);
    const original = [...(guild?.members.cache.get(userId)?.roles.cache.keys() ?? [])].filter((id) => id !== guildId);
    await plainMember.get(`/api/servers/${guildId}/overview`).expect(403);

    world.setMemberRoles(guildId, userId, [...original, world.demo.roles.moderator]);
    await waitFor(() => guild?.members.cache.get(userId)?.roles.cache.has(world.demo.roles.moderator), 5000, 'the role grant to reach the bot');
    await plainMember.get(`/api/servers/${guildId}/overview`).expect(200);

    world.setMemberRoles(guildId, userId, original);
    await waitFor(() => !guild?.members.cache.get(userId)?.roles.cache.has(world.demo.roles.moderator), 5000, 'the role removal to reach the bot');
    await plainMember.get(`/api/servers/${guildId}/overview`).expect(403);
  });
});
