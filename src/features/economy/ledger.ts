// The ledger: every change of a balance is a transactions row, written in the same database
// transaction as the change, so a balance always equals the sum of its rows. Debits are
// conditional (the balance never goes below 0), so concurrent spends cannot overdraw.
import { Op, type Transaction as SqlTransaction } from 'sequelize';
import type { Store } from '../../db/store';
import { MAX_BALANCE, type TransactionType } from '../../shared/economy';
import { cols, USER_CURRENCY as WALLETS } from '../../db/tables';

/** One ledger row to write. */
export interface LedgerEntry {
  guildId: string;
  userId: string;
  type: TransactionType;
  /** Signed: > 0 adds, < 0 takes. */
  amount: number;
  description?: string | null;
  itemId?: number | null;
  itemName?: string | null;
  actorId?: string | null;
  counterpartyId?: string | null;
}

/** What a ledger change needs: the store, the transaction, the time. */
export interface LedgerContext {
  store: Store;
  transaction: SqlTransaction;
  now: Date;
}

/** Writes ledger rows (no balance change: for 0-amount records, or after credit/debit). */
export async function writeLedger({ store, transaction, now }: LedgerContext, entries: LedgerEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // One insert per guild (a ledger write is one guild's in practice), each bound to its guild.
  for (const guildId of new Set(entries.map((entry) => entry.guildId))) {
    await store.guild(guildId).Transaction.bulkCreate(
      entries
        .filter((entry) => entry.guildId === guildId)
        .map((entry) => ({
          userId: entry.userId,
          type: entry.type,
          amount: entry.amount,
          description: entry.description ?? null,
          itemId: entry.itemId ?? null,
          itemName: entry.itemName ?? null,
          actorId: entry.actorId ?? null,
          counterpartyId: entry.counterpartyId ?? null,
          createdAt: now,
        })),
      { transaction },
    );
  }
}

/** Makes the member's wallet (empty) when they have none; one statement, safe when two make it at once. */
export async function ensureWallet({ store, transaction, now }: LedgerContext, guildId: string, userId: string, username: string | null): Promise<void> {
  await store.sequelize.query(
    `INSERT INTO ${WALLETS.name} (${cols(WALLETS, 'guildId', 'userId', 'username', 'balance', 'totalEarned', 'updatedAt')}) VALUES (?, ?, ?, 0, 0, ?)
     ON CONFLICT (${cols(WALLETS, 'guildId', 'userId')}) DO NOTHING`,
    { replacements: [guildId, userId, username?.slice(0, 100) ?? null, now], transaction },
  );
}

/**
 * Adds `entry.amount` (> 0) to a wallet, made when missing, and writes the row. Earnings also
 * count towards the total earned. Returns false (and changes nothing) when the balance would pass
 * the most a wallet holds.
 */
export async function credit(context: LedgerContext, entry: LedgerEntry, username: string | null): Promise<boolean> {
  const { store, transaction, now } = context;
  if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0) throw new RangeError('a credit is a positive whole number');
  const earned = entry.type === 'earn' ? entry.amount : 0;
  await ensureWallet(context, entry.guildId, entry.userId, username);
  const changed = await store.guild(entry.guildId).UserCurrency.update(
    {
      balance: store.sequelize.literal(`"balance" + ${entry.amount}`) as unknown as number,
      totalEarned: store.sequelize.literal(`"totalEarned" + ${earned}`) as unknown as number,
      ...(username ? { username: username.slice(0, 100) } : {}),
      updatedAt: now,
    },
    { where: { userId: entry.userId, balance: { [Op.lte]: MAX_BALANCE - entry.amount } }, transaction },
  );
  if (changed === 0) return false;
  await writeLedger(context, [entry]);
  return true;
}

/**
 * Takes `-entry.amount` (entry.amount < 0) from a wallet only if it holds that much, and writes
 * the row. Returns false (and changes nothing) when it does not.
 */
export async function debit(context: LedgerContext, entry: LedgerEntry): Promise<boolean> {
  const { store, transaction, now } = context;
  const amount = -entry.amount;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('a debit is a negative whole number');
  const changed = await store
    .guild(entry.guildId)
    .UserCurrency.update(
      { balance: store.sequelize.literal(`"balance" - ${amount}`) as unknown as number, updatedAt: now },
      { where: { userId: entry.userId, balance: { [Op.gte]: amount } }, transaction },
    );
  if (changed === 0) return false;
  await writeLedger(context, [entry]);
  return true;
}

/** A member's balance now (0 without a wallet), read in the transaction. */
export async function balanceOf(context: Pick<LedgerContext, 'store' | 'transaction'>, guildId: string, userId: string): Promise<number> {
  const wallet = await context.store.guild(guildId).UserCurrency.findOne({ where: { userId }, attributes: ['balance'], transaction: context.transaction });
  return wallet?.balance ?? 0;
}
