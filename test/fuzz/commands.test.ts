// Issue 13, "Fuzzed", for the bot: every slash command's declared options get what a careless or
// hostile member sends, run through the sandbox as the demo guild's admin. What Discord refuses
// (a value of the wrong type, a number outside the registered range, text past its length or not
// one of its choices, a user, role or channel that does not exist, a missing or unknown option)
// the sandbox refuses as Discord would: 400 naming the option. What Discord lets through (odd
// unicode, text at its limits, members who left, bots, the invoker) reaches the bot, which answers
// with a clear message, never "something went wrong" or silence, and writes nothing.
// FUZZ_SEED=<n> replays another sample.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { commandLeaves, type Command, type CommandOption } from '../../src/bot/command';
import { COMMAND_FAILED_MESSAGE } from '../../src/bot/dispatch';
import { useHarness, type ControlReply, type SlashValue } from '../helpers/harness';
import { snapshotStore, storeChanges, type Ignored } from '../helpers/store-snapshot';
import { waitFor } from '../helpers/wait';
import { hashSeed, seededRandom } from './zod-cases';

const SEED = Number(process.env.FUZZ_SEED ?? 13);
/** Cases per option of each kind: refused by Discord, and let through to the bot. */
const PER_OPTION = { discord: 5, bot: 6 };

/**
 * What may change while every command is refused: sessions and the lastSeenAt heartbeat (as for
 * the routes), and the usage counters, which count every command run, refused or not.
 */
const IGNORED: Ignored[] = [
  { table: 'sessions', why: 'the signed-in admin’s session is touched by requests' },
  { table: 'guild_state', rows: (row) => row.key === 'lastSeenAt', why: 'a heartbeat written once a minute' },
  { table: 'command_usage', why: 'counts every command run, refused or not' },
  { table: 'guild_daily_stats', columns: ['commands'], why: 'counts every command run, refused or not' },
];

/** The people a user option can name. */
interface People {
  self: string;
  owner: string;
  bot: string;
  otherBot: string;
  /** A user Discord knows who is not in the guild. */
  outsider: string;
  plain: string;
}

/**
 * How each command is kept from writing while its options are fuzzed: it only reads, or one option
 * (`refusal`) holds a value the command must refuse whatever the others say (acting on the bot,
 * on yourself, on the owner, on someone not in the server; an id or an item that names nothing).
 * `refusal: null`: the command has no option to refuse with, so it only gets what Discord refuses.
 * A command missing here fails the test: a new command needs its plan.
 */
