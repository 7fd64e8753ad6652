/**
 * Sets `key` in a Map used as a bounded cache: the key becomes the newest entry, and the oldest
 * entries (a Map iterates in insertion order) go while the map holds `max` or more.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  for (const oldest of map.keys()) {
    if (map.size < max) break;
    map.delete(oldest);
  }
  map.set(key, value);
}
