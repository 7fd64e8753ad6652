// Who may be given coins is one rule on both faces: the dashboard's Give Coins (admins) and /give
// (members) refuse a bot (this one or another), someone who is not a member of the server (left,
// never joined, or the id of the server or a role) and the giver themself, in the same words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COIN_RECIPIENT_REFUSALS } from '../../src/shared/economy';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember } from '../factories';

const h = useHarness();
const giveUrl = () => `/api/servers/${h().guildId}/economy/give`;

let bots = 0;
/** A bot account other than ours, in the demo guild, once our bot has seen it join. */
async function buildOtherBot() {
  bots += 1;
  const user = h().world.addUser({ username: `helper_bot_${bots}`, globalName: null, avatar: null, bot: true });
  h().world.addMember(h().guildId, { id: user.id, username: user.username });
  await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.members.cache.has(user.id), 5000, 'the bot to see the other bot join');
  return user.id;
}

/** A member who had a wallet here, then left the server. */
async function buildFormerMember(name: string) {
  const member = await buildMember(h(), { username: name });
  await (await h().signIn(h().demo.adminUserId)).post(giveUrl(), { userId: member.userId, amount: 5 }).expect(200);
  h().world.removeMember(h().guildId, member.userId);
  await waitFor(() => !h().product.client.guilds.cache.get(h().guildId)?.members.cache.has(member.userId), 5000, 'the bot to see them leave');
  return member.userId;
}

describe('Give Coins on the dashboard', () => {
  test('401 without a session, 400 naming a bad field, 403 for a member, 200 for an admin', async () => {
    const { userId } = await buildMember(h());
    const anonymous = await fetch(`${h().product.url}${giveUrl()}`, {
      method: 'POST',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId, amount: 5 }),
    });
    assert.equal(anonymous.status, 401);
    const admin = await h().signIn(h().demo.adminUserId);
    const bad = await admin.post(giveUrl(), { userId, amount: 0 }).expect(400);
    assert.ok(bad.body.fields.amount);
    const member = await buildAccount(h());
    await member.session.post(giveUrl(), { userId, amount: 5 }).expect(403);
    assert.equal((await admin.post(giveUrl(), { userId, amount: 5 }).expect(200)).body.balance, 5);
  });

  test('a bot, someone who is not a member, and the admin themself are refused with a sentence; nothing is written', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const otherBot = await buildOtherBot();
    const former = await buildFormerMember('drifter');
    const cases: [string, string][] = [
      [h().world.botUserId, COIN_RECIPIENT_REFUSALS.bot],
      [otherBot, COIN_RECIPIENT_REFUSALS.bot],
      [former, 'drifter is not a member of this server.'],
      ['123456789012345678', 'That user is not a member of this server.'],
      [h().guildId, 'That user is not a member of this server.'],
      [h().demo.roles.member, 'That user is not a member of this server.'],
      [h().demo.adminUserId, 'You cannot give coins to yourself.'],
    ];
    const ledgerRows = () => h().product.store.models.Transaction.count({ where: { guildId: h().guildId } });
    const before = await ledgerRows();
    for (const [userId, sentence] of cases) {
      const response = await admin.post(giveUrl(), { userId, amount: 10 }).expect(400);
      assert.equal(response.body.message, sentence, userId);
      assert.equal(response.body.fields.userId, sentence, userId);
    }
    assert.equal(await ledgerRows(), before, 'no ledger row for a refused gift');
  });
});

describe('/give', () => {
  test("a bot, someone who is not a member, and oneself are refused in the dashboard's words", async () => {
    const giver = await buildMember(h(), { username: 'generous' });
    await (await h().signIn(h().demo.adminUserId)).post(giveUrl(), { userId: giver.userId, amount: 50 }).expect(200);
    const otherBot = await buildOtherBot();
    const former = await buildFormerMember('wanderer');
    const reply = async (member: string) => (await h().slash(giver.userId, 'give', { member, amount: 1 })).body;
    for (const [member, sentence] of [
      [h().world.botUserId, COIN_RECIPIENT_REFUSALS.bot],
      [otherBot, COIN_RECIPIENT_REFUSALS.bot],
      [former, 'wanderer is not a member of this server.'],
      [giver.userId, 'You cannot give coins to yourself.'],
    ] as const) {
      const answer = await reply(member);
      assert.equal(answer.content, sentence, member);
      assert.equal(answer.ephemeral, true, 'a refusal is ephemeral');
    }
    const wallet = await h().product.store.models.UserCurrency.findOne({ where: { guildId: h().guildId, userId: giver.userId } });
    assert.equal(wallet?.balance, 50, 'nothing left the wallet');
    const taker = await buildMember(h());
    assert.match((await reply(taker.userId)).content ?? '', / gave 1 coins? to /);
  });
});
