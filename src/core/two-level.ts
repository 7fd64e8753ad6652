/**
 * Entries by two keys (a guild, then a member; a day, then a guild), for maps touched on every
 * gateway event: looked up by the id strings discord.js already holds (their hashes cached), where
 * a `${guildId}:${userId}` key would be a new string to build and hash per event.
 */
export type TwoLevel<T> = Map<string, Map<string, T>>;

/** The inner map under `outer`, made when missing. */
function innerOf<T>(map: TwoLevel<T>, outer: string): Map<string, T> {
  let entries = map.get(outer);
  if (!entries) map.set(outer, (entries = new Map()));
  return entries;
}

/** The entry under `outer` and `inner`, made by `make` when missing. */
export function entryOf<T>(map: TwoLevel<T>, outer: string, inner: string, make: () => T): T {
  const entries = innerOf(map, outer);
  let entry = entries.get(inner);
  if (entry === undefined) entries.set(inner, (entry = make()));
  return entry;
}

/** Sets the entry under `outer` and `inner`. */
export function setEntry<T>(map: TwoLevel<T>, outer: string, inner: string, entry: T): void {
  innerOf(map, outer).set(inner, entry);
}

/** Every entry, outer key by outer key. */
export function* entriesOf<T>(map: TwoLevel<T>): Generator<[outer: string, inner: string, entry: T]> {
  for (const [outer, entries] of map) for (const [inner, entry] of entries) yield [outer, inner, entry];
}
