// Appeals: banned members' appeals of their bans (from the appeal page their ban's DM links to),
// open ones first, with the member, the ban case (its reason and date) and the appeal's text.
// Accepting lifts the ban (an unban case naming the appeal); denying needs a reason. Either way
// the member is told by DM where Discord lets the bot reach them, and the item says whether it did.
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Scale, XCircle } from 'lucide-react';
import { useState } from 'react';
import { APPEAL_STATUSES, type Appeal, type AppealStatus } from '../../../src/shared/appeals';
import { ApiRequestError } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { OpenCountButton, StatusListDialog, type ModerationListDialogProps } from './status-list';
import { formatDateTime, formatRelative } from '../../format';
import { acceptAppeal, APPEAL_PAGE_SIZE, appealsQuery, denyAppeal, type AppealFilter } from '../appeals/api';
import { moderationKeys } from './api';
import { userLabel } from './labels';
import { ReasonField } from './reason-field';

/** An appeal's status badge. */
export const APPEAL_STATUS_STYLE: Record<AppealStatus, { label: string; tone: BadgeTone }> = {
  open: { label: 'Open', tone: 'warning' },
  accepted: { label: 'Accepted', tone: 'success' },
  denied: { label: 'Denied', tone: 'neutral' },
};

const FILTERS: { value: AppealFilter; label: string }[] = [
  ...APPEAL_STATUSES.map((status) => ({ value: status, label: APPEAL_STATUS_STYLE[status].label })),
  { value: 'all', label: 'All' },
];

