// Verification's button and account-age gate through the sandbox: the rules message carries a
// Verify button; a click gives the role, answered only to the member; an account younger than the
// gate is refused with the days left and verifies once old enough, and is flagged to moderators
// in the log channel when the admin chose so; removing the ✅ keeps the role or takes it back, as
// the admin chose.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { VerificationStatusSchema, VERIFY_EMOJI } from '../../src/shared/welcome';
import { VERIFY_BUTTON_ID } from '../../src/shared/verification';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const clock = new ManualClock(Date.UTC(2026, 10, 3, 9));
const h = useHarness({}, { clock });
const DAY_MS = 86_400_000;

interface Final {
  content: string;
  ephemeral: boolean;
}

describe('verification: button, account-age gate, reaction removal', () => {
  const url = () => `/api/servers/${h().guildId}/settings`;
  const admin = () => h().signIn(h().demo.adminUserId);
  const roleIds = (userId: string) => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds ?? [];
  const rules = async () => {
    const body = VerificationStatusSchema.parse((await (await admin()).get(`/api/servers/${h().guildId}/verification`).expect(200)).body);
    assert.ok(body.rulesMessage);
    return body.rulesMessage;
  };
  const click = async (userId: string) => {
    const { channelId, messageId } = await rules();
    const answer = await h().control<Final>('POST', '/interactions/component', { channelId, messageId, userId, customId: VERIFY_BUTTON_ID });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const save = async (changes: Record<string, unknown>) => {
    const saved = await (await admin()).put(url(), changes);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  };

  before(async () => {
    await save({
      verificationEnabled: true,
      rulesChannelId: h().demo.channels.rules,
      verificationRoleId: h().demo.roles.verified,
      rulesMessage: '1. Be kind.',
      verificationButton: true,
    });
  });

  test('the rules message carries the Verify button; a click gives the role, answered privately', async () => {
    const { messageId } = await rules();
    const message = h().world.messages.get(messageId);
    assert.equal(JSON.stringify(message?.components).includes(VERIFY_BUTTON_ID), true, 'the button is on the rules message');
    const { userId } = await buildMember(h());
    const answer = await click(userId);
    assert.equal(answer.ephemeral, true);
    assert.match(answer.content, /You are verified/);
    assert.ok(roleIds(userId).includes(h().demo.roles.verified));
  });

  test('a young account is refused with the days left, and verifies once old enough', async () => {
    await save({ verificationMinAccountDays: 7, verificationYoungAccounts: 'wait' });
    const { userId } = await buildMember(h());
    clock.advance(2 * DAY_MS);
    const refused = await click(userId);
    assert.equal(refused.ephemeral, true);
    assert.match(refused.content, /too new to verify here yet\. Come back in 5 days/);
    assert.ok(!roleIds(userId).includes(h().demo.roles.verified), 'no role yet');
    clock.advance(5 * DAY_MS);
    assert.match((await click(userId)).content, /You are verified/);
    assert.ok(roleIds(userId).includes(h().demo.roles.verified));
  });

  test('flagged: moderators read about the young account in the log channel, pinging nobody; a young ✅ is taken off and answered by DM', async () => {
    await save({ verificationMinAccountDays: 30, verificationYoungAccounts: 'flag', logChannelId: h().demo.channels.modLog });
    const { userId } = await buildMember(h(), { username: 'fresh_fiona' });
    const flagged = h().waitForMessage(h().demo.channels.modLog, (message) => message.bot && (message.embeds[0]?.description ?? '').includes(userId));
    const refused = await click(userId);
    assert.match(refused.content, /Come back in 30 days/);
    const log = await flagged;
    assert.equal(log.embeds[0]?.title, 'New account tried to verify');
    assert.deepEqual(log.pinged, { users: [], roles: [], everyone: false });
    // Trying again the same day is refused again, but moderators are not told twice (the flag is posted before the answer).
    assert.match((await click(userId)).content, /Come back in 30 days/);
    const flags = (await h().messages(h().demo.channels.modLog)).filter((message) => (message.embeds[0]?.description ?? '').includes(userId));
    assert.equal(flags.length, 1);

    const { channelId, messageId } = await rules();
    await h().control('PUT', `/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(VERIFY_EMOJI)}/${userId}`);
    await waitFor(
      async () => {
        const dms = (await h().control<{ content: string }[]>('GET', `/users/${userId}/dms`)).body;
        return Array.isArray(dms) && dms.some((dm) => dm.content.includes('too new to verify'));
      },
      5000,
      'the DM telling the days left',
    );
    await waitFor(
      async () => {
        const check = (await h().messages(channelId)).find((row) => row.id === messageId)?.reactions.find((row) => row.emoji === VERIFY_EMOJI);
        return check?.userIds.includes(h().world.botUserId) === true && !check.userIds.includes(userId);
      },
      5000,
      'the young ✅ to be taken off',
    );
    assert.ok(!roleIds(userId).includes(h().demo.roles.verified));
  });

  test('removing the ✅ keeps the role by default, and takes it back when the admin chose so', async () => {
    await save({ verificationMinAccountDays: 0 });
    const { channelId, messageId } = await rules();
    const reaction = (userId: string) => `/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(VERIFY_EMOJI)}/${userId}`;
    const keeper = await buildMember(h());
    await h().control('PUT', reaction(keeper.userId));
    await waitFor(() => roleIds(keeper.userId).includes(h().demo.roles.verified), 5000, 'the role');
    await h().control('DELETE', reaction(keeper.userId));

    await save({ verificationOnUnreact: 'remove' });
    const leaver = await buildMember(h());
    await h().control('PUT', reaction(leaver.userId));
    await waitFor(() => roleIds(leaver.userId).includes(h().demo.roles.verified), 5000, 'the role');
    await h().control('DELETE', reaction(leaver.userId));
    await waitFor(() => !roleIds(leaver.userId).includes(h().demo.roles.verified), 5000, 'the role taken back');
    assert.ok(roleIds(keeper.userId).includes(h().demo.roles.verified), 'removed while the choice was keep: the role stayed');
  });
});
