import type { ZodError } from 'zod';

/**
 * Field path -> first message, e.g. `{ "price": "must be a whole number" }`. `prefix` names the
 * parent ("file.version"). An unknown field of a strict object is named itself: "is not a known field".
 */
export function zodFieldErrors(error: ZodError, prefix?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[[...path, key].join('.')] ??= 'is not a known field';
      continue;
    }
    fields[path.length ? path.join('.') : 'body'] ??= issue.message;
  }
  return fields;
}
