// A dialog of a paged list filtered by status (the reports, the appeals): the status buttons ('open'
// first, 'all' last), the list with its skeleton, error and empty state, and the pager. Each gives
// its query, its words and its item.
import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Pager } from '../../components/pager';
import { QueryList } from '../../components/query-list';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';

/** One page of entries, as the list routes answer. */
interface Paged {
  entries: unknown[];
  total: number;
}

/** Props of StatusList. */
export interface StatusListProps<S extends string, P extends Paged, K extends readonly unknown[]> {
  /** The status buttons, the first one shown at first. */
  filters: { value: S; label: string }[];
  /** The query of one status's page. */
  query: (status: S, page: number) => UseQueryOptions<P, Error, P, K>;
  pageSize: number;
  /** What the list holds, plural, lower case ('reports'). */
  what: string;
  /** The empty state's icon and words (whatever the status). */
  empty: { icon: LucideIcon; description: string };
  item: (entry: P['entries'][number]) => ReactNode;
}

/** The empty state's title: 'No open reports', 'No reports yet', 'No dismissed reports'. */
function emptyTitle(status: string, label: string, what: string): string {
  if (status === 'open') return `No open ${what}`;
  if (status === 'all') return `No ${what} yet`;
  return `No ${label.toLowerCase()} ${what}`;
}

/** The entries of one status, paged; changing the status goes back to its first page. */
export function StatusList<S extends string, P extends Paged, K extends readonly unknown[]>({
  filters,
  query,
  pageSize,
  what,
  empty,
  item,
}: StatusListProps<S, P, K>) {
  const [status, setStatus] = useState<S>(filters[0]?.value as S);
  const [page, setPage] = useState(1);
  const list = useQuery(query(status, page));
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / pageSize));
  const title = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
  return (
    <div className="stack">
      <div className="segmented" role="group" aria-label={`${title.replace(/s$/, '')} status`}>
        {filters.map((filter) => (
          <Button
            key={filter.value}
            size="sm"
            variant={filter.value === status ? 'secondary' : 'ghost'}
            aria-pressed={filter.value === status}
            onClick={() => {
              setStatus(filter.value);
              setPage(1);
            }}
          >
            {filter.label}
          </Button>
        ))}
      </div>
      <QueryList
        query={{ isPending: list.isPending, isError: list.isError, error: list.error, data: list.data?.entries }}
        what={`the ${what}`}
        rowHeight="4rem"
        empty={{ ...empty, title: emptyTitle(status, filters.find((filter) => filter.value === status)?.label ?? status, what) }}
      >
        {(entries) => (
          <ul className="history-list" aria-label={title} aria-busy={list.isPlaceholderData}>
            {(entries as P['entries']).map(item)}
          </ul>
        )}
      </QueryList>
      <Pager page={page} pages={pages} onPage={setPage} label={`Pages of ${what}`} loading={list.isPlaceholderData} />
    </div>
  );
}

/** Props of StatusListDialog: the dialog's words, whether it is open, and the list's. */
/** What the moderation page hands a list dialog of its own (reports, appeals). */
export interface ModerationListDialogProps {
  guildId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  readOnly: boolean;
}

export type StatusListDialogProps<S extends string, P extends Paged, K extends readonly unknown[]> = StatusListProps<S, P, K> & {
  title: string;
  description: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** The list in a wide dialog; the list is only asked for while the dialog is open. */
export function StatusListDialog<S extends string, P extends Paged, K extends readonly unknown[]>({
  title,
  description,
  open,
  onOpenChange,
  ...list
}: StatusListDialogProps<S, P, K>) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description={description} className="dialog-wide">
        {open ? <StatusList {...list} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** A quick action opening such a dialog ('View Reports'), with the count of open entries when there are any. */
export function OpenCountButton({ icon: Icon, label, open, onClick }: { icon: LucideIcon; label: string; open: number; onClick: () => void }) {
  return (
    <Button variant="secondary" className="btn-start" onClick={onClick} aria-label={open > 0 ? `${label} (${open} open)` : label}>
      <Icon size={16} aria-hidden="true" /> {label}
      {open > 0 ? (
        <Badge tone="danger" className="push-end" aria-hidden="true">
          {open}
        </Badge>
      ) : null}
    </Button>
  );
}
