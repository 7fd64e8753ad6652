// The fuzz generator itself: the same seed picks the same cases, every field of a schema gets
// one, and nothing it picks is something the schema accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as z from 'zod';
import { ShopItemInput } from '../../src/shared/economy';
import { SettingsUpdateSchema } from '../../src/shared/settings';
import { bodyCandidates, hashSeed, parseQuery, pick, queryCandidates, sampleValid, seededRandom } from './zod-cases';

const shopItem = { name: 'Sticker', price: 25, type: 'cosmetic' };

test('the same seed picks the same cases, another seed others', () => {
  const picked = (seed: number) => pick(bodyCandidates(ShopItemInput, shopItem), 2, seededRandom(seed)).map((one) => one.label);
  assert.deepEqual(picked(13), picked(13));
  assert.notDeepEqual(picked(13), picked(14));
  assert.equal(hashSeed('POST /shop'), hashSeed('POST /shop'));
});

test('every field gets a case the schema refuses, at every depth', () => {
  const cases = pick(bodyCandidates(SettingsUpdateSchema, { xpCooldown: 45 }), 1, seededRandom(1));
  const fields = new Set(cases.map((one) => one.field));
  for (const field of [
    'xpCooldown',
    'webhookUrl',
    'moderationDm.ban',
    'escalation.0.duration',
    'automodRules.links.allowedDomains.0',
    'automodRules.caps.__proto__',
    'apiKey',
  ]) {
    assert.ok(fields.has(field), `${field} has a case`);
  }
  for (const one of cases) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(one.payload);
    } catch {
      continue;
    }
    assert.equal(SettingsUpdateSchema.safeParse(parsed).success, false, `${one.label} is refused`);
  }
});

test('a loose object has no unknown-key cases; a value in z.unknown() is kept for the handler to refuse', () => {
  const loose = z.object({ page: z.coerce.number().int().min(1) });
  const query = pick(queryCandidates(loose, { page: '1' }), 50, seededRandom(2));
  assert.ok(query.length > 0);
  assert.ok(query.every((one) => one.category !== 'unknown-key' && !loose.safeParse(parseQuery(one.payload)).success));
  const opaque = pick(bodyCandidates(z.object({ file: z.unknown() }).strict(), { file: {} }), 50, seededRandom(3));
  assert.ok(
    opaque.some((one) => one.field === 'file'),
    'junk for the unknown field is kept',
  );
});

test('valid samples are valid, refinements included', () => {
  const step = z
    .object({ action: z.enum(['timeout', 'kick']), duration: z.string().nullable().default(null) })
    .refine((value) => value.action !== 'timeout' || value.duration !== null);
  assert.equal(step.safeParse(sampleValid(step)).success, true);
  assert.equal(ShopItemInput.safeParse(sampleValid(ShopItemInput)).success, true);
});
