// Invites as a bot meets them: made in a channel with Create Instant Invite (INVITE_CREATE only to a
// session with GUILD_INVITES, an audit entry with the reason), an existing one handed back unless
// `unique`, listed with Manage Channels or Manage Server, resolved by anyone, revoked, and gone once
// the sandbox's clock passes their age.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AuditLogEvent,
  ChannelType,
  DiscordAPIError,
  Events,
  GatewayIntentBits as I,
  OverwriteType,
  PermissionFlagsBits as P,
  type Client,
  type TextChannel,
} from 'discord.js';
import { ManualClock } from '../../src/core/clock';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { changeBotPermissions, control, waitForEvent } from './helpers';
import { dispatchShapeProblems, nextDispatch, recordDispatches, recordWorldDispatches, startClientWithIntents, type RawDispatch } from './intents-client';

const refusedWith = (code: number) => (error: unknown) => error instanceof DiscordAPIError && error.code === code;
/** The code Discord gave a form field's first error (`errors.<field>._errors[0].code`). */
const fieldErrorCode = (error: DiscordAPIError, field: string) =>
  (error.rawError as { errors?: Record<string, { _errors?: { code: string }[] }> }).errors?.[field]?._errors?.[0]?.code;

describe('invites', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 10, 12));
  let sandbox: Sandbox;
  let bot: Client;
  let blind: Client;
  let blindSaw: RawDispatch[];
  let sent: RawDispatch[];
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20, clock });
    sent = recordWorldDispatches(sandbox);
    bot = await startClientWithIntents(sandbox, [I.Guilds, I.GuildMessages, I.GuildInvites, I.GuildModeration]);
    blind = await startClientWithIntents(sandbox, [I.Guilds, I.GuildMessages, I.MessageContent]);
    blindSaw = recordDispatches(blind);
  });
  after(async () => {
    await bot.destroy();
    await blind.destroy();
    await sandbox.close();
  });

  const general = () => bot.channels.cache.get(sandbox.world.demo.channels.general) as TextChannel;
  const grantBot = (permissions: bigint) => changeBotPermissions(sandbox, (held) => held | permissions);
  /** Every dispatch sent before a member's message has reached `client` once that message has. */
  const barrier = async (client: Client) => {
    const content = `barrier ${Math.random()}`;
    const arrived = waitForEvent(client, Events.MessageCreate, (message: { content: string }) => message.content === content);
    const { plainMemberId, channels } = sandbox.world.demo;
    await control(sandbox, 'POST', `/channels/${channels.general}/messages`, { authorId: plainMemberId, content });
    await arrived;
  };

  it('the bot makes an invite: INVITE_CREATE with GUILD_INVITES only, the audit entry has the reason, the same settings hand it back', async () => {
    const announced = nextDispatch(bot, 'INVITE_CREATE');
    const invite = await general().createInvite({ maxAge: 600, maxUses: 3, unique: true, reason: 'for the meetup' });
    assert.match(invite.code, /^[A-Za-z0-9]{8,10}$/);
    assert.equal(invite.maxAge, 600);
    assert.equal(invite.maxUses, 3);
    assert.equal(invite.inviterId, sandbox.world.botUserId);
    assert.equal(invite.expiresTimestamp, clock.ms() + 600_000);
    const created = await announced;
    assert.equal(created.code, invite.code);
    assert.equal(created.expires_at, new Date(clock.ms() + 600_000).toISOString());
    await barrier(blind);
    assert.equal(
      blindSaw.some((d) => d.t === 'INVITE_CREATE'),
      false,
      'no INVITE_CREATE without GUILD_INVITES',
    );

    const logs = await general().guild.fetchAuditLogs({ type: AuditLogEvent.InviteCreate });
    const entry = logs.entries.find((e) => e.changes.some((c) => c.key === 'code' && c.new === invite.code));
    assert.ok(entry);
    assert.equal(entry.executorId, sandbox.world.botUserId);
    assert.equal(entry.reason, 'for the meetup');

    // Not unique: the bot's live invite of the same settings is handed back; `unique` makes another.
    assert.equal((await general().createInvite({ maxAge: 600, maxUses: 3 })).code, invite.code);
    assert.notEqual((await general().createInvite({ maxAge: 600, maxUses: 3, unique: true })).code, invite.code);
  });

  it('anyone resolves an invite, with counts; listing takes Manage Server or Manage Channels; revoking sends INVITE_DELETE', async () => {
    const invite = await general().createInvite({ maxAge: 0, unique: true });
    const resolved = await fetch(`${sandbox.apiBase}/v10/invites/${invite.code}?with_counts=true&with_expiration=true`);
    const body = (await resolved.json()) as Record<string, unknown>;
    assert.equal(resolved.status, 200);
    assert.equal(body.expires_at, null);
    assert.equal(body.approximate_member_count, sandbox.world.requireGuild(sandbox.world.demo.guildId).members.size);
    assert.equal('uses' in body, false, 'the uses are for those who manage invites');
    const fetched = await bot.fetchInvite(invite.code);
    assert.equal(fetched.guild?.id, sandbox.world.demo.guildId);

    await assert.rejects(general().guild.invites.fetch(), refusedWith(50013));
    await assert.rejects(general().fetchInvites(), refusedWith(50013));
    grantBot(P.ManageGuild);
    const listed = await general().guild.invites.fetch();
    assert.ok(listed.has(invite.code));
    assert.equal(listed.get(invite.code)?.uses, 0);

    const revoked = nextDispatch(bot, 'INVITE_DELETE', (d) => d.code === invite.code);
    await invite.delete('no longer needed');
    await revoked;
    await assert.rejects(bot.fetchInvite(invite.code), refusedWith(10006));
    await assert.rejects(bot.rest.delete(`/invites/${invite.code}`), refusedWith(10006));
    const logs = await general().guild.fetchAuditLogs({ type: AuditLogEvent.InviteDelete });
    assert.equal(logs.entries.first()?.reason, 'no longer needed');
  });

  it('an invite runs out on the sandbox clock', async () => {
    const invite = await general().createInvite({ maxAge: 60, unique: true });
    await bot.fetchInvite(invite.code);
    clock.advance(60_000);
    await assert.rejects(bot.fetchInvite(invite.code), refusedWith(10006));
    grantBot(P.ManageGuild);
    assert.equal((await general().guild.invites.fetch()).has(invite.code), false);
  });

  it('refusals: an age past 7 days, no Create Instant Invite in the channel, revoking without Manage Channels or Manage Server', async () => {
    await assert.rejects(general().createInvite({ maxAge: 604_801 }), (error: unknown) => {
      assert.ok(error instanceof DiscordAPIError && error.code === 50035);
      assert.equal(fieldErrorCode(error, 'max_age'), 'NUMBER_TYPE_MAX');
      return true;
    });
    const { guildId } = sandbox.world.demo;
    const closed = sandbox.world.structure.createChannel(guildId, {
      name: 'no-invites',
      type: ChannelType.GuildText,
      overwrites: [{ id: guildId, type: OverwriteType.Role, allow: 0n, deny: P.CreateInstantInvite }],
    });
    await assert.rejects(bot.rest.post(`/channels/${closed.id}/invites`, { body: {} }), refusedWith(50013));

    // A member's invite: revoking it takes Manage Channels there or Manage Server, which the bot loses here.
    const channel = sandbox.world.requireGuild(guildId).channels.get(sandbox.world.demo.channels.general);
    assert.ok(channel);
    const { invite } = sandbox.world.invites.create(channel, { inviterId: sandbox.world.demo.plainMemberId });
    const role = sandbox.world.requireGuild(guildId).roles.get(sandbox.world.demo.roles.bot);
    assert.ok(role);
    sandbox.world.structure.updateRole(guildId, role, { permissions: role.permissions & ~(P.ManageGuild | P.ManageChannels) });
    await assert.rejects(bot.rest.delete(`/invites/${invite.code}`), refusedWith(50013));
    await assert.rejects(bot.rest.get('/invites/NoSuchCode'), refusedWith(10006));
  });

  it('every dispatch sent conforms to discord-api-types', () => {
    for (const t of ['INVITE_CREATE', 'INVITE_DELETE', 'GUILD_AUDIT_LOG_ENTRY_CREATE'])
      assert.ok(
        sent.some((d) => d.t === t),
        t,
      );
    assert.deepEqual(dispatchShapeProblems(sent), []);
  });
});
