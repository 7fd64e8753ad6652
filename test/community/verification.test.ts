// Rule Verification through the sandbox: saving posts the rules message with ✅ (and edits it
// after), ✅ gives the verification role (and the member role when auto-assign is on), other
// reactions are removed, a deleted rules message is reported and reposted on the next save, a
// role above the bot is refused in words and shows as a diagnostic, and ✅ reactions added while
// the bot was offline are honoured after a restart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VerificationStatusSchema, VERIFY_EMOJI } from '../../src/shared/welcome';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { useHarness } from '../helpers/harness';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const h = useHarness();
const check = encodeURIComponent(VERIFY_EMOJI);

describe('rule verification', () => {
  const url = () => `/api/servers/${h().guildId}/settings`;
  const admin = () => h().signIn(h().demo.adminUserId);
  const status = async () => VerificationStatusSchema.parse((await (await admin()).get(`/api/servers/${h().guildId}/verification`).expect(200)).body);
  const roleIds = (userId: string) => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds ?? [];
  const rulesPage = () => ({
    verificationEnabled: true,
    rulesChannelId: h().demo.channels.rules,
    verificationRoleId: h().demo.roles.verified,
    rulesMessage: '1. Be kind.\n2. No spam.',
  });

  before(async () => {
    const saved = await (await admin()).put(url(), rulesPage());
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('saving posts the rules embed with ✅ in the rules channel and stores where; saving again edits it', async () => {
    const first = await status();
    assert.ok(first.rulesMessage?.exists);
    const message = (await h().messages(h().demo.channels.rules)).find((row) => row.id === first.rulesMessage?.messageId);
    assert.ok(message?.bot);
    assert.match(message.embeds[0]?.description ?? '', /1\. Be kind\.\n2\. No spam\./);
    assert.deepEqual(
      message.reactions.map((reaction) => reaction.emoji),
      [VERIFY_EMOJI],
    );

    await (await admin()).put(url(), { ...rulesPage(), rulesMessage: '1. Be kind.\n2. No spam.\n3. Have fun.' }).expect(200);
    const second = await status();
    assert.equal(second.rulesMessage?.messageId, first.rulesMessage?.messageId, 'the same message, edited');
    const edited = (await h().messages(h().demo.channels.rules)).find((row) => row.id === second.rulesMessage?.messageId);
    assert.match(edited?.embeds[0]?.description ?? '', /3\. Have fun\./);
  });

  test('✅ gives the verification role; another reaction is removed', async () => {
    const { rulesMessage } = await status();
    assert.ok(rulesMessage);
    const { userId } = await buildMember(h());
    await h().control('PUT', `/channels/${rulesMessage.channelId}/messages/${rulesMessage.messageId}/reactions/${check}/${userId}`);
    await waitFor(() => roleIds(userId).includes(h().demo.roles.verified), 5000, 'the verification role');
    await h().control('PUT', `/channels/${rulesMessage.channelId}/messages/${rulesMessage.messageId}/reactions/${encodeURIComponent('🎉')}/${userId}`);
    await waitFor(
      async () => {
        const message = (await h().messages(rulesMessage.channelId)).find((row) => row.id === rulesMessage.messageId);
        return message && !message.reactions.some((reaction) => reaction.emoji === '🎉');
      },
      5000,
      'the other reaction to be removed',
    );
    const message = (await h().messages(rulesMessage.channelId)).find((row) => row.id === rulesMessage.messageId);
    assert.ok(message?.reactions.find((reaction) => reaction.emoji === VERIFY_EMOJI)?.userIds.includes(h().world.botUserId), "the bot's ✅ stays");
  });

  test('auto-assign: the member role comes with verification while it is on, and on join once it is off', async () => {
    const session = await admin();
    await session.put(url(), { autoRoleEnabled: true, memberRoleId: h().demo.roles.member }).expect(200);
    const { rulesMessage } = await status();
    assert.ok(rulesMessage);
    const waiting = await buildMember(h());
    // The barrier: another member's ✅ after that join, handled after it, gives them both roles.
    const marker = await buildMember(h());
    await h().control('PUT', `/channels/${rulesMessage.channelId}/messages/${rulesMessage.messageId}/reactions/${check}/${marker.userId}`);
    await waitFor(
      () => roleIds(marker.userId).includes(h().demo.roles.member) && roleIds(marker.userId).includes(h().demo.roles.verified),
      5000,
      "the later member's roles",
    );
    assert.equal(roleIds(waiting.userId).includes(h().demo.roles.member), false, 'not before verifying');
    await h().control('PUT', `/channels/${rulesMessage.channelId}/messages/${rulesMessage.messageId}/reactions/${check}/${waiting.userId}`);
    await waitFor(
      () => roleIds(waiting.userId).includes(h().demo.roles.member) && roleIds(waiting.userId).includes(h().demo.roles.verified),
      5000,
      'both roles',
    );

    await session.put(url(), { verificationEnabled: false }).expect(200);
    const joiner = h().world.addMember(h().guildId, { username: 'auto_role_joiner' });
    await waitFor(() => roleIds(joiner.userId).includes(h().demo.roles.member), 5000, 'the member role on join');
    await session.put(url(), { ...rulesPage(), autoRoleEnabled: false, memberRoleId: null }).expect(200);
  });

  test('a rules message deleted in Discord is reported (status, diagnostics) and reposted by the next save', async () => {
    const session = await admin();
    const before = await status();
    assert.ok(before.rulesMessage);
    await h().control('DELETE', `/channels/${before.rulesMessage.channelId}/messages/${before.rulesMessage.messageId}`);
    await waitFor(async () => (await status()).rulesMessage?.exists === false, 5000, 'the deletion to be noticed');
    const diagnostics = DiagnosticsSchema.parse((await session.get(`/api/servers/${h().guildId}/diagnostics?feature=verification`).expect(200)).body);
    assert.ok(diagnostics.items.some((item) => /rules message was deleted/.test(item.problem) && /Save the Rule Verification page/.test(item.fix)));
    assert.equal(diagnostics.counts.verification, diagnostics.items.length);

    await session.put(url(), rulesPage()).expect(200);
    const after = await status();
    assert.ok(after.rulesMessage?.exists);
    assert.notEqual(after.rulesMessage?.messageId, before.rulesMessage.messageId);
    const diagnosticsAfter = DiagnosticsSchema.parse((await session.get(`/api/servers/${h().guildId}/diagnostics?feature=verification`)).body);
    assert.equal(diagnosticsAfter.items.filter((item) => item.subject === 'rulesMessage').length, 0);
  });

  test('a role above the bot is refused in words; moved above it later in Discord, it shows as a diagnostic at once', async () => {
    const session = await admin();
    const refused = await session.put(url(), { verificationRoleId: h().demo.roles.aboveBot });
    assert.equal(refused.status, 400);
    assert.match(
      refused.body.fields.verificationRoleId,
      /@Senior Staff is above AwesomeBot's highest role \(@AwesomeBot\)\. Move the AwesomeBot role above it/,
    );

    const role = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name: 'Newcomer' });
    await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(role.body.id), 5000, 'the role to reach the bot');
    await session.put(url(), { verificationRoleId: role.body.id }).expect(200);
    const top = h().world.requireGuild(h().guildId).roles.size - 1;
    await h().control('PATCH', `/guilds/${h().guildId}/roles/${role.body.id}`, { position: top });
    await waitFor(
      async () => {
        const diagnostics = DiagnosticsSchema.parse((await session.get(`/api/servers/${h().guildId}/diagnostics?feature=verification`)).body);
        return diagnostics.items.find((item) => item.subject === 'verificationRoleId' && /@Newcomer is above AwesomeBot's highest role/.test(item.problem));
      },
      5000,
      'the diagnostic',
    );
    await session.put(url(), { verificationRoleId: h().demo.roles.verified }).expect(200);
  });

  test('a member role moved above the bot: ✅ still gives @Verified, and the log channel names only the member role', async () => {
    const session = await admin();
    const guildId = h().guildId;
    const senior = h().world.requireGuild(guildId).roles.get(h().demo.roles.aboveBot);
    assert.ok(senior);
    const originalPosition = senior.position;
    const botRole = () => h().product.client.guilds.cache.get(guildId)?.members.me?.roles.highest;
    const seniorSeen = () => h().product.client.guilds.cache.get(guildId)?.roles.cache.get(senior.id);
    // Configured while below the bot (the settings route refuses a role above it), then moved above
    // it in Discord: what an admin rearranging roles later leaves behind.
    h().world.structure.updateRole(guildId, senior, { position: 1 });
    await waitFor(
      () => {
        const [role, bot] = [seniorSeen(), botRole()];
        return role && bot && role.comparePositionTo(bot) < 0;
      },
      5000,
      'the role to be below the bot',
    );
    await session.put(url(), { ...rulesPage(), autoRoleEnabled: true, memberRoleId: senior.id, logChannelId: h().demo.channels.modLog }).expect(200);
    h().world.structure.updateRole(guildId, senior, { position: originalPosition });
    await waitFor(
      () => {
        const [role, bot] = [seniorSeen(), botRole()];
        return role && bot && role.comparePositionTo(bot) > 0;
      },
      5000,
      'the role to be above the bot again',
    );

    const { rulesMessage } = await status();
    assert.ok(rulesMessage);
    const { userId } = await buildMember(h());
    const notice = h().waitForMessage(h().demo.channels.modLog, (message) => message.embeds.some((embed) => embed.title === 'Verification failed'));
    await h().control('PUT', `/channels/${rulesMessage.channelId}/messages/${rulesMessage.messageId}/reactions/${check}/${userId}`);
    await waitFor(() => roleIds(userId).includes(h().demo.roles.verified), 5000, 'the verification role');
    const description = (await notice).embeds[0]?.description ?? '';
    assert.match(description, /@Senior Staff/);
    assert.doesNotMatch(description, /@Verified/);
    assert.ok(!roleIds(userId).includes(senior.id), 'the member role was not given');
    await session.put(url(), { ...rulesPage(), autoRoleEnabled: false, memberRoleId: null, logChannelId: null }).expect(200);
  });
});

describe('verification while the bot was offline', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    await r.start();
    const { demo } = r.sandbox.world;
    const saved = await (
      await r.signIn(demo.adminUserId)
    ).put(`/api/servers/${demo.guildId}/settings`, {
      verificationEnabled: true,
      rulesChannelId: demo.channels.rules,
      verificationRoleId: demo.roles.verified,
      rulesMessage: 'Be kind.',
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(() => r.close());

  test('a ✅ added while the bot was offline gives the role after a restart', async () => {
    const { world } = r.sandbox;
    const state = await r.product().services.guildState.get(world.demo.guildId, 'rulesMessage');
    assert.ok(state);
    const member = world.addMember(world.demo.guildId, { username: 'offline_verifier' });
    await r.stop();
    world.messages.addReaction(world.messages.get(state.messageId)!, VERIFY_EMOJI, member.userId);
    await r.start();
    await waitFor(
      () => world.requireGuild(world.demo.guildId).members.get(member.userId)?.roleIds.includes(world.demo.roles.verified),
      5000,
      'the role after the restart',
    );
  });
});
