// The Welcome System through the sandbox: the welcome on join pings only the new member whatever
// the admin typed, the join DM (closed DMs noted, never blocking), Test Message with its link or
// Discord's reason, Recent Welcome Messages, the length check after the longest expansion, and
// joins while the bot was offline welcomed once after a restart, never twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { longestWelcome, renderWelcome, WelcomeLogEntrySchema, WELCOME_MISSING_CHANNEL } from '../../src/shared/welcome';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { useHarness } from '../helpers/harness';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

describe('welcome placeholders', () => {
  test('each placeholder is filled in everywhere it appears; unknown braces stay', () => {
    const text = renderWelcome('Hi {user} ({username})! {server} has {membercount} members. {user} {other}', {
      userId: '123',
      username: 'pat',
      server: 'Cafe',
      memberCount: 12345,
    });
    assert.equal(text, 'Hi <@123> (pat)! Cafe has 12,345 members. <@123> {other}');
  });

  test('the longest expansion counts a 20-digit mention, a 32-character name and 25 million members', () => {
    assert.equal(longestWelcome('{user}', 'Cafe'), 23);
    assert.equal(longestWelcome('{username}{server}{membercount}', 'Cafe'), 32 + 4 + '25,000,000'.length);
  });
});

const clock = new ManualClock(Date.UTC(2026, 10, 3, 9));
const h = useHarness({}, { clock });

