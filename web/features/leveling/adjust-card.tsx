// XP adjustments (issue 25, point 1): an admin gives or takes XP with a reason (never below 0; the
// level and its reward roles follow), and the history says who, when, how much and why.
import { useQuery } from '@tanstack/react-query';
import { ScrollText, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { MAX_ADJUSTMENT, MAX_ADJUSTMENT_REASON } from '../../../src/shared/level-admin';
import { fieldErrorsOf } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Field, MemberPicker } from '../../components/form';
import { Pager } from '../../components/pager';
import { QueryList } from '../../components/query-list';
import { formatNumber } from '../../components/stat-card';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { formatDateTime } from '../../format';
import { levelingKeys } from './api';
import { adjustmentsQuery, adjustXp } from './admin-api';
import { useMemberAmountDraft } from '../../components/member-amount-draft';

const PAGE_SIZE = 20;
const DIRECTIONS = [
  { value: 'give', label: 'Give XP' },
  { value: 'take', label: 'Take XP' },
];

/** The dialog: member, give or take, amount, reason. */
function AdjustDialog({ guildId, open, onOpenChange }: { guildId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { userId, setUserId, amount, setAmount, reason, setReason, errors, setErrors, close } = useMemberAmountDraft(onOpenChange);
  const [direction, setDirection] = useState('give');
  const adjust = useGuildMutation({
    request: (input: { userId: string; amount: number; reason: string }) => adjustXp(guildId, input),
    invalidate: [levelingKeys.all(guildId)],
    success: ({ adjustment, rewardProblem }) => ({
      title: adjustment.amount > 0 ? 'XP Given' : 'XP Taken',
      description:
        `${adjustment.username} is level ${adjustment.toLevel} with ${formatNumber(adjustment.toXp)} XP.` +
        (rewardProblem ? ` A level reward could not be changed: ${rewardProblem}` : ''),
    }),
    failure: { title: 'Adjustment Failed' },
    onSuccess: close,
  });
  const submit = () => {
    const parsed = Number(amount);
    const found: Record<string, string> = {};
    if (!userId) found.userId = 'Pick a member.';
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > MAX_ADJUSTMENT) found.amount = `Enter a whole number from 1 to ${formatNumber(MAX_ADJUSTMENT)}.`;
    if (!reason.trim()) found.reason = 'Say why: the history keeps it.';
    setErrors(found);
    if (!userId || Object.keys(found).length > 0) return;
    adjust.mutate({ userId, amount: direction === 'take' ? -parsed : parsed, reason: reason.trim() }, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent title="Adjust XP" description="Give or take a member's XP (never below 0). Their level and level reward roles follow.">
        <form
          className="stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Field label="Member" error={errors.userId}>
            {(ids) => <MemberPicker {...ids} guildId={guildId} value={userId} onChange={setUserId} />}
          </Field>
          <div className="form-grid">
            <Field label="Give or take">{(ids) => <Select id={ids.id} options={DIRECTIONS} value={direction} onValueChange={setDirection} />}</Field>
            <Field label="Amount" error={errors.amount}>
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_ADJUSTMENT}
                  step={1}
                  value={amount}
                  onChange={(event) => setAmount(event.target.value)}
                />
              )}
            </Field>
          </div>
          <Field label="Reason" error={errors.reason} hint="Kept in the history below.">
            {(ids) => <Input {...ids} maxLength={MAX_ADJUSTMENT_REASON} value={reason} onChange={(event) => setReason(event.target.value)} />}
          </Field>
          <div className="dialog-actions">
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={adjust.isPending}>
              {adjust.isPending ? 'Saving…' : direction === 'take' ? 'Take XP' : 'Give XP'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The XP adjustments card: the button and the history. */
export function AdjustmentsCard({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const history = useQuery(adjustmentsQuery(guildId, page));
  const pages = Math.max(1, Math.ceil((history.data?.total ?? 0) / PAGE_SIZE));
  const entries = { isPending: history.isPending, isError: history.isError, error: history.error, data: history.data?.entries };
  return (
    <Card>
      <CardHeader>
        <CardTitle>XP adjustments</CardTitle>
        <CardDescription>XP given or taken by admins, with who, when and why.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <div className="row">
          <Button variant="secondary" onClick={() => setOpen(true)} disabled={readOnly}>
            <Sparkles size={16} aria-hidden="true" /> Give or take XP
          </Button>
        </div>
        <QueryList
          query={entries}
          what="the adjustments"
          empty={{ icon: ScrollText, title: 'No adjustments yet', description: 'XP given or taken shows here.' }}
        >
          {(rows) => (
            <div className="table-wrap">
              <table className="table">
                <caption className="sr-only">XP adjustments, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Member</th>
                    <th scope="col">XP</th>
                    <th scope="col">Level</th>
                    <th scope="col">Why</th>
                    <th scope="col">By</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.id}>
                      <td className="muted small">{formatDateTime(row.createdAt)}</td>
                      <td className="strong">{row.username}</td>
                      <td>
                        <Badge tone={row.amount > 0 ? 'success' : 'danger'}>
                          {row.amount > 0 ? '+' : '−'}
                          {formatNumber(Math.abs(row.amount))}
                        </Badge>
                      </td>
                      <td>{row.fromLevel === row.toLevel ? row.toLevel : `${row.fromLevel} → ${row.toLevel}`}</td>
                      <td>{row.reason}</td>
                      <td className="muted">{row.actorName ?? 'unknown'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryList>
        <Pager page={page} pages={pages} onPage={setPage} label="Pages of adjustments" loading={history.isPlaceholderData} />
      </CardContent>
      <AdjustDialog guildId={guildId} open={open} onOpenChange={setOpen} />
    </Card>
  );
}
