/**
 * The dashboard's guild reads are kept in services.readCache, under keys that start with the guild
 * (so a write in the guild forgets them all) and then their class: `chat` for answers that follow
 * members' chat (XP, coins, the ledger), which each XP flush marks stale; `http` for the others.
 */
export type ReadCacheClass = 'chat';

/** Where a guild's cached answers of one class start: `${guildId}:chat:` or `${guildId}:http:`. */
export function readCacheKey(guildId: string, cache?: false | ReadCacheClass): string {
  return `${guildId}:${cache === 'chat' ? 'chat' : 'http'}:`;
}
