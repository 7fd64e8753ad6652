// The welcome rules every face shares: a switched-on welcome needs a channel, and a template must
// fit in one Discord message once filled in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { longestWelcome, MESSAGE_MAX, WELCOME_MISSING_CHANNEL, welcomeChannelProblem, welcomeLengthProblem } from './welcome';

test('welcomeChannelProblem: only a switched-on welcome without a channel has one', () => {
  assert.equal(welcomeChannelProblem({ welcomeEnabled: true, welcomeChannelId: null }), WELCOME_MISSING_CHANNEL.description);
  assert.equal(welcomeChannelProblem({ welcomeEnabled: true, welcomeChannelId: '' }), WELCOME_MISSING_CHANNEL.description);
  assert.equal(welcomeChannelProblem({ welcomeEnabled: true, welcomeChannelId: '200000000000000001' }), null);
  assert.equal(welcomeChannelProblem({ welcomeEnabled: false, welcomeChannelId: null }), null);
});

test('welcomeLengthProblem: a template that fills in to exactly the limit fits; one character more does not', () => {
  const server = 'Server';
  const base = '{user} ';
  const fill = (length: number) => base + 'x'.repeat(length - longestWelcome(base, server));
  assert.equal(longestWelcome(fill(MESSAGE_MAX), server), MESSAGE_MAX);
  assert.equal(welcomeLengthProblem(fill(MESSAGE_MAX), server), null);
  assert.equal(welcomeLengthProblem(fill(MESSAGE_MAX + 1), server), 'can reach 2,001 characters once the placeholders are filled in; Discord allows 2,000');
  // The server's name counts where {server} stands.
  assert.equal(welcomeLengthProblem(`${'x'.repeat(1990)}{server}`, 'A'.repeat(10)), null);
  assert.notEqual(welcomeLengthProblem(`${'x'.repeat(1990)}{server}`, 'A'.repeat(11)), null);
});
