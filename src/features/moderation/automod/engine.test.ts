import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUTOMOD_DEFAULTS, AUTOMOD_RULE_NAMES, type AutomodRuleName, type AutomodRules } from '../../../shared/moderation';
import { AUTOMOD_RULE_ORDER, AutomodEngine, SPARE_STAFF, type AutomodMessage, type AutomodOptions } from './engine';
import { REPEAT_WINDOW_MS } from './member-memory';

const GUILD = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const CHANNEL = '200000000000000001';
const QUIET_CHANNEL = '200000000000000002';
const AUTHOR = '300000000000000001';
const MODERATOR_ROLE = '400000000000000001';
const MEMBER_ROLE = '400000000000000002';
const T0 = 1_700_000_000_000;

/** A plain message from AUTHOR in CHANNEL of GUILD, with overrides. */
function message(overrides: Partial<AutomodMessage> = {}): AutomodMessage {
  return {
    guildId: GUILD,
    channelId: CHANNEL,
    authorId: AUTHOR,
    content: 'hello there',
    roleIds: [MEMBER_ROLE],
    staff: false,
    mentionCount: 0,
    everyone: false,
    at: T0,
    ...overrides,
  };
}

type RuleOverrides = { [K in AutomodRuleName]?: Partial<AutomodRules[K]> };

/** Every rule off (the defaults) except those given, which are turned on with their overrides. */
function rules(on: RuleOverrides): AutomodRules {
  const out = structuredClone(AUTOMOD_DEFAULTS);
  for (const name of Object.keys(on) as AutomodRuleName[]) Object.assign(out[name], { enabled: true }, on[name]);
  return out;
}

const ALL_ON: RuleOverrides = { invites: {}, links: {}, mentions: {}, repeats: {}, rate: {}, words: { words: ['blocked'] }, caps: {} };

/** A message that breaks each rule on its own (repeats and rate once sent enough times). */
const BREAKERS: Record<AutomodRuleName, { message: Partial<AutomodMessage>; times: number }> = {
  invites: { message: { content: 'join discord.gg/abc' }, times: 1 },
  links: { message: { content: 'see https://evil.io' }, times: 1 },
  mentions: { message: { content: 'hi all', mentionCount: 6 }, times: 1 },
  repeats: { message: { content: 'buy my stuff' }, times: 4 },
  rate: { message: { content: 'msg' }, times: 6 },
  words: { message: { content: 'that is blocked' }, times: 1 },
  caps: { message: { content: 'THIS IS SO LOUD' }, times: 1 },
};

/** Sends a rule's breaker (as many times as it takes, 100 ms apart) and returns the last verdict. */
function sendBreaker(engine: AutomodEngine, rule: AutomodRuleName, set: AutomodRules, overrides: Partial<AutomodMessage> = {}, options?: AutomodOptions) {
  const { message: base, times } = BREAKERS[rule];
  let verdict = null;
  for (let i = 0; i < times; i++) {
    // Rate's breaker varies its text so that it does not also repeat.
    const content = rule === 'rate' ? `${base.content} ${i}` : base.content;
    verdict = engine.check(message({ ...base, content, at: T0 + i * 100, ...overrides }), set, options);
  }
  return verdict;
}

test('the rule order covers every rule once, in the dashboard order', () => {
  assert.deepEqual([...AUTOMOD_RULE_ORDER], Object.keys(AUTOMOD_RULE_NAMES));
});

test('every rule catches its breaker, with its reason, action and duration, and passes a clean message', () => {
  for (const rule of AUTOMOD_RULE_ORDER) {
    const set = rules({ ...ALL_ON, [rule]: { ...ALL_ON[rule], action: 'timeout', duration: '10m' } });
    assert.deepEqual(sendBreaker(new AutomodEngine(), rule, set), { rule, reason: AUTOMOD_RULE_NAMES[rule], action: 'timeout', duration: '10m' }, rule);
    assert.equal(new AutomodEngine().check(message({ content: 'Did you see the game last night? It was great.' }), set), null, rule);
  }
  // A duration left on a rule whose action is not a timeout does not come with the verdict.
  const warn = rules({ words: { words: ['blocked'], action: 'warn', duration: '1h' } });
  assert.deepEqual(new AutomodEngine().check(message({ content: 'blocked' }), warn), {
    rule: 'words',
    reason: AUTOMOD_RULE_NAMES.words,
    action: 'warn',
    duration: null,
  });
});

