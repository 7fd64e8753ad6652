import type { ZodError } from 'zod';

/**
 * Field path -> first message, e.g. `{ "price": "must be a whole number" }`. `prefix` names the
 * parent ("file.version"). An unknown field of a strict object is named itself: "is not a known field".
 */
export function zodFieldErrors(error: ZodError, prefix?: string): Record<string, string> {
  // A Map, not an object: a field named `__proto__` or `constructor` must be named too.
  const fields = new Map<string, string>();
  const name = (field: string, message: string) => {
    if (!fields.has(field)) fields.set(field, message);
  };
  for (const issue of error.issues) {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) name([...path, key].join('.'), 'is not a known field');
      continue;
    }
    name(path.length ? path.join('.') : 'body', issue.message);
  }
  return Object.fromEntries(fields);
}
