// The sandbox refuses what Discord refuses, so a bot that passes here does not fail in production:
// command registration (names, descriptions, options, choices, locales, counts), empty interaction
// replies, a custom_id used twice in one message, a second response after a refused one, the
// @original after it was deleted, enforce_nonce, a second request for all members within 30 s,
// and interaction tokens that expire on the sandbox clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Events, GatewayIntentBits, type Interaction, type Message } from 'discord.js';
import WebSocket from 'ws';
import { slashJSON } from '../../src/bot/slash';
import { messageCommandJSON } from '../../src/bot/message-commands';
import { ManualClock } from '../../src/core/clock';
import { FEATURES } from '../../src/features';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

type ApiBody = { code?: number; message?: string; errors?: Record<string, unknown>; id?: string; nonce?: unknown } & Record<string, unknown>;

/** The first error at a dotted path of Discord's nested errors (`''` for the root). */
function errorAt(errors: Record<string, unknown> | undefined, path: string): { code: string; message: string } | undefined {
  let node: unknown = errors;
  for (const part of path ? path.split('.') : []) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node as { _errors?: { code: string; message: string }[] } | undefined)?._errors?.[0];
}

describe('the sandbox is strict where Discord is strict', () => {
  const clock = new ManualClock();
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness({ memberCount: 20, rateLimits: 'relaxed', clock });
    const names = ['reply', 'parts', 'gone', 'late', 'slow'];
    await h.client.application?.commands.set(
      names.map((name) => ({ name, description: `Test command ${name}` })),
      h.sandbox.world.demo.guildId,
    );
  });
  after(() => h.close());

  /** Sends a request as the bot; returns the status and the JSON body. */
  async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: ApiBody }> {
    const response = await fetch(`${h.sandbox.apiBase}/v10${path}`, {
      method,
      headers: { authorization: `Bot ${h.sandbox.botToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as ApiBody };
  }

  /** Asserts a 50035 naming `path` with `code`. */
  function assertFormError(response: { status: number; body: ApiBody }, path: string, code: string): void {
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.equal(response.body.code, 50035);
    assert.equal(errorAt(response.body.errors, path)?.code, code, `at ${path}: ${JSON.stringify(response.body.errors)}`);
  }

  /** A member runs `/name`; resolves once the bot has the interaction, with the control call's eventual answer. */
  async function run(name: string) {
    const { guildId, channels, plainMemberId } = h.sandbox.world.demo;
    const arrived = waitForEvent<[Interaction]>(h.client, Events.InteractionCreate, (i) => i.isChatInputCommand() && i.commandName === name);
    const answer = control<{ error?: string; message?: string; content?: string }>(h.sandbox, 'POST', '/interactions', {
      guildId,
      channelId: channels.general,
      userId: plainMemberId,
      name,
    });
    const [interaction] = await arrived;
    const hook = `/webhooks/${h.sandbox.world.applicationId}/${interaction.token}`;
    return {
      answer,
      callback: (body: unknown) => send('POST', `/interactions/${interaction.id}/${interaction.token}/callback`, body),
      original: (method: string, body?: unknown) => send(method, `${hook}/messages/@original`, body),
      followUp: (body: unknown) => send('POST', hook, body),
      message: (method: string, id: string) => send(method, `${hook}/messages/${id}`),
    };
  }

  const commands = () => `/applications/${h.sandbox.world.applicationId}/commands`;
  const guildCommands = () => `/applications/${h.sandbox.world.applicationId}/guilds/${h.sandbox.world.demo.guildId}/commands`;
  const chat = (name: string, extra: object = {}) => ({ name, description: 'A command', ...extra });
  const text = (name: string, extra: object = {}) => ({ type: 3, name, description: 'An option', ...extra });
  const sub = (name: string, options: object[] = []) => ({ type: 1, name, description: 'A subcommand', options });
  const button = (custom_id: string) => ({ type: 2, style: 1, label: custom_id, custom_id });
  const row = (...components: object[]) => ({ type: 1, components });

  describe('command registration', () => {
    const refused: [string, object, string, string][] = [
      ['a capital letter in a slash command name', chat('Ping'), 'name', 'APPLICATION_COMMAND_INVALID_NAME'],
      ['a space in a slash command name', chat('ping me'), 'name', 'APPLICATION_COMMAND_INVALID_NAME'],
      ['punctuation in a slash command name', chat('ping!'), 'name', 'APPLICATION_COMMAND_INVALID_NAME'],
      ['an uppercase Greek name', chat('ΔΕΛΤΑ'), 'name', 'APPLICATION_COMMAND_INVALID_NAME'],
      ['a slash command without a description', { name: 'ping' }, 'description', 'BASE_TYPE_REQUIRED'],
      ['a slash command with an empty description', chat('ping', { description: '' }), 'description', 'BASE_TYPE_BAD_LENGTH'],
      ['a description over 100 characters', chat('ping', { description: 'x'.repeat(101) }), 'description', 'BASE_TYPE_MAX_LENGTH'],
      [
        'a message command with a description',
        { type: 3, name: 'Quote this', description: 'Quotes' },
        'description',
        'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID',
      ],
      ['a capital letter in an option name', chat('ping', { options: [text('Who')] }), 'options.0.name', 'APPLICATION_COMMAND_INVALID_NAME'],
      ['an option without a description', chat('ping', { options: [{ type: 3, name: 'who' }] }), 'options.0.description', 'BASE_TYPE_REQUIRED'],
      ['26 options', chat('ping', { options: Array.from({ length: 26 }, (_, i) => text(`o${i}`)) }), 'options', 'BASE_TYPE_MAX_LENGTH'],
      [
        'a required option after an optional one',
        chat('ping', { options: [text('first'), text('second', { required: true })] }),
        'options.1',
        'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
      ],
      ['one option name twice', chat('ping', { options: [text('who'), text('who')] }), 'options.1', 'APPLICATION_COMMAND_OPTIONS_NAME_INVALID'],
      [
        '26 choices',
        chat('ping', { options: [text('pick', { choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` })) })] }),
        'options.0.choices',
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        'a choice value over 100 characters',
        chat('ping', { options: [text('pick', { choices: [{ name: 'long', value: 'v'.repeat(101) }] })] }),
        'options.0.choices.0.value',
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        'a plain option inside a subcommand group',
        chat('ping', { options: [{ type: 2, name: 'group', description: 'A group', options: [text('who')] }] }),
        'options.0.options.0.type',
        'BASE_TYPE_CHOICES',
      ],
      ['a subcommand inside a subcommand', chat('ping', { options: [sub('outer', [sub('inner')])] }), 'options.0.options.0.type', 'BASE_TYPE_CHOICES'],
      ['a subcommand next to a plain option', chat('ping', { options: [sub('list'), text('who')] }), 'options', 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID'],
      ['a locale Discord does not have', chat('ping', { name_localizations: { xx: 'ping' } }), 'name_localizations.xx', 'ENUM_TYPE_COERCE'],
      ['a localized name with a capital', chat('ping', { name_localizations: { fr: 'Sonner' } }), 'name_localizations.fr', 'APPLICATION_COMMAND_INVALID_NAME'],
      [
        'a localized option name with a space',
        chat('ping', { options: [text('who', { name_localizations: { de: 'wer da' } })] }),
        'options.0.name_localizations.de',
        'APPLICATION_COMMAND_INVALID_NAME',
      ],
      ['an empty localized description', chat('ping', { description_localizations: { de: '' } }), 'description_localizations.de', 'BASE_TYPE_MIN_LENGTH'],
    ];
    for (const [what, command, path, code] of refused) {
      it(`refuses ${what} (POST, and at its index in a bulk overwrite)`, async () => {
        assertFormError(await send('POST', commands(), command), path, code);
        assertFormError(await send('PUT', guildCommands(), [chat('fine'), command]), `1.${path}`, code);
      });
    }

    it('takes what Discord takes: unicode letters, Devanagari and Thai, apostrophes, mixed-case menu names, locales', async () => {
      const taken = [
        chat('café'),
        chat('नमस्ते'),
        chat('สวัสดี'),
        chat("what's-up_2"),
        chat('hello', { name_localizations: { fr: 'bonjour', 'es-419': 'hola', 'zh-CN': '你好' }, description_localizations: { de: 'Hallo' } }),
        chat('config', { options: [{ type: 2, name: 'role', description: 'Roles', options: [sub('add', [text('which', { required: true }), text('why')])] }] }),
        { type: 2, name: 'Give Coins' },
        { type: 3, name: 'Quote this', description: '' },
      ];
      const response = await send('PUT', commands(), taken);
      assert.equal(response.status, 200, JSON.stringify(response.body));
    });

    it('one bad command refuses the whole bulk overwrite and changes nothing', async () => {
      await send('PUT', commands(), [chat('keep')]);
      const response = await send('PUT', commands(), [chat('new'), chat('Bad')]);
      assertFormError(response, '1.name', 'APPLICATION_COMMAND_INVALID_NAME');
      const listed = await send('GET', commands());
      assert.deepEqual(
        (listed.body as unknown as { name: string }[]).map((command) => command.name),
        ['keep'],
      );
    });

    it('refuses a name twice for one type in a bulk overwrite, and takes it once per type', async () => {
      const twice = await send('PUT', commands(), [chat('same'), chat('other'), chat('same')]);
      assert.equal(twice.status, 400);
      assert.deepEqual(errorAt(twice.body.errors, '2'), { code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' });
      const perType = await send('PUT', commands(), [chat('same'), { type: 2, name: 'same' }, { type: 3, name: 'same' }]);
      assert.equal(perType.status, 200);
    });

    it('holds a scope to 100 slash commands and 15 user and 15 message commands (30032)', async () => {
      const slash = Array.from({ length: 100 }, (_, i) => chat(`c${i}`));
      assert.equal((await send('PUT', commands(), slash)).status, 200);
      const over = await send('PUT', commands(), [...slash, chat('c100')]);
      assert.equal(over.status, 400);
      assert.deepEqual(over.body, { code: 30032, message: 'Maximum number of application commands reached (100)' });
      const oneMore = await send('POST', commands(), chat('c100'));
      assert.equal(oneMore.body.code, 30032);
      const replaced = await send('POST', commands(), chat('c5', { description: 'Replaced' }));
      assert.equal(replaced.status, 200, 'an upsert of a name held replaces it, within the count');
      const menus = Array.from({ length: 16 }, (_, i) => ({ type: 2, name: `User ${i}` }));
      assert.equal((await send('PUT', commands(), menus)).body.code, 30032);
      assert.equal((await send('PUT', commands(), menus.slice(0, 15))).status, 200);
    });

    it('checks an edit as a whole: a PATCH that breaks a rule is refused and changes nothing', async () => {
      const created = await send('POST', guildCommands(), chat('edit-me', { options: [text('who', { required: true })] }));
      const path = `${guildCommands()}/${String(created.body.id)}`;
      assertFormError(await send('PATCH', path, { name: 'Edit-Me' }), 'name', 'APPLICATION_COMMAND_INVALID_NAME');
      assertFormError(
        await send('PATCH', path, { options: [text('why'), text('who', { required: true })] }),
        'options.1',
        'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
      );
      const kept = await send('GET', path);
      assert.equal(kept.body.name, 'edit-me');
      assert.equal((await send('PATCH', path, { description: 'Edited' })).status, 200);
    });

    it("the product's own commands are taken as the product registers them", async () => {
      const wanted = [
        ...FEATURES.flatMap((feature) => feature.commands ?? []).map(slashJSON),
        ...FEATURES.flatMap((feature) => feature.messageCommands ?? []).map(messageCommandJSON),
      ];
      const response = await send('PUT', commands(), wanted);
      assert.equal(response.status, 200, JSON.stringify(response.body.errors));
    });
  });

  describe('components', () => {
    const general = () => `/channels/${h.sandbox.world.demo.channels.general}/messages`;

    it('refuses two components with one custom_id in a channel message and its edit, disabled or not', async () => {
      const before = h.sandbox.world.messages.list(h.sandbox.world.demo.channels.general).length;
      const twice = await send('POST', general(), { content: 'pick', components: [row(button('go')), row({ ...button('go'), disabled: true })] });
      assertFormError(twice, 'components.1.components.0.custom_id', 'COMPONENT_CUSTOM_ID_DUPLICATED');
      assert.equal(errorAt(twice.body.errors, 'components.1.components.0.custom_id')?.message, 'Component custom id cannot be duplicated');
      assert.equal(h.sandbox.world.messages.list(h.sandbox.world.demo.channels.general).length, before, 'nothing was posted');
      const link = { type: 2, style: 5, label: 'Docs', url: 'https://example.com' };
      const posted = await send('POST', general(), { content: 'pick', components: [row(button('go'), button('stop'), link, { ...link, label: 'More' })] });
      assert.equal(posted.status, 200, 'distinct ids, and link buttons without one, are fine');
      const edit = await send('PATCH', `${general()}/${String(posted.body.id)}`, { components: [row(button('go'), button('go'))] });
      assertFormError(edit, 'components.0.components.1.custom_id', 'COMPONENT_CUSTOM_ID_DUPLICATED');
    });
  });

  describe('interaction responses', () => {
    it('refuses an empty interaction reply (50006); the refusal spends the response, so a valid retry is 40060', async () => {
      const interaction = await run('reply');
      const empty = await interaction.callback({ type: 4, data: {} });
      assert.equal(empty.status, 400);
      assert.deepEqual(empty.body, { code: 50006, message: 'Cannot send an empty message' });
      const retry = await interaction.callback({ type: 4, data: { content: 'Here it is' } });
      assert.equal(retry.status, 400);
      assert.deepEqual(retry.body, { code: 40060, message: 'Interaction has already been acknowledged.' });
      const answer = await interaction.answer;
      assert.equal(answer.status, 504);
      assert.match(answer.body.message ?? '', /50006 Cannot send an empty message/);
    });

    it('an interaction reply of only an embed is not empty; components with one custom_id twice are refused in replies, follow-ups and edits', async () => {
      const dup = { content: 'x', components: [row(button('a'), button('a'))] };
      const first = await run('parts');
      assertFormError(await first.callback({ type: 4, data: dup }), 'data.components.0.components.1.custom_id', 'COMPONENT_CUSTOM_ID_DUPLICATED');
      assert.equal((await first.answer).status, 504);
      const second = await run('parts');
      assert.equal((await second.callback({ type: 5 })).status, 204);
      assertFormError(await second.original('PATCH', dup), 'components.0.components.1.custom_id', 'COMPONENT_CUSTOM_ID_DUPLICATED');
      assertFormError(await second.followUp(dup), 'components.0.components.1.custom_id', 'COMPONENT_CUSTOM_ID_DUPLICATED');
      assert.deepEqual((await second.followUp({ content: '' })).body, { code: 50006, message: 'Cannot send an empty message' });
      assert.equal((await second.original('PATCH', { embeds: [{ title: 'Only an embed' }] })).status, 200);
      assert.equal((await second.answer).status, 200);
    });

    it('the @original and follow-ups are gone (10008) once deleted, for GET, PATCH and DELETE', async () => {
      const interaction = await run('gone');
      assert.equal((await interaction.callback({ type: 4, data: { content: 'Soon gone' } })).status, 204);
      await interaction.answer;
      const followUp = await interaction.followUp({ content: 'Also gone' });
      assert.equal((await interaction.original('DELETE')).status, 204);
      assert.equal((await interaction.message('DELETE', String(followUp.body.id))).status, 204);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const original = await interaction.original(method, method === 'PATCH' ? { content: 'back?' } : undefined);
        assert.equal(original.status, 404, `${method} @original`);
        assert.deepEqual(original.body, { code: 10008, message: 'Unknown Message' });
        assert.equal((await interaction.message(method === 'PATCH' ? 'GET' : method, String(followUp.body.id))).body.code, 10008);
      }
    });
  });

  describe('enforce_nonce', () => {
    const general = () => `/channels/${h.sandbox.world.demo.channels.general}/messages`;

    it('enforce_nonce: the same nonce within a few minutes answers the first message, echoing the nonce; not after', async () => {
      const created = waitForEvent<[Message]>(h.client, Events.MessageCreate, (message) => message.content === 'once');
      const first = await send('POST', general(), { content: 'once', nonce: 'order-1', enforce_nonce: true });
      assert.equal(first.status, 200);
      assert.equal(first.body.nonce, 'order-1');
      const [dispatched] = await created;
      assert.equal(dispatched.nonce, 'order-1', 'MESSAGE_CREATE carries the nonce');
      const again = await send('POST', general(), { content: 'once', nonce: 'order-1', enforce_nonce: true });
      assert.equal(again.status, 200);
      assert.equal(again.body.id, first.body.id, 'the existing message, not a second');
      const unenforced = await send('POST', general(), { content: 'once', nonce: 'order-1' });
      assert.notEqual(unenforced.body.id, first.body.id, 'without enforce_nonce a nonce is only echoed');
      const numeric = await send('POST', general(), { content: 'n', nonce: 20250101, enforce_nonce: true });
      assert.equal((await send('POST', general(), { content: 'n', nonce: 20250101, enforce_nonce: true })).body.id, numeric.body.id);
      const tooLong = await send('POST', general(), { content: 'n', nonce: 'x'.repeat(26) });
      assert.equal(tooLong.status, 400);
      assert.ok(errorAt(tooLong.body.errors, 'nonce'), 'a nonce over 25 characters is refused');
      clock.advance(5 * 60_000 + 1);
      const later = await send('POST', general(), { content: 'n', nonce: 20250101, enforce_nonce: true });
      assert.notEqual(later.body.id, numeric.body.id, 'a nonce is remembered for a few minutes');
    });
  });

  describe('the sandbox clock', () => {
    it('the first response is due 3 s later on the sandbox clock: 2,999 ms is in time, past 3 s the token is gone (10062)', async () => {
      const inTime = await run('slow');
      clock.advance(2999);
      assert.equal((await inTime.callback({ type: 4, data: { content: 'Just in time' } })).status, 204);
      assert.equal((await inTime.answer).status, 200);
      const tooLate = await run('slow');
      clock.advance(3001);
      const answer = await tooLate.answer;
      assert.equal(answer.status, 504);
      assert.equal(answer.body.error, 'no_response');
      assert.deepEqual((await tooLate.callback({ type: 4, data: { content: 'Late' } })).body, { code: 10062, message: 'Unknown interaction' });
    });

    it('an interaction token lasts 15 minutes on the sandbox clock: then follow-ups are 401 50027 and callbacks 10062', async () => {
      const interaction = await run('late');
      assert.equal((await interaction.callback({ type: 5 })).status, 204);
      assert.equal((await interaction.original('PATCH', { content: 'Done' })).status, 200);
      assert.equal((await interaction.answer).status, 200);
      clock.advance(15 * 60_000 - 1);
      assert.equal((await interaction.followUp({ content: 'Still in time' })).status, 200);
      clock.advance(2);
      const expired = await interaction.followUp({ content: 'Too late' });
      assert.equal(expired.status, 401);
      assert.deepEqual(expired.body, { code: 50027, message: 'Invalid Webhook Token' });
      assert.equal((await interaction.original('GET')).body.code, 50027);
      const callback = await interaction.callback({ type: 4, data: { content: 'Too late' } });
      assert.equal(callback.status, 404);
      assert.deepEqual(callback.body, { code: 10062, message: 'Unknown interaction' });
    });
  });

  describe('requests for all members', () => {
    it('a second request for everyone within 30 s gets RATE_LIMITED (discord.js rejects the fetch); after the window it is answered', async () => {
      const guild = h.client.guilds.cache.get(h.sandbox.world.demo.guildId);
      assert.ok(guild);
      await guild.members.fetch();
      await assert.rejects(guild.members.fetch(), (error: Error) => error.name.includes('GatewayRateLimitError'));
      clock.advance(30_000);
      const members = await guild.members.fetch();
      assert.ok(members.size > 1);
    });

    it('over the wire: opcode 8, retry_after in seconds and meta with the guild and nonce; requests by id are not limited', async () => {
      const guildId = h.sandbox.world.demo.thirdGuildId;
      const ws = new WebSocket(`${h.sandbox.gatewayUrl}?v=10&encoding=json`);
      const received: { t?: string | null; d?: { nonce?: string; meta?: unknown } & Record<string, unknown> }[] = [];
      let arrived: () => void = () => undefined;
      ws.on('message', (raw) => {
        received.push(JSON.parse(raw.toString()) as (typeof received)[number]);
        arrived();
      });
      /** Resolves once a dispatch passes `filter` (the barrier: what the gateway sent, never a sleep). */
      const dispatch = (filter: (payload: (typeof received)[number]) => boolean) =>
        new Promise<(typeof received)[number]>((resolve) => {
          const check = () => {
            const found = received.find(filter);
            if (found) resolve(found);
          };
          arrived = check;
          check();
        });
      await new Promise((resolve) => ws.on('open', resolve));
      ws.send(
        JSON.stringify({
          op: 2,
          d: {
            token: h.sandbox.botToken,
            intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers,
            properties: { os: 'l', browser: 't', device: 't' },
          },
        }),
      );
      await dispatch((payload) => payload.t === 'READY');
      const ask = (d: object) => ws.send(JSON.stringify({ op: 8, d: { guild_id: guildId, ...d } }));
      ask({ query: '', limit: 0, nonce: 'first' });
      await dispatch((payload) => payload.t === 'GUILD_MEMBERS_CHUNK' && payload.d?.nonce === 'first');
      ask({ query: '', limit: 0, nonce: 'second' });
      const limited = await dispatch((payload) => payload.t === 'RATE_LIMITED');
      assert.deepEqual(limited.d, { opcode: 8, retry_after: 30, meta: { guild_id: guildId, nonce: 'second' } });
      ask({ user_ids: [h.sandbox.world.demo.otherAdminUserId], nonce: 'by-id' });
      await dispatch((payload) => payload.t === 'GUILD_MEMBERS_CHUNK' && payload.d?.nonce === 'by-id');
      assert.equal(received.filter((payload) => payload.t === 'GUILD_MEMBERS_CHUNK' && payload.d?.nonce === 'second').length, 0);
      ws.close(1000);
    });
  });
});
