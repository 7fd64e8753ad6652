// "Try these rules" shares the live path's judgement: the same messages get the same verdicts (and
// the same case pacing) from the live engine and from a replay, the replay leaves the live engine's
// memory alone, and staff are spared by every rule in a replay too unless the guild includes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUTOMOD_DEFAULTS, type AutomodRuleName, type AutomodRules } from '../../../shared/moderation';
import { ADMINISTRATOR, MANAGE_GUILD } from '../../../shared/discord-urls';
import { CASE_QUIET_MS, caseDue, isStaffBy } from './discord-message';
import { replayRules } from './dry-run';
import { AUTOMOD_RULE_ORDER, AutomodEngine, type AutomodMessage } from './engine';

const GUILD = '100000000000000001';
const CHANNEL = '200000000000000001';
const [ANN, BOB, CAL] = ['300000000000000001', '300000000000000002', '300000000000000003'];
const T0 = 1_700_000_000_000;

const message = (authorId: string, content: string, at: number, overrides: Partial<AutomodMessage> = {}): AutomodMessage => ({
  guildId: GUILD,
  channelId: CHANNEL,
  authorId,
  content,
  roleIds: [],
  staff: false,
  mentionCount: 0,
  everyone: false,
  at,
  ...overrides,
});

/** Every rule on, each with its own action. */
function allOn(): AutomodRules {
  const rules = structuredClone(AUTOMOD_DEFAULTS);
  for (const name of AUTOMOD_RULE_ORDER) rules[name].enabled = true;
  rules.words.words = ['blocked'];
  rules.invites.action = 'warn';
  rules.rate.action = 'timeout';
  rules.rate.duration = '10m';
  return rules;
}

/** A chat of three members: an invite, a repeated message, a flood, shouting, a blocked word, and clean talk. */
function chat(): AutomodMessage[] {
  const out: AutomodMessage[] = [];
  let at = T0;
  const say = (authorId: string, content: string, overrides: Partial<AutomodMessage> = {}) => out.push(message(authorId, content, (at += 700), overrides));
  say(ANN, 'hello everyone');
  say(BOB, 'join discord.gg/abc');
  say(BOB, 'join discord.gg/abc');
  for (let i = 0; i < 4; i++) say(CAL, 'buy my stuff');
  say(ANN, 'THIS IS SO LOUD RIGHT NOW');
  at += 60_000;
  for (let i = 0; i < 7; i++) {
    out.push(message(BOB, `msg ${i}`, at + i * 100));
  }
  at += 2000;
  say(CAL, 'that is blocked');
  say(ANN, 'hi all', { mentionCount: 9 });
  say(ANN, 'a calm message');
  return out;
}

/** What the live path does with each message: the engine's verdict, then a case or only the delete (enforce.ts). */
function live(engine: AutomodEngine, messages: AutomodMessage[], rules: AutomodRules, includeStaff = false) {
  const recent = new Map<string, number>();
  return messages.map((m) => {
    const verdict = engine.check(m, rules, { includeStaff });
    return verdict ? { rule: verdict.rule, action: verdict.action, takesCase: caseDue(recent, m.guildId, m.authorId, verdict.rule, m.at) } : null;
  });
}

test('a replay gives each message the verdict the live path gives it, case pacing included', () => {
  const rules = allOn();
  const messages = chat();
  const expected = live(new AutomodEngine(), messages, rules);
  const replayed = replayRules(messages, rules, false);
  assert.deepEqual(
    replayed.map((hit) => hit?.rule ?? null),
    expected.map((verdict) => verdict?.rule ?? null),
  );
  const rulesHit = replayed.flatMap((hit) => (hit ? [hit.rule] : []));
  assert.deepEqual([...new Set(rulesHit)].sort(), ['caps', 'invites', 'mentions', 'rate', 'repeats', 'words'] satisfies AutomodRuleName[]);
  // Bob's second invite within 10 seconds is deleted without a second warning, live and replayed.
  const invites = replayed.filter((hit) => hit?.rule === 'invites');
  assert.deepEqual(
    invites.map((hit) => hit?.what),
    ['Delete the message and warn the author', 'Delete the message only (the author was acted on for this rule less than 10 seconds before)'],
  );
  assert.deepEqual(
    expected.filter((verdict) => verdict?.rule === 'invites').map((verdict) => verdict?.takesCase),
    [true, false],
  );
  assert.ok(replayed.some((hit) => hit?.what === 'Delete the message and time the author out for 10 minutes'));
  assert.equal(replayed.at(-1), null, 'the calm message is left alone');
});

