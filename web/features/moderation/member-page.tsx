// A member's moderation page (/server/{serverId}/moderation/members/{userId}): who they are, their
// active warnings and what the warning ladder does at their next one, every case about them
// newest first (pardoned warnings marked, edits listed), and their notes. On a case: edit its
// reason, change a ban's or timeout's duration while it is in force, pardon a warning.
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, NotebookPen, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { atLeast } from '../../../src/shared/access';
import { DURATION_LABELS, lastFour, type ModerationCase } from '../../../src/shared/moderation';
import { caseDurationLabel, type MemberRecord } from '../../../src/shared/moderation-cases';
import { hasStatus, isRetryable } from '../../api/client';
import { settingsQuery } from '../../api/guild';
import { useServerName } from '../../api/queries';
import { ErrorCard } from '../../components/error-card';
import { PageHeader } from '../../components/page-header';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Skeleton } from '../../components/ui/skeleton';
import { formatDateTime, formatRelative } from '../../format';
import { memberRecordQuery } from './case-api';
import { CaseDialogs, type CaseDialogState } from './case-dialogs';
import { ACTION_STYLE, SOURCE_LABELS } from './labels';

/** Whether a ban or timeout still runs, so its duration can change. */
function inForce(entry: ModerationCase, now: number): boolean {
  if (entry.action !== 'ban' && entry.action !== 'timeout') return false;
  if (entry.liftedAt) return false;
  if (!entry.expiresAt) return entry.action === 'ban';
  return Date.parse(entry.expiresAt) > now;
}

/** The case's length and end in words. */
function endWords(entry: ModerationCase, now: number): string | null {
  if (entry.action !== 'ban' && entry.action !== 'timeout') return null;
  const length = entry.duration ? DURATION_LABELS[entry.duration] : entry.action === 'ban' ? 'Permanent' : null;
  const end = entry.liftedAt
    ? `lifted ${formatDateTime(entry.liftedAt)}`
    : entry.expiresAt
      ? `${Date.parse(entry.expiresAt) > now ? 'ends' : 'ended'} ${formatDateTime(entry.expiresAt)}`
      : null;
  return [length, end].filter(Boolean).join(', ');
}

