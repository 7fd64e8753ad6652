// What moderation leans on: the audit log (GET and the gateway event, only with View Audit Log),
// human moderators acting in Discord's own UI (the audit entry names them), messages deleted by a
// ban's delete_message_seconds and by bulk delete, and a second ban that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditLogEvent, Events, PermissionFlagsBits, type GuildAuditLogsEntry, type TextChannel } from 'discord.js';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('the moderation surface', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness({ memberCount: 40 });
  });
  after(() => h.close());

  const guildId = () => h.sandbox.world.demo.guildId;
  const moderatorId = () =>
    [...h.sandbox.world.requireGuild(guildId()).members.values()].find((m) => m.roleIds.includes(h.sandbox.world.demo.roles.moderator))?.userId ?? '';
  /** A fresh member with no roles (each test its own). */
  const newcomer = (name: string) => h.sandbox.world.addMember(guildId(), { username: name }).userId;
  /**
   * The barrier for "no event came": a message posted now reaches the bot; the gateway dispatches in
   * order, so any event the sandbox sent before it has arrived by then.
   */
  const gatewayBarrier = async () => {
    const content = `barrier ${Math.random()}`;
    const arrived = waitForEvent(h.client, Events.MessageCreate, (message: { content: string }) => message.content === content);
    const { plainMemberId, channels } = h.sandbox.world.demo;
    await control(h.sandbox, 'POST', `/channels/${channels.general}/messages`, { authorId: plainMemberId, content });
    await arrived;
  };

  it('a human moderator bans, kicks, times out and unbans in Discord; each audit entry names them', async () => {
    const mod = moderatorId();
    const target = newcomer('audit_target');
    const audited = waitForEvent(
      h.client,
      Events.GuildAuditLogEntryCreate,
      (entry: GuildAuditLogsEntry) => entry.action === AuditLogEvent.MemberBanAdd && entry.targetId === target,
    );
    assert.equal(
      (await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: mod, action: 'ban', targetId: target, reason: 'spam' })).status,
      204,
    );
    const [entry] = await audited;
    assert.equal(entry.executorId, mod);
    assert.equal(entry.reason, 'spam');

    const guild = h.client.guilds.cache.get(guildId());
    const logs = await guild?.fetchAuditLogs({ type: AuditLogEvent.MemberBanAdd });
    assert.equal(logs?.entries.find((e) => e.targetId === target)?.executorId, mod);

    assert.equal((await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: mod, action: 'unban', targetId: target })).status, 204);
    const kicked = newcomer('kick_target');
    assert.equal((await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: mod, action: 'kick', targetId: kicked })).status, 204);
    const muted = newcomer('timeout_target');
    const until = new Date(Date.now() + 600_000).toISOString();
    assert.equal(
      (await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: mod, action: 'timeout', targetId: muted, until })).status,
      204,
    );
    const all = await guild?.fetchAuditLogs({ user: mod });
    const actions = all?.entries.map((e) => e.action) ?? [];
    for (const action of [AuditLogEvent.MemberBanAdd, AuditLogEvent.MemberBanRemove, AuditLogEvent.MemberKick, AuditLogEvent.MemberUpdate])
      assert.ok(actions.includes(action), `audit action ${action}`);
  });

  it('a moderator cannot act on someone they do not outrank, nor without the permission', async () => {
    const { plainMemberId, ownerUserId } = h.sandbox.world.demo;
    assert.equal(
      (await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: moderatorId(), action: 'kick', targetId: ownerUserId })).status,
      403,
    );
    assert.equal(
      (await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: plainMemberId, action: 'ban', targetId: newcomer('safe') })).status,
      403,
    );
  });

  it('audit-log events reach only a bot with View Audit Log', async () => {
    const world = h.sandbox.world;
    const botRole = world.requireGuild(guildId()).roles.get(world.demo.roles.bot);
    assert.ok(botRole);
    const original = botRole.permissions;
    botRole.permissions &= ~PermissionFlagsBits.ViewAuditLog;
    try {
      let audited = 0;
      const count = () => (audited += 1);
      h.client.on(Events.GuildAuditLogEntryCreate, count);
      const target = newcomer('quiet_target');
      const banned = waitForEvent(h.client, Events.GuildBanAdd);
      await control(h.sandbox, 'POST', `/guilds/${guildId()}/moderation`, { actorId: moderatorId(), action: 'ban', targetId: target });
      await banned;
      await gatewayBarrier();
      h.client.off(Events.GuildAuditLogEntryCreate, count);
      assert.equal(audited, 0);
    } finally {
      botRole.permissions = original;
    }
  });

  it("a ban's delete_message_seconds deletes the member's recent messages (MESSAGE_DELETE_BULK); a second ban changes nothing", async () => {
    const { channels } = h.sandbox.world.demo;
    const target = newcomer('spammer');
    const posted: string[] = [];
    for (const text of ['buy', 'cheap', 'now'])
      posted.push((await control<{ id: string }>(h.sandbox, 'POST', `/channels/${channels.general}/messages`, { authorId: target, content: text })).body.id);
    const bulk = waitForEvent(h.client, Events.MessageBulkDelete);
    const guild = h.client.guilds.cache.get(guildId());
    await guild?.members.ban(target, { deleteMessageSeconds: 3600, reason: 'spam' });
    const [deleted] = (await bulk) as [Map<string, unknown>];
    assert.deepEqual([...deleted.keys()].sort(), [...posted].sort());
    for (const id of posted) assert.equal(h.sandbox.world.messages.get(id), undefined);

    const entries = h.sandbox.world.requireGuild(guildId()).auditLog.length;
    let again = 0;
    const onBan = () => (again += 1);
    h.client.on(Events.GuildBanAdd, onBan);
    await guild?.members.ban(target, { reason: 'again' });
    await gatewayBarrier();
    h.client.off(Events.GuildBanAdd, onBan);
    assert.equal(again, 0, 'no second GUILD_BAN_ADD');
    assert.equal(h.sandbox.world.requireGuild(guildId()).auditLog.length, entries, 'no second audit entry');
  });

  it('bulk delete removes the given messages in one MESSAGE_DELETE_BULK, and refuses messages older than two weeks', async () => {
    const channel = (await h.client.channels.fetch(h.sandbox.world.demo.channels.general)) as TextChannel;
    const sent = await Promise.all(['one', 'two', 'three'].map((text) => channel.send(text)));
    const bulk = waitForEvent(h.client, Events.MessageBulkDelete);
    await channel.bulkDelete(sent.map((message) => message.id));
    const [deleted] = (await bulk) as [Map<string, unknown>];
    assert.equal(deleted.size, 3);
    const old = h.sandbox.world.messages.list(channel.id)[0];
    const fresh = await channel.send('fresh');
    assert.ok(old);
    await assert.rejects(
      h.client.rest.post(`/channels/${channel.id}/messages/bulk-delete`, { body: { messages: [old.id, fresh.id] } }),
      (error: { code?: number }) => error.code === 50034,
    );
  });
});
