// Leveling resets with undo, XP adjustments and imports (issue 25, points 1 and 2), through the
// HTTP routes and the bot in the sandbox: a backup before every reset and import, restorable for 7
// days of the product clock; a restore puts back exactly what was there; adjustments kept in a
// history; imports validated by line, previewed, applied, undone; level roles follow every change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { levelFromTotal } from '../../src/shared/leveling';
import { pruneAllExpiredBackups } from '../../src/features/leveling/backups';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember } from '../factories';

const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
const h = useHarness({}, { clock });
const url = (path: string) => `/api/servers/${h().guildId}${path}`;
const DAY = 86_400_000;

/** A member's level row as the store has it (null: none). */
async function rowOf(userId: string) {
  const row = await h().product.store.models.UserLevel.findOne({ where: { guildId: h().guildId, userId } });
  return row ? { level: row.level, xp: row.xp, totalXp: row.totalXp, messagesCount: row.messagesCount } : null;
}

/** Every level row of the guild, by member. */
async function allRows() {
  const rows = await h().product.store.models.UserLevel.findAll({ where: { guildId: h().guildId }, order: [['userId', 'ASC']] });
  return rows.map((row) => ({ userId: row.userId, level: row.level, xp: row.xp, totalXp: row.totalXp, messagesCount: row.messagesCount }));
}

/** A new member with this much XP (given by the admin). */
async function memberWithXp(amount: number) {
  const member = await buildMember(h());
  const admin = await h().signIn(h().demo.adminUserId);
  await admin.post(url('/leveling/adjust'), { userId: member.userId, amount, reason: 'seed' }).expect(200);
  return member;
}

describe('leveling admin routes: 401, 400, 403, 200', () => {
  test('each route refuses the signed-out, bad input and a plain member, and serves an admin', async () => {
    const target = await buildMember(h());
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await buildAccount(h());
    await admin.post(url('/leveling/adjust'), { userId: target.userId, amount: 300, reason: 'seed' }).expect(200);
    const csv = { format: 'csv', content: `${target.userId},900` };
    const routes: { method: 'get' | 'post'; path: string; good?: object; bad?: { path?: string; body?: object; field: string } }[] = [
      {
        method: 'post',
        path: '/leveling/adjust',
        good: { userId: target.userId, amount: 5, reason: 'prize' },
        bad: { body: { userId: target.userId, amount: 0, reason: 'x' }, field: 'amount' },
      },
      { method: 'get', path: '/leveling/adjustments', bad: { path: '/leveling/adjustments?page=0', field: 'page' } },
      { method: 'post', path: '/leveling/import/preview', good: csv, bad: { body: { format: 'xls', content: 'a' }, field: 'format' } },
      { method: 'post', path: '/leveling/import', good: csv, bad: { body: { ...csv, content: 'abc,1' }, field: 'content' } },
      { method: 'post', path: '/leveling/reset', good: { userId: target.userId }, bad: { body: { userId: 'nobody' }, field: 'userId' } },
      { method: 'get', path: '/leveling/backups' },
    ];
    for (const route of routes) {
      const anonymous = await fetch(`${h().product.url}${url(route.path)}`, {
        method: route.method.toUpperCase(),
        headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
        body: route.method === 'post' ? JSON.stringify(route.good ?? {}) : undefined,
      });
      assert.equal(anonymous.status, 401, route.path);
      if (route.bad) {
        const path = url(route.bad.path ?? route.path);
        const bad = route.method === 'post' ? await admin.post(path, route.bad.body).expect(400) : await admin.get(path).expect(400);
        assert.ok(bad.body.fields?.[route.bad.field], `${route.path} names ${route.bad.field}: ${JSON.stringify(bad.body)}`);
      }
      if (route.method === 'post') await member.session.post(url(route.path), route.good ?? {}).expect(403);
      else await member.session.get(url(route.path)).expect(403);
      if (route.method === 'post') await admin.post(url(route.path), route.good ?? {}).expect(200);
      else await admin.get(url(route.path)).expect(200);
    }
    const [backup] = (await admin.get(url('/leveling/backups')).expect(200)).body as { id: number }[];
    assert.ok(backup);
    const restorePath = url(`/leveling/backups/${backup.id}/restore`);
    assert.equal((await fetch(`${h().product.url}${restorePath}`, { method: 'POST', headers: { Origin: h().product.config.publicUrl } })).status, 401);
    await admin.post(url('/leveling/backups/abc/restore'), {}).expect(400);
    await member.session.post(restorePath, {}).expect(403);
    await admin.post(restorePath, {}).expect(200);
    assert.equal((await rowOf(target.userId))?.totalXp, 900, 'the reset undone: the imported 900 XP are back');
  });
});