const PLANS: Record<string, { reads: true } | { refusal: string | null; refusing?: (people: People) => (string | number)[] }> = {
  ping: { reads: true },
  rank: { reads: true },
  leaderboard: { reads: true },
  balance: { reads: true },
  shop: { reads: true },
  inventory: { reads: true },
  'case show': { reads: true },
  // No case has the largest number: every edit and pardon is refused, whatever else is given.
  'case edit': { refusal: 'number', refusing: () => [1_000_000_000] },
  'case pardon': { refusal: 'number', refusing: () => [1_000_000_000] },
  warnings: { reads: true },
  // A dry run of the saved auto moderation rules: it reads a channel's messages and acts on nothing.
  'automod try': { reads: true },
  ban: { refusal: 'member', refusing: (p) => [p.bot, p.self, p.owner] },
  kick: { refusal: 'member', refusing: (p) => [p.bot, p.self, p.owner, p.outsider] },
  timeout: { refusal: 'member', refusing: (p) => [p.bot, p.self, p.owner, p.outsider] },
  untimeout: { refusal: 'member', refusing: (p) => [p.bot, p.self, p.owner, p.outsider] },
  warn: { refusal: 'member', refusing: (p) => [p.bot, p.self, p.owner, p.outsider] },
  note: { refusal: 'member', refusing: (p) => [p.bot] },
  report: { refusal: 'member', refusing: (p) => [p.self] },
  // Channel tools: only what Discord refuses (any value it lets through would act on the channel).
  purge: { refusal: null },
  slowmode: { refusal: null },
  lock: { refusal: null },
  unlock: { refusal: null },
  // Ban appeals: the fuzzed guild has none, so list reads and accept or deny name no appeal.
  'appeal list': { reads: true },
  'appeal accept': { refusal: 'id', refusing: () => [2_147_483_647] },
  'appeal deny': { refusal: 'id', refusing: () => [2_147_483_647] },
  // Raid mode: a value Discord lets through would start or end it.
  'raid status': { reads: true },
  'raid start': { refusal: null },
  'raid end': { refusal: null },
  give: { refusal: 'member', refusing: (p) => [p.bot, p.otherBot, p.self] },
  // Odd text never names a banned user or a shop item; these name nothing either.
  unban: { refusal: 'user_id', refusing: () => ['100000000000000000'] },
  buy: { refusal: 'item', refusing: () => ['no such item', '   ', '%', '_'] },
  daily: { refusal: null },
  // Music: the admin who runs them is in no voice channel, so every one that would play refuses.
  play: { refusal: 'query', refusing: () => ['no such track'] },
  radio: { refusal: 'station', refusing: () => ['no such station'] },
  queue: { reads: true },
  nowplaying: { reads: true },
  pause: { refusal: null },
  resume: { refusal: null },
  skip: { refusal: null },
  stop: { refusal: null },
  volume: { refusal: null },
  remove: { refusal: null },
  shuffle: { refusal: null },
  loop: { refusal: null },
  leave: { refusal: null },
  // Leveling admin tools: XP is refused for bots and outsiders; a bot or an outsider has no XP to
  // reset; no backup has the largest number.
  'xp give': { refusal: 'member', refusing: (p) => [p.bot, p.otherBot, p.outsider] },
  'xp take': { refusal: 'member', refusing: (p) => [p.bot, p.otherBot, p.outsider] },
  'levels reset': { refusal: 'member', refusing: (p) => [p.bot, p.otherBot, p.outsider] },
  'levels restore': { refusal: 'backup', refusing: () => [2_147_483_647] },
  'levels backups': { reads: true },
};

type Value = SlashValue;

/** A string of exactly `length` UTF-16 units made of `pattern`. */
const sized = (pattern: string, length: number) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

/** Text a member can type that Discord sends as it is: odd unicode, markup and mentions, at the option's limits. */
function oddText(option: Extract<CommandOption, { type: 'string' }>): [string, string][] {
  const min = Math.max(option.minLength ?? 1, 1);
  const max = option.maxLength ?? 6000;
  const length = Math.min(Math.max(min, 20), max);
  return [
    ['RTL override', sized('\u202eabc', length)],
    ['zero-width spaces', sized('\u200b', length)],
    ['NULs', sized('\u0000', length)],
    ['surrogate halves', sized('\ud800', length)],
    ['a low surrogate half', sized('x\udfff', length)],
    ['emoji', sized('\u{1F600}', length)],
    ['Arabic-Indic digits', sized('\u0661\u0662\u0663', length)],
    ['only spaces', sized(' ', length)],
    ['mentions and markup', sized('@everyone <@&1> **b** `c` ', length)],
    [`${max} characters (the most)`, 'x'.repeat(max)],
    [`${min} characters (the fewest)`, 'y'.repeat(min)],
  ];
}