test("a replay leaves the live engine's memory alone, and starts from none of it", () => {
  const rules = allOn();
  const engine = new AutomodEngine();
  // Live, Cal has already sent the same message three times.
  for (let i = 0; i < 3; i++) engine.check(message(CAL, 'buy my stuff', T0 + i * 100), rules);
  const tracked = engine.trackedMembers;
  const replayed = replayRules([message(CAL, 'buy my stuff', T0 + 500)], rules, false);
  assert.equal(replayed[0], null, 'the replay does not know of the live repeats');
  assert.equal(engine.trackedMembers, tracked);
  // The live engine carries on as if no replay had happened: the fourth is one too many.
  assert.equal(engine.check(message(CAL, 'buy my stuff', T0 + 600), rules)?.rule, 'repeats');
});

test('staff are spared by every rule in a replay, memory included, unless the guild includes them', () => {
  const rules = allOn();
  const staffChat = chat().map((m) => ({ ...m, staff: true }));
  assert.deepEqual(replayRules(staffChat, rules, false).filter(Boolean), [], 'nothing staff sent would have been acted on');
  const mixed = chat().map((m) => (m.authorId === CAL ? { ...m, staff: true } : m));
  assert.ok(!replayRules(mixed, rules, false).some((hit, i) => hit && mixed[i]?.authorId === CAL));
  // Included, staff are judged like everyone: the same verdicts as the plain chat.
  assert.deepEqual(replayRules(staffChat, rules, true), replayRules(chat(), rules, false));
});

test('staff: the owner, and anyone whose roles (or @everyone) hold Administrator or Manage Server', () => {
  const bits = new Map<string, bigint>([
    [GUILD, 0n],
    ['admin', ADMINISTRATOR],
    ['manager', MANAGE_GUILD],
    ['plain', 1n << 11n],
  ]);
  const roles = { ownerId: ANN, everyoneId: GUILD, bitsOf: (id: string) => bits.get(id) };
  assert.equal(isStaffBy(roles, ANN, []), true, 'the owner');
  assert.equal(isStaffBy(roles, BOB, ['plain', 'admin']), true, 'Administrator');
  assert.equal(isStaffBy(roles, BOB, ['manager']), true, 'Manage Server');
  assert.equal(isStaffBy(roles, BOB, ['plain', 'gone']), false, 'a plain member (a deleted role counts for nothing)');
  bits.set(GUILD, MANAGE_GUILD);
  assert.equal(isStaffBy(roles, BOB, []), true, '@everyone with Manage Server makes everyone staff');
});

test('one case per member and rule every 10 seconds', () => {
  const recent = new Map<string, number>();
  assert.equal(caseDue(recent, GUILD, BOB, 'invites', T0), true);
  assert.equal(caseDue(recent, GUILD, BOB, 'invites', T0 + CASE_QUIET_MS - 1), false);
  assert.equal(caseDue(recent, GUILD, BOB, 'links', T0 + 1), true, 'another rule');
  assert.equal(caseDue(recent, GUILD, CAL, 'invites', T0 + 1), true, 'another member');
  assert.equal(caseDue(recent, GUILD, BOB, 'invites', T0 + CASE_QUIET_MS), true);
});