test('with every rule off nothing is caught and nothing is remembered', () => {
  const engine = new AutomodEngine();
  for (const rule of AUTOMOD_RULE_ORDER) assert.equal(sendBreaker(engine, rule, AUTOMOD_DEFAULTS), null, rule);
  assert.equal(engine.trackedMembers, 0);
});

test('each rule spares its exempt roles and channels, and only its own', () => {
  for (const rule of AUTOMOD_RULE_ORDER) {
    const byRole = rules({ [rule]: { ...ALL_ON[rule], exemptRoleIds: [MODERATOR_ROLE] } });
    assert.equal(sendBreaker(new AutomodEngine(), rule, byRole, { roleIds: [MEMBER_ROLE, MODERATOR_ROLE] }), null, `${rule} by role`);
    assert.equal(sendBreaker(new AutomodEngine(), rule, byRole)?.rule, rule, `${rule} without the role`);
    const byChannel = rules({ [rule]: { ...ALL_ON[rule], exemptChannelIds: [QUIET_CHANNEL] } });
    assert.equal(sendBreaker(new AutomodEngine(), rule, byChannel, { channelId: QUIET_CHANNEL }), null, `${rule} by channel`);
    assert.equal(sendBreaker(new AutomodEngine(), rule, byChannel)?.rule, rule, `${rule} in another channel`);
  }
  const set = rules({ words: { words: ['blocked'] }, caps: { exemptRoleIds: [MODERATOR_ROLE] } });
  assert.equal(new AutomodEngine().check(message({ content: 'THAT IS BLOCKED', roleIds: [MODERATOR_ROLE] }), set)?.rule, 'words');
});

test('staff (owner, Administrator, Manage Server) are spared by every rule by default, and not counted', () => {
  const set = rules(ALL_ON);
  const engine = new AutomodEngine();
  for (const rule of AUTOMOD_RULE_ORDER) assert.equal(sendBreaker(engine, rule, set, { staff: true }), null, rule);
  assert.equal(sendBreaker(engine, 'invites', set, { staff: true }, SPARE_STAFF), null, 'SPARE_STAFF is the default');
  assert.equal(engine.trackedMembers, 0, 'nothing is remembered of a spared member');
  // The same messages from a member who is not staff are caught.
  for (const rule of AUTOMOD_RULE_ORDER) assert.equal(sendBreaker(new AutomodEngine(), rule, set, { staff: false })?.rule, rule, rule);
});

test('staff are checked like everyone else when the guild includes them', () => {
  const set = rules(ALL_ON);
  for (const rule of AUTOMOD_RULE_ORDER) assert.equal(sendBreaker(new AutomodEngine(), rule, set, { staff: true }, { includeStaff: true })?.rule, rule, rule);
  // Their exempt roles still spare them.
  const byRole = rules({ invites: { exemptRoleIds: [MODERATOR_ROLE] } });
  assert.equal(new AutomodEngine().check(message({ content: 'discord.gg/abc', staff: true, roleIds: [MODERATOR_ROLE] }), byRole, { includeStaff: true }), null);
});

test('the first broken rule in order wins', () => {
  // Breaks every rule on its second sending: an invite and a link, 3 mentions and @everyone, a blocked word, in capitals.
  const content = 'DISCORD.GG/ABC HTTPS://EVIL.IO BLOCKED WORD HERE @everyone';
  const on: RuleOverrides = { ...ALL_ON, repeats: { maxRepeats: 1 }, rate: { maxMessages: 1, perSeconds: 60 }, mentions: { maxMentions: 3 } };
  AUTOMOD_RULE_ORDER.forEach((expected, index) => {
    const set = rules(on);
    for (const earlier of AUTOMOD_RULE_ORDER.slice(0, index)) set[earlier].enabled = false;
    const engine = new AutomodEngine();
    engine.check(message({ content, mentionCount: 4, everyone: true }), set);
    assert.equal(engine.check(message({ content, mentionCount: 4, everyone: true, at: T0 + 1000 }), set)?.rule, expected);
  });
});