/** Values Discord refuses for an option: the sandbox must answer 400 naming it. */
function refusedByDiscord(option: CommandOption, roleId: string): [string, Value][] {
  switch (option.type) {
    case 'string': {
      const max = option.maxLength ?? 6000;
      const values: [string, Value][] = [
        ['empty', ''],
        [`${max + 1} characters`, 'x'.repeat(max + 1)],
        [`${Math.floor(max / 2) + 1} emoji`, '\u{1F600}'.repeat(Math.floor(max / 2) + 1)],
      ];
      if ((option.minLength ?? 0) > 1) values.push([`${(option.minLength ?? 1) - 1} characters`, 'x'.repeat((option.minLength ?? 1) - 1)]);
      const first = option.choices?.[0]?.value;
      if (first)
        values.push(
          ['no such choice', 'NOT_A_CHOICE'],
          ['a choice and a space', `${first} `],
          ['a choice in capitals', first.toUpperCase()],
          ['a choice with a zero-width space', `${first}\u200b`],
        );
      return values;
    }
    case 'integer':
    case 'number': {
      const values: [string, Value][] = [
        ['letters', 'abc'],
        ['true', true],
        ['hex', '0x10'],
        ['an exponent', '1e3'],
        ['2^53 + 2', 2 ** 53 + 2],
        ['1e400', '1e400'],
      ];
      if (option.type === 'integer') values.push(['a fraction', (option.min ?? 0) + 0.5]);
      if (option.min !== undefined) values.push(['below the minimum', option.min - 1]);
      if (option.max !== undefined) values.push(['above the maximum', option.max + 1]);
      return values;
    }
    case 'boolean':
      return [
        ['maybe', 'maybe'],
        ['2', 2],
      ];
    case 'user':
      return [
        ['the id of nobody', '100000000000000000'],
        ['a role’s id', roleId],
        ['letters', 'abc'],
        ['true', true],
      ];
    case 'channel':
    case 'role':
      return [
        ['the id of nothing', '100000000000000000'],
        ['letters', 'abc'],
      ];
    case 'attachment':
      return [
        ['a file name as text', 'song.mp3'],
        ['a number', 1],
      ];
  }
}

/** Values Discord lets through for an option, which the bot must answer. */
function letThrough(option: CommandOption, people: People): [string, Value][] {
  switch (option.type) {
    case 'string':
      return option.choices ? option.choices.map((choice) => [`the choice ${choice.value}`, choice.value]) : oddText(option);
    case 'integer':
    case 'number': {
      const values: [string, Value][] = [
        ['the minimum', option.min ?? -(2 ** 53)],
        ['the maximum', option.max ?? 2 ** 53],
      ];
      if (option.type === 'number') values.push(['a fraction', (option.min ?? 0) + 0.5]);
      return values;
    }
    case 'boolean':
      return [
        ['true', true],
        ['false', false],
      ];
    case 'user':
      return Object.entries(people).map(([who, id]) => [who, id]);
    case 'channel':
    case 'role':
      return [];
    case 'attachment':
      return [
        ['an empty file', { filename: 'empty.mp3', contentType: 'audio/mpeg', dataBase64: '' }],
        ['a text file', { filename: 'notes.txt', dataBase64: Buffer.from('not audio').toString('base64') }],
        ['a file named in unicode', { filename: '\u{1F3B5} \u0645\u0648\u0633\u064A\u0642\u0649.ogg', dataBase64: Buffer.from('OggS').toString('base64') }],
      ];
  }
}

/** A value of each option the command accepts from Discord, to fill the options a case does not fuzz. */
function plainValue(option: CommandOption, people: People): Value {
  switch (option.type) {
    case 'string':
      return option.choices?.[0]?.value ?? 'fuzz';
    case 'integer':
    case 'number':
      return option.min ?? 1;
    case 'boolean':
      return false;
    case 'attachment':
      return { filename: 'fuzz.mp3', contentType: 'audio/mpeg', dataBase64: Buffer.from('ID3').toString('base64') };
    default:
      return people.plain;
  }
}

