// How soon the dashboard's live stream (GET /api/servers/:guildId/events) tells an open tab what
// happened in Discord (issue 26, point 7: "within a second of the event in Discord"). The product
// runs in this process in sandbox mode (as the tests start it); an admin's stream is open over raw
// HTTP, as a browser's EventSource reads it. Each round: a member joins in the sandbox (the
// overview's count), a moderator bans in Discord itself (the moderation log, through the bot's
// case), and a manager loses Manage Server (their stream must end). Each figure is the time from
// the sandbox's answer to the action until the event arrived on the stream (or the stream ended).
//
// Usage: node --import tsx scripts/bench/live-latency.ts [rounds=20]
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { loadavg } from 'node:os';
import { TOPIC_INTERVAL_MS } from '../../src/features/live/stream';
import { changeOf, openEventStream, sessionCookieOf, type EventStream } from '../../test/helpers/event-stream';
import { startTestProduct } from '../../test/helpers/product';
import { median } from './child';
import { benchReport } from './report';

const rounds = Number(process.argv[2] ?? 20);
const product = await startTestProduct();
const sandbox = product.sandbox;
if (!sandbox) throw new Error('the product did not start in sandbox mode');
const { world } = sandbox;
const guildId = world.demo.guildId;
const path = `/api/servers/${guildId}/events`;
const control = (method: string, route: string, body: unknown) =>
  fetch(`${sandbox.url}/_sandbox${route}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => boolean, what: string) => {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 10_000) throw new Error(`waited 10 s for ${what}`);
    await pause(10);
  }
};
const seen = (userId: string) => until(() => product.client.guilds.cache.get(guildId)?.members.cache.has(userId) === true, 'the bot to see a member');

/** Runs `act`, then answers the ms from its end to the first `topic` notice after it. */
async function noticeAfter(stream: EventStream, topic: string, act: () => Promise<unknown>): Promise<number> {
  const already = stream.events.length;
  await act();
  const done = performance.now();
  const event = await stream.next((candidate) => stream.events.indexOf(candidate) >= already && changeOf(topic)(candidate), 10_000);
  return Math.max(0, event.at - done);
}

const figures: Record<'overview' | 'moderation-log' | 'access ended', number[]> = { overview: [], 'moderation-log': [], 'access ended': [] };
try {
  const stream = await openEventStream(product, path, await sessionCookieOf(product, world.demo.adminUserId));
  if (stream.status !== 200) throw new Error(`the stream answered ${stream.status}`);
  const moderator = world.addMember(guildId, { username: 'bench_moderator', roleIds: [world.demo.roles.moderator] });
  await seen(moderator.userId);
  const managers = world.structure.createRole(guildId, { name: 'Bench Managers', permissions: PermissionFlagsBits.ManageGuild, position: 2 });
  for (let round = 1; round <= rounds; round += 1) {
    figures.overview.push(await noticeAfter(stream, 'overview', async () => world.addMember(guildId, { username: `bench_joiner_${round}` })));
    const target = world.addMember(guildId, { username: `bench_target_${round}` });
    await seen(target.userId);
    await pause(TOPIC_INTERVAL_MS);
    figures['moderation-log'].push(
      await noticeAfter(stream, 'moderation-log', () =>
        control('POST', `/guilds/${guildId}/moderation`, { action: 'ban', actorId: moderator.userId, targetId: target.userId, reason: 'Bench' }),
      ),
    );
    const manager = world.addMember(guildId, { username: `bench_manager_${round}`, roleIds: [managers.id] });
    await seen(manager.userId);
    const theirs = await openEventStream(product, path, await sessionCookieOf(product, manager.userId));
    if (theirs.status !== 200) throw new Error(`the manager's stream answered ${theirs.status}`);
    await until(() => theirs.comments.includes('open'), "the manager's stream to open");
    const revoked = performance.now();
    world.setMemberRoles(guildId, manager.userId, []);
    figures['access ended'].push((await theirs.ended) - revoked);
    await pause(TOPIC_INTERVAL_MS);
  }
  stream.close();
  const report = benchReport('live-latency', 'The live stream: from an action in the sandbox to the open tab (issue 26, point 7)');
  report.line(`${rounds} rounds, one product and its sandbox in this process; load average at the end ${loadavg()[0]?.toFixed(1)}`);
  for (const [name, values] of Object.entries(figures)) {
    const sorted = [...values].sort((a, b) => a - b);
    const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)] ?? 0;
    report.line(
      `${name.padEnd(16)} median ${median(values).toFixed(0)} ms, p90 ${p90.toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms (target: within 1,000 ms)`,
    );
  }
  report.save();
} finally {
  await product.close();
}
