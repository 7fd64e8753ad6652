// How fast the auto moderation engine judges messages: AutomodEngine.check with every rule on
// (a realistic configuration: an allow list of 12 domains, 200 blocked words and phrases, an exempt
// moderator role) against every rule off, over the same realistic mix of messages: short chat,
// sentences, mentions, custom emojis, links (mostly allowed), non-Latin text, a few long messages,
// some shouting, repeats, floods and invites; at 20,000 messages a second of clock time from
// 60,000 members chatting at once in 1,000 guilds, each for a spell of about 20 messages (one
// each 3 s) before someone new takes their place: about 80,000 members over the mix's 20 s,
// more than the engine tracks by default, so evictions happen. Each mode runs 3 times (after a warm-up), alternating;
// the medians are printed, in checks per CPU second, with what the difference costs at 20,000
// messages a second. A benchmark: it prints figures only.
//
// Usage: node --import tsx scripts/bench/automod-check.ts [checks=2000000] [runs=3] [chatting=60000]
import { AutomodEngine, type AutomodMessage } from '../../src/features/moderation/automod/engine';
import { AUTOMOD_DEFAULTS, type AutomodRules } from '../../src/shared/moderation';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { benchReport } from './report';
import { median } from './child';

// Each run starts from a collected heap, so one run's garbage (an engine's records) is not collected in the next.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const checks = Number(process.argv[2] ?? 2_000_000);
const runs = Number(process.argv[3] ?? 3);
const CHATTERS = Number(process.argv[4] ?? 60_000);
/** Messages a member sends in one spell of chatting, on average. */
const SPELL = 20;
const INGEST_PER_SECOND = 20_000;
const GUILDS = 1000;

/** A seeded generator (mulberry32), so every run sees the same messages. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const snowflake = () => String(100_000_000_000_000_000n + BigInt(Math.floor(random() * 1e15)) * 1000n);

const moderatorRole = snowflake();
const roles = [snowflake(), snowflake(), snowflake(), snowflake()];
const channels = [snowflake(), snowflake(), snowflake()];
const guilds = Array.from({ length: GUILDS }, snowflake);
interface Person {
  guildId: string;
  authorId: string;
  roleIds: string[];
  /** Messages left in this spell of chatting. */
  left: number;
}
let joined = 0;
/** A member who starts chatting: one in 50 a moderator (exempt). */
function newcomer(): Person {
  joined += 1;
  return {
    guildId: pick(guilds),
    authorId: snowflake(),
    roleIds: joined % 50 === 0 ? [moderatorRole, pick(roles)] : roles.slice(0, Math.floor(random() * 3)),
    left: 1 + Math.floor(random() * 2 * SPELL),
  };
}
/** Who is chatting now; each leaves after a spell and someone new starts. */
const chatting = Array.from({ length: CHATTERS }, newcomer);
const people = chatting.slice();

