// View Reports: the members' reports, open ones first, with the reporter, the reported member, the
// reason, the reported message (a link and its text as it was) and the time. An open report is
// resolved, optionally with an action on the reported member (its case is linked to the report),
// or dismissed. The other statuses are a filter away.
import { CheckCircle2, ExternalLink, Flag, XCircle } from 'lucide-react';
import { useState } from 'react';
import { type Duration } from '../../../src/shared/moderation';
import { REPORT_STATUSES, type Report, type ResolveReportInput } from '../../../src/shared/reports';
import { fieldErrorsOf } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Field } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { StatusListDialog, type ModerationListDialogProps } from './status-list';
import { Select } from '../../components/ui/select';
import { formatDateTime, formatRelative } from '../../format';
import { dismissReport, moderationKeys, REPORT_PAGE_SIZE, reportsQuery, resolveReport, type ReportFilter } from './api';
import { DurationSelect } from './duration-select';
import { REPORT_STATUS_STYLE, userLabel } from './labels';
import { memberPagePath } from './case-api';
import { Link } from 'react-router-dom';
import { ReasonField } from './reason-field';

const FILTERS: { value: ReportFilter; label: string }[] = [
  ...REPORT_STATUSES.map((status) => ({ value: status, label: REPORT_STATUS_STYLE[status].label })),
  { value: 'all', label: 'All' },
];

/** What resolving can do to the reported member. */
type ResolveAction = NonNullable<ResolveReportInput['action']>['action'];
const NO_ACTION = 'none';
const RESOLVE_OPTIONS = [
  { value: NO_ACTION, label: 'No action' },
  { value: 'warn', label: 'Warn' },
  { value: 'timeout', label: 'Timeout' },
  { value: 'kick', label: 'Kick' },
  { value: 'ban', label: 'Ban' },
];
const asResolveAction = (value: string): ResolveAction | null =>
  value === 'warn' || value === 'timeout' || value === 'kick' || value === 'ban' ? value : null;

/** Resolve's form: an optional action, its reason (the report's by default) and duration. */
function ResolveForm({ guildId, report, onDone }: { guildId: string; report: Report; onDone: () => void }) {
  const [action, setAction] = useState<ResolveAction | null>(null);
  const [reason, setReason] = useState(report.reason);
  const [duration, setDuration] = useState<Duration | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const resolve = useGuildMutation({
    request: (input: ResolveReportInput) => resolveReport(guildId, report.id, input),
    invalidate: [moderationKeys.all(guildId)],
    success: (done) => ({ title: 'Report resolved', description: done.caseNumber ? `Case #${done.caseNumber} was recorded for it.` : 'No action was taken.' }),
    failure: { title: 'Could not resolve the report' },
    onSuccess: onDone,
  });
  const submit = () => {
    if (action && reason.trim() === '') return setErrors({ 'action.reason': 'Say why.' });
    if (action === 'timeout' && !duration) return setErrors({ 'action.duration': 'Pick how long the timeout lasts.' });
    setErrors({});
    const input: ResolveReportInput = action
      ? { action: { action, reason: reason.trim(), ...((action === 'timeout' || action === 'ban') && duration ? { duration } : {}) } }
      : {};
    resolve.mutate(input, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };
  return (
    <div className="stack-sm resolve-form" role="group" aria-label={`Resolve report ${report.id}`}>
      <div className="form-grid">
        <Field label="Action on the member" error={errors['action.action']}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label="Action on the member"
              value={action ?? NO_ACTION}
              onValueChange={(next) => {
                const chosen = asResolveAction(next);
                setAction(chosen);
                if (chosen !== 'timeout' && chosen !== 'ban') setDuration(null);
              }}
              options={RESOLVE_OPTIONS}
            />
          )}
        </Field>
        {action === 'timeout' || action === 'ban' ? (
          <Field label="Duration" error={errors['action.duration']}>
            {(ids) => <DurationSelect id={ids.id} label="Duration" value={duration} onChange={setDuration} permanent={action === 'ban'} />}
          </Field>
        ) : null}
      </div>
      {action ? <ReasonField error={errors['action.reason']} hint="Recorded with the case." value={reason} onChange={setReason} rows={2} /> : null}
      <div className="row">
        <Button variant="success" size="sm" onClick={submit} disabled={resolve.isPending}>
          <CheckCircle2 size={14} aria-hidden="true" /> {resolve.isPending ? 'Resolving…' : action ? 'Resolve and act' : 'Resolve'}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Back
        </Button>
      </div>
    </div>
  );
}