describe('reset and restore', () => {
  test('the whole server is reset after a backup; a restore puts back exactly what was there, once', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const [a, b] = [await memberWithXp(1200), await memberWithXp(40)];
    const before = await allRows();
    assert.ok(before.length >= 2);
    const reset = (await admin.post(url('/leveling/reset'), {}).expect(200)).body as { members: number; backupId: number; message: string };
    assert.equal(reset.members, before.length);
    assert.match(reset.message, /Every member’s XP and level are reset .* Restore it within 7 days/);
    assert.deepEqual(await allRows(), []);
    assert.equal((await admin.get(url('/leaderboard/levels')).expect(200)).body.total, 0);
    // XP earned after the reset is replaced by the restore (RESTORE_RULE).
    await admin.post(url('/leveling/adjust'), { userId: a.userId, amount: 15, reason: 'after the reset' }).expect(200);
    const listed = (await admin.get(url('/leveling/backups')).expect(200)).body as {
      id: number;
      daysLeft: number;
      restoredAt: string | null;
      summary: string;
    }[];
    assert.equal(listed[0]?.id, reset.backupId);
    assert.equal(listed[0]?.daysLeft, 7);
    assert.match(listed[0]?.summary ?? '', /Reset the whole server’s levels/);
    const restored = await admin.post(url(`/leveling/backups/${reset.backupId}/restore`), {}).expect(200);
    assert.match(restored.body.message, /^Restored \d+ members as they were before/);
    assert.deepEqual(await allRows(), before);
    assert.equal((await rowOf(b.userId))?.totalXp, 40);
    const again = await admin.post(url(`/leveling/backups/${reset.backupId}/restore`), {}).expect(409);
    assert.match(again.body.message, /already restored/);
  });

  test('a backup can be restored for 7 days of the product clock, then it is pruned', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await memberWithXp(500);
    const reset = (await admin.post(url('/leveling/reset'), { userId: member.userId }).expect(200)).body as { backupId: number };
    assert.equal(await rowOf(member.userId), null);
    clock.advance(6 * DAY + 23 * 3_600_000);
    const lastDay = (await admin.get(url('/leveling/backups')).expect(200)).body as { id: number; daysLeft: number }[];
    assert.equal(lastDay.find((backup) => backup.id === reset.backupId)?.daysLeft, 1, 'its last day');
    clock.advance(3_600_000);
    const after = (await admin.get(url('/leveling/backups')).expect(200)).body as { id: number }[];
    assert.equal(
      after.find((backup) => backup.id === reset.backupId),
      undefined,
    );
    assert.equal(await h().product.store.models.LevelBackup.count({ where: { id: reset.backupId } }), 0, 'pruned from the store');
    const gone = await admin.post(url(`/leveling/backups/${reset.backupId}/restore`), {}).expect(404);
    assert.match(gone.body.message, /its 7 days are over/);
    assert.equal(await rowOf(member.userId), null);
  });

  test('the hourly prune forgets expired backups of every guild, unlisted ones too', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await memberWithXp(70);
    const reset = (await admin.post(url('/leveling/reset'), { userId: member.userId }).expect(200)).body as { backupId: number };
    const count = () => h().product.store.models.LevelBackup.count({ where: { id: reset.backupId } });
    await pruneAllExpiredBackups(h().product.services);
    assert.equal(await count(), 1, 'kept within its 7 days');
    clock.advance(7 * DAY);
    await pruneAllExpiredBackups(h().product.services);
    assert.equal(await count(), 0);
  });
});

