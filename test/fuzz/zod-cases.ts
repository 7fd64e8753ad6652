// Invalid inputs derived from zod schemas, for the fuzz suites. The generator reads a schema's
// definition (zod v4: `schema._zod.def`), walks every field at every depth, and for each one makes
// the values a careless or hostile client sends: wrong types, a missing field, lengths and numbers
// just outside the limits, huge strings, odd unicode (RTL, zero-width, surrogate halves, NUL),
// prototype keys, unknown keys, arrays where objects are expected, deep nesting. A candidate the
// schema itself accepts is dropped (it is not an invalid input), except inside z.unknown(), which
// the schema cannot judge and the handler must. Sampling is seeded, so a run can be replayed.
import type * as z from 'zod';
import { mulberry32 } from '../../src/shared/seeded-random';

type Schema = z.core.$ZodType;
type Def = z.core.$ZodTypes['_zod']['def'];
type Path = (string | number)[];

/** What kind of mistake a candidate makes. */
export type Category = 'type' | 'missing' | 'boundary' | 'huge' | 'unicode' | 'prototype' | 'unknown-key' | 'array-for-object' | 'deep' | 'syntax';

/** One invalid value for a request part (the JSON body or the query string), made when picked. */
export interface Candidate {
  /** Dotted path of the wrong field ('' when the whole part is wrong). */
  field: string;
  category: Category;
  /** What the candidate is, for failure messages. */
  label: string;
  /** The body as JSON text or the query string (without '?'); null when the schema accepts it after all. */
  make(): string | null;
}

/** A picked candidate, made. */
export interface Case {
  field: string;
  category: Category;
  label: string;
  payload: string;
}

/** Strings just inside and outside the JSON body limit (256 kB) of src/http/middleware/body.ts. */
const HUGE_WITHIN = 200_000;
const HUGE_BEYOND = 1_100_000;
/** Query strings: one fits Node's 16 kB header limit, one does not. */
const QUERY_WITHIN = 8_000;
const QUERY_BEYOND = 64_000;
/** How deep the nested values go (JSON.stringify would overflow its stack here, so they are written as text). */
const DEPTH = 5_000;
/** Made once: every field's huge value is the same string. */
const HUGE = { within: 'x'.repeat(HUGE_WITHIN), beyond: 'x'.repeat(HUGE_BEYOND) };