/** The decision's form: accept (reason optional) or deny (reason required, the member reads it). */
function DecisionForm({ guildId, appeal, decision, onDone }: { guildId: string; appeal: Appeal; decision: 'accept' | 'deny'; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const member = userLabel(appeal.userId, appeal.userName);
  const decide = useGuildMutation({
    request: (text: string) =>
      decision === 'accept' ? acceptAppeal(guildId, appeal.id, text ? { reason: text } : {}) : denyAppeal(guildId, appeal.id, { reason: text }),
    invalidate: [moderationKeys.all(guildId)],
    success: (done) => ({
      title: decision === 'accept' ? 'Appeal accepted' : 'Appeal denied',
      description: `${decision === 'accept' ? `${member} was unbanned (case #${done.unbanCaseNumber}).` : 'The ban stays.'} ${
        done.dmDelivered ? 'They were told by DM.' : 'They could not be told by DM; their appeal page shows the decision.'
      }`,
    }),
    failure: { title: decision === 'accept' ? 'Could not accept the appeal' : 'Could not deny the appeal' },
    onSuccess: onDone,
  });
  const submit = () => {
    const text = reason.trim();
    if (decision === 'deny' && !text) return setError('Say why: the member is told.');
    setError(undefined);
    decide.mutate(text, { onError: (failed) => setError(failed instanceof ApiRequestError ? failed.body?.fields?.reason : undefined) });
  };
  return (
    <div className="stack-sm resolve-form" role="group" aria-label={`${decision === 'accept' ? 'Accept' : 'Deny'} appeal ${appeal.id}`}>
      <ReasonField
        label={decision === 'accept' ? 'Reason (optional)' : 'Reason'}
        error={error}
        hint={decision === 'accept' ? 'Recorded on the unban case and sent to the member.' : 'Sent to the member and kept with the appeal.'}
        value={reason}
        onChange={setReason}
        rows={2}
      />
      <div className="row">
        <Button variant={decision === 'accept' ? 'success' : 'danger'} size="sm" onClick={submit} disabled={decide.isPending}>
          {decision === 'accept' ? <CheckCircle2 size={14} aria-hidden="true" /> : <XCircle size={14} aria-hidden="true" />}{' '}
          {decide.isPending ? 'Saving…' : decision === 'accept' ? 'Accept and unban' : 'Deny appeal'}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Back
        </Button>
      </div>
    </div>
  );
}

/** What became of a decided appeal, in one line. */
function decisionLine(appeal: Appeal): string {
  const who = appeal.decidedById ? ` by ${userLabel(appeal.decidedById, appeal.decidedByName, 'Moderator')}` : '';
  const when = appeal.decidedAt ? ` ${formatDateTime(appeal.decidedAt)}` : '';
  const unban = appeal.unbanCaseNumber ? ` · Unban case #${appeal.unbanCaseNumber}` : '';
  const dm = appeal.dmDelivered === null ? '' : appeal.dmDelivered ? ' · Told by DM' : ' · Could not be told by DM';
  return `${APPEAL_STATUS_STYLE[appeal.status].label}${when}${who}${unban}${dm}`;
}

/** One appeal. */
function AppealItem({ guildId, appeal, readOnly }: { guildId: string; appeal: Appeal; readOnly: boolean }) {
  const [deciding, setDeciding] = useState<'accept' | 'deny' | null>(null);
  const status = APPEAL_STATUS_STYLE[appeal.status];
  const member = userLabel(appeal.userId, appeal.userName);
  return (
    <li className="history-item" aria-label={`Appeal by ${member}`}>
      <div className="history-head">
        <Badge tone={status.tone}>{status.label}</Badge>
        <span className="strong grow">{member}</span>
        <time className="muted small" dateTime={appeal.createdAt} title={formatDateTime(appeal.createdAt)}>
          {formatRelative(appeal.createdAt)}
        </time>
      </div>
      <p className="muted small">
        Appeals ban case #{appeal.caseNumber}
        {appeal.bannedAt ? ` of ${formatDateTime(appeal.bannedAt)}` : ''} · Ban reason: {appeal.caseReason ?? 'none given'}
      </p>
      <blockquote className="report-quote">{appeal.text}</blockquote>
      {appeal.status !== 'open' ? (
        <p className="muted small">
          {decisionLine(appeal)}
          {appeal.decisionReason ? ` · Reason: ${appeal.decisionReason}` : ''}
        </p>
      ) : null}
      {appeal.status === 'open' && !appeal.banInForce ? (
        <p className="notice notice-info" role="status">
          This ban was lifted meanwhile, so there is nothing to accept. Deny the appeal to close it with a reason.
        </p>
      ) : null}
      {appeal.status === 'open' && !readOnly ? (
        deciding ? (
          <DecisionForm guildId={guildId} appeal={appeal} decision={deciding} onDone={() => setDeciding(null)} />
        ) : (
          <div className="row">
            {appeal.banInForce ? (
              <Button variant="success" size="sm" onClick={() => setDeciding('accept')}>
                <CheckCircle2 size={14} aria-hidden="true" /> Accept
              </Button>
            ) : null}
            <Button variant="outline" size="sm" onClick={() => setDeciding('deny')}>
              <XCircle size={14} aria-hidden="true" /> Deny
            </Button>
          </div>
        )
      ) : null}
    </li>
  );
}

/** The appeals dialog: one status's appeals, paged. */
export function AppealsDialog({ guildId, open, onOpenChange, readOnly }: ModerationListDialogProps) {
  return (
    <StatusListDialog
      title="Appeals"
      description="Banned members’ appeals of their bans. Accepting lifts the ban; denying keeps it and tells the member why."
      open={open}
      onOpenChange={onOpenChange}
      filters={FILTERS}
      query={(status, page) => appealsQuery(guildId, status, page)}
      pageSize={APPEAL_PAGE_SIZE}
      what="appeals"
      empty={{ icon: Scale, description: 'A banned member appeals from the link in their ban’s DM; the appeals show here.' }}
      item={(appeal) => <AppealItem key={appeal.id} guildId={guildId} appeal={appeal} readOnly={readOnly} />}
    />
  );
}

/** View Appeals, with the count of open ones: the quick actions' button. */
export function AppealsButton({ guildId, onOpen }: { guildId: string; onOpen: () => void }) {
  const open = useQuery(appealsQuery(guildId, 'open', 1)).data?.total ?? 0;
  return <OpenCountButton icon={Scale} label="View Appeals" open={open} onClick={onOpen} />;
}
