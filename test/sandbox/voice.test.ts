// Voice and boosts as the leveling features will see them: who sits where, muted or deafened by
// themselves or by a moderator, the AFK channel, Connect enforced, and members boosting the guild.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AuditLogEvent,
  Routes,
  DiscordAPIError,
  Events,
  MessageType,
  PermissionFlagsBits as P,
  type GuildMember,
  type Message,
  type VoiceState,
} from 'discord.js';
import { ManualClock } from '../../src/core/clock';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('voice and boosts', () => {
  let h: BotHarness;
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 12));
  before(async () => {
    h = await startBotHarness({ memberCount: 20, clock });
  });
  after(() => h.close());
  const demo = () => h.sandbox.world.demo;
  const guild = () => {
    const found = h.client.guilds.cache.get(demo().guildId);
    assert.ok(found);
    return found;
  };
  const voice = (body: unknown) =>
    control<{ error?: string; channel_id?: string | null; self_mute?: boolean }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice`, body);
  const stateOf = (userId: string) => (_old: VoiceState, next: VoiceState) => next.id === userId;
  const grantBot = (permissions: bigint) => {
    const role = h.sandbox.world.requireGuild(demo().guildId).roles.get(demo().roles.bot);
    assert.ok(role);
    const updated = waitForEvent(h.client, Events.GuildRoleUpdate, (_old: unknown, next: { id: string }) => next.id === role.id);
    h.sandbox.world.structure.updateRole(demo().guildId, role, { permissions: role.permissions | permissions });
    return updated;
  };

  it('the guild has an AFK channel, and a member joins voice self-muted, then deafens, moves and leaves', async () => {
    assert.equal(guild().afkChannelId, demo().channels.afk);
    assert.equal(guild().afkTimeout, 300);
    const userId = demo().plainMemberId;

    const joined = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(userId));
    const answer = await voice({ userId, channelId: demo().channels.voice, selfMute: true });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.channel_id, demo().channels.voice);
    const [, state] = await joined;
    assert.equal(state.channelId, demo().channels.voice);
    assert.equal(state.selfMute, true);
    assert.equal(state.selfDeaf, false);
    assert.equal(state.serverMute, false);

    const fetched = (await h.client.rest.get(`/guilds/${demo().guildId}/voice-states/${userId}`)) as { channel_id: string; self_mute: boolean };
    assert.equal(fetched.channel_id, demo().channels.voice);
    assert.equal(fetched.self_mute, true);

    const deafened = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(userId));
    await voice({ userId, selfDeaf: true });
    const [before, after] = await deafened;
    assert.equal(before.selfDeaf, false);
    assert.equal(after.selfDeaf, true);
    assert.equal(after.selfMute, true, 'the mute stays');

    const moved = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(userId));
    await voice({ userId, channelId: demo().channels.afk });
    assert.equal((await moved)[1].channelId, guild().afkChannelId);

    const left = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(userId));
    await voice({ userId, channelId: null });
    assert.equal((await left)[1].channelId, null);
    await assert.rejects(
      h.client.rest.get(`/guilds/${demo().guildId}/voice-states/${userId}`),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 10065,
    );
    assert.equal((await voice({ userId, selfMute: false })).body.error, 'not_in_voice');
  });

  it('only voice channels are joinable, Connect is needed, and a timed-out member stays out', async () => {
    const { plainMemberId, channels } = demo();
    const text = await voice({ userId: plainMemberId, channelId: channels.general });
    assert.equal(text.status, 400);
    assert.equal(text.body.error, 'not_voice');

    const staff = await voice({ userId: plainMemberId, channelId: channels.staffVoice });
    assert.equal(staff.status, 403);
    assert.equal(staff.body.error, 'missing_permissions');
    const moderatorId = [...h.sandbox.world.requireGuild(demo().guildId).members.values()].find((m) => m.roleIds.includes(demo().roles.moderator))?.userId;
    assert.ok(moderatorId);
    assert.equal((await voice({ userId: moderatorId, channelId: channels.staffVoice })).status, 200);
    await voice({ userId: moderatorId, channelId: null });

    const until = new Date(clock.ms() + 60_000).toISOString();
    h.sandbox.world.updateMember(demo().guildId, plainMemberId, { communicationDisabledUntil: until });
    const timedOut = await voice({ userId: plainMemberId, channelId: channels.voice });
    assert.equal(timedOut.status, 403);
    assert.equal(timedOut.body.error, 'timed_out');
    clock.advance(61_000);
    assert.equal((await voice({ userId: plainMemberId, channelId: channels.voice })).status, 200, 'the timeout is over');
    await voice({ userId: plainMemberId, channelId: null });
    h.sandbox.world.updateMember(demo().guildId, plainMemberId, { communicationDisabledUntil: null });
    assert.equal(h.sandbox.world.requireGuild(demo().guildId).voice.has(plainMemberId), false);
  });

  it('the bot server-mutes and moves a member only with Mute and Move Members, and only someone in voice', async () => {
    const { plainMemberId, channels } = demo();
    await assert.rejects(guild().members.edit(plainMemberId, { mute: true }), (error: unknown) => error instanceof DiscordAPIError && error.code === 50013);
    await grantBot(P.MuteMembers | P.MoveMembers);
    await assert.rejects(guild().members.edit(plainMemberId, { mute: true }), (error: unknown) => error instanceof DiscordAPIError && error.code === 40032);

    const joined = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(plainMemberId));
    await voice({ userId: plainMemberId, channelId: channels.voice });
    await joined;
    const muted = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(plainMemberId));
    await guild().members.edit(plainMemberId, { mute: true, reason: 'too loud' });
    const [, state] = await muted;
    assert.equal(state.serverMute, true);
    const entries = (await guild().fetchAuditLogs({ type: AuditLogEvent.MemberUpdate, limit: 5 })).entries;
    assert.ok(entries.some((e) => e.targetId === plainMemberId && e.reason === 'too loud' && e.changes.some((c) => c.key === 'mute' && c.new === true)));

    // discord.js refuses a text channel before asking; another client would ask Discord.
    const intoText = h.client.rest.patch(Routes.guildMember(demo().guildId, plainMemberId), { body: { channel_id: channels.general } });
    await assert.rejects(intoText, (error: unknown) => error instanceof DiscordAPIError && error.code === 50024);
    const moved = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(plainMemberId));
    await guild().members.edit(plainMemberId, { channel: channels.afk });
    assert.equal((await moved)[1].channelId, channels.afk);
    assert.equal((await moved)[1].serverMute, true, 'a server mute follows the member');

    const disconnected = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(plainMemberId));
    await guild().members.edit(plainMemberId, { channel: null, mute: false });
    const [, gone] = await disconnected;
    assert.equal(gone.channelId, null);
  });

  it('a moderator server-deafens someone from Discord, which needs Deafen Members', async () => {
    const { plainMemberId, adminUserId, channels } = demo();
    await voice({ userId: plainMemberId, channelId: channels.voice });
    const refused = await control<{ error: string }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice/server`, {
      actorId: plainMemberId,
      userId: adminUserId,
      deaf: true,
    });
    assert.equal(refused.status, 403);
    const deafened = waitForEvent(h.client, Events.VoiceStateUpdate, stateOf(plainMemberId));
    assert.equal(
      (await control(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice/server`, { actorId: adminUserId, userId: plainMemberId, deaf: true })).status,
      200,
    );
    assert.equal((await deafened)[1].serverDeaf, true);
    await voice({ userId: plainMemberId, channelId: null });
  });

  it('the AFK channel can change and goes away with its channel', async () => {
    const made = await control<{ id: string }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/channels`, { name: 'Sleepy', type: 'voice' });
    const updated = waitForEvent(h.client, Events.GuildUpdate, (_old: unknown, next: { afkChannelId: string | null }) => next.afkChannelId === made.body.id);
    assert.equal((await control(h.sandbox, 'PATCH', `/guilds/${demo().guildId}`, { afkChannelId: made.body.id, afkTimeout: 900 })).status, 200);
    await updated;
    assert.equal(guild().afkTimeout, 900);
    const notVoice = await control<{ fields: Record<string, string> }>(h.sandbox, 'PATCH', `/guilds/${demo().guildId}`, {
      afkChannelId: demo().channels.general,
    });
    assert.equal(notVoice.status, 400);
    assert.ok(notVoice.body.fields.afkChannelId);

    const cleared = waitForEvent(h.client, Events.GuildUpdate, (_old: unknown, next: { afkChannelId: string | null }) => next.afkChannelId === null);
    await control(h.sandbox, 'DELETE', `/channels/${made.body.id}`);
    await cleared;
    await control(h.sandbox, 'PATCH', `/guilds/${demo().guildId}`, { afkChannelId: demo().channels.afk, afkTimeout: 300 });
  });

  it('a member boosts (premium_since, the boost count, the boost message pinging nobody) and stops', async () => {
    const { plainMemberId, channels } = demo();
    const path = `/guilds/${demo().guildId}/boosts/${plainMemberId}`;
    const memberUpdated = waitForEvent(
      h.client,
      Events.GuildMemberUpdate,
      (_old: unknown, next: GuildMember) => next.id === plainMemberId && next.premiumSinceTimestamp !== null,
    );
    const guildUpdated = waitForEvent(
      h.client,
      Events.GuildUpdate,
      (_old: unknown, next: { premiumSubscriptionCount: number | null }) => next.premiumSubscriptionCount === 1,
    );
    const boostMessage = waitForEvent(h.client, Events.MessageCreate, (message: Message) => message.type === MessageType.GuildBoost);
    const started = await control<{ premiumSince: string }>(h.sandbox, 'PUT', path);
    assert.equal(started.status, 200);
    assert.equal(started.body.premiumSince, clock.now().toISOString());
    const [, member] = await memberUpdated;
    assert.equal(member.premiumSinceTimestamp, Date.parse(started.body.premiumSince));
    const boosterRole = guild().roles.premiumSubscriberRole;
    assert.ok(boosterRole?.managed, 'Discord made the managed Server Booster role');
    assert.ok(member.roles.cache.has(boosterRole.id));
    await assert.rejects(
      guild().members.addRole({ user: demo().adminUserId, role: boosterRole.id }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50013,
    );
    await guildUpdated;
    const [message] = await boostMessage;
    assert.equal(message.channelId, channels.welcome);
    assert.equal(message.author.id, plainMemberId);
    assert.deepEqual(h.sandbox.world.messages.get(message.id)?.pings, { userIds: [], roleIds: [], everyone: false });
    assert.deepEqual(
      (await control<{ premiumSince: string }>(h.sandbox, 'PUT', path)).body.premiumSince,
      started.body.premiumSince,
      'boosting twice changes nothing',
    );

    const stopped = waitForEvent(
      h.client,
      Events.GuildMemberUpdate,
      (_old: unknown, next: GuildMember) => next.id === plainMemberId && next.premiumSinceTimestamp === null,
    );
    assert.equal((await control(h.sandbox, 'DELETE', path)).status, 200);
    const [, unboosted] = await stopped;
    assert.equal(unboosted.roles.cache.has(boosterRole.id), false);
    assert.equal(guild().premiumSubscriptionCount, 0);
  });
});