test('invites: the plain forms, with or without a scheme, in any case, spaced out', () => {
  const set = rules({ invites: {} });
  const caught = [
    'discord.gg/abc',
    'https://discord.gg/abc',
    'http://discord.gg/abc',
    'DISCORD.GG/AbC',
    'discord.com/invite/abc',
    'https://discordapp.com/invite/abc',
    'https://ptb.discord.com/invite/abc',
    'www.discord.gg/abc',
    'come <https://discord.gg/abc>',
    '||discord.gg/abc||',
    '[free](https://discord.gg/abc)',
    'discord .gg/abc',
    'discord. gg / abc',
    'discord.gg\\abc',
    'discord\u200b.gg/abc',
    'discord.gg/invite/abc',
  ];
  for (const content of caught) assert.equal(new AutomodEngine().check(message({ content }), set)?.rule, 'invites', content);
  const clean = [
    'I love discord',
    'discord.com/channels/1/2',
    'https://discord.com/developers',
    'notdiscord.gg/abc',
    'discord.gg',
    'discord gg abc',
    'discord(.)gg/abc',
  ];
  for (const content of clean) assert.equal(new AutomodEngine().check(message({ content }), set), null, content);
});

test('links: hosts off the allow list, its subdomains allowed, look-alikes not', () => {
  const set = rules({ links: { allowedDomains: ['example.com', 'YouTube.com', '*.tenor.com', 'https://GitHub.com/', 'Bücher.de'] } });
  const caught = [
    'https://evil.io',
    'HTTP://EVIL.IO/x',
    'see evil-example.com',
    'example.com.evil.io',
    'https://example.com.evil.io/x',
    'http://example.com@evil.io/x',
    'https://evil.io\\@example.com',
    '(https://evil.io)',
    '[example.com](https://evil.io)',
    'http://localhost:3000',
    'https://127.0.0.1/admin',
    'go to sub.evil.ru/path',
    'ftp://evil.io',
    'https://xn--80ak6aa92e.com',
    'пример.рф',
    'https://notexample.com',
    'free nitro at dlscord.gift',
    'x.com',
    'evil_example.com',
    'https://xn--bcher-kva.de',
    'bücher.de.evil.io',
  ];
  for (const content of caught) assert.equal(new AutomodEngine().check(message({ content }), set)?.rule, 'links', content);
  const clean = [
    'https://example.com/x',
    'https://www.example.com',
    'a.b.example.com/page',
    'EXAMPLE.COM',
    'https://youtube.com/watch?v=1',
    'https://media.tenor.com/x.gif',
    'https://tenor.com',
    'github.com/a/b.io',
    'https://example.com/redirect?to=evil.io',
    'https://example.com:8443/x',
    'e.g. this',
    'i.e. that',
    'version 1.2.3',
    'ok. see you',
    'the U.S.A. is big',
    'mail me@evil.io',
    'config.json and notes.txt',
    'hello world',
    '',
    '...',
    'https://',
    'https://bücher.de/buch',
    'BÜCHER.DE',
    'shop.bücher.de',
  ];
  for (const content of clean) assert.equal(new AutomodEngine().check(message({ content }), set), null, content);
  // With no allow list, every link breaks the rule.
  assert.equal(new AutomodEngine().check(message({ content: 'https://example.com' }), rules({ links: {} }))?.rule, 'links');
});

test('links: invites are links while the invites rule is off, and left to it while it is on', () => {
  const invite = message({ content: 'discord.gg/abc' });
  assert.equal(new AutomodEngine().check(invite, rules({ links: {} }))?.rule, 'links');
  assert.equal(new AutomodEngine().check(message({ content: 'https://discord.com/invite/abc' }), rules({ links: {} }))?.rule, 'links');
  // The member may post invites (exempt from that rule): the links rule does not judge them instead.
  const exemptFromInvites = rules({ invites: { exemptRoleIds: [MODERATOR_ROLE] }, links: {} });
  assert.equal(new AutomodEngine().check({ ...invite, roleIds: [MODERATOR_ROLE] }, exemptFromInvites), null);
  assert.equal(
    new AutomodEngine().check(message({ content: 'https://discord.com/channels/1/2', roleIds: [MODERATOR_ROLE] }), exemptFromInvites)?.rule,
    'links',
  );
});

