import type { Account } from '../db/models/account';

/** Who made a change: a Discord user (with the name shown in the history), or the bot itself (null id). */
export interface Actor {
  userId: string | null;
  name: string;
}

/** The signed-in account as histories and logs name it. */
export function actorOf(account: Account): Actor {
  return { userId: account.userId, name: account.username };
}
