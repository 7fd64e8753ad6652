import type { Context, Middleware } from 'koa';
import * as z from 'zod';
import type { ZodType } from 'zod';
import { zodFieldErrors } from '../../shared/zod-fields';
import { labelsOf } from '../../shared/field-words';
import { InvalidInput } from '../../core/errors';

/**
 * What a route takes in a part it declares no schema for: nothing (an empty JSON object at most).
 * A field it does not know is refused by name, never ignored: `POST /economy/reset {"dryRun":true}`
 * must not reset the economy.
 */
export const UNDECLARED_INPUT = z.object({}, { error: 'must be empty' }).strict();

/** Parses `input` with `schema` or throws a 400 naming each bad field. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  // The input in each issue tells a missing field ("is required") from a wrong one; it is never sent back.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new InvalidInput(zodFieldErrors(result.error, { labels: labelsOf(schema) }));
}

/** Parses a body or query with its schema; one the route declares no schema for must be empty, and reads as undefined. */
function parsePart<S extends ZodType>(schema: S | undefined, input: unknown): z.output<S> | undefined {
  if (schema) return parseInput(schema, input);
  parseInput(UNDECLARED_INPUT, input);
  return undefined;
}

/** What `validate` parsed, stored on ctx.state.input. */
export interface ParsedInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

/**
 * Validates the body, query and path parameters with zod schemas from src/shared before the
 * handler runs; the handler reads `ctx.state.input`. A bad input answers 400 and changes nothing.
 * A body or query the route declares no schema for must be empty (UNDECLARED_INPUT).
 */
export function validate<B extends ZodType = ZodType<undefined>, Q extends ZodType = ZodType<undefined>, P extends ZodType = ZodType<undefined>>(schemas: {
  body?: B;
  query?: Q;
  params?: P;
}): Middleware {
  return async (ctx: Context, next) => {
    ctx.state.input = {
      body: parsePart(schemas.body, ctx.request.body ?? {}),
      query: parsePart(schemas.query, ctx.query),
      params: schemas.params ? parseInput(schemas.params, (ctx as Context & { params?: unknown }).params ?? {}) : undefined,
    };
    await next();
  };
}

/** Reads what `validate` parsed, typed by the same schemas. */
export function inputOf<B extends ZodType = ZodType<undefined>, Q extends ZodType = ZodType<undefined>, P extends ZodType = ZodType<undefined>>(
  ctx: Context,
  _schemas: { body?: B; query?: Q; params?: P },
): ParsedInput<z.output<B>, z.output<Q>, z.output<P>> {
  return ctx.state.input as ParsedInput<z.output<B>, z.output<Q>, z.output<P>>;
}