test('mentions: a limit of N allows N mentions and acts on N+1; @everyone/@here always', () => {
  for (const limit of [1, 5, 100]) {
    const set = rules({ mentions: { maxMentions: limit } });
    const engine = new AutomodEngine();
    assert.equal(engine.check(message({ mentionCount: limit }), set), null, `${limit} allowed`);
    assert.equal(engine.check(message({ mentionCount: limit + 1 }), set)?.rule, 'mentions', `${limit + 1} acted on`);
  }
  const set = rules({ mentions: { maxMentions: 5 } });
  assert.equal(new AutomodEngine().check(message({ mentionCount: 1, everyone: true }), set)?.rule, 'mentions');
});

test('repeats: a limit of N allows N identical messages (normalised) and acts on the next within a sliding minute', () => {
  const set = rules({ repeats: { maxRepeats: 3 } });
  const engine = new AutomodEngine();
  const send = (content: string, seconds: number, overrides: Partial<AutomodMessage> = {}) =>
    engine.check(message({ content, at: T0 + seconds * 1000, ...overrides }), set)?.rule ?? null;
  assert.equal(send('Hello  world', 0), null);
  assert.equal(send(' hello world ', 1), null);
  assert.equal(send('HELLO\nWORLD', 2), null);
  assert.equal(send('hello world', 3), 'repeats');
  assert.equal(send('hello world', 4), 'repeats');
  // Another text starts a new run; another member's or another guild's messages are theirs.
  assert.equal(send('something else', 5), null);
  assert.equal(send('something else', 6, { authorId: '300000000000000009' }), null);
  assert.equal(send('something else', 7, { guildId: OTHER_GUILD }), null);
  assert.equal(send('something else', 8), null);
  assert.equal(send('something else', 9), null);
  assert.equal(send('something else', 10), 'repeats');
  // The window slides: the last four must fit in a minute (100 to 170 does not; 150 to 180 does).
  assert.equal(send('again', 100), null);
  assert.equal(send('again', 150), null);
  assert.equal(send('again', 160), null);
  assert.equal(send('again', 170), null);
  assert.equal(send('again', 180), 'repeats');
  // A full minute between the first and the last is outside the window.
  assert.equal(send('slow', 200), null);
  assert.equal(send('slow', 230), null);
  assert.equal(send('slow', 250), null);
  assert.equal(send('slow', 200 + REPEAT_WINDOW_MS / 1000), null);
  assert.equal(send('slow', 270), 'repeats');
  // Messages without text (an image) do not count and do not break the run.
  assert.equal(send('pic', 300), null);
  assert.equal(send('   ', 301), null);
  assert.equal(send('', 302), null);
  assert.equal(send('pic', 303), null);
  assert.equal(send('', 304), null);
  assert.equal(send('pic', 305), null);
  assert.equal(send('pic', 306), 'repeats');
});

test('repeats: each limit allows that many identical messages and acts on one more', () => {
  for (const limit of [1, 2, 3, 20]) {
    const set = rules({ repeats: { maxRepeats: limit } });
    const engine = new AutomodEngine();
    for (let i = 0; i < limit; i++) assert.equal(engine.check(message({ content: 'same', at: T0 + i }), set), null, `limit ${limit}: message ${i + 1} allowed`);
    assert.equal(engine.check(message({ content: 'same', at: T0 + limit }), set)?.rule, 'repeats', `limit ${limit}: message ${limit + 1} acted on`);
  }
});

