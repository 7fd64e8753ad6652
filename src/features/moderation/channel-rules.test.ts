import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PURGE_LIMITS } from '../../shared/channel-tools';
import { isLocked, lockMemory, planPurge, readLockMemory, SEND_MESSAGES, unlockPlan, type PurgeCandidate } from './channel-rules';

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 86_400_000;
let next = 100;
const message = (overrides: Partial<PurgeCandidate>): PurgeCandidate => {
  next += 1;
  return { id: `1000000000000000${next}`, authorId: '111', authorBot: false, content: 'hello', createdAt: NOW - next * 1000, ...overrides };
};
const ADD_REACTIONS = 1n << 6n;

describe('purge', () => {
  test('takes the newest `count` messages that pass every filter given', () => {
    const alice = message({ authorId: 'alice', content: 'see https://example.com', createdAt: NOW - 1000 });
    const bot = message({ authorId: 'bot', authorBot: true, content: 'Level up!', createdAt: NOW - 2000 });
    const invite = message({ authorId: 'bob', content: 'join discord.gg/abc', createdAt: NOW - 3000 });
    const plain = message({ authorId: 'alice', content: 'Buy SPAM now', createdAt: NOW - 4000 });
    const all = [plain, invite, bot, alice];
    assert.deepEqual(planPurge(all, {}, 3, NOW).ids, [alice.id, bot.id, invite.id]);
    assert.deepEqual(planPurge(all, { userId: 'alice' }, 10, NOW).ids, [alice.id, plain.id]);
    assert.deepEqual(planPurge(all, { bots: true }, 10, NOW).ids, [bot.id]);
    assert.deepEqual(planPurge(all, { links: true }, 10, NOW).ids, [alice.id, invite.id]);
    assert.deepEqual(planPurge(all, { contains: 'spam' }, 10, NOW).ids, [plain.id], 'contains ignores case');
    assert.deepEqual(planPurge(all, { userId: 'alice', links: true }, 10, NOW).ids, [alice.id], 'filters combine');
  });

  test('skips matching messages 14 days old or older, and counts them', () => {
    const fresh = message({ createdAt: NOW - PURGE_LIMITS.maxAgeMs + 1000 });
    const atCut = message({ createdAt: NOW - PURGE_LIMITS.maxAgeMs });
    const old = message({ createdAt: NOW - 20 * DAY });
    assert.deepEqual(planPurge([old, atCut, fresh], {}, 10, NOW), { ids: [fresh.id], skipped: 2 });
    assert.deepEqual(planPurge([old, atCut, fresh], {}, 1, NOW), { ids: [fresh.id], skipped: 0 }, 'only what the count reaches is counted');
  });
});

describe('lock and unlock', () => {
  test('an overwrite that did not exist is removed again; other bits set meanwhile are kept', () => {
    const memory = lockMemory(null);
    assert.deepEqual(memory, { existed: false, sendMessages: 'inherit' });
    assert.deepEqual(unlockPlan({ allow: 0n, deny: SEND_MESSAGES }, memory), { remove: true });
    assert.deepEqual(unlockPlan({ allow: 0n, deny: SEND_MESSAGES | ADD_REACTIONS }, memory), { remove: false, sendMessages: 'inherit' });
  });

  test('an existing overwrite gets its Send Messages back as it was (allowed, or left to roles)', () => {
    const allowed = { allow: SEND_MESSAGES, deny: ADD_REACTIONS };
    assert.equal(isLocked(allowed), false);
    assert.deepEqual(unlockPlan({ allow: 0n, deny: SEND_MESSAGES | ADD_REACTIONS }, lockMemory(allowed)), { remove: false, sendMessages: 'allow' });
    const neutral = { allow: 0n, deny: ADD_REACTIONS };
    assert.deepEqual(unlockPlan({ allow: 0n, deny: SEND_MESSAGES | ADD_REACTIONS }, lockMemory(neutral)), { remove: false, sendMessages: 'inherit' });
  });

  test('the memory reads back from a stored case, and a channel locked by hand goes back to the roles', () => {
    assert.deepEqual(readLockMemory({ previous: { existed: true, sendMessages: 'allow' } }), { existed: true, sendMessages: 'allow' });
    assert.equal(readLockMemory({ previous: { existed: 'yes' } }), null);
    assert.equal(readLockMemory(null), null);
    assert.deepEqual(unlockPlan({ allow: 0n, deny: SEND_MESSAGES }, null), { remove: false, sendMessages: 'inherit' });
    assert.equal(isLocked({ allow: 0n, deny: SEND_MESSAGES }), true);
  });
});
