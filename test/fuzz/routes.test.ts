// Issue 13, "Fuzzed": every /api route, read from the features' manifests, gets invalid bodies,
// query strings and path parameters derived from its zod schemas (zod-cases.ts), sent as the demo
// guild's admin. No answer is a 5xx; every 4xx is the API's error JSON; a 400 names the field that
// is wrong, in a sentence naming it in words; and the store holds the same rows after a route's cases as before them.
// FUZZ_SEED=<n> replays another sample; the seed is printed with every failure.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Product } from '../../src/main';
import { routePath, type Method, type RouteSpec } from '../../src/http/route';
import { UNDECLARED_INPUT } from '../../src/http/middleware/validate';
import { ApiErrorSchema } from '../../src/shared/http';
import { useHarness, type Harness } from '../helpers/harness';
import { ROUTE_FIXTURES, routeFixture, routeKey } from '../factories';
import { waitFor } from '../helpers/wait';
import { errorBodyProblems } from '../helpers/sentences';
import { untilStreamOpens } from '../helpers/event-stream';
import { snapshotStore, storeChanges, type Ignored } from '../helpers/store-snapshot';
import { bodyCandidates, encodeComponent, hashSeed, parseQuery, pick, queryCandidates, sampleValid, seededRandom, type Candidate } from './zod-cases';

const SEED = Number(process.env.FUZZ_SEED ?? 13);
/** Cases per field of a body or query (each of a different kind of mistake first). */
const PER_FIELD = 2;
/** Cases for the body or query as a whole (not JSON, not an object, nested too deep, too big). */
const PER_PART = 5;
/** Cases per path parameter; :guildId, checked by one middleware for every route, gets fewer. */
const PER_PARAM = 12;
const PER_GUILD_ID = 3;

/**
 * What may change in the store while every request is refused. Sessions: koa-session rolls the
 * session's expiry on use and /auth/discord/login keeps its OAuth state there. lastSeenAt: the
 * bot records once a minute that it still sees its guilds, whatever the requests. A music player
 * saves its session whenever it changes.
 */
const IGNORED: Ignored[] = [
  { table: 'sessions', why: 'the session in use is touched by every request' },
  { table: 'guild_state', rows: (row) => row.key === 'lastSeenAt', why: 'a heartbeat written once a minute' },
  {
    table: 'music_sessions',
    why: 'a mirror of the player the music fixtures started, saved in the background whenever it changes (a track begins, a position passes)',
  },
];

const h = useHarness({}, { rateLimits: { auth: { max: 100_000, durationMs: 60_000 }, mutations: { max: 100_000, durationMs: 60_000 } } });

/** One request of the fuzz. */
interface Case {
  label: string;
  path: string;
  query: string;
  body: string | undefined;
  /** The field a 400 must name ('' when the whole part is wrong). */
  field: string;
  /** Invalid by the route's own schemas: it must be refused (4xx). */
  mustRefuse: boolean;
}

/** Fills ':name' placeholders of an example with the values its setup made. */
function fill<T>(value: T, values: Record<string, string>): T {
  return JSON.parse(JSON.stringify(value), (_key, inner: unknown) =>
    typeof inner === 'string' && inner.startsWith(':') && inner.slice(1) in values ? values[inner.slice(1)] : inner,
  ) as T;
}

/** Path parameter values a route must refuse or not find: other spellings of a valid id, odd unicode, ids of nothing, too long. */
function paramCandidates(valid: string, unknown: string): { label: string; segment: string }[] {
  const numeric = /^\d+$/.test(valid);
  const spellings = numeric
    ? [
        [`+${valid}`, `+${valid}`],
        [`0${valid}`, `0${valid}`],
        [`${valid}.0`, `${valid}.0`],
        [`${valid}e0`, `${valid}e0`],
        [`0x${Number(valid).toString(16)}`, `0x${Number(valid).toString(16)}`],
        ['fullwidth digits', encodeComponent(valid.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))))],
        ['Arabic-Indic digits', encodeComponent(valid.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))))],
      ]
    : [];
  return [
    ...spellings,
    ['letters', 'abc'],
    ['-1', '-1'],
    ['0', '0'],
    ['1.5', '1.5'],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['prototype', 'prototype'],
    ['a space first', `%20${valid}`],
    ['a space last', `${valid}%20`],
    ['NUL last', `${valid}%00`],
    ['RTL override first', `%E2%80%AE${valid}`],
    ['a zero-width space inside', `${valid.slice(0, 1)}%E2%80%8B${valid.slice(1)}`],
    ['a surrogate half first', `%ED%A0%80${valid}`],
    ['malformed percent-encoding', `${valid}%E0%A4%A`],
    ['40 digits', '9'.repeat(40)],
    ['8,000 characters', 'x'.repeat(8_000)],
    ['70,000 characters (beyond the header limit)', 'x'.repeat(70_000)],
    ['the id of nothing', unknown],
  ].map(([label = '', segment = '']) => ({ label, segment }));
}