test('rate: each limit allows that many messages in the window and acts on one more', () => {
  for (const limit of [2, 5, 100]) {
    const set = rules({ rate: { maxMessages: limit, perSeconds: 10 } });
    const engine = new AutomodEngine();
    for (let i = 0; i < limit; i++)
      assert.equal(engine.check(message({ content: `m${i}`, at: T0 + i }), set), null, `limit ${limit}: message ${i + 1} allowed`);
    assert.equal(engine.check(message({ content: 'last', at: T0 + limit }), set)?.rule, 'rate', `limit ${limit}: message ${limit + 1} acted on`);
  }
});

test('rate: more than maxMessages in perSeconds, per member per guild, in a sliding window', () => {
  const set = rules({ rate: { maxMessages: 5, perSeconds: 5 } });
  const engine = new AutomodEngine();
  let n = 0;
  const send = (ms: number, overrides: Partial<AutomodMessage> = {}) =>
    engine.check(message({ content: `m${(n += 1)}`, at: T0 + ms, ...overrides }), set)?.rule ?? null;
  for (const ms of [0, 1000, 2000, 3000, 4000]) assert.equal(send(ms), null);
  // The sixth at exactly 5 s after the first is outside the window; one before it is inside.
  assert.equal(send(5000), null);
  assert.equal(send(5999), 'rate');
  assert.equal(send(6500, { authorId: '300000000000000009' }), null);
  assert.equal(send(6500, { guildId: OTHER_GUILD }), null);
  // Slowing down: after a quiet spell the window empties.
  assert.equal(send(20_000), null);
  for (const ms of [20_100, 20_200, 20_300, 20_400]) assert.equal(send(ms), null);
  assert.equal(send(20_500), 'rate');
  // A setting change resizes the member's ring.
  const stricter = rules({ rate: { maxMessages: 2, perSeconds: 5 } });
  assert.equal(engine.check(message({ content: 'a', at: T0 + 30_000 }), stricter), null);
  assert.equal(engine.check(message({ content: 'b', at: T0 + 30_001 }), stricter), null);
  assert.equal(engine.check(message({ content: 'c', at: T0 + 30_002 }), stricter)?.rule, 'rate');
});

test('repeats and rate count messages an earlier rule caught', () => {
  const set = rules({ invites: {}, rate: { maxMessages: 2, perSeconds: 10 } });
  const engine = new AutomodEngine();
  assert.equal(engine.check(message({ content: 'discord.gg/a' }), set)?.rule, 'invites');
  assert.equal(engine.check(message({ content: 'discord.gg/b', at: T0 + 1 }), set)?.rule, 'invites');
  assert.equal(engine.check(message({ content: 'hello', at: T0 + 2 }), set)?.rule, 'rate');
});

test('words: whole words and phrases, any case, Unicode, regex characters taken literally', () => {
  const set = rules({ words: { words: ['ass', 'bad phrase', 'c++', 'naïve', 'ПЛОХО', '(.*)', 'a.b', '$$$', 'x|y', '中文'] } });
  const caught = [
    'you ass',
    'ASS!',
    'what a Bad   Phrase this is',
    'I code in c++ daily',
    'so naïve',
    'это плохо',
    'literally (.*) here',
    'a.b',
    'pay $$$ now',
    'x|y',
    '我会说中文',
    '_ass_',
    '**ass**',
    'my_ass',
  ];
  for (const content of caught) assert.equal(new AutomodEngine().check(message({ content }), set)?.rule, 'words', content);
  const clean = ['class', 'assassin', 'bass guitar', 'badphrase', 'bad', 'c', 'naïveté', 'плохой', 'anything at all', 'axb', 'x', 'y', 'ass1', 'sass_', 'assé'];
  for (const content of clean) assert.equal(new AutomodEngine().check(message({ content }), set), null, content);
  assert.equal(new AutomodEngine().check(message({ content: 'anything' }), rules({ words: { words: [] } })), null);
});

