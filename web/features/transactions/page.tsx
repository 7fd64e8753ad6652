// Transactions (/server/{serverId}/transactions, opened from the economy page's 'View All
// Transactions'): the whole ledger, filtered by member, type and date, paged, and as a CSV of the
// same filter.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Download, Wallet } from 'lucide-react';
import { useState } from 'react';
import { ECONOMY_MESSAGES, TRANSACTION_TYPES, type TransactionFilter, type TransactionType } from '../../../src/shared/economy';
import { downloadFile, errorMessage } from '../../api/client';
import { guildApi } from '../../api/guild';
import { Pager } from '../../components/pager';
import { QueryList } from '../../components/query-list';
import { SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { formatNumber } from '../../components/stat-card';
import { Field, MemberPicker } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { toast } from '../../state/toasts';
import { transactionSearch, transactionsQuery } from '../economy/api';
import { TRANSACTION_LABELS, TransactionTable } from '../economy/transaction-table';

const PAGE_SIZE = 50;
const ALL_TYPES = 'all';

/** A yyyy-mm-dd from a date input as the start (or the end) of that day in the viewer's time zone. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (end) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

function TransactionsBody({ guildId, view }: SettingsBodyProps) {
  const [userId, setUserId] = useState<string | null>(null);
  const [type, setType] = useState<string>(ALL_TYPES);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const filter: Partial<TransactionFilter> = {
    ...(userId ? { userId } : {}),
    ...(type === ALL_TYPES ? {} : { type: type as TransactionType }),
    ...(dayBound(from, false) ? { from: dayBound(from, false) } : {}),
    ...(dayBound(to, true) ? { to: dayBound(to, true) } : {}),
  };
  const ledger = useQuery({ ...transactionsQuery(guildId, { ...filter, page, pageSize: PAGE_SIZE }), placeholderData: keepPreviousData });
  const pages = ledger.data ? Math.max(1, Math.ceil(ledger.data.total / PAGE_SIZE)) : 1;
  const refilter = (apply: () => void) => {
    apply();
    setPage(1);
  };
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(`${guildApi(guildId)}/transactions/export${transactionSearch(filter)}`, 'transactions.csv');
      toast({ title: 'Data Exported', description: 'The transactions have been downloaded as CSV' });
    } catch (error) {
      toast({ title: 'Export Failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="stack">
      <Card>
        <CardHeader>
          <CardTitle>Filters</CardTitle>
          <CardDescription>Narrow the ledger; the CSV holds exactly what the filter shows, every page of it.</CardDescription>
        </CardHeader>
        <CardContent className="stack">
          <div className="grid grid-stats">
            <Field label="Member">
              {(ids) => (
                <MemberPicker {...ids} guildId={guildId} value={userId} onChange={(next) => refilter(() => setUserId(next))} placeholder="Every member" />
              )}
            </Field>
            <Field label="Type">
              {(ids) => (
                <Select
                  id={ids.id}
                  aria-label="Type"
                  value={type}
                  onValueChange={(next) => refilter(() => setType(next))}
                  options={[{ value: ALL_TYPES, label: 'All types' }, ...TRANSACTION_TYPES.map((value) => ({ value, label: TRANSACTION_LABELS[value].label }))]}
                />
              )}
            </Field>
            <Field label="From">
              {(ids) => <Input {...ids} type="date" value={from} max={to || undefined} onChange={(event) => refilter(() => setFrom(event.target.value))} />}
            </Field>
            <Field label="To">
              {(ids) => <Input {...ids} type="date" value={to} min={from || undefined} onChange={(event) => refilter(() => setTo(event.target.value))} />}
            </Field>
          </div>
          <div className="row">
            <Button
              variant="outline"
              onClick={() =>
                refilter(() => {
                  setUserId(null);
                  setType(ALL_TYPES);
                  setFrom('');
                  setTo('');
                })
              }
            >
              Clear filters
            </Button>
            <Button variant="secondary" onClick={() => void download()} disabled={downloading}>
              <Download size={16} aria-hidden="true" /> {downloading ? 'Downloading…' : 'Download CSV'}
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Ledger</CardTitle>
          <CardDescription>{ledger.data ? `${formatNumber(ledger.data.total)} transactions` : 'Loading…'}</CardDescription>
        </CardHeader>
        <CardContent className="stack">
          <QueryList
            query={{ ...ledger, data: ledger.data?.entries }}
            what="the transactions"
            empty={{
              icon: Wallet,
              title: ECONOMY_MESSAGES.noTransactions,
              description:
                Object.keys(filter).length > 0 ? 'Nothing matches these filters.' : 'Members earn coins by chatting; purchases and gifts show here too.',
            }}
          >
            {(entries) => <TransactionTable entries={entries} currency={view.currencyName} caption="Transactions" />}
          </QueryList>
          <Pager page={page} pages={pages} onPage={setPage} label="Pages of transactions" loading={ledger.isPlaceholderData} />
        </CardContent>
      </Card>
    </div>
  );
}

/** The Transactions page. */
export default function TransactionsPage() {
  return (
    <SettingsShell title="Transactions" description="Every purchase, reward and transfer of this server's currency.">
      {(props) => <TransactionsBody {...props} />}
    </SettingsShell>
  );
}