describe('welcome on join', () => {
  const settingsUrl = () => `/api/servers/${h().guildId}/settings`;
  const admin = () => h().signIn(h().demo.adminUserId);

  before(async () => {
    const session = await admin();
    const saved = await session.put(settingsUrl(), {
      welcomeEnabled: true,
      welcomeChannelId: h().demo.channels.welcome,
      // An admin may type anything: only the new member is ever pinged.
      welcomeMessage: 'Welcome {user} to {server}! @everyone @here <@&' + h().demo.roles.member + '> say hi to {username}, member #{membercount}',
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('a join posts the welcome in the welcome channel, pinging only the new member', async () => {
    const posted = h().waitForMessage(h().demo.channels.welcome, (message) => message.bot && message.content.includes('welcome_newcomer'));
    const joined = h().world.addMember(h().guildId, { username: 'welcome_newcomer' });
    const message = await posted;
    assert.match(message.content, new RegExp(`^Welcome <@${joined.userId}> to Sandbox Community! @everyone @here`));
    assert.deepEqual(message.pinged, { users: [joined.userId], roles: [], everyone: false });
    const recent = await (await admin()).get(`/api/servers/${h().guildId}/welcome/recent`).expect(200);
    const entry = WelcomeLogEntrySchema.array()
      .parse(recent.body)
      .find((row) => row.userId === joined.userId);
    assert.equal(entry?.status, 'sent');
    assert.equal(entry?.source, 'join');
    assert.equal(entry?.dm, 'off');
    assert.match(entry?.url ?? '', new RegExp(`/channels/${h().guildId}/${h().demo.channels.welcome}/${message.id}$`));
  });

  test('the join DM reaches members who accept DMs; closed DMs are noted and the channel message still goes out', async () => {
    const session = await admin();
    await session.put(settingsUrl(), { welcomeDmEnabled: true, welcomeDmMessage: 'Hello {username}, welcome to {server}!' }).expect(200);
    const open = await buildMember(h(), { username: 'dm_open' });
    await waitFor(
      async () =>
        (await h().control<{ content: string }[]>('GET', `/users/${open.userId}/dms`)).body.some(
          (dm) => dm.content === 'Hello dm_open, welcome to Sandbox Community!',
        ),
      5000,
      'the welcome DM',
    );

    const closedUser = h().world.addUser({ username: 'dm_closed', globalName: null, avatar: null, bot: false });
    await h().control('PATCH', `/users/${closedUser.id}`, { dmsOpen: false });
    const posted = h().waitForMessage(h().demo.channels.welcome, (message) => message.content.includes('dm_closed'));
    h().world.addMember(h().guildId, { id: closedUser.id, username: 'dm_closed' });
    await posted;
    const entry = await waitFor(
      async () => {
        const rows = WelcomeLogEntrySchema.array().parse((await session.get(`/api/servers/${h().guildId}/welcome/recent`)).body);
        return rows.find((row) => row.userId === closedUser.id && row.status !== 'pending');
      },
      5000,
      'the welcome log entry',
    );
    assert.equal(entry.status, 'sent');
    assert.equal(entry.dm, 'closed');
    await session.put(settingsUrl(), { welcomeDmEnabled: false }).expect(200);
  });

  test('Test Message posts as if the admin had just joined and answers its link; Discord refusing answers the reason', async () => {
    const session = await admin();
    const test = await session.post(`/api/servers/${h().guildId}/welcome/test`, {}).expect(200);
    const message = (await h().messages(h().demo.channels.welcome)).find((row) => row.id === test.body.messageId);
    assert.ok(message, 'the test message is in the channel');
    assert.match(message.content, new RegExp(`^Welcome <@${h().demo.adminUserId}>`));
    assert.match(test.body.url, new RegExp(`/channels/${h().guildId}/${h().demo.channels.welcome}/${test.body.messageId}$`));

    const denied = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/channels`, {
      name: 'no-bot-here',
      overwrites: [{ id: h().demo.roles.bot, type: 'role', deny: ['SendMessages'] }],
    });
    await waitFor(() => h().product.client.channels.cache.has(denied.body.id), 5000, 'the channel to reach the bot');
    const refused = await session.post(`/api/servers/${h().guildId}/welcome/test`, { welcomeChannelId: denied.body.id, welcomeMessage: 'Draft {user}' });
    assert.equal(refused.status, 422);
    assert.match(refused.body.message, /AwesomeBot cannot send messages in #no-bot-here/);
    const recent = WelcomeLogEntrySchema.array().parse((await session.get(`/api/servers/${h().guildId}/welcome/recent`)).body);
    assert.equal(recent[0]?.source, 'test');
    assert.equal(recent[0]?.status, 'failed');
  });

  test("saving checks the message against Discord's limit after the longest expansion, and a switched-on welcome needs its channel", async () => {
    const session = await admin();
    const long = await session.put(settingsUrl(), { welcomeMessage: `${'x'.repeat(1990)}{username}` });
    assert.equal(long.status, 400);
    assert.match(long.body.fields.welcomeMessage, /can reach 2,022 characters once the placeholders are filled in; Discord allows 2,000/);
    const noChannel = await session.put(settingsUrl(), { welcomeChannelId: null });
    assert.equal(noChannel.status, 400);
    assert.equal(noChannel.body.fields.welcomeChannelId, WELCOME_MISSING_CHANNEL.description);
  });

  test('a server renamed past what its welcome allows: the diagnostics say the welcome message can now run over, and how to fix it', async () => {
    const session = await admin();
    const guild = h().world.requireGuild(h().guildId);
    const name = guild.name;
    // Exactly Discord's 2,000 characters once {server} is filled in, until the server's name grows by two.
    await session.put(settingsUrl(), { welcomeEnabled: true, welcomeMessage: `${'x'.repeat(2000 - name.length)}{server}` }).expect(200);
    const welcomeProblems = async () =>
      DiagnosticsSchema.parse((await session.get(`/api/servers/${h().guildId}/diagnostics?feature=welcome`).expect(200)).body).items.filter(
        (item) => item.subject === 'welcomeMessage',
      );
    assert.deepEqual(await welcomeProblems(), []);
    try {
      h().world.structure.updateGuild(guild, { name: `${name}!!` });
      await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.name === `${name}!!`, 5000, 'the new name to reach the bot');
      assert.deepEqual(
        (await welcomeProblems()).map((item) => [item.problem, item.fix]),
        [['The welcome message can reach 2,002 characters once the placeholders are filled in; Discord allows 2,000.', 'Shorten it on the Welcome page.']],
      );
    } finally {
      h().world.structure.updateGuild(guild, { name });
      await session.put(settingsUrl(), { welcomeMessage: 'Welcome {user}!' }).expect(200);
    }
  });

  test('Recent Welcome Messages keeps the last 20, newest first', async () => {
    const session = await admin();
    for (let i = 0; i < 3; i += 1) await session.post(`/api/servers/${h().guildId}/welcome/test`, {}).expect(200);
    const rows = WelcomeLogEntrySchema.array().parse((await session.get(`/api/servers/${h().guildId}/welcome/recent`)).body);
    assert.ok(rows.length <= 20);
    assert.deepEqual(
      rows.map((row) => row.id),
      [...rows.map((row) => row.id)].sort((a, b) => b - a),
    );
  });
});

describe('joins while the bot was offline', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    await r.start();
    const session = await r.signIn(r.sandbox.world.demo.adminUserId);
    const saved = await session.put(`/api/servers/${r.sandbox.world.demo.guildId}/settings`, {
      welcomeEnabled: true,
      welcomeChannelId: r.sandbox.world.demo.channels.welcome,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(() => r.close());

  const welcomesOf = (userId: string) =>
    r.sandbox.world.messages
      .list(r.sandbox.world.demo.channels.welcome)
      .filter((m) => m.authorId === r.sandbox.world.botUserId && m.content.includes(`<@${userId}>`));

  test('are welcomed once on start (within a day), never twice; older ones are not', async () => {
    const { world } = r.sandbox;
    const guildId = world.demo.guildId;
    await r.stop();
    r.clock.advance(60_000);
    const missed = world.addMember(guildId, { username: 'joined_offline' });
    r.clock.advance(60_000);
    await r.start();
    await waitFor(() => welcomesOf(missed.userId).length === 1, 5000, 'the missed join to be welcomed');

    await r.stop();
    r.clock.advance(30_000);
    // The barrier: a join while offline this time, welcomed by the same catch-up after the earlier one.
    const marker = world.addMember(guildId, { username: 'joined_offline_later' });
    r.clock.advance(30_000);
    await r.start();
    await waitFor(() => welcomesOf(marker.userId).length === 1, 5000, 'the later missed join to be welcomed');
    assert.equal(welcomesOf(missed.userId).length, 1, 'not welcomed twice');

    await r.stop();
    const ancient = world.addMember(guildId, { username: 'joined_long_ago', joinedAt: new Date(r.clock.ms() - 25 * 3_600_000).toISOString() });
    r.clock.advance(26 * 3_600_000);
    const recent = world.addMember(guildId, { username: 'joined_recently' });
    r.clock.advance(60_000);
    await r.start();
    await waitFor(() => welcomesOf(recent.userId).length === 1, 5000, 'the recent join to be welcomed');
    assert.equal(welcomesOf(ancient.userId).length, 0, 'a join over a day old is not welcomed');
  });
});
