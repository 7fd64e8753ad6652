// The queries across guilds that must exist, each named. Everywhere else a feature reads and writes
// one guild's rows through Store.guild(guildId), bound to that guild; these are the exceptions, and
// test/architecture.test.ts refuses a feature's use of the models across guilds except through here.
import type { Models, Store } from './store';

/** The named cross-guild queries, and why each must see every guild. */
export const CROSS_GUILD_QUERIES = {
  'due announcements': 'the scheduler sends what is due in every guild, claiming each row by id before it sends',
  'expired temporary bans': 'the temporary-ban task lifts what expired in every guild, claiming each row by id',
  'due timeout renewals': 'the long-timeout task renews what is due in every guild, claiming each row by id',
  'active raids': 'raid mode falls back after its quiet period in every guild, each end claimed by a conditional update',
  'due role grants': 'the retrier retries what is due in every guild, and prunes what settled long ago',
  'reaction-role index': 'at start, which messages of every guild have active reaction roles',
  'expired level backups': 'level backups past their 7 days are pruned in every guild, on the product clock',
  "a person's servers": "the dashboard's overview counts over the servers the signed-in person manages",
} as const;
export type CrossGuildQuery = keyof typeof CROSS_GUILD_QUERIES;

/** The store's models across guilds, for one of the named queries. */
export function acrossGuilds(store: Store, query: CrossGuildQuery): Models {
  void query;
  return store.models;
}
