// renderWelcome: what each placeholder becomes, and what is left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { longestWelcome, renderWelcome } from '../../shared/welcome';

const values = { userId: '400000000000000001', username: 'new_friend', server: 'Sandbox Community', memberCount: 1234 };

test('each placeholder is filled: {user} a mention, {username}, {server}, {membercount} with thousands separators', () => {
  assert.equal(
    renderWelcome('Hi {user} ({username})! Welcome to {server}, member #{membercount}.', values),
    'Hi <@400000000000000001> (new_friend)! Welcome to Sandbox Community, member #1,234.',
  );
});

test('a placeholder used twice is filled twice; text without one is unchanged', () => {
  assert.equal(renderWelcome('{username} {username}', values), 'new_friend new_friend');
  assert.equal(renderWelcome('Welcome aboard!', values), 'Welcome aboard!');
});

test('unknown or differently written tokens are left as typed', () => {
  assert.equal(renderWelcome('{User} {members} {server name} {}', values), '{User} {members} {server name} {}');
});

test('values are not read as placeholders: a username that looks like one stays as it is', () => {
  assert.equal(renderWelcome('{username} joined {server}', { ...values, username: '{server}' }), '{server} joined Sandbox Community');
});

test('the longest a welcome can get counts the longest mention, name and member count', () => {
  assert.equal(longestWelcome('{user}', 'x'), '<@99999999999999999999>'.length);
  assert.equal(longestWelcome('{membercount}', 'x'), '25,000,000'.length);
  assert.equal(longestWelcome('{username} @ {server}', 'Sandbox Community'), 32 + 3 + 'Sandbox Community'.length);
});
