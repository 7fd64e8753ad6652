// The access matrix: every /api/servers/:guildId route, read from the features' manifests (and
// checked against the router, so a route added later is covered without editing this test), is
// called by each kind of user and must answer 401, 400, 403, 404 or 2xx as its access level says.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import request from 'supertest';
import type { Product } from '../../src/main';
import { GUILD_ROUTE_PREFIX, routeAccess, routePath, type GuildRouteSpec } from '../../src/http/route';
import { atLeast, type AccessLevel } from '../../src/shared/access';
import { signInAs, startTestProduct } from '../helpers/product';
import { routeFixture } from '../factories';
import { waitFor } from '../helpers/wait';
import { noiseWav } from '../helpers/audio';
import { untilStreamOpens } from '../helpers/event-stream';

type Session = Awaited<ReturnType<typeof signInAs>>;

describe('access control on every /api/servers/:guildId route', () => {
  let product: Product;
  let guildId: string;
  const sessions = {} as Record<'admin' | 'plainMember' | 'otherAdmin' | 'viewer' | 'editor', Session>;
  /** Who each session is, for examples that act on the caller's own data (':self'). */
  const callers = new Map<Session, string>();

  before(async () => {
    product = await startTestProduct();
    const world = product.sandbox?.world;
    assert.ok(world);
    guildId = world.demo.guildId;
    sessions.admin = await signInAs(product, world.demo.adminUserId);
    sessions.plainMember = await signInAs(product, world.demo.plainMemberId);
    sessions.otherAdmin = await signInAs(product, world.demo.otherAdminUserId);
    const viewer = world.addMember(guildId, { username: 'matrix_viewer' });
    const editor = world.addMember(guildId, { username: 'matrix_editor' });
    // Delegated access adds no Discord power: routes that make the bot hand out a role also need the
    // editor to be able to give it in Discord (test/security/role-escalation.test.ts). Here the
    // editor holds Manage Roles above @Member (and Timeout Members, which pardoning a warning needs
    // in Discord), so the matrix tests the dashboard access alone.
    const roleManager = world.structure.createRole(guildId, {
      name: 'Role Manager',
      permissions: PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ModerateMembers,
      position: 3,
    });
    world.setMemberRoles(guildId, editor.userId, [roleManager.id]);
    await waitFor(
      () => product.client.guilds.cache.get(guildId)?.members.cache.get(editor.userId)?.roles.cache.has(roleManager.id),
      5000,
      'the new members to reach the bot',
    );
    for (const [member, level] of [
      [viewer, 'view'],
      [editor, 'edit'],
    ] as const) {
      await product.services.grants.grant(guildId, {
        subjectType: 'member',
        subjectId: member.userId,
        level,
        expiresAt: null,
        createdBy: world.demo.ownerUserId,
      });
    }
    sessions.viewer = await signInAs(product, viewer.userId);
    sessions.editor = await signInAs(product, editor.userId);
    callers
      .set(sessions.admin, world.demo.adminUserId)
      .set(sessions.plainMember, world.demo.plainMemberId)
      .set(sessions.otherAdmin, world.demo.otherAdminUserId);
    callers.set(sessions.viewer, viewer.userId).set(sessions.editor, editor.userId);
  });
  after(() => product.close());

  /** Every declared guild route. */
  function guildRoutes(): GuildRouteSpec[] {
    return product.features.flatMap((feature) => feature.routes ?? []).filter((route): route is GuildRouteSpec => route.kind === 'guild');
  }

  /** Calls a route as `session` (null: anonymous) on `serverId`, with its example made fresh. */
  async function call(session: Session | null, route: GuildRouteSpec, serverId: string) {
    const callerId = (session && callers.get(session)) ?? product.sandbox?.world.demo.adminUserId ?? '';
    const values: Record<string, string> = { self: callerId, ...(await routeFixture(route, product.services, guildId, callerId)) };
    let path = `/api${routePath(route)}`.replace(':guildId', serverId);
    for (const [name, value] of Object.entries({ ...route.example.params, ...values }))
      path = path.replace(`:${name}`, value.startsWith(':') ? (values[value.slice(1)] ?? value) : value);
    const fill = (value: string) => (value.startsWith(':') && value.slice(1) in values ? (values[value.slice(1)] ?? value) : value);
    if (route.example.query) path += `?${new URLSearchParams(Object.entries(route.example.query).map(([name, value]) => [name, fill(value)]))}`;
    const agent = session ? session.agent : request(product.url);
    const sent = agent[route.method](path).set('Origin', product.config.publicUrl);
    const pending = route.stream ? untilStreamOpens(sent) : sent;
    if (route.example.upload) return pending.set('Content-Type', 'audio/wav').send(noiseWav());
    if (route.example.body === undefined) return pending;
    const body = JSON.parse(JSON.stringify(route.example.body), (_key, value: unknown) =>
      typeof value === 'string' && value.startsWith(':') && value.slice(1) in values ? values[value.slice(1)] : value,
    ) as object;
    return pending.send(body);
  }

  const describeRoute = (route: GuildRouteSpec) => `${route.method.toUpperCase()} ${route.path}`;

  test('every guild route of the router is declared by a feature, with an example', () => {
    const declared = new Set(guildRoutes().map((route) => `${route.method.toUpperCase()} /api${routePath(route)}`));
    const mounted = product.api.stack.flatMap((layer) => {
      const path = String(layer.path);
      if (!path.startsWith(`/api${GUILD_ROUTE_PREFIX}`)) return [];
      return layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${path}`);
    });
    assert.ok(mounted.length >= 10, `found ${mounted.length} guild routes`);
    for (const route of mounted) assert.ok(declared.has(route), `${route} was declared with guildRoute()`);
  });

  test('anonymous: 401', async () => {
    for (const route of guildRoutes()) assert.equal((await call(null, route, guildId)).status, 401, describeRoute(route));
  });

  test('a malformed server id: 400 naming guildId', async () => {
    for (const route of guildRoutes()) {
      const response = await call(sessions.admin, route, 'not-an-id');
      assert.equal(response.status, 400, describeRoute(route));
      assert.ok(response.body.fields?.guildId, `${describeRoute(route)} names guildId`);
    }
  });

  /** Each user's access in the demo guild, and the routes they may therefore call. */
  const ROWS: [keyof typeof sessions, AccessLevel][] = [
    ['plainMember', 'member'],
    ['viewer', 'view'],
    ['editor', 'edit'],
    ['otherAdmin', 'none'],
    ['admin', 'admin'],
  ];
  for (const [who, level] of ROWS) {
    test(`${who} (${level}): 2xx where the route's access allows it, 403 elsewhere`, async () => {
      for (const route of guildRoutes()) {
        const response = await call(sessions[who], route, guildId);
        const allowed = atLeast(level, routeAccess(route));
        if (allowed)
          assert.ok(response.status >= 200 && response.status < 300, `${describeRoute(route)} answered ${response.status} ${JSON.stringify(response.body)}`);
        else assert.equal(response.status, 403, `${describeRoute(route)} answered ${response.status}`);
      }
    });
  }

  test('a guild without the bot: 404', async () => {
    const other = product.sandbox?.world.demo.secondGuildId ?? '';
    for (const route of guildRoutes()) assert.equal((await call(sessions.admin, route, other)).status, 404, describeRoute(route));
  });

  test('granting and then removing Manage Server in Discord takes effect on the next request', async () => {
    const world = product.sandbox?.world;
    assert.ok(world);
    const userId = world.demo.plainMemberId;
    const guild = product.client.guilds.cache.get(guildId);
    const original = [...(guild?.members.cache.get(userId)?.roles.cache.keys() ?? [])].filter((id) => id !== guildId);
    await sessions.plainMember.get(`/api/servers/${guildId}/overview`).expect(403);

    world.setMemberRoles(guildId, userId, [...original, world.demo.roles.moderator]);
    await waitFor(() => guild?.members.cache.get(userId)?.roles.cache.has(world.demo.roles.moderator), 5000, 'the role grant to reach the bot');
    await sessions.plainMember.get(`/api/servers/${guildId}/overview`).expect(200);

    world.setMemberRoles(guildId, userId, original);
    await waitFor(() => !guild?.members.cache.get(userId)?.roles.cache.has(world.demo.roles.moderator), 5000, 'the role removal to reach the bot');
    await sessions.plainMember.get(`/api/servers/${guildId}/overview`).expect(403);
  });
});