const word = () => Array.from({ length: 4 + Math.floor(random() * 7) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
const blocked = Array.from({ length: 200 }, (_, index) => (index % 10 === 0 ? `${word()} ${word()}` : word()));

const mention = () => `<@${pick(people).authorId}>`;
/** Message makers, weighted by repetition: what a busy community's channels carry. */
const makers: (() => { content: string; mentions?: number; everyone?: boolean })[] = [
  ...Array<() => { content: string }>(60).fill(() => ({
    content: pick(['lol', 'yeah same', 'gg', 'ok', 'true', 'nice', 'wait what', 'hahaha', 'brb', 'same tbh']),
  })),
  ...Array<() => { content: string }>(80).fill(() => ({
    content: pick([
      'Did you see the game last night? It was wild.',
      'anyone up for a match later?? 🎮🎮',
      'I think the new update broke something, my save is not loading anymore',
      'ok. see you tomorrow then, have a good one',
      'that boss fight took me like 40 tries lmao',
      "I'm gonna grab food, back in 20",
      'Has anyone tried the new map yet? The north side looks huge',
      'honestly the soundtrack in this one is so good, been listening all day',
    ]),
  })),
  ...Array<() => { content: string; mentions: number }>(8).fill(() => ({ content: `${mention()} check this out, you'll love it`, mentions: 1 })),
  ...Array<() => { content: string }>(6).fill(() => ({ content: `<:KEKW:${snowflake()}> <:KEKW:${snowflake()}> ${pick(['dead', 'im crying', 'LMAO'])}` })),
  ...Array<() => { content: string }>(6).fill(() => ({
    content: pick([
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'look at this https://tenor.com/view/cat-dance-gif-12345',
      'the repo is at https://github.com/discordjs/discord.js and the docs at discord.js.org',
      '<https://en.wikipedia.org/wiki/Auto_moderation> explains it',
      'found it on reddit.com/r/gaming earlier',
      'go to https://free-nitro.gift/claim now',
    ]),
  })),
  ...Array<() => { content: string }>(6).fill(() => ({
    content: pick([
      'привет всем, как дела?',
      'これはテストです。よろしくお願いします',
      'Ça marche très bien, merci beaucoup!',
      '¿Alguien quiere jugar esta noche?',
    ]),
  })),
  ...Array<() => { content: string }>(3).fill(() => ({ content: pick(['THIS IS SO COOL', 'WHAT ARE YOU DOING', "LET'S GOOOOO"]) })),
  ...Array<() => { content: string }>(2).fill(() => ({
    content:
      `${'Here is my long story about what happened yesterday at the raid. '.repeat(8)}\n\`\`\`js\nconst x = await ` +
      `fetch(url);\nconsole.log(x.status);\n\`\`\``,
  })),
  () => ({ content: `you are such a ${pick(blocked)}` }),
  () => ({ content: 'join my server discord.gg/abcdef' }),
  () => ({ content: `${mention()} ${mention()} ${mention()} ${mention()} ${mention()} ${mention()}`, mentions: 6 }),
  () => ({ content: '@everyone free stuff', mentions: 1, everyone: true }),
];

/** The mix: each message from someone chatting now (about one message each 3 s), a spammer's burst now and then. */
const MIX_SIZE = 400_000;
const mix: AutomodMessage[] = [];
let clock = 1_700_000_000_000;
while (mix.length < MIX_SIZE) {
  const slot = Math.floor(random() * CHATTERS);
  const person = chatting[slot];
  if (!person) break;
  person.left -= 1;
  if (person.left <= 0) chatting[slot] = newcomer();
  const burst = random() < 0.002 ? 8 : 1;
  const made = pick(makers)();
  for (let k = 0; k < burst; k++) {
    clock += 1000 / INGEST_PER_SECOND;
    mix.push({
      guildId: person.guildId,
      channelId: pick(channels),
      authorId: person.authorId,
      roleIds: person.roleIds,
      staff: false,
      content: made.content,
      mentionCount: made.mentions ?? 0,
      everyone: made.everyone ?? false,
      at: Math.round(clock),
    });
  }
}
const mixSpan = clock - (mix[0]?.at ?? clock);

const on = { enabled: true, action: 'delete' as const, duration: null, exemptRoleIds: [moderatorRole], exemptChannelIds: [] };
const allOn: AutomodRules = {
  invites: { ...on },
  links: {
    ...on,
    allowedDomains: [
      'youtube.com',
      'youtu.be',
      'tenor.com',
      'giphy.com',
      'github.com',
      'discord.js.org',
      'wikipedia.org',
      'reddit.com',
      'twitch.tv',
      'twitter.com',
      'x.com',
      'imgur.com',
    ],
  },
  mentions: { ...on, maxMentions: 5 },
  repeats: { ...on, maxRepeats: 3 },
  rate: { ...on, maxMessages: 5, perSeconds: 5 },
  words: { ...on, words: blocked },
  caps: { ...on, maxPercent: 70, minLength: 10 },
};
const allOff = AUTOMOD_DEFAULTS;

/**
 * Checks per CPU second (this process's CPU time, so other work on the machine does not count) of
 * `count` checks over the mix, in a fresh engine; on later laps the clock moves on past the mix's span.
 */
function run(rules: AutomodRules, count: number): { perSecond: number; caught: Map<string, number> } {
  collectGarbage();
  const engine = new AutomodEngine();
  const caught = new Map<string, number>();
  const started = process.cpuUsage();
  for (let i = 0, lap = 0; i < count; i++) {
    const index = i % MIX_SIZE;
    if (index === 0 && i > 0) lap += mixSpan + 1000;
    const base = mix[index];
    if (!base) continue;
    const message = lap === 0 ? base : { ...base, at: base.at + lap };
    const verdict = engine.check(message, rules);
    if (verdict) caught.set(verdict.rule, (caught.get(verdict.rule) ?? 0) + 1);
  }
  const used = process.cpuUsage(started);
  return { perSecond: count / ((used.user + used.system) / 1e6), caught };
}

// The copy of a message on later laps costs the same in both modes; the first lap has none, so every run is longer than one lap.
const count = Math.max(checks, 2 * MIX_SIZE);
run(allOn, MIX_SIZE * 2);
run(allOff, MIX_SIZE * 2);
const onRates: number[] = [];
const offRates: number[] = [];
let caught = new Map<string, number>();
for (let r = 0; r < runs; r++) {
  const measured = run(allOn, count);
  onRates.push(measured.perSecond);
  caught = measured.caught;
  offRates.push(run(allOff, count).perSecond);
}

const format = (n: number) => Math.round(n).toLocaleString('en-US');
const onRate = median(onRates);
const offRate = median(offRates);
const nsOn = 1e9 / onRate;
const nsOff = 1e9 / offRate;
const costAtIngest = ((nsOn - nsOff) * INGEST_PER_SECOND) / 1e6;
const report = benchReport('automod-check', 'Auto moderation: checks per CPU second (issue 12)');
report.line(
  `AutomodEngine.check over ${format(count)} messages (mix of ${format(MIX_SIZE)}, ${format(joined)} members in ${format(GUILDS)} guilds), median of ` +
    `${runs} runs, per CPU second`,
);
report.line(`  all rules on : ${format(onRate)} checks/s (${nsOn.toFixed(0)} ns/check)   runs: ${onRates.map(format).join(', ')}`);
report.line(`  all rules off: ${format(offRate)} checks/s (${nsOff.toFixed(0)} ns/check)   runs: ${offRates.map(format).join(', ')}`);
report.line(
  `  at ${format(INGEST_PER_SECOND)} messages/s, all rules on cost ${costAtIngest.toFixed(1)} ms of CPU per second ` +
    `(${(costAtIngest / 10).toFixed(2)}% of one core) more than all off`,
);
const caughtTotal = [...caught.values()].reduce((sum, n) => sum + n, 0);
report.line(
  `  caught with all on, last run: ${((caughtTotal / count) * 100).toFixed(1)}% of messages ` +
    `(${[...caught].map(([rule, n]) => `${rule} ${format(n)}`).join(', ')})`,
);
report.save();
