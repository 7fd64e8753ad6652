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
  const bytes = Buffer.from(sealed.slice('v1:'.length), 'base64url');
  // Flip one bit of the IV, the tag and the ciphertext in turn: each must fail authentication.
  for (const index of [0, 12, bytes.length - 1]) {
    const tampered = Buffer.from(bytes);
    tampered[index] = (tampered[index] ?? 0) ^ 1;
    assert.equal(box.open(`v1:${tampered.toString('base64url')}`), null, `byte ${index} flipped`);
  }
  assert.equal(box.open('plain-token'), null);
  assert.equal(box.open('v1:'), null);
});
