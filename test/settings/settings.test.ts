// GET/PUT /api/servers/:guildId/settings and what hangs off it: merged defaults, partial updates
// validated with the shared schemas, ids checked against the live guild, the write-only key, the
// history with restore, export, import (dry run, apply), backup and reset.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HistoryPageSchema, SETTINGS_DEFAULTS, SettingsViewSchema } from '../../src/shared/settings';
import { WELCOME_MISSING_CHANNEL } from '../../src/shared/welcome';
import { useHarness } from '../helpers/harness';
import { buildAccount } from '../factories';
import { waitFor } from '../helpers/wait';

const h = useHarness();

/** The demo admin's session and the settings URL of the demo guild. */
async function admin() {
  const session = await h().signIn(h().demo.adminUserId);
  return { session, url: `/api/servers/${h().guildId}/settings` };
}

const put = (session: Awaited<ReturnType<typeof admin>>['session'], url: string, body: object) => session.put(url, body);

describe('settings: read and write', () => {
  test('GET answers every setting merged over the spec defaults; the API key is never sent', async () => {
    const { session, url } = await admin();
    const view = SettingsViewSchema.parse((await session.get(url).expect(200)).body);
    for (const [key, value] of Object.entries(SETTINGS_DEFAULTS)) assert.deepEqual(view[key as keyof typeof view], value, key);
    assert.equal(view.apiKeyLast4, null);
    assert.equal(view.access, 'admin');
  });

  test('PUT in order: 401 without a session, 400 naming a bad field, 403 for a member, 200 with the full settings', async () => {
    const { session, url } = await admin();
    const anonymous = await fetch(`${h().product.url}${url}`, {
      method: 'PUT',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(anonymous.status, 401);
    const bad = await put(session, url, { xpCooldown: 999_999 }).expect(400);
    assert.equal(bad.body.fields.xpCooldown, 'XP cooldown must be between 0 and 86,400.');
    const member = await h().signIn(h().demo.plainMemberId);
    await put(member, url, { xpCooldown: 30 }).expect(403);
    const ok = SettingsViewSchema.parse((await put(session, url, { xpCooldown: 30, textMultiplier: 1.5 }).expect(200)).body);
    assert.equal(ok.xpCooldown, 30);
    assert.equal(ok.textMultiplier, 1.5);
    assert.equal(ok.currencyName, 'coins', 'fields not sent keep their values');
  });

  test('server-side ranges and types are enforced, each error naming its field; nothing is stored', async () => {
    const { session, url } = await admin();
    const before = (await session.get(url)).body;
    const cases: [object, string, RegExp][] = [
      [{ textMultiplier: 11 }, 'textMultiplier', /between 0 and 10/],
      [{ boostMultiplier: -1 }, 'boostMultiplier', /between 0 and 10/],
      [{ baseReward: 1_000_001 }, 'baseReward', /between 0 and 1,000,000\./],
      [{ levelUpBonus: 1.5 }, 'levelUpBonus', /whole number/],
      [{ xpCooldown: '60' }, 'xpCooldown', /must be a number/],
      [{ currencyName: '' }, 'currencyName', /required/],
      [{ commandPrefix: 'a b' }, 'commandPrefix', /spaces/],
      [{ commandPrefix: 'a\u0000' }, 'commandPrefix', /characters a member can type/],
      [{ commandPrefix: '!\u200b' }, 'commandPrefix', /characters a member can type/],
      [{ commandPrefix: '!\ud800' }, 'commandPrefix', /characters a member can type/],
      [{ commandPrefix: ' \n\t ' }, 'commandPrefix', /required/],
      [{ rateLimitPerMinute: 0 }, 'rateLimitPerMinute', /between 1 and 600/],
      [{ welcomeChannelId: 'general' }, 'welcomeChannelId', /Discord id/],
      [{ musicEnabled: 'yes' }, 'musicEnabled', /true or false/],
      [{ noSuchSetting: 1 }, 'noSuchSetting', /not a known field/],
      [{ webhookUrl: 'ftp://example.com/x' }, 'webhookUrl', /http\(s\) URL/],
    ];
    for (const [body, field, message] of cases) {
      const response = await put(session, url, body).expect(400);
      assert.match(response.body.fields?.[field] ?? '', message, JSON.stringify(body));
    }
    assert.deepEqual((await session.get(url)).body, before);
  });

  test("welcome switched on without a channel is refused with the spec's message", async () => {
    const { session, url } = await admin();
    const response = await put(session, url, { welcomeEnabled: true, welcomeChannelId: null }).expect(400);
    assert.equal(response.body.message, WELCOME_MISSING_CHANNEL.description);
    assert.equal(response.body.fields.welcomeChannelId, WELCOME_MISSING_CHANNEL.description);
    await put(session, url, { welcomeEnabled: true, welcomeChannelId: h().demo.channels.welcome }).expect(200);
    await put(session, url, { welcomeEnabled: false }).expect(200);
  });

  test('channel and role ids are checked against the live guild, with the reason in words', async () => {
    const { session, url } = await admin();
    const { channels, roles } = h().demo;
    const other = h().world.requireGuild(h().demo.thirdGuildId);
    const otherChannel = [...other.channels.keys()][0] ?? '';
    const cases: [object, string, RegExp][] = [
      [{ logChannelId: otherChannel }, 'logChannelId', /is not a channel of this server/],
      [{ logChannelId: channels.voice }, 'logChannelId', /#Lounge is not a text channel/],
      [
        { memberRoleId: roles.aboveBot },
        'memberRoleId',
        /@Senior Staff is above AwesomeBot's highest role \(@AwesomeBot\)\. Move the AwesomeBot role above it/,
      ],
      [{ memberRoleId: roles.bot }, 'memberRoleId', /managed by an integration/],
      [{ memberRoleId: h().guildId }, 'memberRoleId', /@everyone cannot be given/],
      [{ verificationRoleId: '123456789012345678' }, 'verificationRoleId', /is not a role of this server/],
    ];
    for (const [body, field, message] of cases) {
      const response = await put(session, url, body).expect(400);
      assert.match(response.body.fields?.[field] ?? '', message, JSON.stringify(body));
    }
    const ok = (await put(session, url, { logChannelId: channels.modLog, memberRoleId: roles.verified }).expect(200)).body;
    assert.equal(ok.logChannelId, channels.modLog);
    await put(session, url, { logChannelId: null, memberRoleId: null }).expect(200);
  });

  test('a change in Discord (a channel overwrite, a role moved) shows in the checks at once, without a restart', async () => {
    const { session, url } = await admin();
    const { channels, roles } = h().demo;
    await put(session, url, { welcomeChannelId: null, memberRoleId: null }).expect(200);
    const denied = h().product.client.guilds.cache.get(h().guildId)?.channels.cache.get(channels.welcome);
    assert.ok(denied && 'permissionOverwrites' in denied, '#welcome is a channel with overwrites');
    await h().control('PATCH', `/channels/${channels.welcome}`, { overwrites: [{ id: roles.bot, type: 'role', deny: ['SendMessages'] }] });
    await waitFor(() => denied.permissionOverwrites.cache.has(roles.bot), 5000, 'the overwrite to reach the bot');
    const refused = await put(session, url, { welcomeChannelId: channels.welcome }).expect(400);
    assert.match(refused.body.fields.welcomeChannelId, /AwesomeBot cannot send messages in #welcome/);
    await h().control('PATCH', `/channels/${channels.welcome}`, { overwrites: [] });
    await waitFor(() => !denied.permissionOverwrites.cache.has(roles.bot), 5000, 'the overwrite to go');
    await put(session, url, { welcomeChannelId: channels.welcome }).expect(200);

    await put(session, url, { memberRoleId: roles.aboveBot }).expect(400);
    await h().control('PATCH', `/guilds/${h().guildId}/roles/${roles.aboveBot}`, { position: 1 });
    const senior = h().product.client.guilds.cache.get(h().guildId)?.roles.cache.get(roles.aboveBot);
    await waitFor(() => senior?.position === 1, 5000, 'the move to reach the bot');
    await put(session, url, { memberRoleId: roles.aboveBot }).expect(200);
    await put(session, url, { memberRoleId: null, welcomeChannelId: null }).expect(200);
  });

  test('the API key is write-only: stored, shown by its last 4 characters, masked in the history', async () => {
    const { session, url } = await admin();
    const saved = (await put(session, url, { apiKey: 'k'.repeat(16) + 'Z9x4' }).expect(200)).body;
    assert.equal(saved.apiKeyLast4, 'Z9x4');
    const text = JSON.stringify((await session.get(url)).body) + JSON.stringify((await session.get(`/api/servers/${h().guildId}/audit-log`)).body);
    assert.doesNotMatch(text, /kkkkkkkk/);
    assert.match(text, /••••Z9x4/);
    await put(session, url, { apiKey: 'short' }).expect(400);
  });

  test('a webhook URL needs an API key and a public address (private ones are refused unless allowed)', async () => {
    const { session, url } = await admin();
    await put(session, url, { apiKey: null }).expect(200);
    const noKey = await put(session, url, { webhookUrl: 'https://example.com/hook' }).expect(400);
    assert.match(noKey.body.fields.apiKey, /sign webhook deliveries/);
    const local = await put(session, url, { webhookUrl: 'http://127.0.0.1:9/hook', apiKey: 'a'.repeat(20) }).expect(400);
    assert.match(local.body.fields.webhookUrl, /^The webhook's host 127\.0\.0\.1 points to an address that is not public \(loopback, private, link-local/);
    const sixToFour = await put(session, url, { webhookUrl: 'http://[2002:7f00:1::]/hook', apiKey: 'a'.repeat(20) }).expect(400);
    assert.match(sixToFour.body.fields.webhookUrl, /is not public/);
    const metadata = await put(session, url, { webhookUrl: 'http://169.254.169.254/latest', apiKey: 'a'.repeat(20) }).expect(400);
    assert.ok(metadata.body.fields.webhookUrl);
  });
});

describe('settings: history, restore, export, import, backup, reset', () => {
  test('every write is recorded (who, when, each field from -> to) and an earlier version can be restored, itself recorded', async () => {
    const { session, url } = await admin();
    await put(session, url, { currencyName: 'gems' }).expect(200);
    await put(session, url, { currencyName: 'shells', baseReward: 25 }).expect(200);
    const page = HistoryPageSchema.parse((await session.get(`/api/servers/${h().guildId}/audit-log?pageSize=2`).expect(200)).body);
    assert.equal(page.entries.length, 2);
    const [latest, earlier] = page.entries;
    assert.ok(latest && earlier);
    assert.deepEqual(latest.changes, [
      { field: 'currencyName', from: 'gems', to: 'shells' },
      { field: 'baseReward', from: 10, to: 25 },
    ]);
    assert.equal(latest.actor.id, h().demo.adminUserId);
    assert.equal(latest.actor.name, 'demo_admin');
    assert.ok(page.total >= 2);

    const restored = (await session.post(`/api/servers/${h().guildId}/settings/history/${earlier.id}/restore`).expect(200)).body;
    assert.equal(restored.currencyName, 'gems');
    assert.equal(restored.baseReward, 10);
    const after = HistoryPageSchema.parse((await session.get(`/api/servers/${h().guildId}/audit-log?pageSize=1`)).body);
    assert.equal(after.entries[0]?.kind, 'restore');
    assert.deepEqual(after.entries[0]?.changes.map((change) => change.field).sort(), ['baseReward', 'currencyName']);
    await session.post(`/api/servers/${h().guildId}/settings/history/999999/restore`).expect(404);
  });

  test('export, then import: a dry run previews the changes and stores nothing; applying stores and records them', async () => {
    const { session, url } = await admin();
    await put(session, url, { currencyName: 'coins', xpCooldown: 60 }).expect(200);
    const file = (await session.get(`/api/servers/${h().guildId}/settings/export`).expect(200)).body;
    assert.equal(file.version, '1.0.0');
    assert.ok(Date.parse(file.exportedAt));
    assert.equal(file.serverSettings.currencyName, 'coins');
    assert.equal(file.serverSettings.apiKeySealed, undefined);

    const edited = { ...file, serverSettings: { ...file.serverSettings, currencyName: 'tokens', xpCooldown: 15 } };
    const preview = (await session.post(`/api/servers/${h().guildId}/settings/import`, { file: edited }).expect(200)).body;
    assert.equal(preview.applied, false);
    assert.deepEqual(preview.changes, [
      { field: 'xpCooldown', from: 60, to: 15 },
      { field: 'currencyName', from: 'coins', to: 'tokens' },
    ]);
    assert.equal((await session.get(url)).body.currencyName, 'coins', 'the dry run stored nothing');

    const applied = (await session.post(`/api/servers/${h().guildId}/settings/import`, { file: edited, apply: true }).expect(200)).body;
    assert.equal(applied.applied, true);
    assert.equal((await session.get(url)).body.currencyName, 'tokens');
    const history = (await session.get(`/api/servers/${h().guildId}/audit-log?pageSize=1`)).body;
    assert.equal(history.entries[0].kind, 'import');
  });

  test('an import that is not an export file, or holds a bad or unknown setting, is refused naming the field', async () => {
    const { session } = await admin();
    const importUrl = `/api/servers/${h().guildId}/settings/import`;
    const notExport = await session.post(importUrl, { file: { hello: 'world' } }).expect(400);
    assert.ok(notExport.body.fields['file.version']);
    const badValue = await session.post(importUrl, { file: { version: '1.0.0', exportedAt: 'x', serverSettings: { xpCooldown: -5 } } }).expect(400);
    assert.match(badValue.body.fields['serverSettings.xpCooldown'], /^XP cooldown must be between 0 and 86,400\.$/);
    const unknown = await session.post(importUrl, { file: { version: '1.0.0', exportedAt: 'x', serverSettings: { statusMessage: 'hi' } } }).expect(400);
    assert.equal(unknown.body.fields['serverSettings.statusMessage'], 'Status message is not a known field.');
    const silencing = await session.post(importUrl, { file: { version: '1.0.0', exportedAt: 'x', serverSettings: { commandPrefix: 'a\u0000' } } }).expect(400);
    assert.match(silencing.body.fields['serverSettings.commandPrefix'], /characters a member can type/);
  });

  test('the backup file carries the timestamp, server name, bot version and settings', async () => {
    const { session } = await admin();
    const backup = (await session.get(`/api/servers/${h().guildId}/settings/backup`).expect(200)).body;
    assert.equal(backup.serverName, 'Sandbox Community');
    assert.equal(backup.botVersion, h().product.services.meta.version);
    assert.ok(Date.parse(backup.timestamp));
    assert.equal(typeof backup.settings.xpCooldown, 'number');
  });

  test('reset restores every default server-side, clears the API key, and is recorded', async () => {
    const { session, url } = await admin();
    await put(session, url, { currencyName: 'gems', apiKey: 'b'.repeat(20) }).expect(200);
    const reset = (await session.post(`/api/servers/${h().guildId}/settings/reset`).expect(200)).body;
    for (const [key, value] of Object.entries(SETTINGS_DEFAULTS)) assert.deepEqual(reset[key], value, key);
    assert.equal(reset.apiKeyLast4, null);
    const history = (await session.get(`/api/servers/${h().guildId}/audit-log?pageSize=1`)).body;
    assert.equal(history.entries[0].kind, 'reset');
  });

  test('a viewer reads the settings and the history but cannot change anything', async () => {
    const viewer = await buildAccount(h());
    await h().product.services.grants.grant(h().guildId, {
      subjectType: 'member',
      subjectId: viewer.userId,
      level: 'view',
      expiresAt: null,
      createdBy: h().demo.ownerUserId,
    });
    const url = `/api/servers/${h().guildId}/settings`;
    const view = (await viewer.session.get(url).expect(200)).body;
    assert.equal(view.access, 'view');
    const refused = await viewer.session.put(url, { xpCooldown: 10 }).expect(403);
    assert.match(refused.body.message, /read-only/);
    await viewer.session.get(`/api/servers/${h().guildId}/audit-log`).expect(200);
  });
});
