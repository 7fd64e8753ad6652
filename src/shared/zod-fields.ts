import type { ZodError } from 'zod';
import { counted } from './words';
import { fieldSentence, type FieldLabels } from './field-words';

type Issue = ZodError['issues'][number];

/** zod's own English ("Invalid input: expected string, received number"), which names types, not what a person should type. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized)\b/;

/** What a value of each type zod expects is, in words. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of fields',
  record: 'a group of fields',
  date: 'a date',
};

/** A number as people write it: 1,000,000. */
const number = (value: unknown) => (typeof value === 'number' || typeof value === 'bigint' ? value.toLocaleString('en-US') : String(value));

/** The problem of an issue in words: its own message, or one made from its code when zod wrote it. */
function problemOf(issue: Issue): string {
  // Nothing sent at all is missing, whatever the schema says of a wrong value (when the parse reported its input).
  if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) return 'is required';
  if (issue.message && !ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined$/.test(issue.message) || issue.expected === 'nonoptional') return 'is required';
      return `must be ${TYPE_WORDS[issue.expected] ?? 'of another kind'}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'is required' : `must be at least ${counted(Number(issue.minimum), 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at least ${counted(Number(issue.minimum), 'entry', 'entries')}`;
      return `must be at least ${number(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${counted(Number(issue.maximum), 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${counted(Number(issue.maximum), 'entry', 'entries')}`;
      return `must be at most ${number(issue.maximum)}`;
    case 'invalid_value': {
      const values = issue.values.map(String);
      // Choices that read as words are listed; codes ("reactionRole") are not a person's words.
      if (values.length > 0 && values.length <= 8 && values.every((value) => /^[a-z0-9]+$/.test(value))) {
        return `must be ${values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`}`;
      }
      return 'is not one of the choices offered';
    }
    case 'not_multiple_of':
      return `must be a multiple of ${number(issue.divisor)}`;
    case 'invalid_format':
      return 'is not written the expected way';
    default:
      return 'is not valid';
  }
}

/**
 * Field path -> what is wrong with it, as a sentence naming the field in words, e.g. `{ "price":
 * "Price must be a whole number." }`. `prefix` names the parent ("file.version"); `labels` are the
 * form's names of the fields ("name" -> "Item name"). An unknown field of a strict object is named
 * itself: "Unknown field is not a known field."
 */
export function zodFieldErrors(error: ZodError, options: { prefix?: string; labels?: FieldLabels } = {}): Record<string, string> {
  const { prefix, labels } = options;
  // A Map, not an object: a field named `__proto__` or `constructor` must be named too.
  const fields = new Map<string, string>();
  const name = (field: string, problem: string) => {
    if (!fields.has(field)) fields.set(field, fieldSentence(field, problem, labels));
  };
  for (const issue of error.issues) {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) name([...path, key].join('.'), 'is not a known field');
      continue;
    }
    name(path.length ? path.join('.') : 'body', problemOf(issue));
  }
  return Object.fromEntries(fields);
}