/** One report. */
function ReportItem({ guildId, report, readOnly }: { guildId: string; report: Report; readOnly: boolean }) {
  const [resolving, setResolving] = useState(false);
  const dismiss = useGuildMutation({
    request: () => dismissReport(guildId, report.id),
    invalidate: [moderationKeys.all(guildId)],
    success: { title: 'Report dismissed' },
    failure: { title: 'Could not dismiss the report' },
  });
  const status = REPORT_STATUS_STYLE[report.status];
  const target = userLabel(report.targetId, report.targetName);
  return (
    <li className="history-item" aria-label={`Report on ${target}`}>
      <div className="history-head">
        <Badge tone={status.tone}>{status.label}</Badge>
        <Link className="strong grow case-member-link" to={memberPagePath(guildId, report.targetId)}>
          {target}
        </Link>
        <time className="muted small" dateTime={report.createdAt} title={formatDateTime(report.createdAt)}>
          {formatRelative(report.createdAt)}
        </time>
      </div>
      <p>{report.reason}</p>
      {report.content ? <blockquote className="report-quote">{report.content}</blockquote> : null}
      <p className="muted small">
        Reported by {userLabel(report.reporterId, report.reporterName)}
        {report.messageUrl ? (
          <>
            {' · '}
            <a href={report.messageUrl} target="_blank" rel="noreferrer">
              Jump to message <ExternalLink size={12} aria-hidden="true" />
            </a>
          </>
        ) : null}
        {report.status !== 'open' && report.resolvedAt
          ? ` · ${status.label} ${formatDateTime(report.resolvedAt)}${report.resolvedById ? ` by ${userLabel(report.resolvedById, null, 'Moderator')}` : ''}`
          : ''}
        {report.caseNumber ? ` · Case #${report.caseNumber}` : ''}
      </p>
      {report.status === 'open' && !readOnly ? (
        resolving ? (
          <ResolveForm guildId={guildId} report={report} onDone={() => setResolving(false)} />
        ) : (
          <div className="row">
            <Button variant="success" size="sm" onClick={() => setResolving(true)}>
              <CheckCircle2 size={14} aria-hidden="true" /> Resolve
            </Button>
            <Button variant="outline" size="sm" onClick={() => dismiss.mutate(undefined)} disabled={dismiss.isPending}>
              <XCircle size={14} aria-hidden="true" /> {dismiss.isPending ? 'Dismissing…' : 'Dismiss'}
            </Button>
          </div>
        )
      ) : null}
    </li>
  );
}

/** The reports dialog: one status's reports, paged. */
export function ReportsDialog({ guildId, open, onOpenChange, readOnly }: ModerationListDialogProps) {
  return (
    <StatusListDialog
      title="Reports"
      description="What members reported with /report. Resolve a report, with an action if it needs one, or dismiss it."
      open={open}
      onOpenChange={onOpenChange}
      filters={FILTERS}
      query={(status, page) => reportsQuery(guildId, status, page)}
      pageSize={REPORT_PAGE_SIZE}
      what="reports"
      empty={{ icon: Flag, description: 'Members report a member or a message with /report; the reports show here.' }}
      item={(report) => <ReportItem key={report.id} guildId={guildId} report={report} readOnly={readOnly} />}
    />
  );
}
