// Discord's incident actions and raids as a bot meets them: PUT /guilds/:id/incident-actions needs
// Manage Server and takes pauses at most 24 hours ahead, the guild's incidents_data follows in
// GUILD_UPDATE, joins through an invite are refused while invites are paused (creating invites is
// not), and the control API makes bursts of joins and accounts of a given age.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiscordAPIError, Events, GatewayIntentBits as I, PermissionFlagsBits as P, type Client, type Guild, type TextChannel } from 'discord.js';
import { ManualClock } from '../../src/core/clock';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { snowflakeTime } from '../../src/sandbox/snowflake';
import { changeBotPermissions, control, waitForEvent } from './helpers';
import { startClientWithIntents } from './intents-client';
import { waitFor } from '../helpers/wait';

const HOUR = 3_600_000;

describe('incident actions and raids', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 10, 12));
  let sandbox: Sandbox;
  let bot: Client;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20, clock });
    bot = await startClientWithIntents(sandbox, [I.Guilds, I.GuildMembers, I.GuildInvites]);
  });
  after(async () => {
    await bot.destroy();
    await sandbox.close();
  });
  const guild = () => bot.guilds.cache.get(sandbox.world.demo.guildId) as Guild;

  it('refuses without Manage Server (50013), then pauses invites: the answer and GUILD_UPDATE carry it', async () => {
    await assert.rejects(
      guild().setIncidentActions({ invitesDisabledUntil: new Date(clock.ms() + HOUR) }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50013,
    );
    changeBotPermissions(sandbox, (held) => held | P.ManageGuild);
    const updated = waitForEvent(bot, Events.GuildUpdate, (_old: Guild, next: Guild) => Boolean(next.incidentsData?.invitesDisabledUntil));
    const until = new Date(clock.ms() + 2 * HOUR);
    const answer = await guild().setIncidentActions({ invitesDisabledUntil: until });
    assert.equal(answer.invitesDisabledUntil?.getTime(), until.getTime());
    assert.equal(answer.dmsDisabledUntil, null);
    await updated;
    assert.equal(guild().incidentsData?.invitesDisabledUntil?.getTime(), until.getTime());
  });

  it('refuses a pause more than 24 hours ahead with Discord’s form error', async () => {
    await assert.rejects(
      guild().setIncidentActions({ invitesDisabledUntil: new Date(clock.ms() + 25 * HOUR) }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50035 && /24 hours/.test(JSON.stringify(error.rawError)),
    );
  });

  it('while paused, invites can be made but nobody joins through one; resumed, they can', async () => {
    const channel = bot.channels.cache.get(sandbox.world.demo.channels.general) as TextChannel;
    const invite = await channel.createInvite({ maxAge: 0, unique: true });
    const refused = await control<{ error: string }>(sandbox, 'POST', `/invites/${invite.code}/accept`, { username: 'latecomer' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'invites_paused');
    await guild().setIncidentActions({ invitesDisabledUntil: null });
    const joined = await control<{ id: string; uses: number }>(sandbox, 'POST', `/invites/${invite.code}/accept`, { username: 'latecomer' });
    assert.equal(joined.status, 201);
    assert.equal(joined.body.uses, 1);
    assert.ok(sandbox.world.requireGuild(guild().id).members.has(joined.body.id));
    // A pause whose time has passed is over.
    await guild().setIncidentActions({ invitesDisabledUntil: new Date(clock.ms() + HOUR) });
    clock.advance(HOUR + 1000);
    assert.equal((await control(sandbox, 'POST', `/invites/${invite.code}/accept`, { username: 'laterstill' })).status, 201);
  });

  it('a burst of joins arrives as one GUILD_MEMBER_ADD each; accounts can be made days old', async () => {
    const seen: string[] = [];
    const listener = (member: { id: string }) => seen.push(member.id);
    bot.on(Events.GuildMemberAdd, listener);
    const burst = await control<{ userIds: string[] }>(sandbox, 'POST', `/guilds/${guild().id}/members/burst`, { count: 12, accountAgeDays: 2 });
    assert.equal(burst.status, 201);
    assert.equal(burst.body.userIds.length, 12);
    assert.equal(new Set(burst.body.userIds).size, 12);
    for (const id of burst.body.userIds) assert.equal(Math.round((clock.ms() - snowflakeTime(id)) / 86_400_000), 2);
    const young = await control<{ id: string }>(sandbox, 'POST', `/guilds/${guild().id}/members`, { username: 'newbie', accountAgeDays: 0 });
    assert.equal(young.status, 201);
    assert.equal(Math.floor((clock.ms() - snowflakeTime(young.body.id)) / 60_000), 0, 'an account made today');
    await waitFor(() => seen.includes(young.body.id) || undefined, 5000, 'the young account’s GUILD_MEMBER_ADD');
    bot.off(Events.GuildMemberAdd, listener);
    assert.deepEqual(
      seen.filter((id) => burst.body.userIds.includes(id)),
      burst.body.userIds,
    );
    const bad = await control(sandbox, 'POST', `/guilds/${guild().id}/members/burst`, { count: 201 });
    assert.equal(bad.status, 400);
  });
});
