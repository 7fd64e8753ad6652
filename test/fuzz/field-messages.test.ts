// Issue 26, "Errors a person can read": every zod schema of src/shared (the API's bodies, queries
// and answers, the dashboard's own checks) is given the invalid values the fuzz suites make
// (zod-cases.ts), and every field message it produces must be a sentence naming the field in
// words: no internal key, numbers with thousands separators, a full stop at the end.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { fieldSentence, labelsOf } from '../../src/shared/field-words';
import { zodFieldErrors } from '../../src/shared/zod-fields';
import { sentenceProblem } from '../helpers/sentences';
import { bodyCandidates, sampleValid } from './zod-cases';

const shared = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/shared');

/** Every exported zod schema of src/shared, by module and name. */
async function sharedSchemas(): Promise<{ name: string; schema: z.ZodType }[]> {
  const found: { name: string; schema: z.ZodType }[] = [];
  for (const file of readdirSync(shared).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    const module = (await import(path.join(shared, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (value instanceof z.ZodType) found.push({ name: `${file}: ${name}`, schema: value });
  }
  return found;
}

test('every field message of every shared schema is a sentence naming the field in words', async () => {
  const schemas = await sharedSchemas();
  assert.ok(schemas.length > 100, `found ${schemas.length} schemas`);
  const failures: string[] = [];
  let checked = 0;
  for (const { name, schema } of schemas) {
    // Every invalid value a client could send, and nothing at all.
    const baseline = sampleValid(schema as never);
    const inputs: unknown[] = [{}, undefined];
    for (const candidate of baseline === undefined ? [] : bodyCandidates(schema as never, baseline)) {
      // Huge and deeply nested bodies are the body parser's to refuse; they only make this slow.
      if (candidate.category === 'huge' || candidate.category === 'deep') continue;
      const text = candidate.make();
      if (text === null) continue;
      try {
        inputs.push(JSON.parse(text));
      } catch {
        // Not JSON: the body parser answers it before any schema.
      }
    }
    for (const input of inputs) {
      const result = schema.safeParse(input);
      if (result.success) continue;
      for (const [field, message] of Object.entries(zodFieldErrors(result.error, { labels: labelsOf(schema) }))) {
        checked += 1;
        const problem = sentenceProblem(message);
        if (problem && !failures.some((failure) => failure.startsWith(`${name} ${field}:`))) failures.push(`${name} ${field}: ${problem}: ${message}`);
      }
    }
  }
  assert.ok(checked > 5000, `checked ${checked} messages`);
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} messages are not sentences in words`);
});

test('a field is named by its words, the form labels first, and numbers get their separators', () => {
  assert.equal(fieldSentence('name', 'is required', { name: 'Item name' }), 'Item name is required.');
  assert.equal(
    fieldSentence('serverSettings.rateLimitPerMinute', 'must be between 1 and 1000'),
    'Rate limit (commands per minute) must be between 1 and 1,000.',
  );
  assert.equal(fieldSentence('mentionRoleId', 'is not a role of this server'), 'Role to ping is not a role of this server.');
  assert.equal(fieldSentence('rulesChannelId', 'must be a Discord id (15 to 21 digits)'), 'Rules channel must be a Discord id (15 to 21 digits).');
  assert.equal(fieldSentence('xpRoleMultipliers.0.multiplier', 'must be between 0.1 and 5'), 'Role multiplier #1: multiplier must be between 0.1 and 5.');
  assert.equal(fieldSentence('recurrence.weekdays', 'pick at least one day'), 'Repeat: days of the week: pick at least one day.');
  assert.equal(
    fieldSentence('automodRules.caps.maxPercent', 'must be between 50 and 100'),
    'Excessive capitals rule: most capitals (%) must be between 50 and 100.',
  );
  assert.equal(fieldSentence('roleId', '@Senior Staff is above the bot'), '@Senior Staff is above the bot.');
  assert.equal(
    fieldSentence('welcomeChannelId', 'Please provide a channel ID when welcome messages are enabled.'),
    'Please provide a channel ID when welcome messages are enabled.',
  );
  assert.equal(fieldSentence('stock', 'must be between 0 and 1000000'), 'Stock must be between 0 and 1,000,000.');
  assert.equal(fieldSentence('channelId', 'is 123456789012345678, not a channel'), 'Channel is 123456789012345678, not a channel.');
  for (const sentence of ['Item name is required.', 'Stock must be between 0 and 1,000,000.']) assert.equal(sentenceProblem(sentence), null);
  assert.match(sentenceProblem('The serverSettings.rateLimitPerMinute must be a number.') ?? '', /internal key/);
  assert.match(sentenceProblem('Mention role id: mentionRoleId is wrong.') ?? '', /internal key/);
  assert.match(sentenceProblem('Price must be at most 1000000.') ?? '', /separators/);
  assert.match(sentenceProblem('Failed to create shop item. Please try again.') ?? '', /try again/);
  assert.match(sentenceProblem('is required') ?? '', /sentence/);
});