describe('XP adjustments', () => {
  test('give and take with a reason, kept in the history; never below 0; bots refused', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const member = await buildMember(h(), { username: 'climber' });
    const given = (await admin.post(url('/leveling/adjust'), { userId: member.userId, amount: 400, reason: 'Won the quiz' }).expect(200)).body;
    assert.deepEqual(
      { amount: given.adjustment.amount, fromXp: given.adjustment.fromXp, toXp: given.adjustment.toXp, toLevel: given.adjustment.toLevel },
      { amount: 400, fromXp: 0, toXp: 400, toLevel: 3 },
    );
    assert.deepEqual(await rowOf(member.userId), { ...levelFromTotal(400), totalXp: 400, messagesCount: 0 });
    const tooMuch = await admin.post(url('/leveling/adjust'), { userId: member.userId, amount: -401, reason: 'oops' }).expect(400);
    assert.equal(tooMuch.body.message, 'climber has 400 XP: you can take at most that.');
    await admin.post(url('/leveling/adjust'), { userId: member.userId, amount: -100, reason: 'Spam' }).expect(200);
    const bot = await admin.post(url('/leveling/adjust'), { userId: h().world.botUserId, amount: 5, reason: 'x' }).expect(400);
    assert.equal(bot.body.fields.userId, 'Bots do not earn XP.');
    const history = (await admin.get(url('/leveling/adjustments')).expect(200)).body as {
      entries: { userId: string; amount: number; reason: string; actorName: string }[];
    };
    const mine = history.entries.filter((entry) => entry.userId === member.userId);
    assert.deepEqual(
      mine.map((entry) => [entry.amount, entry.reason]),
      [
        [-100, 'Spam'],
        [400, 'Won the quiz'],
      ],
    );
    assert.ok(mine.every((entry) => entry.actorName));
  });
});

describe('imports', () => {
  test('a bad row refuses the file by line; a preview says who, from and to; the import applies and is undone', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const [known, fresh] = [await memberWithXp(100), await buildMember(h())];
    const bad = await admin
      .post(url('/leveling/import/preview'), { format: 'csv', content: `user_id,xp\n${known.userId},5000\n${fresh.userId},lots\n` })
      .expect(400);
    assert.match(bad.body.fields.content, /Line 3: the XP “lots” is not a whole number/);
    const content = JSON.stringify({
      players: [
        { id: known.userId, xp: 5000, level: 9 },
        { id: fresh.userId, xp: 160, username: 'newcomer', message_count: 12 },
      ],
    });
    const preview = (await admin.post(url('/leveling/import/preview'), { format: 'mee6', content }).expect(200)).body;
    assert.deepEqual({ total: preview.total, changed: preview.changed, added: preview.added }, { total: 2, changed: 2, added: 1 });
    assert.deepEqual(
      preview.rows.map((row: { userId: string; fromXp: number; toXp: number; toLevel: number }) => [row.userId, row.fromXp, row.toXp, row.toLevel]),
      [
        [known.userId, 100, 5000, levelFromTotal(5000).level],
        [fresh.userId, 0, 160, 2],
      ],
    );
    assert.equal((await rowOf(known.userId))?.totalXp, 100, 'a preview changes nothing');
    const applied = (await admin.post(url('/leveling/import'), { format: 'mee6', content }).expect(200)).body;
    assert.equal((await rowOf(known.userId))?.totalXp, 5000);
    assert.deepEqual(await rowOf(fresh.userId), { level: 2, xp: 5, totalXp: 160, messagesCount: 12 });
    await admin.post(url(`/leveling/backups/${applied.backupId}/restore`), {}).expect(200);
    assert.equal((await rowOf(known.userId))?.totalXp, 100);
    assert.equal(await rowOf(fresh.userId), null, 'a member the import added has no XP again');
  });
});

