// The ledger as a table (spec: User, Type, Amount, Description, Time), shared by the Economy page's
// Recent Transactions and the Transactions page.
import type { TransactionType, TransactionView } from '../../../src/shared/economy';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { formatNumber } from '../../components/stat-card';
import { formatDateTime } from '../../format';

/** How each kind of row reads. */
export const TRANSACTION_LABELS: Record<TransactionType, { label: string; tone: BadgeTone }> = {
  earn: { label: 'Earned', tone: 'success' },
  purchase: { label: 'Purchase', tone: 'brand' },
  give: { label: 'Transfer', tone: 'neutral' },
  admin: { label: 'Admin', tone: 'warning' },
  reset: { label: 'Reset', tone: 'danger' },
  refund: { label: 'Refund', tone: 'success' },
  remove: { label: 'Removed item', tone: 'neutral' },
};

/** A signed amount with the currency: "+50 coins", "−20 coins". */
export function signedAmount(amount: number, currency: string): string {
  const sign = amount > 0 ? '+' : amount < 0 ? '−' : '';
  return `${sign}${formatNumber(Math.abs(amount))} ${currency}`;
}

/** The rows of the ledger. */
export function TransactionTable({ entries, currency, caption }: { entries: readonly TransactionView[]; currency: string; caption: string }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Type</th>
            <th scope="col">Amount</th>
            <th scope="col">Description</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{entry.username ?? entry.userId}</td>
              <td>
                <Badge tone={TRANSACTION_LABELS[entry.type].tone}>{TRANSACTION_LABELS[entry.type].label}</Badge>
              </td>
              <td className={entry.amount < 0 ? 'error-text' : entry.amount > 0 ? 'success-text' : undefined}>{signedAmount(entry.amount, currency)}</td>
              <td>{entry.description ?? entry.itemName ?? ''}</td>
              <td>
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
