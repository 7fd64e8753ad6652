// Join raids through the sandbox (issue 24, point 4): a burst of joins turns raid mode on (the
// verification level raised, invites paused with Discord's incident actions, the joiners timed out
// as cases of the bot, the moderators alerted with only their role pinged), and it falls back by
// itself after the quiet period, after a restart too and once with two processes on one store;
// /raid and the dashboard's routes start and end it by hand, a moderator's own level is left alone;
// the account-age rule times out a young account.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits as P } from 'discord.js';
import { moderationState } from '../../src/features/moderation/state';
import { RAID_DEFAULTS, RaidResultSchema, RaidStatusSchema } from '../../src/shared/raids';
import type { ControlMessage, ControlReply } from '../helpers/harness';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';

let r: Restartable;
const world = () => r.sandbox.world;
const guildId = () => world().demo.guildId;
const guildRecord = () => world().requireGuild(guildId());
const modLog = () => world().demo.channels.modLog;
const raidUrl = (action = '') => `/api/servers/${guildId()}/moderation/raid${action ? `/${action}` : ''}`;
const MINUTE = 60_000;

async function control<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${r.sandbox.url}/_sandbox${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

const slash = (userId: string, { action, ...options }: { action: 'status' | 'start' | 'end'; reason?: string }) =>
  control<ControlReply['body']>('POST', '/interactions', {
    guildId: guildId(),
    channelId: world().demo.channels.general,
    userId,
    name: `raid ${action}`,
    options,
  });

/** The log channel's messages posted after `since` of them, once one passes `match`. */
async function nextLogMessage(seen: number, match: (message: ControlMessage) => boolean, what: string): Promise<ControlMessage> {
  return waitFor(async () => (await control<ControlMessage[]>('GET', `/channels/${modLog()}/messages`)).body.slice(seen).find(match), 8000, what);
}
const logCount = () => world().messages.list(modLog()).length;
const titled = (title: string) => (message: ControlMessage) => message.embeds.some((embed) => embed.title === title);

const invitesPausedUntil = () => guildRecord().incidents?.invitesDisabledUntil ?? null;
const timedOut = (userId: string) => Boolean(guildRecord().members.get(userId)?.communicationDisabledUntil);

async function saveSettings(body: object): Promise<void> {
  const admin = await r.signIn(world().demo.adminUserId);
  await admin.put(`/api/servers/${guildId()}/settings`, body).expect(200);
}

/** Puts the server back at a verification level (as an admin in Discord) and waits for the bot to see it. */
async function setLevel(level: number): Promise<void> {
  assert.equal((await control('PATCH', `/guilds/${guildId()}`, { verificationLevel: level })).status, 200);
  await waitFor(() => r.product().client.guilds.cache.get(guildId())?.verificationLevel === level || undefined, 5000, `level ${level} seen by the bot`);
}

const rule = {
  ...RAID_DEFAULTS.raidRule,
  enabled: true,
  joins: 5,
  seconds: 10,
  quietMinutes: 10,
  verificationLevel: 'high' as const,
  timeoutDuration: '1h' as const,
};

describe('join raids', () => {
  let alertRoleId = '';
  before(async () => {
    r = await restartable();
    await r.start();
    const botRole = guildRecord().roles.get(world().demo.roles.bot);
    assert.ok(botRole);
    world().structure.updateRole(guildId(), botRole, { permissions: botRole.permissions | P.ManageGuild });
    await waitFor(() => r.product().client.guilds.cache.get(guildId())?.members.me?.permissions.has(P.ManageGuild) || undefined, 5000, 'Manage Server');
    await setLevel(1);
    // Discord pings a role the bot names only when the role is mentionable (the bot has no Mention Everyone).
    const alertRole = await control<{ id: string }>('POST', `/guilds/${guildId()}/roles`, { name: 'Raid Watch', mentionable: true });
    alertRoleId = alertRole.body.id;
    await waitFor(() => r.product().client.guilds.cache.get(guildId())?.roles.cache.has(alertRoleId) || undefined, 5000, 'the alert role');
    await saveSettings({ logChannelId: modLog(), raidRule: { ...rule, alertRoleId } });
  });
  after(() => r.close());

  test('a burst of joins raises the level, pauses invites, times out the joiners and alerts; quiet, it all goes back', async () => {
    const seen = logCount();
    const burst = await control<{ userIds: string[] }>('POST', `/guilds/${guildId()}/members/burst`, { count: 6, prefix: 'raidA' });
    assert.equal(burst.status, 201);
    const alert = await nextLogMessage(seen, titled('Raid mode on'), 'the raid alert');
    assert.deepEqual(alert.pinged, { users: [], roles: [alertRoleId], everyone: false }, 'only the alert role is pinged');
    assert.match(
      alert.embeds[0]?.description ?? '',
      /Raid protection: 5 joins in 10 seconds\. Raid mode: verification raised to High, invites paused, 5 members timed out/,
    );
    assert.equal(guildRecord().verificationLevel, 3);
    assert.ok(Date.parse(invitesPausedUntil() ?? '') > r.clock.ms() + 23 * 60 * MINUTE, 'invites paused for nearly a day');
    await waitFor(() => burst.body.userIds.every(timedOut) || undefined, 5000, 'all six joiners timed out (the sixth joined during raid mode)');

    // Each timeout is done in Discord first, then recorded: wait for the sixth case.
    const cases = await waitFor(
      async () => {
        const rows = await r.product().store.models.ModerationLog.findAll({ where: { guildId: guildId(), action: 'timeout', source: 'automatic' } });
        const ofBurst = rows.filter((row) => burst.body.userIds.includes(row.targetId));
        return ofBurst.length >= 6 ? ofBurst : undefined;
      },
      5000,
      'six timeout cases',
    );
    const reasons = cases.map((row) => row.reason);
    assert.deepEqual(reasons.sort(), [...Array<string>(5).fill('Raid protection: 5 joins in 10 seconds'), 'Raid protection: joined during raid mode'].sort());
    assert.ok(cases.every((row) => row.moderatorId === world().botUserId));

    const admin = await r.signIn(world().demo.adminUserId);
    const status = RaidStatusSchema.parse((await admin.get(raidUrl()).expect(200)).body);
    assert.equal(status.active, true);
    assert.equal(status.raisedTo, 3);
    assert.equal(status.previousLevel, 1);
    assert.equal(status.timedOut, 6);

    const clear = logCount();
    r.clock.advance(10 * MINUTE + 1000);
    const allClear = await nextLogMessage(clear, titled('All clear: raid mode off'), 'the all clear');
    assert.deepEqual(allClear.pinged.roles, [], 'the all clear pings nobody');
    assert.match(allClear.embeds[0]?.description ?? '', /Verification back to Low, invites resumed/);
    assert.equal(guildRecord().verificationLevel, 1);
    assert.equal(invitesPausedUntil(), null);
    assert.equal(RaidStatusSchema.parse((await admin.get(raidUrl()).expect(200)).body).active, false);
  });

  test('/raid: status, start and end by hand; a level a moderator set meanwhile stays', async () => {
    const moderator = world().addMember(guildId(), { username: 'raid_mod', roleIds: [world().demo.roles.moderator] });
    await waitFor(() => r.product().client.guilds.cache.get(guildId())?.members.cache.has(moderator.userId) || undefined, 5000, 'the moderator');
    const quiet = await slash(moderator.userId, { action: 'status' });
    assert.equal(quiet.body.content, 'No raid: the rule is watching joins.');
    assert.equal(quiet.body.ephemeral, true);
    const started = await slash(moderator.userId, { action: 'start', reason: 'spam wave' });
    assert.equal(started.body.content, 'Raid mode is on: verification raised to High, invites paused.');
    assert.equal(started.body.ephemeral, true);
    assert.equal((await slash(moderator.userId, { action: 'start' })).body.content, 'Raid mode is already on.');
    assert.match(
      (await slash(moderator.userId, { action: 'status' })).body.content,
      /^Raid mode since <t:\d+:t> — verification raised to High, invites paused\n/,
    );
    await setLevel(4);
    const ended = await slash(moderator.userId, { action: 'end' });
    assert.equal(ended.body.content, 'Raid mode is off: verification left at Highest, as a moderator set it, invites resumed.');
    assert.equal(guildRecord().verificationLevel, 4);
    assert.equal(invitesPausedUntil(), null);
    assert.equal((await slash(moderator.userId, { action: 'end' })).body.content, 'Raid mode is not on.');
    const plain = await slash(world().demo.plainMemberId, { action: 'start' });
    assert.notEqual(plain.body.content, 'Raid mode is on: verification raised to High, invites paused.');
    await setLevel(1);
  });

  test('POST /moderation/raid/start and /end: 401 signed out, 400 naming the field, 403 for a member, then 200', async () => {
    const anonymous = await fetch(`${r.product().url}${raidUrl('start')}`, {
      method: 'POST',
      headers: { Origin: r.product().config.publicUrl, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(anonymous.status, 401);
    const admin = await r.signIn(world().demo.adminUserId);
    const bad = await admin.post(raidUrl('start'), { reason: 7 }).expect(400);
    assert.equal(bad.body.fields.reason, 'Reason must be text.');
    await admin.post(raidUrl('start'), { because: 'x' }).expect(400);
    assert.equal(guildRecord().verificationLevel, 1, 'bad input changes nothing');
    const member = await r.signIn(world().demo.plainMemberId);
    await member.post(raidUrl('start'), {}).expect(403);
    await member.get(raidUrl()).expect(403);
    const started = RaidResultSchema.parse((await admin.post(raidUrl('start'), { reason: 'from the dashboard' }).expect(200)).body);
    assert.equal(started.status.active, true);
    assert.equal(started.status.trigger, 'manual');
    assert.equal(guildRecord().verificationLevel, 3);
    await admin.post(raidUrl('start'), {}).expect(409);
    const ended = RaidResultSchema.parse((await admin.post(raidUrl('end'), {}).expect(200)).body);
    assert.equal(ended.status.active, false);
    assert.equal(ended.message, 'Raid mode is off: verification back to Low, invites resumed.');
    assert.equal(guildRecord().verificationLevel, 1);
    await admin.post(raidUrl('end'), {}).expect(409);
    const refused = await admin.put(`/api/servers/${guildId()}/settings`, { raidRule: { ...rule, joins: 2, seconds: 601 } }).expect(400);
    assert.equal(refused.body.fields['raidRule.joins'], 'Join-raid protection: joins must be between 3 and 100.');
    assert.equal(refused.body.fields['raidRule.seconds'], 'Join-raid protection: seconds must be between 5 and 600.');
  });

  test('what the bot lacks is said in words: raid mode still starts, and the card and the answer name the missing permission', async () => {
    const botRole = guildRecord().roles.get(world().demo.roles.bot);
    assert.ok(botRole);
    world().structure.updateRole(guildId(), botRole, { permissions: botRole.permissions & ~P.ManageGuild });
    await waitFor(() => !r.product().client.guilds.cache.get(guildId())?.members.me?.permissions.has(P.ManageGuild) || undefined, 5000, 'no Manage Server');
    const admin = await r.signIn(world().demo.adminUserId);
    const started = RaidResultSchema.parse((await admin.post(raidUrl('start'), {}).expect(200)).body);
    assert.match(
      started.message,
      /^Raid mode is on: nothing changed in Discord\. Verification level not raised: AwesomeBot needs the Manage Server permission/,
    );
    assert.deepEqual(
      started.status.problems.map((problem) => problem.split(':')[0]),
      ['Verification level not raised', 'Invites not paused'],
    );
    assert.equal(guildRecord().verificationLevel, 1);
    const ended = RaidResultSchema.parse((await admin.post(raidUrl('end'), {}).expect(200)).body);
    assert.equal(ended.message, 'Raid mode is off: nothing to undo in Discord.');
    world().structure.updateRole(guildId(), botRole, { permissions: botRole.permissions | P.ManageGuild });
    await waitFor(() => r.product().client.guilds.cache.get(guildId())?.members.me?.permissions.has(P.ManageGuild) || undefined, 5000, 'Manage Server');
  });

  test('the text command: raid status', async () => {
    const posted = await control<{ id: string }>('POST', `/channels/${world().demo.channels.general}/messages`, {
      authorId: world().demo.adminUserId,
      content: '!raid status',
    });
    assert.equal(posted.status, 201);
    const reply = await waitFor(
      async () =>
        (await control<ControlMessage[]>('GET', `/channels/${world().demo.channels.general}/messages`)).body.find((m) => m.replyTo === posted.body.id),
      5000,
      'the reply',
    );
    assert.equal(reply.content, 'No raid: the rule is watching joins.');
  });

  test('a long raid mode renews the invite pause before Discord’s 24 hours run out', async () => {
    await saveSettings({ raidRule: { ...rule, alertRoleId, quietMinutes: 1440 } });
    const admin = await r.signIn(world().demo.adminUserId);
    await admin.post(raidUrl('start'), {}).expect(200);
    const first = Date.parse(invitesPausedUntil() ?? '');
    r.clock.advance(12 * 60 * MINUTE + MINUTE);
    await waitFor(() => Date.parse(invitesPausedUntil() ?? '') > first || undefined, 5000, 'the pause renewed');
    assert.ok(Date.parse(invitesPausedUntil() ?? '') <= r.clock.ms() + 24 * 60 * MINUTE);
    await admin.post(raidUrl('end'), {}).expect(200);
    await saveSettings({ raidRule: { ...rule, alertRoleId } });
  });

  test('the account-age rule times out an account younger than N days, with the reason in words', async () => {
    await saveSettings({ accountAgeRule: { enabled: true, minDays: 7, action: 'timeout', duration: '90d' } });
    const young = await control<{ id: string }>('POST', `/guilds/${guildId()}/members`, { username: 'fresh_acct', accountAgeDays: 2 });
    const old = await control<{ id: string }>('POST', `/guilds/${guildId()}/members`, { username: 'old_acct', accountAgeDays: 30 });
    await waitFor(() => timedOut(young.body.id) || undefined, 5000, 'the young account timed out');
    const row = await waitFor(
      () => r.product().store.models.ModerationLog.findOne({ where: { guildId: guildId(), targetId: young.body.id, action: 'timeout' } }),
      5000,
      'its case',
    );
    assert.equal(row.reason, 'Account age: created 2 days ago, younger than 7 days');
    // 90 days: Discord holds 28 of them, the case the whole length (the renewal reads it).
    assert.ok(Math.abs((row.expiresAt?.getTime() ?? 0) - (row.createdAt.getTime() + 90 * 86_400_000)) < 5000, 'the case runs the whole 90 days');
    assert.equal(timedOut(old.body.id), false);
    await saveSettings({ accountAgeRule: { enabled: true, minDays: 7, action: 'flag', duration: null } });
    const seen = logCount();
    const flagged = await control<{ id: string }>('POST', `/guilds/${guildId()}/members`, { username: 'fresh_flag', accountAgeDays: 0 });
    const flag = await nextLogMessage(seen, titled('New account joined'), 'the flag');
    assert.equal(flag.embeds[0]?.description, `fresh_flag (${flagged.body.id}) joined. Account age: created today, younger than 7 days.`);
    assert.deepEqual(flag.pinged.roles, []);
    assert.equal(timedOut(flagged.body.id), false, 'a flag only tells the moderators');
    await saveSettings({ accountAgeRule: RAID_DEFAULTS.accountAgeRule });
  });

  test('raid mode on when the bot stops falls back after the next start; with two processes, once', async () => {
    const seen = logCount();
    await control('POST', `/guilds/${guildId()}/members/burst`, { count: 5, prefix: 'raidB' });
    await nextLogMessage(seen, titled('Raid mode on'), 'the raid alert');
    assert.equal(guildRecord().verificationLevel, 3);
    await r.stop();
    r.clock.advance(11 * MINUTE);
    const clear = logCount();
    const first = await r.start();
    const second = await r.start();
    await nextLogMessage(clear, titled('All clear: raid mode off'), 'the all clear after the restart');
    assert.equal(guildRecord().verificationLevel, 1);
    assert.equal(invitesPausedUntil(), null);
    // Both processes have checked again since (each check waits for the one in progress): still one all clear.
    await Promise.all([first, second].map((product) => moderationState.of(product.services).raids.check.run()));
    const clears = world()
      .messages.list(modLog())
      .slice(clear)
      .filter((message) => message.embeds.some((embed) => embed.title === 'All clear: raid mode off'));
    assert.equal(clears.length, 1);
    await r.stop();
  });
});
