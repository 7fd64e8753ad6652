// The member commands through the sandbox, as a member runs them: /rank, /leaderboard and /shop
// paged by their buttons, /balance and /inventory, and the same commands typed with the prefix.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { levelFromTotal } from '../../src/shared/leveling';
import { useHarness } from '../helpers/harness';
import { buildMember } from '../factories';

const h = useHarness();

interface Reply {
  messageId?: string;
  content: string;
  ephemeral?: boolean;
  embeds?: { title?: string; description?: string; fields?: { name: string; value: string }[] }[];
  updated?: { messageId: string; content: string };
}

/** Runs a slash command as a member and returns the bot's reply. */
async function slash(userId: string, name: string, options: { name: string; value: string | number }[] = []): Promise<Reply> {
  const { status, body } = await h().control<Reply>('POST', '/interactions', {
    guildId: h().guildId,
    channelId: h().demo.channels.general,
    userId,
    name,
    options,
  });
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

/** The bot's message in #general, as members see it now. */
const messageNow = (messageId: string) => h().world.messages.get(messageId);

/** Clicks a button of the bot's message as a member. */
async function click(userId: string, messageId: string, customId: string): Promise<void> {
  const { status, body } = await h().control('POST', '/interactions/component', { channelId: h().demo.channels.general, userId, messageId, customId });
  assert.equal(status, 200, JSON.stringify(body));
}

/** The custom id of the message's button labelled `label`. */
function buttonOf(messageId: string, label: string): string {
  const button = messageNow(messageId)
    ?.components.flatMap((row) => row.components)
    .find((component) => 'label' in component && component.label === label);
  assert.ok(button && 'custom_id' in button, `a ${label} button`);
  return button.custom_id;
}

describe('the member commands', () => {
  test('/leaderboard shows ten a page and its buttons turn the page; /rank shows the level and the place', async () => {
    const { UserLevel } = h().product.store.models;
    const members = await Promise.all(Array.from({ length: 12 }, () => buildMember(h())));
    await Promise.all(
      members.map((member, i) =>
        UserLevel.create({
          guildId: h().guildId,
          userId: member.userId,
          username: `ranked_${String(i).padStart(2, '0')}`,
          level: 1,
          xp: 0,
          totalXp: 1000 - i * 10,
          messagesCount: 5,
          updatedAt: new Date(),
        }),
      ),
    );

    const board = await slash(members[0]!.userId, 'leaderboard');
    assert.ok(board.messageId);
    assert.equal(board.embeds?.[0]?.title, 'Leaderboard');
    assert.equal(board.embeds?.[0]?.description?.split('\n').length, 10, 'ten a page');
    // Names are the members' current ones, from Discord.
    const nameOf = (index: number) => h().world.users.get(members[index]!.userId)?.username ?? '';
    assert.ok(board.embeds?.[0]?.description?.startsWith(`**1.** ${nameOf(0)} · Level`));
    await click(members[0]!.userId, board.messageId, buttonOf(board.messageId, 'Next'));
    assert.ok(messageNow(board.messageId)?.embeds[0]?.description?.startsWith(`**11.** ${nameOf(10)} · Level`));
    assert.ok(buttonOf(board.messageId, 'Page 2 of 2'));

    const rank = await slash(members[0]!.userId, 'rank', [{ name: 'member', value: members[2]!.userId }]);
    const fields = Object.fromEntries((rank.embeds?.[0]?.fields ?? []).map((field) => [field.name, field.value]));
    assert.equal(fields.Level, String(levelFromTotal(980).level), 'the level of 980 XP');
    assert.equal(fields.Rank, '#3', 'third on the leaderboard');
  });

  test('/shop pages its items; /balance and /inventory answer the member privately', async () => {
    const { ShopItem } = h().product.store.models;
    await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        ShopItem.create({
          guildId: h().guildId,
          name: `Sticker ${String(i).padStart(2, '0')}`,
          description: null,
          price: 10 + i,
          type: 'cosmetic',
          roleId: null,
          icon: null,
          stock: null,
          perMemberLimit: null,
        }),
      ),
    );
    const buyer = await buildMember(h());
    const shop = await slash(buyer.userId, 'shop');
    assert.ok(shop.messageId);
    assert.match(shop.embeds?.[0]?.description ?? '', /Sticker 00/);
    assert.doesNotMatch(shop.embeds?.[0]?.description ?? '', /Sticker 10/);
    await click(buyer.userId, shop.messageId, buttonOf(shop.messageId, 'Next'));
    assert.match(messageNow(shop.messageId)?.embeds[0]?.description ?? '', /Sticker 10/);

    const session = await h().signIn(h().demo.adminUserId);
    await session.post(`/api/servers/${h().guildId}/economy/give`, { userId: buyer.userId, amount: 100 }).expect(200);
    const balance = await slash(buyer.userId, 'balance');
    assert.equal(balance.ephemeral, true);
    assert.match(JSON.stringify(balance), /100 coins/);
    await slash(buyer.userId, 'buy', [{ name: 'item', value: 'Sticker 00' }]);
    const inventory = await slash(buyer.userId, 'inventory');
    assert.equal(inventory.ephemeral, true);
    assert.match(JSON.stringify(inventory), /Sticker 00/);
  });

  test('typed with the prefix, the same commands answer in the channel', async () => {
    const member = await buildMember(h());
    const reply = await h().say(member.userId, '!balance');
    assert.match(JSON.stringify(reply), /0 coins/);
    const board = await h().say(member.userId, '!leaderboard');
    assert.match(JSON.stringify(board.embeds), /Leaderboard/);
  });
});
