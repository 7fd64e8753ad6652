// What a save sends: only the fields the person changed (a page's copy of anything a colleague may
// be editing too), so what others changed meanwhile is not sent back as it was.

/** The fields of `next` whose values differ from `before`'s. */
export function changedOnly<T extends object>(next: T, before: T): Partial<T> {
  const previous = before as Record<string, unknown>;
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(previous[key]))) as Partial<T>;
}