/** Picks `count` entries in an order fixed by `random`. */
function pickSome<T>(items: T[], count: number, random: () => number): T[] {
  return items
    .map((item) => ({ item, key: random() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, count)
    .map(({ item }) => item);
}

interface SlashCase {
  label: string;
  options: Record<string, Value>;
  /** The option the sandbox must name in its 400, or null when the bot must answer. */
  refusedOption: string | null;
}

/** The cases of one command, given its plan. */
function casesOf(command: Command, people: People, roleId: string, random: () => number): SlashCase[] {
  const plan = PLANS[command.name];
  if (!plan) return [];
  const options = command.options ?? [];
  const refusal = 'reads' in plan ? null : plan.refusal;
  // The baseline: every required option filled, the refusal option holding its first refusing value.
  const baseline: Record<string, Value> = {};
  for (const option of options) if (option.required) baseline[option.name] = plainValue(option, people);
  if (refusal && !('reads' in plan)) baseline[refusal] = plan.refusing?.(people)[0] ?? '';
  const cases: SlashCase[] = [];
  const withValue = (name: string, value: Value | undefined) => {
    const next = { ...baseline };
    if (value === undefined) delete next[name];
    else next[name] = value;
    return next;
  };

  cases.push({ label: 'an unknown option', options: { ...baseline, unknown_option: 1 }, refusedOption: 'unknown_option' });
  for (const option of options) {
    if (option.required) cases.push({ label: `${option.name} left out`, options: withValue(option.name, undefined), refusedOption: option.name });
    for (const [label, value] of pickSome(refusedByDiscord(option, roleId), PER_OPTION.discord, random)) {
      cases.push({ label: `${option.name}: ${label}`, options: withValue(option.name, value), refusedOption: option.name });
    }
    // Through to the bot: any value where the command only reads or another option refuses; the
    // refusal option itself only with values the command must refuse.
    if (!('reads' in plan) && refusal === null) continue;
    const values: [string, Value][] =
      option.name === refusal && !('reads' in plan)
        ? [...(plan.refusing?.(people) ?? []).map((id): [string, Value] => [`refusing ${id}`, id]), ...(option.type === 'string' ? oddText(option) : [])]
        : letThrough(option, people);
    for (const [label, value] of option.name === refusal ? values : pickSome(values, PER_OPTION.bot, random)) {
      cases.push({ label: `${option.name}: ${label}`, options: withValue(option.name, value), refusedOption: null });
    }
  }
  if ('reads' in plan || refusal !== null) cases.push({ label: 'the baseline', options: { ...baseline }, refusedOption: null });
  return cases;
}

const h = useHarness({}, { rateLimits: { auth: { max: 100_000, durationMs: 60_000 }, mutations: { max: 100_000, durationMs: 60_000 } } });

describe('fuzzed options of every slash command', () => {
  let people: People;
  let commands: Command[];

  before(async () => {
    const { product, world, demo, guildId } = h();
    // A command with subcommands is fuzzed one subcommand at a time ('case edit').
    commands = product.features.flatMap((feature) => feature.commands ?? []).flatMap(commandLeaves);
    // A second bot in the guild, and the command rate limit at its most (the fuzz is one member's burst).
    const otherBot = world.addUser({ username: 'fuzz_other_bot', globalName: null, avatar: null, bot: true });
    world.addMember(guildId, { id: otherBot.id, username: otherBot.username });
    await waitFor(() => product.client.guilds.cache.get(guildId)?.members.cache.has(otherBot.id), 5000, 'the bot member to reach the bot');
    const admin = await h().signIn(demo.adminUserId);
    await admin.put(`/api/servers/${guildId}/settings`, { rateLimitPerMinute: 600 }).expect(200);
    // One free item in the shop: text that names it by mistake would buy it.
    await admin.post(`/api/servers/${guildId}/shop`, { name: 'Fuzz sticker', price: 0, type: 'cosmetic' }).expect(200);
    // Commands are counted per day: the day's row is made before the store is first looked at.
    assert.equal((await h().slash(demo.adminUserId, 'ping')).status, 200);
    await product.services.activity.flush();
    people = {
      self: demo.adminUserId,
      owner: demo.ownerUserId,
      bot: world.botUserId,
      otherBot: otherBot.id,
      outsider: demo.otherAdminUserId,
      plain: demo.plainMemberId,
    };
    assert.ok(!world.guilds.get(guildId)?.members.has(people.outsider), 'the outsider is not in the guild');
  });

  test('every command has a fuzz plan and is registered with Discord', () => {
    const { world, guildId } = h();
    assert.ok(commands.length >= 15, `found ${commands.length} commands`);
    for (const command of commands) {
      assert.ok(PLANS[command.name], `/${command.name} has a plan in PLANS`);
      assert.ok(world.commands.findByName(guildId, command.name.split(' ')[0] ?? ''), `/${command.name} is registered`);
    }
  });

  test('Discord refuses what it would, the bot answers the rest clearly, nothing is written', async (t) => {
    const { product, demo } = h();
    const failures: string[] = [];
    const counts: string[] = [];
    let total = 0;
    const started = Date.now();
    for (const command of commands) {
      const cases = casesOf(command, people, demo.roles.member, seededRandom(SEED ^ hashSeed(command.name)));
      await product.services.activity.flush();
      const before = await snapshotStore(product.store, IGNORED);
      const answered: string[] = [];
      for (const one of cases) {
        const reply = await h().slash(demo.adminUserId, command.name, one.options);
        const problem = judge(reply, one, command);
        if (problem) failures.push(`/${command.name} ${one.label}: ${problem}`);
        if (reply.status === 200) answered.push(`${one.label} -> ${reply.body.content.slice(0, 80)}`);
      }
      await product.services.activity.flush();
      const changes = storeChanges(before, await snapshotStore(product.store, IGNORED));
      if (changes.length > 0) failures.push(`/${command.name} wrote to the store: ${changes.join('; ')} (the bot answered: ${answered.join(' | ')})`);
      if (process.env.FUZZ_VERBOSE) t.diagnostic(`/${command.name}: ${answered.join(' | ')}`);
      total += cases.length;
      counts.push(`/${command.name}: ${cases.length}`);
    }
    t.diagnostic(`seed ${SEED}: ${total} cases over ${counts.length} commands in ${Date.now() - started} ms (${counts.join(', ')})`);
    assert.deepEqual(failures.slice(0, 40), [], `seed ${SEED}: ${failures.length} failures`);
  });
});

/** What is wrong with the answer to a case, or null. */
function judge(reply: ControlReply, one: SlashCase, command: Command): string | null {
  const reads = 'reads' in (PLANS[command.name] ?? {});
  const { status, body } = reply;
  if (one.refusedOption !== null) {
    if (status !== 400) return `Discord would refuse it, the sandbox answered ${status}: ${JSON.stringify(body).slice(0, 200)}`;
    const fields = (body as { fields?: Record<string, string> }).fields ?? {};
    return `options.${one.refusedOption}` in fields ? null : `the 400 does not name ${one.refusedOption}: ${JSON.stringify(body).slice(0, 200)}`;
  }
  if (status !== 200) return `the bot did not answer: ${status} ${JSON.stringify(body).slice(0, 200)}`;
  const text = `${body.content ?? ''}${(body.embeds ?? []).map((embed) => `${embed.title ?? ''}${embed.description ?? ''}`).join('')}`;
  if (!text.trim()) return 'the answer is empty';
  if (body.content === COMMAND_FAILED_MESSAGE) return 'the command failed unexpectedly ("Something went wrong")';
  if (!reads && !body.ephemeral) return `a refusal is answered privately, this one was public: ${body.content.slice(0, 120)}`;
  // A member reads the names of the options they typed, not the dashboard's field names (targetId).
  const options = new Set((command.options ?? []).map((option) => option.name));
  const internal = [...text.matchAll(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g)].map((match) => match[0]).filter((word) => !options.has(word));
  if (internal.length > 0) return `the answer names ${internal.join(', ')}, which the member never typed: ${text.slice(0, 120)}`;
  return null;
}