/** One case on the page, with its actions. */
function CaseRow({ entry, now, readOnly, onOpen }: { entry: ModerationCase; now: number; readOnly: boolean; onOpen: (state: CaseDialogState) => void }) {
  const style = ACTION_STYLE[entry.action];
  const ends = endWords(entry, now);
  return (
    <li className="history-item case-item" aria-label={`Case #${entry.caseNumber}`}>
      <div className="history-head">
        <Badge tone={style.tone}>{style.label}</Badge>
        <span className="strong mono case-number">#{entry.caseNumber}</span>
        {entry.pardonedAt ? <Badge tone="success">Pardoned</Badge> : null}
        {entry.pardonOf !== null ? <span className="muted small">of warning #{entry.pardonOf}</span> : null}
        <time className="muted small case-time" dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
          {formatRelative(entry.createdAt)}
        </time>
      </div>
      <p className="case-reason">{entry.reason ?? <span className="muted">No reason given</span>}</p>
      <p className="muted small">
        By {entry.moderatorName ?? `Moderator #${lastFour(entry.moderatorId)}`} · via {SOURCE_LABELS[entry.source]}
        {ends ? ` · ${ends}` : ''}
        {entry.pardonedAt ? ` · pardoned ${formatDateTime(entry.pardonedAt)} (case #${entry.pardonCaseNumber ?? '?'})` : ''}
      </p>
      {entry.edits.length > 0 ? (
        <details className="small">
          <summary>
            Edited {entry.edits.length} {entry.edits.length === 1 ? 'time' : 'times'}
          </summary>
          <ul className="stack-sm">
            {entry.edits.map((edit) => (
              <li key={`${edit.at}${edit.field}`} className="muted">
                {formatDateTime(edit.at)} · {edit.byName ?? edit.byId} changed the {edit.field}:{' '}
                {edit.field === 'reason'
                  ? `“${edit.from ?? 'none'}” → “${edit.to ?? 'none'}”`
                  : `${caseDurationLabel(edit.from)} → ${caseDurationLabel(edit.to)}`}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {readOnly ? null : (
        <div className="case-actions">
          <Button size="sm" variant="outline" onClick={() => onOpen({ kind: 'reason', entry })}>
            Edit reason
          </Button>
          {inForce(entry, now) ? (
            <Button size="sm" variant="outline" onClick={() => onOpen({ kind: 'duration', entry })}>
              Change duration
            </Button>
          ) : null}
          {entry.action === 'warn' && !entry.pardonedAt ? (
            <Button size="sm" variant="secondary" onClick={() => onOpen({ kind: 'pardon', entry })}>
              Pardon
            </Button>
          ) : null}
        </div>
      )}
    </li>
  );
}

/** Who they are, their active warnings and the ladder's next step. */
function Summary({ record }: { record: MemberRecord }) {
  return (
    <Card>
      <CardContent className="member-summary">
        <span className="avatar avatar-lg" aria-hidden="true">
          {record.avatarUrl ? <img src={record.avatarUrl} alt="" width={64} height={64} /> : (record.name ?? lastFour(record.userId)).slice(0, 2).toUpperCase()}
        </span>
        <div className="stack-sm">
          <p className="strong">{record.name ?? `User #${lastFour(record.userId)}`}</p>
          <p className="muted small mono">{record.userId}</p>
          <p className="muted small">{record.inServer ? 'In the server' : 'Not in the server'}</p>
        </div>
        <div className="stack-sm push-end">
          <p>
            <span className="strong">{record.activeWarnings}</span> active {record.activeWarnings === 1 ? 'warning' : 'warnings'}
          </p>
          <p className="notice notice-info" role="status" aria-label="Warning ladder">
            {record.ladder.text}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

/** The page's cards once the record has loaded. */
function RecordBody({ guildId, record, now, readOnly }: { guildId: string; record: MemberRecord; now: number; readOnly: boolean }) {
  const [dialog, setDialog] = useState<CaseDialogState>(null);
  const notes = record.cases.filter((entry) => entry.action === 'note');
  return (
    <div className="stack">
      <Summary record={record} />
      <Card>
        <CardHeader>
          <CardTitle>Cases</CardTitle>
          <CardDescription>
            Every case about them, newest first
            {record.totalCases > record.cases.length ? ` (the latest ${record.cases.length} of ${record.totalCases})` : ''}. A pardoned warning no longer counts
            toward the ladder.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {record.cases.length === 0 ? (
            <EmptyState icon={ShieldCheck} title="No cases" description="Nobody has warned, timed out, kicked or banned them, or written a note." />
          ) : (
            <ul className="history-list" aria-label="Cases">
              {record.cases.map((entry) => (
                <CaseRow key={entry.id} entry={entry} now={now} readOnly={readOnly} onOpen={setDialog} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Notes</CardTitle>
          <CardDescription>Notes moderators wrote about them (with /note or the action dialog); the member is not told.</CardDescription>
        </CardHeader>
        <CardContent>
          {notes.length === 0 ? (
            <EmptyState icon={NotebookPen} title="No notes" description="Use /note in Discord, or Add Note on the Moderation page." />
          ) : (
            <ul className="history-list" aria-label="Notes">
              {notes.map((note) => (
                <li key={note.id} className="history-item">
                  <p>{note.reason}</p>
                  <p className="muted small">
                    {note.moderatorName ?? `Moderator #${lastFour(note.moderatorId)}`} · {formatDateTime(note.createdAt)} · case #{note.caseNumber}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <CaseDialogs guildId={guildId} state={dialog} onClose={() => setDialog(null)} />
    </div>
  );
}

/** Skeletons shaped like the page while it loads. */
function RecordSkeleton() {
  return (
    <div className="stack" role="status" aria-busy="true" aria-label="Loading the member’s record">
      <Skeleton height="6rem" />
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} height="4.5rem" />
      ))}
    </div>
  );
}

/** The member page. */
export default function MemberPage() {
  const { serverId = '', userId = '' } = useParams();
  const serverName = useServerName(serverId);
  const record = useQuery(memberRecordQuery(serverId, userId));
  const settings = useQuery(settingsQuery(serverId));
  const readOnly = settings.data ? !atLeast(settings.data.access, 'edit') : true;
  const name = record.data ? (record.data.name ?? `User #${lastFour(record.data.userId)}`) : 'Member';
  return (
    <>
      <PageHeader
        title={name}
        documentTitle={`${name} · Moderation`}
        serverName={serverName}
        description="Their cases, notes and warnings, and what the warning ladder does next."
        actions={
          <Link className={buttonClass('outline')} to={`/server/${serverId}/moderation`}>
            <ArrowLeft size={16} aria-hidden="true" /> Moderation
          </Link>
        }
      />
      {record.isPending ? (
        <RecordSkeleton />
      ) : record.isError ? (
        <ErrorCard
          title={hasStatus(record.error, 403) ? 'Access Denied' : 'Could not load the member’s record'}
          error={record.error}
          actions={
            isRetryable(record.error) ? (
              <Button variant="outline" onClick={() => void record.refetch()}>
                Try again
              </Button>
            ) : null
          }
        />
      ) : (
        // "Now" is when the record was read: a case in force then offers its duration.
        <RecordBody guildId={serverId} record={record.data} now={record.dataUpdatedAt} readOnly={readOnly} />
      )}
    </>
  );
}
