// Goodbye and card templates: unknown placeholders are refused by name, known ones filled in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARD_PLACEHOLDERS, GOODBYE_PLACEHOLDERS, renderCardTitle, unknownPlaceholderProblem, WelcomeCardSettingsShape } from './welcome-card';

test('a template with only known placeholders has no problem; plain braces with spaces are text', () => {
  assert.equal(unknownPlaceholderProblem('Bye {user} ({username}), {server} has {membercount}', GOODBYE_PLACEHOLDERS), null);
  assert.equal(unknownPlaceholderProblem('No placeholders { at all }', GOODBYE_PLACEHOLDERS), null);
});

test('the first unknown placeholder is named with the ones to use', () => {
  assert.equal(unknownPlaceholderProblem('Hi {usr} {x}', CARD_PLACEHOLDERS), '{usr} is not a placeholder; use {username}, {server}, {membercount}');
  assert.match(unknownPlaceholderProblem('Welcome {user}', CARD_PLACEHOLDERS) ?? '', /^\{user\} is not a placeholder/, 'an image mentions nobody');
  assert.match(unknownPlaceholderProblem('{}', CARD_PLACEHOLDERS) ?? '', /^\{\} is not a placeholder/);
});

test('the settings fields refuse an unknown placeholder, a title too long and a colour that is none', () => {
  assert.equal(WelcomeCardSettingsShape.goodbyeMessage.safeParse('Bye {User}').success, false);
  assert.equal(WelcomeCardSettingsShape.welcomeCardTitle.safeParse('x'.repeat(81)).success, false);
  assert.equal(WelcomeCardSettingsShape.welcomeCardAccent.safeParse('#12345').success, false);
  assert.equal(WelcomeCardSettingsShape.welcomeCardAccent.safeParse('#a1B2c3').success, true);
});

test('the card title is filled in; a name that looks like a placeholder stays as it is', () => {
  assert.equal(
    renderCardTitle('Welcome {username} to {server}, #{membercount}', { username: 'pat', server: 'Cafe', memberCount: 12345 }),
    'Welcome pat to Cafe, #12,345',
  );
  assert.equal(renderCardTitle('{username}', { username: '{server}', server: 'Cafe', memberCount: 1 }), '{server}');
});