const REMOVE = Symbol('remove');
/** A value written as raw JSON text when the payload is serialised. */
class RawJson {
  constructor(readonly text: string) {}
}
const deepObject = () => new RawJson(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`);
const deepArray = () => new RawJson(`${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`);
/** Objects whose own keys are `__proto__`, `constructor` or `prototype` (JSON.parse makes them own properties). */
const PROTOTYPE_VALUES: [string, () => unknown][] = [
  ['__proto__', () => JSON.parse('{"polluted":true}')],
  ['constructor', () => JSON.parse('{"prototype":{"polluted":true}}')],
  ['prototype', () => JSON.parse('{"polluted":true}')],
];
const UNKNOWN_KEYS = ['unknownField', '\u202eevil', 'a\u0000b', ''];

const defOf = (schema: Schema): Def => (schema as z.core.$ZodTypes)._zod.def;
const checksOf = (schema: Schema) => ((schema._zod.def.checks ?? []) as z.core.$ZodChecks[]).map((check) => check._zod.def);
const accepts = (schema: Schema, value: unknown) => (schema as z.ZodType).safeParse(value).success;

/** What a field's value may be, once optional, nullable, default, pipe and union are looked through. */
type Kind =
  | { type: 'string'; min?: number; max?: number }
  | { type: 'number'; min?: number; max?: number; int: boolean }
  | { type: 'boolean' }
  | { type: 'choice'; values: unknown[] }
  | { type: 'object'; shape: Record<string, Schema> }
  | { type: 'array'; element: Schema; max?: number }
  | { type: 'record'; value: Schema }
  | { type: 'unknown' }
  | { type: 'null' };

interface Shape {
  kinds: Kind[];
  optional: boolean;
  nullable: boolean;
}

/** The kinds a schema accepts, and whether it may be left out or null. */
function shapeOf(schema: Schema): Shape {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return { ...shapeOf(def.innerType), optional: true };
    case 'nullable':
      return { ...shapeOf(def.innerType), nullable: true };
    case 'pipe': {
      // What the client sends is the input's shape; a string piped into a string keeps both limits.
      const input = shapeOf(def.in);
      const output = defOf(def.out).type === 'transform' ? undefined : shapeOf(def.out).kinds.find((kind) => kind.type === 'string');
      if (!output || output.type !== 'string') return input;
      return {
        ...input,
        kinds: input.kinds.map((kind) => (kind.type === 'string' ? { ...kind, min: output.min ?? kind.min, max: output.max ?? kind.max } : kind)),
      };
    }
    case 'union': {
      const options = def.options.map((option) => shapeOf(option));
      return {
        kinds: options.flatMap((option) => option.kinds),
        optional: options.some((o) => o.optional),
        nullable: options.some((o) => o.nullable || o.kinds.some((k) => k.type === 'null')),
      };
    }
    case 'string': {
      const kind: Kind = { type: 'string' };
      for (const check of checksOf(schema)) {
        if (check.check === 'min_length') kind.min = check.minimum;
        if (check.check === 'max_length') kind.max = check.maximum;
        if (check.check === 'length_equals') [kind.min, kind.max] = [check.length, check.length];
      }
      return { kinds: [kind], optional: false, nullable: false };
    }
    case 'number': {
      const kind: Kind = { type: 'number', int: false };
      for (const check of checksOf(schema)) {
        if (check.check === 'number_format') kind.int = true;
        if (check.check === 'greater_than') kind.min = Number(check.value);
        if (check.check === 'less_than') kind.max = Number(check.value);
      }
      return { kinds: [kind], optional: false, nullable: false };
    }
    case 'boolean':
      return { kinds: [{ type: 'boolean' }], optional: false, nullable: false };
    case 'enum':
      return { kinds: [{ type: 'choice', values: Object.values(def.entries) }], optional: false, nullable: false };
    case 'literal':
      return { kinds: [{ type: 'choice', values: [...def.values] }], optional: false, nullable: false };
    case 'object':
      return { kinds: [{ type: 'object', shape: { ...def.shape } }], optional: false, nullable: false };
    case 'array': {
      const max = checksOf(schema).find((check) => check.check === 'max_length');
      return {
        kinds: [{ type: 'array', element: def.element, ...(max && max.check === 'max_length' ? { max: max.maximum } : {}) }],
        optional: false,
        nullable: false,
      };
    }
    case 'record':
      return { kinds: [{ type: 'record', value: def.valueType }], optional: false, nullable: false };
    case 'null':
      return { kinds: [{ type: 'null' }], optional: false, nullable: true };
    default:
      // unknown, any, transform, custom: anything goes as far as the schema can tell.
      return { kinds: [{ type: 'unknown' }], optional: def.type === 'unknown' || def.type === 'any', nullable: true };
  }
}

// ---------------------------------------------------------------------------------------------
// Valid values: the baseline a field's mistake is made in (a nested object the example left out).

// 'UTC' and '09:00': a time zone and a time of day (recurring announcements' rules).
const STRING_SAMPLES = ['123456789012345678', '2026-01-01T00:00:00.000Z', 'https://example.com/hook', 'sample', 'UTC', '09:00'];

function sampleCandidates(schema: Schema): unknown[] {
  const { kinds, optional, nullable } = shapeOf(schema);
  const values: unknown[] = [];
  if (optional) values.push(undefined);
  if (nullable) values.push(null);
  for (const kind of kinds) {
    switch (kind.type) {
      case 'string':
        values.push('x'.repeat(Math.max(kind.min ?? 1, 1)), ...STRING_SAMPLES);
        break;
      case 'number': {
        const low = kind.min ?? 0;
        values.push(Math.max(low, Math.min(1, kind.max ?? 1)), low, kind.max ?? low);
        break;
      }
      case 'boolean':
        values.push(false, true);
        break;
      case 'choice':
        values.push(...kind.values);
        break;
      case 'object':
        values.push(...objectSamples(kind.shape));
        break;
      case 'array':
        values.push([]);
        break;
      case 'record':
        values.push({});
        break;
      default:
        values.push(null);
    }
  }
  return values;
}

/** Objects with every required field valid; when the first fails a refinement, variants that change one field. */
function objectSamples(shape: Record<string, Schema>): Record<string, unknown>[] {
  const base: Record<string, unknown> = {};
  const alternatives: [string, unknown[]][] = [];
  for (const [key, field] of Object.entries(shape)) {
    if (shapeOf(field).optional) continue;
    const valid = sampleCandidates(field).filter((value) => value !== undefined && accepts(field, value));
    if (valid.length === 0) return [];
    base[key] = valid[0];
    alternatives.push([key, valid.slice(1)]);
  }
  return [base, ...alternatives.flatMap(([key, values]) => values.map((value) => ({ ...base, [key]: value })))];
}

/** A value the schema accepts (undefined when none of the samples is). */
export function sampleValid(schema: Schema): unknown {
  return sampleCandidates(schema).find((value) => value !== undefined && accepts(schema, value));
}

// ---------------------------------------------------------------------------------------------
// Mistakes, field by field.

interface Mistake {
  path: Path;
  /** The field a refusal names, when it is not `path` (an unknown key names itself). */
  named?: Path;
  category: Category;
  label: string;
  value: unknown;
  /** Valid values of the path's ancestors, to build them when the baseline lacks them. */
  ancestors: unknown[];
  opaque: boolean;
}

const UNICODE = {
  rtl: '\u202e',
  zeroWidth: '\u200b',
  nul: '\u0000',
  highSurrogate: '\ud800',
  lowSurrogate: '\udfff',
  emoji: '\u{1F600}',
};

/** A valid string with odd unicode put in: schemas with a format (ids, dates, URLs, choices) must refuse them. */
function unicodeVariants(valid: string): [string, string][] {
  const digits = /^\d+$/.test(valid);
  return [
    [`${valid} + NUL`, valid + UNICODE.nul],
    [`RTL override + ${valid}`, UNICODE.rtl + valid],
    [`${valid} with a zero-width space`, `${valid.slice(0, 1)}${UNICODE.zeroWidth}${valid.slice(1)}`],
    [`a high surrogate half + ${valid}`, UNICODE.highSurrogate + valid],
    [`${valid} + a low surrogate half`, valid + UNICODE.lowSurrogate],
    ...(digits
      ? ([
          ['Arabic-Indic digits', valid.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))],
          ['fullwidth digits', valid.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
        ] as [string, string][])
      : [[`${valid} in capitals`, valid.toUpperCase()] as [string, string]]),
  ];
}

/** Strings one past `max` (in UTF-16 units, as zod counts), in plain and odd characters. */
function tooLong(max: number): [string, string][] {
  return [
    [`${max + 1} characters`, 'x'.repeat(max + 1)],
    [`${max + 1} zero-width spaces`, UNICODE.zeroWidth.repeat(max + 1)],
    [`${max + 1} RTL overrides`, UNICODE.rtl.repeat(max + 1)],
    [`${max + 1} NULs`, UNICODE.nul.repeat(max + 1)],
    [`${max + 1} surrogate halves`, UNICODE.highSurrogate.repeat(max + 1)],
    [`${Math.floor(max / 2) + 1} emoji (surrogate pairs)`, UNICODE.emoji.repeat(Math.floor(max / 2) + 1)],
  ];
}

function mistakesOfKind(kind: Kind, valid: unknown): [Category, string, unknown][] {
  const out: [Category, string, unknown][] = [];
  switch (kind.type) {
    case 'string': {
      out.push(['type', 'a number', 12345], ['type', 'true', true], ['type', 'an object', {}], ['type', 'an array', ['x']], ['type', 'null', null]);
      if (kind.min !== undefined && kind.min > 0)
        out.push(['boundary', `${kind.min - 1} characters`, 'x'.repeat(kind.min - 1)], ['boundary', 'only spaces', '   ']);
      if (kind.max !== undefined) out.push(...tooLong(kind.max).map(([label, value]) => ['boundary', label, value] as [Category, string, unknown]));
      out.push(
        ['huge', `${HUGE_WITHIN} characters (within the body limit)`, HUGE.within],
        ['huge', `${HUGE_BEYOND} characters (beyond the body limit)`, HUGE.beyond],
      );
      const base = typeof valid === 'string' && valid ? valid : 'sample';
      out.push(...unicodeVariants(base).map(([label, value]) => ['unicode', label, value] as [Category, string, unknown]));
      break;
    }
    case 'number': {
      out.push(['type', 'a numeric string', '12'], ['type', 'true', true], ['type', 'an object', {}], ['type', 'an array', [1]], ['type', 'null', null]);
      const step = kind.int ? 1 : 0.001;
      if (kind.min !== undefined) out.push(['boundary', `${kind.min - step} (below the minimum)`, kind.min - step]);
      if (kind.max !== undefined) out.push(['boundary', `${kind.max + step} (above the maximum)`, kind.max + step]);
      if (kind.int) out.push(['boundary', 'a fraction', (kind.min ?? 0) + 0.5], ['boundary', '2^53 + 2 (not a safe integer)', 2 ** 53 + 2]);
      out.push(['boundary', 'zero', 0], ['huge', '1e308', 1e308], ['huge', '-1e308', -1e308], ['huge', '1e400 (Infinity once parsed)', new RawJson('1e400')]);
      break;
    }
    case 'boolean':
      out.push(['type', 'the string "true"', 'true'], ['type', '1', 1], ['type', 'null', null], ['type', 'an object', {}]);
      break;
    case 'choice': {
      out.push(
        ['type', 'a number', 7],
        ['type', 'an object', {}],
        ['type', 'an array', []],
        ['type', 'null', null],
        ['boundary', 'no such choice', 'NOT_A_CHOICE'],
      );
      const first = kind.values.find((value): value is string => typeof value === 'string' && value !== '');
      if (first)
        out.push(
          ['boundary', `"${first} " (a trailing space)`, `${first} `],
          ...unicodeVariants(first).map(([label, value]) => ['unicode', label, value] as [Category, string, unknown]),
        );
      break;
    }
    case 'object':
      out.push(
        ['array-for-object', 'an array', []],
        ['array-for-object', 'an array of it', [valid ?? {}]],
        ['type', 'a string', 'object'],
        ['type', 'a number', 1],
        ['type', 'null', null],
        ['deep', `objects ${DEPTH} deep`, deepObject()],
      );
      break;
    case 'array':
      out.push(
        ['type', 'an object', {}],
        ['type', 'an object with key 0', { 0: null }],
        ['type', 'a string', 'x'],
        ['type', 'null', null],
        ['deep', `arrays ${DEPTH} deep`, deepArray()],
      );
      break;
    case 'record':
      out.push(['array-for-object', 'an array', []], ['type', 'a string', 'x'], ['type', 'null', null]);
      break;
    case 'unknown':
      out.push(
        ['type', 'a string', 'x'],
        ['type', 'a number', 1],
        ['array-for-object', 'an array', []],
        [
          'prototype',
          'prototype keys',
          JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}'),
        ],
        ['deep', `objects ${DEPTH} deep`, deepObject()],
        ['huge', `${HUGE_WITHIN} characters`, HUGE.within],
      );
      break;
    case 'null':
      break;
  }
  return out;
}

/** Every mistake for the field at `path` and the fields under it. `valid` is a valid value there. */
function mistakesOf(schema: Schema, path: Path, valid: unknown, ancestors: unknown[], out: Mistake[]): void {
  const shape = shapeOf(schema);
  const push = (category: Category, label: string, value: unknown, named?: Path) =>
    out.push({ path, category, label, value, ancestors, opaque: false, ...(named ? { named } : {}) });
  if (!shape.optional && path.length > 0 && typeof path[path.length - 1] === 'string') push('missing', 'left out', REMOVE);
  const seen = new Set<string>();
  // Odd unicode goes into a string the field accepts (an id, a date), so only the unicode is wrong.
  const validString =
    typeof valid === 'string' && valid ? valid : sampleCandidates(schema).find((value) => typeof value === 'string' && value !== '' && accepts(schema, value));
  for (const kind of shape.kinds) {
    for (const [category, label, value] of mistakesOfKind(kind, kind.type === 'string' ? validString : valid)) {
      if (seen.has(label)) continue;
      seen.add(label);
      push(category, label, value);
    }
    const inner = [...ancestors, valid];
    if (kind.type === 'object') {
      // A nullable object the baseline leaves null: its fields' mistakes are made in a valid one.
      const base = isObject(valid) ? valid : (objectSamples(kind.shape)[0] ?? {});
      for (const [key, field] of Object.entries(kind.shape)) {
        const value = key in base ? base[key] : sampleValid(field);
        mistakesOf(field, [...path, key], value, isObject(valid) ? inner : [...ancestors, base], out);
      }
      for (const [key, make] of PROTOTYPE_VALUES) push('prototype', `own key ${key}`, withKey(base, key, make()), [...path, key]);
      for (const key of UNKNOWN_KEYS) push('unknown-key', `unknown key ${JSON.stringify(key)}`, withKey(base, key, 1), [...path, key]);
    }
    if (kind.type === 'array') {
      const element = Array.isArray(valid) && valid.length > 0 ? valid[0] : sampleValid(kind.element);
      if (kind.max !== undefined && element !== undefined)
        push(
          'boundary',
          `${kind.max + 1} entries`,
          Array.from({ length: kind.max + 1 }, () => element),
        );
      mistakesOf(kind.element, [...path, 0], element, inner, out);
    }
    if (kind.type === 'record') {
      const base = isObject(valid) ? valid : {};
      mistakesOf(kind.value, [...path, 'key'], sampleValid(kind.value), inner, out);
      for (const [key, make] of PROTOTYPE_VALUES) push('prototype', `own key ${key}`, withKey(base, key, make()), [...path, key]);
    }
  }
  // The schema cannot judge what it takes as unknown: those values are kept, for the handler to refuse.
  if (shape.kinds.some((kind) => kind.type === 'unknown')) for (const mistake of out) if (pathStartsWith(mistake.path, path)) mistake.opaque = true;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const pathStartsWith = (path: Path, prefix: Path) => prefix.length <= path.length && prefix.every((part, index) => path[index] === part);

/** A copy of `base` with an own property `key` (assignment would set the prototype for `__proto__`). */
function withKey(base: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = cloneJson(base) as Record<string, unknown>;
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A deep copy that keeps own `__proto__` keys and RawJson values. */
function cloneJson(value: unknown): unknown {
  if (value instanceof RawJson || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value))
    Object.defineProperty(copy, key, { value: cloneJson(inner), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The baseline with the mistake put in at its path (ancestors the baseline lacks are made valid first). */
function apply(baseline: unknown, mistake: Mistake): unknown {
  if (mistake.path.length === 0) return mistake.value;
  const root = cloneJson(baseline ?? {});
  let node = root as Record<string | number, unknown>;
  mistake.path.forEach((key, index) => {
    const last = index === mistake.path.length - 1;
    if (last) {
      if (mistake.value === REMOVE) delete node[key];
      else if (Array.isArray(node)) node[Number(key)] = mistake.value;
      else Object.defineProperty(node, key, { value: mistake.value, enumerable: true, writable: true, configurable: true });
      return;
    }
    const existing = node[key];
    if (typeof existing !== 'object' || existing === null) {
      const made = cloneJson(mistake.ancestors[index + 1] ?? (typeof mistake.path[index + 1] === 'number' ? [] : {}));
      node[key] = made;
    }
    const child = node[key] as Record<string | number, unknown>;
    if (Array.isArray(child) && child.length === 0 && typeof mistake.path[index + 1] === 'number') child.push(cloneJson(mistake.ancestors[index + 2] ?? null));
    node = child;
  });
  return root;
}

/** JSON text of a value, with RawJson written as is. */
function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) => {
    if (inner instanceof RawJson) {
      raws.push(inner.text);
      return `\u0000RAW${raws.length - 1}\u0000`;
    }
    return inner;
  });
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_match, index: string) => raws[Number(index)] ?? 'null');
}

const dotted = (path: Path) => path.map(String).join('.');

/** JSON texts that are not an object at all, or not JSON: for the whole body. */
function wholeBodyMistakes(baseline: unknown): { category: Category; label: string; payload: string }[] {
  return [
    { category: 'syntax', label: 'truncated JSON', payload: '{"a":' },
    { category: 'type', label: 'null', payload: 'null' },
    { category: 'type', label: 'a string', payload: '"body"' },
    { category: 'type', label: 'a number', payload: '42' },
    { category: 'array-for-object', label: 'an empty array', payload: '[]' },
    { category: 'array-for-object', label: 'an array of the valid body', payload: `[${toJson(baseline ?? {})}]` },
    { category: 'deep', label: `objects ${DEPTH} deep`, payload: deepObject().text },
    { category: 'deep', label: `arrays ${DEPTH * 20} deep (beyond the body limit)`, payload: `${'['.repeat(DEPTH * 60)}${']'.repeat(DEPTH * 60)}` },
    { category: 'huge', label: 'a 1.1 MB string (beyond the body limit)', payload: JSON.stringify(HUGE.beyond) },
  ];
}

/** Every invalid JSON body for `schema`, made from the valid `baseline`. */
export function bodyCandidates(schema: Schema, baseline: unknown): Candidate[] {
  const mistakes: Mistake[] = [];
  mistakesOf(schema, [], baseline, [], mistakes);
  const candidates: Candidate[] = wholeBodyMistakes(baseline).map(({ category, label, payload }) => ({
    field: '',
    category,
    label: `body: ${label}`,
    make: () => (acceptsJson(schema, payload) ? null : payload),
  }));
  for (const mistake of mistakes) {
    const field = dotted(mistake.named ?? mistake.path);
    candidates.push({
      field,
      category: mistake.category,
      label: `${field || 'body'}: ${mistake.label}`,
      make: () => {
        const payload = toJson(apply(baseline, mistake));
        return mistake.opaque || !acceptsJson(schema, payload) ? payload : null;
      },
    });
  }
  return candidates;
}

function acceptsJson(schema: Schema, payload: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return false;
  }
  // The body parser takes objects and arrays only (strict JSON); anything else never reaches the schema.
  return typeof parsed === 'object' && parsed !== null && accepts(schema, parsed);
}

// ---------------------------------------------------------------------------------------------
// Query strings: flat string values (a repeated key makes an array), as Koa reads them.

/** The query as Koa parses it (koa/lib/search-params.js): one value, or an array for a repeated key. */
export function parseQuery(text: string): Record<string, string | string[]> {
  const params = new URLSearchParams(text);
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    Object.defineProperty(query, key, { value: values.length <= 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
  }
  return query;
}

/** Percent-encodes like a client would, but keeps surrogate halves as their (invalid) UTF-8 bytes. */
export function encodeComponent(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff)
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    else out += encodeURIComponent(char);
  }
  return out;
}

const queryText = (entries: [string, string][]) => entries.map(([key, value]) => `${encodeComponent(key)}=${encodeComponent(value)}`).join('&');

/** Number-like strings a query field must refuse when it wants a whole number in range. */
function numericStrings(kind: Extract<Kind, { type: 'number' }>): [Category, string, string][] {
  return [
    ['type', 'letters', 'abc'],
    ['type', 'empty', ''],
    ['boundary', 'a fraction', '1.5'],
    ...(kind.min !== undefined ? ([['boundary', 'below the minimum', String(kind.min - 1)]] as [Category, string, string][]) : []),
    ...(kind.max !== undefined ? ([['boundary', 'above the maximum', String(kind.max + 1)]] as [Category, string, string][]) : []),
    ['huge', '1e400', '1e400'],
    ['huge', 'Infinity', 'Infinity'],
    ['unicode', 'a fullwidth digit', '\uff11'],
    ['unicode', 'an Arabic-Indic digit', '\u0663'],
    ['unicode', '1 + NUL', '1\u0000'],
    ['unicode', 'a surrogate half', UNICODE.highSurrogate],
  ];
}

/** Every invalid query string for `schema` (a z.object of flat fields), made from the valid `baseline`. */
export function queryCandidates(schema: Schema, baseline: Record<string, string>): Candidate[] {
  const candidates: Candidate[] = [];
  const add = (field: string, category: Category, label: string, entries: [string, string][]) =>
    candidates.push({
      field,
      category,
      label: `${field || 'query'}: ${label}`,
      make: () => {
        const payload = queryText(entries);
        return accepts(schema, parseQuery(payload)) ? null : payload;
      },
    });
  const without = (key: string) => Object.entries(baseline).filter(([name]) => name !== key);
  const shape = shapeOf(schema).kinds.find((kind): kind is Extract<Kind, { type: 'object' }> => kind.type === 'object');
  for (const [key, field] of Object.entries(shape?.shape ?? {})) {
    const fieldShape = shapeOf(field);
    const valid = baseline[key] ?? String(sampleValid(field) ?? 'x');
    if (!fieldShape.optional) add(key, 'missing', 'left out', without(key));
    add(key, 'type', 'given twice', [...without(key), [key, valid], [key, valid]]);
    add(`${key}[__proto__]`, 'prototype', 'a bracketed prototype key', [...Object.entries(baseline), [`${key}[__proto__]`, valid]]);
    for (const kind of fieldShape.kinds) {
      const values: [Category, string, string][] =
        kind.type === 'number'
          ? numericStrings(kind)
          : mistakesOfKind(kind, valid).flatMap(([category, label, value]) =>
              typeof value === 'string' && value.length <= QUERY_WITHIN ? [[category, label, value] as [Category, string, string]] : [],
            );
      for (const [category, label, value] of values) add(key, category, label, [...without(key), [key, value]]);
    }
    add(key, 'huge', `${QUERY_WITHIN} characters (within the header limit)`, [...without(key), [key, 'x'.repeat(QUERY_WITHIN)]]);
    add(key, 'huge', `${QUERY_BEYOND} characters (beyond the header limit)`, [...without(key), [key, 'x'.repeat(QUERY_BEYOND)]]);
  }
  const all = Object.entries(baseline);
  for (const key of ['__proto__', 'constructor', 'prototype', ...UNKNOWN_KEYS])
    add(key, key.startsWith('_') || key === 'constructor' || key === 'prototype' ? 'prototype' : 'unknown-key', `unknown key ${JSON.stringify(key)}`, [
      ...all,
      [key, '1'],
    ]);
  add('', 'unknown-key', `an unknown key of ${QUERY_BEYOND} characters (beyond the header limit)`, [...all, ['k'.repeat(QUERY_BEYOND), '1']]);
  return candidates;
}

// ---------------------------------------------------------------------------------------------
// Seeded sampling: every field gets some, no route gets them all.

/** A small seeded generator (mulberry32): the same seed gives the same cases. */
export const seededRandom = mulberry32;

/** A stable 32-bit hash of a string (FNV-1a), to seed each route on its own. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/**
 * Picks up to `perField` invalid cases for each field (`wholePart` for the part as a whole), in an
 * order fixed by `random`, a different kind of mistake first. Candidates are made only when their
 * turn comes, and skipped when the schema accepts them.
 */
export function pick(candidates: Candidate[], perField: number, random: () => number, wholePart = perField): Case[] {
  const byField = new Map<string, Candidate[]>();
  for (const candidate of candidates) byField.set(candidate.field, [...(byField.get(candidate.field) ?? []), candidate]);
  const picked: Case[] = [];
  for (const [field, group] of byField) {
    const shuffled = group
      .map((candidate) => ({ candidate, key: random() }))
      .sort((a, b) => a.key - b.key)
      .map(({ candidate }) => candidate);
    const first: Candidate[] = [];
    const rest: Candidate[] = [];
    const categories = new Set<Category>();
    for (const candidate of shuffled) {
      if (categories.has(candidate.category)) rest.push(candidate);
      else {
        categories.add(candidate.category);
        first.push(candidate);
      }
    }
    const wanted = field === '' ? wholePart : perField;
    let taken = 0;
    for (const candidate of [...first, ...rest]) {
      if (taken >= wanted) break;
      const payload = candidate.make();
      if (payload === null) continue;
      picked.push({ field, category: candidate.category, label: candidate.label, payload });
      taken += 1;
    }
  }
  return picked;
}
