// The live stream of a server (GET /api/servers/:guildId/events) over raw HTTP, as a browser's
// EventSource reads it: refused without a session (401) and to someone who may not view the
// dashboard (403); a notice pushed after an action in the sandbox, for every topic the dashboard
// shows live; ended at once when the admin loses access or signs out (well before the heartbeat
// that would otherwise notice); and nothing left listening once the client goes away. How soon a
// notice arrives (the "within a second") is measured by scripts/bench/live-latency.ts;
// these tests print what they saw.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApplicationCommandType, PermissionFlagsBits } from 'discord-api-types/v10';
import { LIVE_TOPICS } from '../../src/shared/live';
import { HEARTBEAT_MS, TOPIC_INTERVAL_MS } from '../../src/features/live/stream';
import { buildMember, routeFixture } from '../factories';
import { changeOf, openEventStream, sessionCookieOf, type EventStream } from '../helpers/event-stream';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const h = useHarness();
/**
 * "At once": sooner than a third of the heartbeat, which re-checks access on its own (HEARTBEAT_MS),
 * so an end seen within it came from the event, not the heartbeat, however loaded the machine is.
 */
const AT_ONCE_MS = HEARTBEAT_MS / 3;

describe('the live stream of a server', () => {
  const path = () => `/api/servers/${h().guildId}/events`;
  const open = async (userId: string) => openEventStream(h().product, path(), await sessionCookieOf(h().product, userId));
  const opened: EventStream[] = [];
  const adminStream = async () => {
    const stream = await open(h().demo.adminUserId);
    opened.push(stream);
    assert.equal(stream.status, 200);
    return stream;
  };
  /**
   * Runs `act` (the action in Discord or on the dashboard) and waits for `topic`'s notice; answers
   * how long after the action was done (Discord or the API answered) the notice arrived: 0 when it
   * came before (a slash command's case is written before the bot replies).
   */
  const noticeAfter = async (stream: EventStream, topic: string, act: () => Promise<unknown>) => {
    const already = stream.events.length;
    await act();
    const done = performance.now();
    const event = await stream.next((candidate) => stream.events.indexOf(candidate) >= already && changeOf(topic)(candidate), 5000);
    return Math.max(0, event.at - done);
  };
  /** Lets the topic's interval pass, so the notice measured is the next action's own, not coalesced with one before. */
  const pause = () => new Promise((resolve) => setTimeout(resolve, TOPIC_INTERVAL_MS));

  test('signed out: 401 in words; a member without dashboard access: 403', async () => {
    const anonymous = await openEventStream(h().product, path());
    assert.equal(anonymous.status, 401);
    assert.match((JSON.parse(await anonymous.text) as { message: string }).message, /sign in/i);
    const member = await open(h().demo.plainMemberId);
    assert.equal(member.status, 403);
    assert.match((JSON.parse(await member.text) as { message: string }).message, /Manage Server/);
  });

  test('an admin gets an uncompressed, unbuffered event stream', async () => {
    const stream = await adminStream();
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    assert.equal(stream.headers['content-encoding'], undefined);
    assert.match(String(stream.headers['cache-control']), /no-cache/);
    assert.equal(stream.headers['x-accel-buffering'], 'no');
    await waitFor(() => stream.comments.includes('open'), 1000, 'the opening comment');
    stream.close();
  });

  test('each topic the dashboard shows live is noticed after its action in the sandbox', async (t) => {
    const stream = await adminStream();
    const { demo, guildId, world, product } = h();
    const target = await buildMember(h());
    const reporter = await buildMember(h());
    const timings: Record<string, number> = {};
    // A moderator bans in Discord itself: the bot records the case.
    const moderator = await buildMember(h(), { roleIds: [demo.roles.moderator] });
    timings['moderation-log'] = await noticeAfter(stream, 'moderation-log', async () => {
      const banned = await h().control('POST', `/guilds/${guildId}/moderation`, {
        action: 'ban',
        actorId: moderator.userId,
        targetId: target.userId,
        reason: 'Raid',
      });
      assert.ok(banned.status < 300, JSON.stringify(banned.body));
    });
    // The bot registers its commands once ready: /report is there to use.
    await waitFor(() => world.commands.findByName(guildId, 'report', ApplicationCommandType.ChatInput), 10_000, 'the commands to be registered');
    const reported = await buildMember(h());
    timings.reports = await noticeAfter(stream, 'reports', () => h().slash(reporter.userId, 'report', { member: reported.userId, reason: 'Scam links' }));
    timings.overview = await noticeAfter(stream, 'overview', async () => world.addMember(guildId, { username: 'live_newcomer' }));
    // A reaction role, then a member reacting in Discord: the role's stats change.
    const session = await h().signIn(demo.adminUserId);
    const message = await h().control<{ id: string }>('POST', `/channels/${demo.channels.general}/messages`, { authorId: demo.adminUserId, content: 'Roles' });
    const role = await h().control<{ id: string }>('POST', `/guilds/${guildId}/roles`, { name: 'Live' });
    await waitFor(() => product.client.guilds.cache.get(guildId)?.roles.cache.has(role.body.id), 5000, 'the role to reach the bot');
    await session
      .post(`/api/servers/${guildId}/reaction-roles`, { messageId: message.body.id, channelId: demo.channels.general, emoji: '🟢', roleId: role.body.id })
      .expect(200);
    const reactor = await buildMember(h());
    await pause();
    timings['reaction-roles'] = await noticeAfter(stream, 'reaction-roles', async () => {
      await h().control('PUT', `/channels/${demo.channels.general}/messages/${message.body.id}/reactions/${encodeURIComponent('🟢')}/${reactor.userId}`);
    });
    timings.announcements = await noticeAfter(stream, 'announcements', () =>
      session
        .post(`/api/servers/${guildId}/announcements`, { title: 'Live', message: 'Now', channelId: demo.channels.general, priority: 'normal' })
        .expect(200),
    );
    // Music playing (the access matrix's fixture), then paused: now-playing changes.
    await routeFixture({ method: 'get', path: '/music/player' }, product.services, guildId, demo.adminUserId);
    await pause();
    timings.music = await noticeAfter(stream, 'music', async () => {
      await session.post(`/api/servers/${guildId}/music/player/pause`).expect(200);
    });
    const { version } = (await session.get(`/api/servers/${guildId}/settings`).expect(200)).body as { version: number };
    timings.settings = await noticeAfter(stream, 'settings', () =>
      session.put(`/api/servers/${guildId}/settings`, { xpCooldown: 42, baseVersion: version }).expect(200),
    );
    t.diagnostic(`ms from the action done to its notice: ${JSON.stringify(timings)}`);
    assert.deepEqual(Object.keys(timings).sort(), [...LIVE_TOPICS].sort());
    stream.close();
  });

  test('a burst of notices of one topic is one event at once and one more after the interval', async () => {
    const stream = await adminStream();
    const { product, guildId } = h();
    await waitFor(() => stream.comments.includes('open'), 1000, 'the stream to open');
    const sent = performance.now();
    for (let i = 0; i < 20; i += 1) product.services.live.publish(guildId, 'announcements');
    const first = await stream.next(changeOf('announcements'), 1000);
    assert.ok(first.at - sent < 100);
    const second = await stream.next((event) => event !== first && changeOf('announcements')(event), 2000);
    assert.ok(second.at - first.at >= TOPIC_INTERVAL_MS - 20, `${Math.round(second.at - first.at)} ms apart`);
    // The twenty became two: the one at once and the one that carried the rest.
    assert.equal(stream.events.filter(changeOf('announcements')).length, 2);
    stream.close();
  });

  test('an admin who loses Manage Server has their stream ended at once', async (t) => {
    const { world, guildId, product } = h();
    const listening = product.services.live.listenerCount(guildId);
    const manager = world.structure.createRole(guildId, { name: 'Live Managers', permissions: PermissionFlagsBits.ManageGuild, position: 2 });
    const member = await buildMember(h(), { roleIds: [manager.id] });
    const stream = await open(member.userId);
    assert.equal(stream.status, 200);
    await waitFor(() => stream.comments.includes('open'), 1000, 'the stream to open');
    const revoked = performance.now();
    world.setMemberRoles(guildId, member.userId, []);
    const endedAt = await stream.ended;
    t.diagnostic(`ended ${Math.round(endedAt - revoked)} ms after the role was taken in the sandbox`);
    assert.ok(endedAt - revoked < AT_ONCE_MS, `ended ${Math.round(endedAt - revoked)} ms after`);
    assert.deepEqual(
      stream.events.filter((event) => event.event === 'ended').map((event) => JSON.parse(event.data) as unknown),
      [{ reason: 'access' }],
    );
    await waitFor(() => product.services.live.listenerCount(guildId) <= listening, 1000, 'the stream to stop listening');
    // And it cannot be opened again.
    assert.equal((await openEventStream(product, path(), await sessionCookieOf(product, member.userId))).status, 403);
  });

  test('signing out ends the stream at once', async () => {
    const cookie = await sessionCookieOf(h().product, h().demo.adminUserId);
    const stream = await openEventStream(h().product, path(), cookie);
    assert.equal(stream.status, 200);
    const signedOut = performance.now();
    const response = await fetch(`${h().product.url}/api/auth/logout`, { method: 'POST', headers: { Cookie: cookie, Origin: h().product.config.publicUrl } });
    assert.equal(response.status, 204);
    assert.ok((await stream.ended) - signedOut < AT_ONCE_MS);
    assert.ok(stream.events.some((event) => event.event === 'ended' && event.data.includes('signed-out')));
  });

  test('a client that goes away leaves no listener behind', async () => {
    const { product, guildId } = h();
    for (const stream of opened) stream.close();
    await waitFor(() => product.services.live.listenerCount() === 0, 2000, 'earlier streams to stop listening');
    const streams = await Promise.all([1, 2, 3].map(() => open(h().demo.adminUserId)));
    await waitFor(() => product.services.live.listenerCount(guildId) === 3, 1000, 'three listeners');
    for (const stream of streams) stream.close();
    await waitFor(() => product.services.live.listenerCount() === 0, 1000, 'every listener to be gone');
    // Nothing is written to a closed stream: a change after the disconnect reaches no one and fails nothing.
    product.services.live.publish(guildId, 'overview');
    assert.equal(product.services.live.listenerCount(), 0);
  });
});
