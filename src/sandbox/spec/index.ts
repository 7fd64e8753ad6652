// Discord's OpenAPI spec, vendored (see README.md), and what the sandbox and its tests do with it:
// map the sandbox's routes to the spec's paths, and check request bodies, path and query
// parameters against it, answering Discord's 50035 shape.
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import spec from './discord-openapi.json';
import { narrowUnions } from './unions';

/** The spec, as parsed JSON. */
export const discordSpec = spec as unknown as OpenApi;

/** The parts of the spec the sandbox reads. */
interface OpenApi {
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { schemas: Record<string, unknown> };
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Record<string, unknown>;
  required?: boolean;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, unknown>;
}

/** Our route pattern (`/channels/:channelId/messages`) -> the spec's path (`/channels/{channel_id}/messages`). */
export function specPathOf(pattern: string): string {
  const webhook = pattern.startsWith('/webhooks');
  const names: Record<string, string> = {
    applicationId: webhook ? 'webhook_id' : 'application_id',
    webhookId: 'webhook_id',
    token: webhook ? 'webhook_token' : 'interaction_token',
    interactionId: 'interaction_id',
    guildId: 'guild_id',
    channelId: 'channel_id',
    messageId: 'message_id',
    userId: 'user_id',
    roleId: 'role_id',
    overwriteId: 'overwrite_id',
    emoji: 'emoji_name',
    commandId: 'command_id',
  };
  return pattern.replace(/:(\w+)/g, (_m, name: string) => `{${names[name] ?? name}}`);
}

/** The spec's operation for a method and our route pattern, if it has one. */
export function operationOf(method: string, pattern: string): Operation | undefined {
  const path = discordSpec.paths[specPathOf(pattern)];
  const operation = path?.[method.toLowerCase()];
  return operation && typeof operation === 'object' ? (operation as Operation) : undefined;
}

/** The path-level and operation-level parameters of a route. */
function parametersOf(method: string, pattern: string): Parameter[] {
  const path = discordSpec.paths[specPathOf(pattern)];
  const shared = (path?.parameters as Parameter[] | undefined) ?? [];
  return [...shared, ...(operationOf(method, pattern)?.parameters ?? [])];
}

/** Properties that hold permission bit sets: the spec types them as plain integers, Discord takes strings too. */
const BIT_SET_PROPERTIES = new Set(['permissions', 'allow', 'deny']);

/**
 * The spec with integers beyond JavaScript's safe range (permission bit sets, int64) also accepted
 * as strings of digits, as Discord does: clients send them as strings (discord.js always does, for
 * a role's `permissions` and an overwrite's `allow` and `deny` too).
 */
function withBigIntegerStrings(value: unknown, property?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withBigIntegerStrings(item));
  if (!value || typeof value !== 'object') return value;
  const schema = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'properties' && item && typeof item === 'object'
        ? Object.fromEntries(Object.entries(item).map(([name, sub]) => [name, withBigIntegerStrings(sub, name)]))
        : withBigIntegerStrings(item),
    ]),
  ) as Record<string, unknown>;
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const big = typeof schema.maximum === 'number' && schema.maximum > Number.MAX_SAFE_INTEGER;
  const bitSet = property !== undefined && BIT_SET_PROPERTIES.has(property);
  if (types.includes('integer') && (big || bitSet || schema.format === 'int64')) {
    const { maximum: _maximum, minimum: _minimum, format: _format, ...rest } = schema;
    return { anyOf: [schema, { ...rest, type: 'string', pattern: '^[0-9]+$' }] };
  }
  return schema;
}

/** An ajv instance holding the spec under the id `openapi` (formats checked where ajv knows them). */
export function specAjv(schemaSpec: unknown = withBigIntegerStrings(discordSpec)): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, logger: false });
  addFormats(ajv);
  for (const format of ['snowflake', 'int32', 'int64', 'double', 'float']) ajv.addFormat(format, true);
  ajv.addSchema(schemaSpec as object, 'openapi');
  return ajv;
}

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** One problem with one field, in Discord's words. */
export interface FieldProblem {
  code: string;
  message: string;
}

/** A value as Discord quotes it in its messages. */
function quoted(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Discord's code and message for one ajv error. */
function problemOf(error: ErrorObject): FieldProblem {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
    case 'maxLength':
    case 'maxItems':
      return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${String(params.limit)} or fewer in length.` };
    case 'uniqueItems':
      return { code: 'BASE_TYPE_BAD', message: 'Must not contain duplicate values.' };
    case 'minLength':
    case 'minItems':
      return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${String(params.limit)} or more in length.` };
    case 'maximum':
      return { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${String(params.limit)}.` };
    case 'minimum':
      return { code: 'NUMBER_TYPE_MIN', message: `int value should be greater than or equal to ${String(params.limit)}.` };
    case 'enum':
    case 'const': {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
      return { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${allowed.map((v) => JSON.stringify(v)).join(', ')}}.` };
    }
    case 'pattern':
      return error.parentSchema && (error.parentSchema as { format?: string }).format === 'snowflake'
        ? { code: 'NUMBER_TYPE_COERCE', message: `Value "${quoted(error.data)}" is not snowflake.` }
        : { code: 'STRING_TYPE_REGEX', message: `String value did not match validation regex.` };
    case 'type': {
      const expected = ([] as string[]).concat(params.type as string | string[]).filter((type) => type !== 'null');
      const [first = 'string'] = expected;
      if (first === 'integer') return { code: 'NUMBER_TYPE_COERCE', message: `Value "${quoted(error.data)}" is not int.` };
      if (first === 'number') return { code: 'NUMBER_TYPE_COERCE', message: `Value "${quoted(error.data)}" is not a valid number.` };
      if (first === 'boolean') return { code: 'BOOLEAN_TYPE_CONVERT', message: `Value "${quoted(error.data)}" is not bool.` };
      if (first === 'array') return { code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' };
      if (first === 'object') return { code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' };
      return { code: 'STRING_TYPE_CONVERT', message: `Could not interpret "${quoted(error.data)}" as string.` };
    }
    default:
      return { code: 'BASE_TYPE_BAD', message: error.message ?? 'Invalid value.' };
  }
}