describe('/xp and /levels in the sandbox', () => {
  test('/levels reset with no member asks for a click; the click resets everyone and offers Restore, held to Manage Server', async () => {
    const member = await memberWithXp(800);
    const asked = (await h().slash(h().demo.adminUserId, 'levels reset', {})) as unknown as { status: number; body: { content: string; messageId: string } };
    assert.match(asked.body.content, /This resets \*\*every member’s XP and level\*\*/);
    assert.equal((await rowOf(member.userId))?.totalXp, 800, 'nothing reset before the click');
    type Click = { status: number; body: { updated?: { content: string; components: { components: { custom_id: string }[] }[] } } };
    const click = (userId: string, customId: string, messageId: string) =>
      h().control('POST', '/interactions/component', { channelId: h().demo.channels.general, userId, messageId, customId }) as Promise<Click>;
    const reset = await click(h().demo.adminUserId, 'levels:reset-all', asked.body.messageId);
    assert.match(reset.body.updated?.content ?? '', /Every member’s XP and level are reset/);
    assert.equal(await rowOf(member.userId), null);
    const restoreId = reset.body.updated?.components[0]?.components[0]?.custom_id ?? '';
    assert.match(restoreId, /^levels:restore:\d+$/);
    const refused = (await click(h().demo.plainMemberId, restoreId, asked.body.messageId)) as Click & { body: { content?: string } };
    assert.equal(refused.body.updated, undefined, JSON.stringify(refused.body));
    assert.match(refused.body.content ?? '', /Manage Server/);
    assert.equal(await rowOf(member.userId), null, 'a member without Manage Server restores nothing');
    const restored = await click(h().demo.adminUserId, restoreId, asked.body.messageId);
    assert.match(restored.body.updated?.content ?? '', /^Restored \d+ members/);
    assert.equal((await rowOf(member.userId))?.totalXp, 800);
  });

  test('/xp give reaches the level and its role; /xp take and /levels reset take it back; /levels restore returns it', async () => {
    const role = h().demo.roles.member;
    const reward = await h().product.store.models.LevelReward.create({ guildId: h().guildId, level: 3, roleId: role, createdAt: new Date() });
    try {
      const member = await buildMember(h(), { username: 'quizzer' });
      const hasRole = () => h().world.requireGuild(h().guildId).members.get(member.userId)?.roleIds.includes(role) ?? false;
      const given = await h().slash(h().demo.adminUserId, 'xp give', { member: member.userId, amount: 400, reason: 'Quiz winner' });
      assert.match(given.body.content, /^Gave 400 XP to quizzer \(Quiz winner\)\. They are now level 3, with 400 XP\.$/);
      assert.equal(given.body.ephemeral, true);
      await waitFor(hasRole, 5000, 'the level 3 reward');
      const taken = await h().slash(h().demo.adminUserId, 'xp take', { member: member.userId, amount: 300, reason: 'Mistake' });
      assert.match(taken.body.content, /^Took 300 XP from quizzer \(Mistake\)\. They are now level 1/);
      await waitFor(() => !hasRole(), 5000, 'the reward taken with the level');
      await h().slash(h().demo.adminUserId, 'xp give', { member: member.userId, amount: 300, reason: 'Back' });
      await waitFor(hasRole, 5000, 'the reward again');
      const reset = await h().slash(h().demo.adminUserId, 'levels reset', { member: member.userId });
      assert.match(reset.body.content, /quizzer’s XP and level are reset/);
      await waitFor(() => !hasRole(), 5000, 'the reward taken by the reset');
      const restored = await h().slash(h().demo.adminUserId, 'levels restore', {});
      assert.match(restored.body.content, /^Restored 1 member as they were before “Reset quizzer’s XP and level”/);
      assert.equal((await rowOf(member.userId))?.totalXp, 400);
      await waitFor(hasRole, 5000, 'the reward back with the restore');
      const plain = await buildMember(h());
      const refused = await h().slash(plain.userId, 'xp give', { member: member.userId, amount: 5, reason: 'me' });
      // Discord itself refuses a command whose default permission the member lacks.
      assert.ok(refused.status >= 400, JSON.stringify(refused));
      assert.equal((await rowOf(member.userId))?.totalXp, 400);
    } finally {
      await reward.destroy();
    }
  });
});
