import type { z } from 'zod';
import { invalidFormBody } from '../errors';

/** A rule's own Discord problem, carried in a custom issue's `params.discord` (e.g. COMPONENT_CUSTOM_ID_DUPLICATED). */
function ownProblem(issue: z.core.$ZodIssue): { code: string; message: string } | null {
  if (issue.code !== 'custom') return null;
  const discord: unknown = issue.params?.discord;
  if (typeof discord !== 'object' || discord === null) return null;
  const { code, message } = discord as { code?: unknown; message?: unknown };
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}

function discordCode(issue: z.core.$ZodIssue): { code: string; message: string } {
  const own = ownProblem(issue);
  if (own) return own;
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${String(issue.maximum)} or fewer in length.` };
  }
  if (issue.code === 'too_small' && issue.origin === 'string') {
    return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${String(issue.minimum)} or more in length.` };
  }
  if (issue.code === 'too_big' && issue.origin === 'array') {
    return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${String(issue.maximum)} or fewer in length.` };
  }
  if (issue.code === 'too_big' && issue.origin === 'number') {
    return { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${String(issue.maximum)}.` };
  }
  if (issue.code === 'too_small' && issue.origin === 'number') {
    return { code: 'NUMBER_TYPE_MIN', message: `int value should be greater than or equal to ${String(issue.minimum)}.` };
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
  return { code: 'BASE_TYPE_BAD', message: issue.message };
}

/** Parses a Discord REST body with a zod schema; failures become 50035 with Discord's nested `errors`. */
export function parseDiscordBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  // reportInput tells a missing field (input undefined) from one of the wrong type.
  const result = schema.safeParse(body ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const fields: Record<string, { code: string; message: string }> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.') || '_root';
    fields[path] ??= discordCode(issue);
  }
  throw invalidFormBody(fields);
}