test('words: a list is compiled once, found again by identity or by contents', () => {
  let iterations = 0;
  const list = new Proxy(['blocked', 'other'], {
    get(target, property, receiver) {
      if (property === Symbol.iterator) iterations += 1;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  const engine = new AutomodEngine();
  const set = rules({ words: { words: list } });
  for (let i = 0; i < 50; i++)
    assert.equal(engine.check(message({ content: i % 2 ? 'blocked' : 'fine', authorId: String(i) }), set)?.rule ?? null, i % 2 ? 'words' : null);
  assert.equal(iterations, 1);
  // The same words re-read as a new array (settings loaded again) need no compiling either.
  const reread = rules({
    words: {
      words: new Proxy(['blocked', 'other'], { get: (t, p, r) => (p === Symbol.iterator ? assert.fail('compiled again') : (Reflect.get(t, p, r) as unknown)) }),
    },
  });
  assert.equal(engine.check(message({ content: 'blocked' }), reread)?.rule, 'words');
});

test('caps: enough letters, mostly capitals, counting letters only', () => {
  const set = rules({ caps: { maxPercent: 70, minLength: 10 } });
  const caught = [
    'THIS IS SO COOL',
    'ПРИВЕТ ВСЕМ ДРУЗЬЯ',
    '🔥🔥 HELLO THERE 🔥🔥',
    'THIS IS GREAT https://example.com/lowercase/path/here/and/more',
    'WHAT ARE YOU <@123456789> DOING',
    'ABCDEFGHij',
    '𝐇𝐄𝐋𝐋𝐎 𝐓𝐇𝐄𝐑𝐄 𝐘𝐎𝐔',
  ];
  for (const content of caught) assert.equal(new AutomodEngine().check(message({ content }), set)?.rule, 'caps', content);
  const clean = [
    'This is fine',
    'OK',
    'SHORT ONE',
    'привет всем друзья',
    'これはテストです。よろしくね OK',
    'ABCDEFghij',
    'ABCDEFGhij',
    'hi <:KEKWKEKWKEKWKEKW:123456789> fine',
    'ok HTTPS://EXAMPLE.COM/ABCDEFGHIJKL',
    '1234567890!!!!',
    'HI @everyone and @here',
    '<a:DANCEDANCEDANCE:1234> <@&123> <#456>',
  ];
  for (const content of clean) assert.equal(new AutomodEngine().check(message({ content }), set), null, content);
});

test('caps: a limit of N % allows N % capitals and acts above it; the fewest letters checked are checked', () => {
  const set = rules({ caps: { maxPercent: 70, minLength: 10 } });
  // Exactly 70 of 100 letters in capitals is allowed; 71 is not.
  const shout = (upper: number, letters = 100) => `${'A'.repeat(upper)}${'a'.repeat(letters - upper)}`;
  assert.equal(new AutomodEngine().check(message({ content: shout(70) }), set), null, '70 % allowed');
  assert.equal(new AutomodEngine().check(message({ content: shout(71) }), set)?.rule, 'caps', '71 % acted on');
  // 7 of 10: allowed; 8 of 10: not.
  assert.equal(new AutomodEngine().check(message({ content: shout(7, 10) }), set), null, '7 of 10 allowed');
  assert.equal(new AutomodEngine().check(message({ content: shout(8, 10) }), set)?.rule, 'caps', '8 of 10 acted on');
  // 100 % allows any message; 50 % acts on anything above half.
  assert.equal(new AutomodEngine().check(message({ content: 'ALL CAPITALS HERE' }), rules({ caps: { maxPercent: 100, minLength: 10 } })), null);
  const half = rules({ caps: { maxPercent: 50, minLength: 10 } });
  assert.equal(new AutomodEngine().check(message({ content: shout(5, 10) }), half), null, '50 % allowed');
  assert.equal(new AutomodEngine().check(message({ content: shout(6, 10) }), half)?.rule, 'caps', '60 % acted on');
  // The shortest message checked counts letters: 10 letters are checked, 9 (with spaces and marks making it longer) are not.
  assert.equal(new AutomodEngine().check(message({ content: 'ABCDE FGHIJ' }), set)?.rule, 'caps', '10 letters checked');
  assert.equal(new AutomodEngine().check(message({ content: 'ABCDE FGHI!' }), set), null, '9 letters not checked');
});

test('member records are capped; members who posted again outlast those who did not', () => {
  const engine = new AutomodEngine({ maxTrackedMembers: 100 });
  const set = rules({ repeats: { maxRepeats: 1 } });
  const send = (member: number, content: string, at = T0) => engine.check(message({ authorId: String(member), content, at }), set)?.rule ?? null;
  for (let member = 0; member < 100; member++) send(member, 'first');
  assert.equal(engine.trackedMembers, 100);
  // Member 0 posted again; member 1 did not, and goes when member 100 needs room.
  send(0, 'zero');
  send(100, 'new');
  assert.equal(engine.trackedMembers, 100);
  assert.equal(send(0, 'zero'), 'repeats');
  assert.equal(send(1, 'first'), null);
  for (let member = 200; member < 1200; member++) send(member, 'filler');
  assert.equal(engine.trackedMembers, 100);
  // A guild whose only remembered member makes room for another of its members keeps the newcomer.
  const one = new AutomodEngine({ maxTrackedMembers: 1 });
  one.check(message({ authorId: 'a', content: 'x' }), set);
  one.check(message({ authorId: 'b', content: 'x' }), set);
  assert.equal(one.check(message({ authorId: 'b', content: 'x' }), set)?.rule, 'repeats');
  assert.equal(one.check(message({ authorId: 'a', content: 'x', guildId: OTHER_GUILD }), set), null);
  assert.equal(one.check(message({ authorId: 'a', content: 'x', guildId: OTHER_GUILD }), set)?.rule, 'repeats');
  assert.equal(one.trackedMembers, 1);
  // The default cap.
  const big = new AutomodEngine();
  for (let member = 0; member < 50_010; member++) big.check(message({ authorId: String(member) }), set);
  assert.equal(big.trackedMembers, 50_000);
});

test('nothing is remembered for rules that are off or that spare the member', () => {
  const engine = new AutomodEngine();
  engine.check(message(), rules({ invites: {}, links: {}, mentions: {}, words: { words: ['x'] }, caps: {} }));
  engine.check(message({ roleIds: [MODERATOR_ROLE] }), rules({ repeats: { exemptRoleIds: [MODERATOR_ROLE] }, rate: { exemptChannelIds: [CHANNEL] } }));
  assert.equal(engine.trackedMembers, 0);
  engine.check(message(), rules({ rate: {} }));
  assert.equal(engine.trackedMembers, 1);
});

test('forgetGuild forgets only that guild', () => {
  const engine = new AutomodEngine();
  const set = rules({ repeats: { maxRepeats: 1 } });
  engine.check(message({ content: 'x' }), set);
  engine.check(message({ content: 'x', guildId: OTHER_GUILD }), set);
  engine.check(message({ content: 'x', guildId: `${GUILD}0` }), set);
  engine.forgetGuild(GUILD);
  assert.equal(engine.trackedMembers, 2);
  assert.equal(engine.check(message({ content: 'x' }), set), null);
  assert.equal(engine.check(message({ content: 'x', guildId: OTHER_GUILD }), set)?.rule, 'repeats');
});

test('odd input never throws: empty, huge, broken surrogates, odd times', () => {
  const engine = new AutomodEngine();
  const set = rules({ ...ALL_ON, links: { allowedDomains: ['example.com'] } });
  const odd = [
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udc00abc',
    'a'.repeat(100_000),
    'a.'.repeat(50_000),
    'https://'.repeat(10_000),
    '<'.repeat(10_000),
    'discord'.repeat(10_000),
    `${'x'.repeat(3999)}https://evil.io`,
    '🔥'.repeat(5000),
    'http://[::1]:80/',
    'https://@',
    '.com',
    'a.com.',
    '-.-.-',
    '@.@',
    'xn--.xn--',
  ];
  for (const content of odd) {
    for (const at of [T0, Number.NaN, -1, Number.MAX_SAFE_INTEGER])
      assert.doesNotThrow(() => engine.check(message({ content, at }), set), content.slice(0, 20));
  }
  assert.doesNotThrow(() => engine.check(message({ content: undefined as unknown as string }), set));
  // Only the first 4,000 characters are read.
  assert.equal(engine.check(message({ content: `${'x '.repeat(2000)}https://evil.io`, authorId: '9' }), set), null);
});
