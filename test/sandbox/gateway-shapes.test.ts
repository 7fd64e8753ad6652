// Every dispatch a raw WebSocket client receives is checked against discord-api-types with the
// TypeScript compiler: READY, GUILD_CREATE, MESSAGE_CREATE, GUILD_MEMBER_ADD and INTERACTION_CREATE
// (slash, message command, component, autocomplete, modal submit) at least, and whatever else the session brought
// (typing, pins, channels and roles changed by the bot, the bot leaving a guild among them).
// An unknown or renamed field, a wrong type or a missing required field is an error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatewayIntentBits as I, PermissionFlagsBits } from 'discord-api-types/v10';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { checkShapes, type ShapeCase } from '../helpers/type-shapes';
import { control } from './helpers';
import { waitFor } from '../helpers/wait';

interface Dispatch {
  op: number;
  t: string | null;
  s: number | null;
  d: Record<string, unknown>;
}

/** GUILD_MEMBER_ADD -> GatewayGuildMemberAddDispatchData, as discord-api-types names them. */
const typeOf = (event: string) => `Gateway${event.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}DispatchData`;

describe('gateway payloads against discord-api-types', () => {
  let sandbox: Sandbox;
  let ws: WebSocket;
  const dispatches: Dispatch[] = [];
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${sandbox.apiBase}/v10${path}`, {
      method,
      headers: { authorization: `Bot ${sandbox.botToken}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).then(async (res) => {
      const text = await res.text();
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as Record<string, unknown>;
    });

  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
    const { guildId, plainMemberId, channels } = sandbox.world.demo;
    // A member in voice and a booster before the bot connects, so GUILD_CREATE carries both.
    await control(sandbox, 'POST', `/guilds/${guildId}/voice`, { userId: plainMemberId, channelId: channels.voice, selfMute: true });
    await control(sandbox, 'PUT', `/guilds/${guildId}/boosts/${sandbox.world.demo.adminUserId}`);

    ws = new WebSocket(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    ws.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as Dispatch;
      if (payload.op !== 0) return;
      dispatches.push(payload);
      if (payload.t === 'INTERACTION_CREATE') void answer(payload.d);
    });
    await new Promise((resolve) => ws.once('open', resolve));
    const intents =
      I.Guilds | I.GuildMembers | I.GuildModeration | I.GuildMessages | I.MessageContent | I.GuildMessageReactions | I.GuildVoiceStates | I.GuildMessageTyping;
    ws.send(JSON.stringify({ op: 2, d: { token: sandbox.botToken, intents, properties: { os: 'linux', browser: 'raw', device: 'raw' } } }));
    await waitFor(() => dispatches.filter((d) => d.t === 'GUILD_CREATE').length === 2, 5000, 'READY and both GUILD_CREATEs');
  });
  after(async () => {
    ws.close(1000);
    await sandbox.close();
  });

  /** Answers each interaction the way its type needs, over the raw callback route. */
  async function answer(d: Record<string, unknown>): Promise<void> {
    const callback = (body: unknown) => api('POST', `/interactions/${String(d.id)}/${String(d.token)}/callback`, body);
    const data = d.data as { custom_id?: string };
    if (d.type === 4) await callback({ type: 8, data: { choices: [{ name: 'gaming', value: 'gaming' }] } });
    else if (d.type === 3) {
      await callback({
        type: 9,
        data: {
          custom_id: 'feedback',
          title: 'Feedback',
          components: [{ type: 1, components: [{ type: 4, custom_id: 'text', label: 'Your feedback', style: 1 }] }],
        },
      });
    } else await callback({ type: 4, data: { content: `answered ${data.custom_id ?? 'command'}` } });
  }

  it('READY, GUILD_CREATE, MESSAGE_CREATE, GUILD_MEMBER_ADD, INTERACTION_CREATE and the rest conform', async () => {
    const { guildId, channels, plainMemberId, adminUserId } = sandbox.world.demo;
    const app = sandbox.world.applicationId;
    await api('PUT', `/applications/${app}/guilds/${guildId}/commands`, [
      { name: 'profile', description: 'Show a profile', options: [{ name: 'who', description: 'member', type: 6 }] },
      { name: 'topic', description: 'Pick a topic', options: [{ name: 'name', description: 'topic', type: 3, autocomplete: true, required: true }] },
      { name: 'Report message', type: 3 },
    ]);

    // MESSAGE_CREATE: a member's message with a mention, the bot's message with a button, a reply.
    const posted = await control<{ id: string }>(sandbox, 'POST', `/channels/${channels.general}/messages`, {
      authorId: plainMemberId,
      content: `hello <@${adminUserId}>`,
    });
    const button = await api('POST', `/channels/${channels.general}/messages`, {
      content: 'Give feedback',
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Feedback', custom_id: 'open' }] }],
    });
    await api('POST', `/channels/${channels.general}/messages`, {
      content: 'a reply',
      message_reference: { message_id: String(button.id) },
      allowed_mentions: { parse: [] },
    });
    await api('PUT', `/channels/${channels.general}/messages/${String(button.id)}/reactions/${encodeURIComponent('👍')}/@me`);

    // GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE, GUILD_AUDIT_LOG_ENTRY_CREATE.
    const joined = await control<{ id: string }>(sandbox, 'POST', `/guilds/${guildId}/members`, { username: 'shape_newcomer' });
    await api('PUT', `/guilds/${guildId}/members/${joined.body.id}/roles/${sandbox.world.demo.roles.verified}`);

    // INTERACTION_CREATE of every kind.
    assert.equal(
      (
        await control(sandbox, 'POST', '/interactions', {
          guildId,
          channelId: channels.general,
          userId: plainMemberId,
          name: 'profile',
          options: { who: adminUserId },
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await control(sandbox, 'POST', '/interactions/message-command', {
          guildId,
          channelId: channels.general,
          userId: adminUserId,
          name: 'Report message',
          messageId: posted.body.id,
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await control(sandbox, 'POST', '/interactions/autocomplete', {
          guildId,
          channelId: channels.general,
          userId: plainMemberId,
          name: 'topic',
          options: { name: 'ga' },
          focused: 'name',
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await control(sandbox, 'POST', '/interactions/component', {
          channelId: channels.general,
          messageId: String(button.id),
          userId: plainMemberId,
          customId: 'open',
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await control(sandbox, 'POST', '/interactions/modal', {
          channelId: channels.general,
          userId: plainMemberId,
          customId: 'feedback',
          fields: { text: 'great' },
        })
      ).status,
      200,
    );

    // And the rest of what the features will listen to.
    await control(sandbox, 'POST', `/guilds/${guildId}/voice`, { userId: plainMemberId, channelId: null });
    await control(sandbox, 'DELETE', `/guilds/${guildId}/boosts/${adminUserId}`);
    await control(sandbox, 'POST', `/guilds/${guildId}/channels`, { name: 'shapes', type: 'text' });
    await control(sandbox, 'POST', `/guilds/${guildId}/roles`, { name: 'Shapes' });
    await api('PATCH', `/channels/${channels.general}/messages/${String(button.id)}`, { content: 'Give feedback (edited)' });
    await api('DELETE', `/channels/${channels.general}/messages/${String(button.id)}`);
    await api('PUT', `/guilds/${guildId}/bans/${joined.body.id}`, { delete_message_seconds: 0 });
    // Channel, role and guild routes a bot manages with (the bot is given Manage Channels for them).
    const botRole = sandbox.world.requireGuild(guildId).roles.get(sandbox.world.demo.roles.bot);
    assert.ok(botRole);
    sandbox.world.structure.updateRole(guildId, botRole, { permissions: botRole.permissions | PermissionFlagsBits.ManageChannels });
    await api('POST', `/channels/${channels.general}/typing`);
    await api('PUT', `/channels/${channels.general}/messages/pins/${posted.body.id}`);
    const made = await api('POST', `/guilds/${guildId}/channels`, { name: 'shapes-news', type: 5 });
    await api('PATCH', `/channels/${String(made.id)}`, { topic: 'shapes', rate_limit_per_user: 5 });
    await api('DELETE', `/channels/${String(made.id)}`);
    const role = await api('POST', `/guilds/${guildId}/roles`, { name: 'Shapes 2' });
    await api('PATCH', `/guilds/${guildId}/roles/${String(role.id)}`, { name: 'Shapes 3' });
    await api('DELETE', `/guilds/${guildId}/roles/${String(role.id)}`);
    await api('DELETE', `/users/@me/guilds/${sandbox.world.demo.thirdGuildId}`);
    ws.send(JSON.stringify({ op: 8, d: { guild_id: guildId, query: '', limit: 0 } }));
    const expected = [
      'GUILD_MEMBER_UPDATE',
      'GUILD_AUDIT_LOG_ENTRY_CREATE',
      'MESSAGE_REACTION_ADD',
      'VOICE_STATE_UPDATE',
      'GUILD_UPDATE',
      'CHANNEL_CREATE',
      'GUILD_ROLE_CREATE',
      'MESSAGE_UPDATE',
      'MESSAGE_DELETE',
      'GUILD_BAN_ADD',
      'GUILD_MEMBER_REMOVE',
      'GUILD_MEMBERS_CHUNK',
      'TYPING_START',
      'CHANNEL_PINS_UPDATE',
      'CHANNEL_UPDATE',
      'CHANNEL_DELETE',
      'GUILD_ROLE_UPDATE',
      'GUILD_ROLE_DELETE',
      'GUILD_DELETE',
    ];
    await waitFor(() => expected.every((event) => dispatches.some((d) => d.t === event)), 5000, `every one of ${expected.join(', ')}`);

    const required = ['READY', 'GUILD_CREATE', 'MESSAGE_CREATE', 'GUILD_MEMBER_ADD', 'INTERACTION_CREATE'];
    for (const event of required)
      assert.ok(
        dispatches.some((d) => d.t === event),
        `saw ${event}`,
      );
    const interactionTypes = dispatches.filter((d) => d.t === 'INTERACTION_CREATE').map((d) => d.d.type);
    assert.deepEqual(interactionTypes, [2, 2, 4, 3, 5]);
    const report = dispatches.filter((d) => d.t === 'INTERACTION_CREATE')[1]?.d.data as {
      type: number;
      target_id: string;
      resolved: { messages: Record<string, { content: string }> };
    };
    assert.equal(report.type, 3);
    assert.equal(report.resolved.messages[report.target_id]?.content, `hello <@${adminUserId}>`);

    const cases: ShapeCase[] = dispatches.map((d, i) => ({ label: `#${i} ${d.t}`, type: typeOf(d.t ?? ''), value: d.d }));
    // Controls: the same check must fail on a renamed field, a wrong type and an invented field.
    const ready = dispatches.find((d) => d.t === 'READY')?.d ?? {};
    const message = dispatches.find((d) => d.t === 'MESSAGE_CREATE')?.d ?? {};
    const member = dispatches.find((d) => d.t === 'GUILD_MEMBER_ADD')?.d ?? {};
    const { session_id: sessionId, ...readyRest } = ready;
    cases.push(
      { label: 'control renamed', type: typeOf('READY'), value: { ...readyRest, sessionId } },
      { label: 'control wrong type', type: typeOf('MESSAGE_CREATE'), value: { ...message, channel_id: 123 } },
      { label: 'control invented', type: typeOf('GUILD_MEMBER_ADD'), value: { ...member, joinedAt: '2026-01-01T00:00:00.000Z' } },
    );
    const problems = checkShapes('discord-api-types/v10', cases);
    const real = problems.filter((p) => !p.startsWith('control '));
    assert.deepEqual(real, [], `payloads that do not match discord-api-types:\n${real.join('\n')}`);
    for (const control of ['control renamed', 'control wrong type', 'control invented']) {
      assert.ok(
        problems.some((p) => p.startsWith(control)),
        `the check catches a ${control.slice(8)} field`,
      );
    }
  });
});