/** The query string of a record, as a browser would send it. */
const queryOf = (query: Record<string, string> | undefined) => new URLSearchParams(query ?? {}).toString();

describe('fuzzed input to every /api route', () => {
  /** Every route the features declare. */
  function routesOf(product: Product): RouteSpec[] {
    return product.features.flatMap((feature) => feature.routes ?? []);
  }

  test('every mounted /api route is declared by a feature', () => {
    const { product } = h();
    const declared = new Set(routesOf(product).map((route) => `${route.method.toUpperCase()} /api${routePath(route)}`));
    const mounted = product.api.stack.flatMap((layer) =>
      layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${String(layer.path)}`),
    );
    assert.ok(mounted.length >= 60, `found ${mounted.length} routes`);
    for (const route of mounted) assert.ok(declared.has(route), `${route} is declared`);
  });

  test('every route fixture (test/factories.ts) belongs to a declared guild route, so a renamed route cannot lose its fixture unseen', () => {
    const guildRoutes = new Set(
      routesOf(h().product)
        .filter((route) => route.kind === 'guild')
        .map(routeKey),
    );
    for (const key of Object.keys(ROUTE_FIXTURES)) assert.ok(guildRoutes.has(key), `${key} is a guild route`);
  });

  test('no 5xx, 4xx as error JSON naming the field, and no write', async (t) => {
    const { product, demo, guildId, world } = h();
    const admin = await h().signIn(demo.adminUserId);
    // The moderation examples act on a member with no roles, as the access matrix's do.
    const plain = world.addMember(guildId, { username: 'fuzz_plain' });
    await waitFor(() => product.client.guilds.cache.get(guildId)?.members.cache.has(plain.userId), 5000, 'the new member to reach the bot');
    const origin = product.config.publicUrl;
    const failures: string[] = [];
    const counts: string[] = [];
    let total = 0;
    const started = Date.now();

    for (const route of routesOf(product)) {
      const key = `${route.method.toUpperCase()} ${routePath(route)}`;
      const random = seededRandom(SEED ^ hashSeed(key));
      const example = route.kind === 'guild' ? route.example : {};
      const values: Record<string, string> = {
        self: demo.adminUserId,
        ...(route.kind === 'guild' ? await routeFixture(route, product.services, guildId, demo.adminUserId) : {}),
      };
      // Account routes under a server (a banned member's appeal, /appeals/:guildId/:userId) take the demo guild and the caller.
      const accountParams: Record<string, string> = route.kind === 'account' ? { userId: demo.adminUserId } : {};
      const params: Record<string, string> = { guildId, ...accountParams, ...fill(example.params ?? {}, values), ...values };
      const pathWith = (overrides: Record<string, string>) =>
        `/api${routePath(route)}`.replace(/:(\w+)/g, (_match, name: string) => overrides[name] ?? params[name] ?? `:${name}`);
      const validPath = pathWith({});
      const bodySchema = route.body ?? UNDECLARED_INPUT;
      const querySchema = route.query ?? UNDECLARED_INPUT;
      const baselineBody = example.body !== undefined ? fill(example.body, values) : route.body ? sampleValid(route.body) : {};
      const baselineQuery = fill(example.query ?? {}, values);
      assert.ok(bodySchema.safeParse(baselineBody).success, `${key}: the baseline body is valid`);
      assert.ok(querySchema.safeParse(parseQuery(queryOf(baselineQuery))).success, `${key}: the baseline query is valid`);
      const validBody = route.method === 'get' ? undefined : JSON.stringify(baselineBody);

      const cases: Case[] = [];
      const fromCandidates = (part: 'body' | 'query', candidates: Candidate[]) => {
        const picked = pick(candidates, PER_FIELD, random, PER_PART);
        // Every field of the schema, at every depth, gets at least one invalid case. (Keys it does
        // not know are its fields only when it is strict; a loose one drops them, and no case is left.)
        const covered = new Set(picked.map((candidate) => candidate.field));
        const fields = new Set(
          candidates.filter((candidate) => candidate.category !== 'unknown-key' && candidate.category !== 'prototype').map((candidate) => candidate.field),
        );
        for (const field of fields) if (!covered.has(field)) failures.push(`${key}: no invalid ${part} for ${field}`);
        return picked.map((candidate) => ({
          label: `${part} ${candidate.label}`,
          path: validPath,
          query: part === 'query' ? candidate.payload : queryOf(baselineQuery),
          body: part === 'body' ? candidate.payload : validBody,
          field: candidate.field,
          mustRefuse: true,
        }));
      };
      // GET bodies have no meaning (browsers cannot send them, the body parser skips them).
      if (route.method !== 'get') cases.push(...fromCandidates('body', bodyCandidates(bodySchema, baselineBody)));
      cases.push(...fromCandidates('query', queryCandidates(querySchema, baselineQuery)));
      assert.doesNotMatch(validPath, /\/:/, `${key}: the example gives every path parameter`);
      for (const name of [...routePath(route).matchAll(/:(\w+)/g)].map((match) => match[1] ?? '')) {
        const valid = params[name] ?? '';
        const unknown = name === 'guildId' ? world.demo.secondGuildId : /^\d{15,21}$/.test(valid) ? '100000000000000000' : '2147483647';
        const picks = paramCandidates(valid, unknown)
          .map((candidate) => ({ candidate, order: random() }))
          .sort((a, b) => a.order - b.order);
        for (const { candidate } of picks.slice(0, name === 'guildId' ? PER_GUILD_ID : PER_PARAM)) {
          cases.push({
            label: `:${name} ${candidate.label}`,
            path: pathWith({ [name]: candidate.segment }),
            query: queryOf(baselineQuery),
            body: validBody,
            field: name,
            mustRefuse: false,
          });
        }
      }

      // Counters the example's setup left pending (a join, a message) are written first, and what the cases left, before the second look.
      await product.services.activity.flush();
      const before = await snapshotStore(product.store, IGNORED);
      const accepted: string[] = [];
      for (const one of cases) {
        const { status, problem } = await send(admin.agent, route.method, origin, one, route.kind === 'guild' && route.stream === true);
        if (problem) failures.push(`${key} ${one.label}: ${problem}`);
        if (status >= 200 && status < 400) accepted.push(one.label);
      }
      await product.services.activity.flush();
      const changes = storeChanges(before, await snapshotStore(product.store, IGNORED));
      if (changes.length > 0) failures.push(`${key} wrote to the store: ${changes.join('; ')} (cases answered 2xx: ${accepted.join(' | ') || 'none'})`);
      total += cases.length;
      counts.push(`${key}: ${cases.length}`);
    }

    t.diagnostic(`seed ${SEED}: ${total} cases over ${counts.length} routes in ${Date.now() - started} ms (${counts.join(', ')})`);
    if (({} as Record<string, unknown>).polluted !== undefined) failures.push('Object.prototype was polluted');
    if ((await admin.get('/api/auth/me')).status !== 200) failures.push('the admin was signed out');
    assert.deepEqual(failures.slice(0, 40), [], `seed ${SEED}: ${failures.length} failures`);
  });
});

type Agent = Awaited<ReturnType<Harness['signIn']>>['agent'];

/** Sends one case and judges the answer: its status (0 when none came), and what is wrong with it (null when nothing is). */
async function send(agent: Agent, method: Method, origin: string, one: Case, stream = false): Promise<{ status: number; problem: string | null }> {
  const url = one.query ? `${one.path}?${one.query}` : one.path;
  let pending = agent[method](url).set('Origin', origin);
  // A live stream never ends by itself: its status is enough.
  if (stream) pending = untilStreamOpens(pending);
  if (one.body !== undefined) pending = pending.set('Content-Type', 'application/json').send(one.body);
  try {
    const response = await pending;
    return { status: response.status, problem: judge(response, one) };
  } catch (error) {
    return { status: 0, problem: `the request failed: ${String(error)}` };
  }
}

/** What is wrong with an answer to a case, or null. */
function judge(response: { status: number; text?: string; body: unknown }, one: Case): string | null {
  const { status } = response;
  const text = response.text?.slice(0, 300) ?? '';
  if (status >= 500) return `answered ${status}: ${text}`;
  if (status < 400) return one.mustRefuse ? `answered ${status} to an invalid input: ${text}` : null;
  const error = ApiErrorSchema.safeParse(response.body);
  if (!error.success) return `answered ${status} without the API's error JSON: ${JSON.stringify(text)}`;
  // Issue 26: what a person reads is a sentence naming the field in words (429s and 503s may say "try again").
  const unreadable = errorBodyProblems(response.body, { refusal: status !== 429 && status !== 503 });
  if (unreadable.length > 0) return `answered ${status} with a message a person cannot read: ${unreadable.join('; ')}`;
  if (status !== 400 || one.field === '') return null;
  // The raw JSON, not the parsed schema: a record drops a field named __proto__.
  const named = Object.keys((response.body as { fields?: object }).fields ?? {});
  const field = one.field;
  if (!named.some((name) => name === field || name.startsWith(`${field}.`))) return `answered 400 without naming ${JSON.stringify(field)}: ${text}`;
  return null;
}
