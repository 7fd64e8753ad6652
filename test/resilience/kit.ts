// What the resilience suites share: the product on a fresh database of one store backend, the
// demo guild's settings for welcome, auto role and the log channel, and REST faults armed through
// the sandbox (cleared after each test).
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import type { ManualClock } from '../../src/core/clock';
import { useHarness, type Harness } from '../helpers/harness';
import type { StoreBackend } from '../helpers/store';

/** discord.js's REST `retries`: a 5xx is tried 1 + 3 times. */
export const RETRIES = 3;
/** More 5xx than discord.js retries. */
export const STORM = 50;
/** What a failure caused by Discord's 5xx says (src/bot/discord-errors.ts). */
export const DISCORD_DOWN = /Discord did not answer \(50[023] .*\)\. Try again in a moment\./;

/** The Discord routes the actions call, as the sandbox's faults name them. */
export const ROUTES = {
  post: 'POST /channels/:id/messages',
  /** A role given (shop, reaction roles, rewards, the member and verification roles: one request per role). */
  addRole: 'PUT /guilds/:id/members/:id/roles/:id',
  removeRole: 'DELETE /guilds/:id/members/:id/roles/:id',
  /** A timeout. */
  patchMember: 'PATCH /guilds/:id/members/:id',
  ban: 'PUT /guilds/:id/bans/:id',
  kick: 'DELETE /guilds/:id/members/:id',
  /** Opening a DM. */
  dmChannel: 'POST /users/@me/channels',
};

/** The product on a fresh database of `backend`, with the test's clock. Call inside a describe. */
export function useProductOn(backend: StoreBackend, clock: ManualClock): () => Harness {
  const env: NodeJS.ProcessEnv = {};
  let database: { url: string; drop(): Promise<void> } | undefined;
  before(async () => {
    database = await backend.createDatabase();
    env.DATABASE_URL = database.url;
  });
  const h = useHarness(env, { clock });
  after(async () => {
    await database?.drop();
  });
  afterEach(async () => {
    await h().control('POST', '/faults', { clear: true });
  });
  return h;
}

/** Makes the next `count` calls of `route` ('PUT /guilds/:id/bans/:id') answer `status`. */
export async function armFault(h: Harness, route: string, status: 429 | 500 | 502 | 503, count: number): Promise<void> {
  const armed = await h.control('POST', '/faults', { route, status, count, retryAfter: 0.05 });
  assert.equal(armed.status, 204, JSON.stringify(armed.body));
}

/** Welcome on in #welcome, the member role auto-assigned, and the log channel set, as the admin saves them. */
export async function saveCommunitySettings(h: Harness, extra: Record<string, unknown> = {}): Promise<void> {
  const admin = await h.signIn(h.demo.adminUserId);
  const saved = await admin.put(`/api/servers/${h.guildId}/settings`, {
    welcomeEnabled: true,
    welcomeChannelId: h.demo.channels.welcome,
    welcomeMessage: 'Welcome {user}!',
    autoRoleEnabled: true,
    memberRoleId: h.demo.roles.member,
    logChannelId: h.demo.channels.modLog,
    ...extra,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}
