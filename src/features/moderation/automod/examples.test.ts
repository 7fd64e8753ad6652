// The examples of the rules' sentences (src/shared/automod-descriptions.ts) are messages the engine catches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRule } from '../../../shared/automod-descriptions';
import { AUTOMOD_DEFAULTS, type AutomodRules } from '../../../shared/moderation';
import { AutomodEngine, type AutomodMessage } from './engine';

test('each example breaks the rule it illustrates, by the engine', () => {
  const message = (content: string, overrides: Partial<AutomodMessage> = {}): AutomodMessage => ({
    guildId: '1',
    channelId: '2',
    authorId: '3',
    content,
    roleIds: [],
    staff: false,
    mentionCount: 0,
    everyone: false,
    at: 1_000_000,
    ...overrides,
  });
  const quote = (text: string) => /Example: “(.*)”\.$/.exec(text)?.[1] ?? '';
  const cases: [keyof AutomodRules, Partial<AutomodRules[keyof AutomodRules]>][] = [
    ['invites', {}],
    ['links', { allowedDomains: ['example.com'] }],
    ['words', { words: ['darn'] }],
    ['caps', { maxPercent: 70, minLength: 30 }],
  ];
  for (const [name, overrides] of cases) {
    const rules = structuredClone(AUTOMOD_DEFAULTS);
    Object.assign(rules[name], { enabled: true }, overrides);
    const example = quote(describeRule(name, rules[name]));
    assert.equal(new AutomodEngine().check(message(example), rules)?.rule, name, `${name}: ${example}`);
  }
  const mentions = structuredClone(AUTOMOD_DEFAULTS);
  mentions.mentions.enabled = true;
  assert.equal(new AutomodEngine().check(message('hi', { mentionCount: mentions.mentions.maxMentions + 1 }), mentions)?.rule, 'mentions');
});
