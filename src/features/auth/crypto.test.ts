import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSecretBox } from './crypto';

test('a sealed token opens with the same secret, never with another, and is not plaintext', () => {
  const box = createSecretBox('a'.repeat(40));
  const sealed = box.seal('discord-access-token');
  assert.doesNotMatch(sealed, /discord-access-token/);
  assert.notEqual(box.seal('discord-access-token'), sealed, 'a fresh IV each time');
  assert.equal(box.open(sealed), 'discord-access-token');
  assert.equal(createSecretBox('b'.repeat(40)).open(sealed), null);
});

test('a tampered or foreign value opens to null', () => {
  const box = createSecretBox('a'.repeat(40));
  const sealed = box.seal('token');
  const flipped = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
  assert.equal(box.open(flipped), null);
  assert.equal(box.open('plain-token'), null);
  assert.equal(box.open('v1:'), null);
});