/**
 * Discord's field paths ("embeds.0.footer.text") and problems for ajv's errors. Of a union's
 * failed branches, the deepest errors are the ones worth saying; the union's own summary is not.
 */
export function fieldProblems(errors: ErrorObject[], prefix = ''): Record<string, FieldProblem> {
  const useful = errors.filter((error) => !['oneOf', 'anyOf', 'allOf', 'if', 'not', 'additionalProperties'].includes(error.keyword));
  const pathOf = (error: ErrorObject) => {
    const parts = error.instancePath
      .split('/')
      .filter(Boolean)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'required') parts.push(String((error.params as { missingProperty?: string }).missingProperty));
    return [prefix, ...parts].filter(Boolean).join('.') || '_root';
  };
  const depth = (path: string) => path.split('.').length;
  // At one path, a union's branches disagree: the branch whose type matched says the most (an
  // enum or a length), a type error less, and "must be null" (a nullable branch) nothing.
  const rank = (error: ErrorObject) => {
    if (error.keyword !== 'type') return 0;
    const expected = ([] as string[]).concat((error.params as { type: string | string[] }).type);
    return expected.every((type) => type === 'null') ? 2 : 1;
  };
  const sorted = [...(useful.length ? useful : errors)].sort((a, b) => depth(pathOf(b)) - depth(pathOf(a)) || rank(a) - rank(b));
  const problems: Record<string, FieldProblem> = {};
  for (const error of sorted) {
    const path = pathOf(error);
    // A deeper problem already explains its parents (a union branch that matched further down).
    if (Object.keys(problems).some((known) => known.startsWith(`${path}.`))) continue;
    problems[path] ??= problemOf(error);
  }
  return problems;
}

/** A schema taken out of the spec, its local references pointed at the spec. */
function fromSpec(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi#/'));
}

/** Turns query strings into the types their schema expects (a number stays a string if it is not one, so the check names it). */
function coerce(value: string, schema: Record<string, unknown> | undefined): unknown {
  const ref = typeof schema?.$ref === 'string' ? schema.$ref.split('/').at(-1) : undefined;
  const resolved = ref ? (discordSpec.components.schemas[ref] as Record<string, unknown> | undefined) : schema;
  const type = resolved?.type;
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * Checks requests against the spec: the JSON body against the operation's request schema, and
 * path and query parameters against theirs (a malformed snowflake anywhere is 50035). Validators
 * are compiled on first use of each route.
 */
export class RequestValidator {
  private readonly ajv = specAjv();
  private readonly bodies = new Map<string, ValidateFunction | null>();
  private readonly params = new Map<string, ValidateFunction>();

  /**
   * Compiles a route's body validator now rather than on its first request. Some take most of a
   * second (the interaction callback's union of every response type: 0.8 s, 1.5 s on a loaded
   * machine), which on first use would be spent inside the bot's 3 seconds to answer.
   */
  prepare(method: string, pattern: string): void {
    this.bodyValidator(method, pattern);
  }

  /** Problems with the body, or null when it is valid (or the spec has no schema for it). */
  body(method: string, pattern: string, body: unknown): Record<string, FieldProblem> | null {
    const validate = this.bodyValidator(method, pattern);
    if (!validate || body === undefined || validate(body)) return null;
    return fieldProblems(narrowUnions(this.ajv, discordSpec.components.schemas, validate.errors ?? []));
  }

  private bodyValidator(method: string, pattern: string): ValidateFunction | null {
    const key = `${method} ${pattern}`;
    let validate = this.bodies.get(key);
    if (validate === undefined) {
      const schema = operationOf(method, pattern)?.requestBody?.content?.['application/json']?.schema;
      validate = schema
        ? (this.ajv.getSchema(
            `openapi#/${pointer('paths', specPathOf(pattern), method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema')}`,
          ) ?? null)
        : null;
      this.bodies.set(key, validate);
    }
    return validate;
  }

  /** Problems with the path and query parameters, or null when they are valid. */
  parameters(method: string, pattern: string, pathParams: Record<string, string>, query: URLSearchParams): Record<string, FieldProblem> | null {
    const declared = parametersOf(method, pattern);
    if (declared.length === 0) return null;
    const key = `${method} ${pattern}`;
    let validate = this.params.get(key);
    if (!validate) {
      const properties: Record<string, unknown> = {};
      for (const parameter of declared) if (parameter.schema && parameter.in !== 'header') properties[parameter.name] = fromSpec(parameter.schema);
      validate = this.ajv.compile({ type: 'object', properties });
      this.params.set(key, validate);
    }
    const names: Record<string, string> = {};
    for (const [ours, value] of Object.entries(pathParams)) names[specPathOf(`:${ours}`).slice(1, -1)] = value;
    const values: Record<string, unknown> = {};
    for (const parameter of declared) {
      const raw = parameter.in === 'path' ? names[parameter.name] : parameter.in === 'query' ? query.get(parameter.name) : null;
      if (raw === null || raw === undefined) continue;
      // Literal path segments (@me, @original) are not snowflakes to check.
      if (parameter.in === 'path' && raw.startsWith('@')) continue;
      values[parameter.name] = coerce(raw, parameter.schema);
    }
    if (validate(values)) return null;
    return fieldProblems(validate.errors ?? []);
  }
}
