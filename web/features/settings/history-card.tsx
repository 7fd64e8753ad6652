// The History panel: who changed what and when, each field's old and new value, and Restore.
import { useQuery } from '@tanstack/react-query';
import { History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { HistoryEntry, SettingChange } from '../../../src/shared/settings';
import { useGuildMutation } from '../../api/mutations';
import { Badge } from '../../components/ui/badge';
import { Pager } from '../../components/pager';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { Skeleton } from '../../components/ui/skeleton';
import { historyQuery, restoreSettings, settingsKeys } from './api';

const PAGE_SIZE = 10;

/** A value as the diff shows it. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Each changed field with its old value struck through and its new one. */
export function ChangeList({ changes }: { changes: SettingChange[] }) {
  if (changes.length === 0) return <p className="muted small">Nothing changed.</p>;
  return (
    <dl className="diff">
      {changes.map((change) => (
        <div key={change.field} className="diff-row">
          <dt>{change.field}</dt>
          <dd>
            <span className="diff-from">{shown(change.from)}</span> → <span className="diff-to">{shown(change.to)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

const KIND_TONES: Record<HistoryEntry['kind'], 'brand' | 'neutral' | 'warning' | 'success' | 'danger'> = {
  update: 'brand',
  restore: 'success',
  import: 'neutral',
  reset: 'danger',
  grant: 'warning',
  revoke: 'warning',
  economy: 'neutral',
};

/** The guild's settings history, paged, with Restore for editors. */
export function HistoryCard({ guildId, canEdit }: { guildId: string; canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<HistoryEntry | null>(null);
  const history = useQuery(historyQuery(guildId, page, PAGE_SIZE));
  const restore = useGuildMutation({
    request: (entryId: number) => restoreSettings(guildId, entryId),
    invalidate: [settingsKeys.all(guildId)],
    success: { title: 'Settings restored', description: 'The earlier version is back, and the restore is in the history.' },
    failure: { title: 'Restore failed' },
    onSuccess: () => {
      setConfirming(null);
      setPage(1);
    },
  });
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / PAGE_SIZE)) : 1;

  return (
    <Card>
      <CardHeader>
        <CardTitle>History</CardTitle>
        <CardDescription>Every change to this server’s settings and dashboard access.</CardDescription>
      </CardHeader>
      <CardContent>
        {history.isPending ? (
          <div className="stack-sm" role="status" aria-busy="true" aria-label="Loading the history">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} height="3rem" />
            ))}
          </div>
        ) : history.isError ? (
          <p className="field-error">The history could not be loaded.</p>
        ) : history.data.entries.length === 0 ? (
          <EmptyState icon={History} title="No changes yet" description="Saved changes will be listed here." />
        ) : (
          <ol className="history-list" aria-label="Settings history">
            {history.data.entries.map((entry) => (
              <li key={entry.id} className="history-item">
                <div className="history-head">
                  <Badge tone={KIND_TONES[entry.kind]}>{entry.kind}</Badge>
                  <span className="history-summary">{entry.summary}</span>
                  <span className="muted small">
                    {entry.actor.name ?? 'The bot'} · <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
                  </span>
                  {canEdit && entry.restorable ? (
                    <Button variant="ghost" size="sm" onClick={() => setConfirming(entry)} aria-label={`Restore the settings as of change ${entry.id}`}>
                      <RotateCcw size={14} aria-hidden="true" /> Restore
                    </Button>
                  ) : null}
                </div>
                <details>
                  <summary className="muted small">
                    {entry.changes.length} field{entry.changes.length === 1 ? '' : 's'}
                  </summary>
                  <ChangeList changes={entry.changes} />
                </details>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
      {pages > 1 ? (
        <CardContent>
          <Pager page={page} pages={pages} onPage={setPage} label="Pages of the settings history" words={['Newer', 'Older']} />
        </CardContent>
      ) : null}
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <DialogContent title="Restore this version?" description={`The settings go back to how they were right after: ${confirming?.summary ?? ''}.`}>
          <div className="dialog-actions">
            <Button variant="outline" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button onClick={() => confirming && restore.mutate(confirming.id)} disabled={restore.isPending}>
              Restore
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
