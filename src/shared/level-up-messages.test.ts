// Level-up messages as pure rules: the template's placeholders (filled in and refused by name),
// and at which levels a level-up is announced.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  LEVEL_UP_MESSAGE_DEFAULTS,
  LevelUpMessageSettingsSchema,
  bonusWords,
  placeholderProblem,
  renderLevelUp,
  shouldAnnounce,
  unknownPlaceholders,
} from './level-up-messages';

const values = { userId: '200000000000000042', level: 7, server: 'Cozy Corner', rewards: [] as string[], bonus: '' };

describe('renderLevelUp', () => {
  test('fills in every placeholder; {user} is a mention', () => {
    assert.equal(
      renderLevelUp('{user} hit {level} in {server}: {reward} {bonus}', { ...values, rewards: ['Regular', 'Chatty'], bonus: bonusWords(100, 'coins') }),
      '<@200000000000000042> hit 7 in Cozy Corner: @Regular, @Chatty +100 coins',
    );
  });

  test('the default reads as the announcement always did, with and without a bonus', () => {
    const template = LEVEL_UP_MESSAGE_DEFAULTS.levelUpMessage;
    assert.equal(renderLevelUp(template, { ...values, bonus: bonusWords(1500, 'coins') }), '🎉 <@200000000000000042> reached **level 7**! +1,500 coins');
    assert.equal(renderLevelUp(template, values), '🎉 <@200000000000000042> reached **level 7**!');
  });

  test('text that only looks like a placeholder is left alone, and the same placeholder can repeat', () => {
    assert.equal(renderLevelUp('{level}{level} { level } {}', values), '77 { level } {}');
  });
});

describe('placeholders', () => {
  test('unknown placeholders are named once each, in order', () => {
    assert.deepEqual(unknownPlaceholders('{user} {lvl} {rank} {lvl} {level}'), ['{lvl}', '{rank}']);
    assert.deepEqual(unknownPlaceholders('{user} reached {level} at {server} ({reward}, {bonus})'), []);
  });

  test('the problem names the unknown placeholder and the known ones', () => {
    assert.equal(placeholderProblem('{user} {lvl}'), 'uses {lvl}, which is not a placeholder; use {user}, {level}, {server}, {reward} or {bonus}');
    assert.match(placeholderProblem('{a} {b}') ?? '', /^uses \{a\}, \{b\}, which are not placeholders/);
    assert.equal(placeholderProblem('{user}'), null);
  });

  test('the schema refuses a template with an unknown placeholder under its own field', () => {
    const parsed = LevelUpMessageSettingsSchema.partial().safeParse({ levelUpMessage: 'GG {member}!' });
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues[0]?.path, ['levelUpMessage']);
    assert.match(parsed.error?.issues[0]?.message ?? '', /\{member\}/);
  });
});

describe('shouldAnnounce', () => {
  const every = { levelUpWhen: 'every', levelUpEveryN: 5 } as const;
  const nth = { levelUpWhen: 'nth', levelUpEveryN: 5 } as const;
  const rewards = { levelUpWhen: 'rewards', levelUpEveryN: 5 } as const;

  test('every level', () => {
    assert.equal(shouldAnnounce(every, { from: 1, to: 2, rewardLevels: [] }), true);
    assert.equal(shouldAnnounce(every, { from: 3, to: 3, rewardLevels: [] }), false, 'no level gained');
  });

  test('every Nth level, counting a jump past a multiple', () => {
    assert.equal(shouldAnnounce(nth, { from: 4, to: 5, rewardLevels: [] }), true);
    assert.equal(shouldAnnounce(nth, { from: 5, to: 6, rewardLevels: [] }), false);
    assert.equal(shouldAnnounce(nth, { from: 8, to: 11, rewardLevels: [] }), true, 'passed 10');
    assert.equal(shouldAnnounce(nth, { from: 10, to: 14, rewardLevels: [] }), false);
  });

  test('only levels with a reward, including one jumped over', () => {
    assert.equal(shouldAnnounce(rewards, { from: 2, to: 3, rewardLevels: [3, 10] }), true);
    assert.equal(shouldAnnounce(rewards, { from: 3, to: 4, rewardLevels: [3, 10] }), false);
    assert.equal(shouldAnnounce(rewards, { from: 8, to: 12, rewardLevels: [3, 10] }), true);
    assert.equal(shouldAnnounce(rewards, { from: 1, to: 2, rewardLevels: [] }), false);
  });
});
