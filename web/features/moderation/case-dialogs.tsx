// The member page's dialogs on one case: edit its reason, change a ban's or timeout's duration
// (counted from when the case began; the dialog says when it will end), and pardon a warning. Each
// is a Radix dialog (focus trapped, Escape closes), shows the server's field errors under the
// fields and a toast either way, and refreshes the member's record and the log on success.
import { useState } from 'react';
import { DURATION_LABELS, DURATIONS, type ModerationCase } from '../../../src/shared/moderation';
import { CASE_DURATIONS, PERMANENT, type CaseDuration } from '../../../src/shared/moderation-cases';
import { fieldErrorsOf } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Select } from '../../components/ui/select';
import { formatDateTime } from '../../format';
import { moderationKeys } from './api';
import { editCase, pardonCase } from './case-api';
import { ReasonField } from './reason-field';

/** Which dialog is open on which case. */
export type CaseDialogState = { kind: 'reason' | 'duration' | 'pardon'; entry: ModerationCase } | null;

/** Props of CaseDialogs. */
export interface CaseDialogsProps {
  guildId: string;
  state: CaseDialogState;
  onClose: () => void;
}

/** The open dialog, if any; its form starts afresh each time. */
export function CaseDialogs({ guildId, state, onClose }: CaseDialogsProps) {
  return (
    <Dialog open={state !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {state?.kind === 'reason' ? <ReasonForm key={`r${state.entry.id}`} guildId={guildId} entry={state.entry} onClose={onClose} /> : null}
      {state?.kind === 'duration' ? <DurationForm key={`d${state.entry.id}`} guildId={guildId} entry={state.entry} onClose={onClose} /> : null}
      {state?.kind === 'pardon' ? <PardonForm key={`p${state.entry.id}`} guildId={guildId} entry={state.entry} onClose={onClose} /> : null}
    </Dialog>
  );
}

/** The mutation shared by the dialogs: refresh the moderation reads, toast, close on success. */
function useCaseMutation<Input>(guildId: string, request: (input: Input) => Promise<ModerationCase>, done: string, onClose: () => void) {
  return useGuildMutation({
    request,
    invalidate: [moderationKeys.all(guildId)],
    success: (result) => ({
      title: done,
      description: result.pardonOf !== null ? `The pardon is case #${result.caseNumber} in the log.` : `Case #${result.caseNumber} is saved.`,
    }),
    failure: { title: 'Not saved' },
    onSuccess: onClose,
  });
}

/** Cancel and the submit button. */
function Actions({ pending, submit, onClose }: { pending: boolean; submit: string; onClose: () => void }) {
  return (
    <div className="dialog-actions">
      <Button type="button" variant="outline" onClick={onClose}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving…' : submit}
      </Button>
    </div>
  );
}

function ReasonForm({ guildId, entry, onClose }: { guildId: string; entry: ModerationCase; onClose: () => void }) {
  const [reason, setReason] = useState(entry.reason ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = useCaseMutation(guildId, (text: string) => editCase(guildId, entry.caseNumber, { reason: text }), 'Reason updated', onClose);
  return (
    <DialogContent
      title={`Edit the reason of case #${entry.caseNumber}`}
      description="The change is kept on the case with your name, and the log channel is told."
    >
      <form
        className="stack"
        noValidate
        aria-label="Edit reason"
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason.trim()) return setErrors({ reason: 'Write the new reason.' });
          setErrors({});
          run.mutate(reason.trim(), { onError: (error) => setErrors(fieldErrorsOf(error)) });
        }}
      >
        <ReasonField error={errors.reason} value={reason} onChange={setReason} />
        <Actions pending={run.isPending} submit="Save reason" onClose={onClose} />
      </form>
    </DialogContent>
  );
}

/** When the case would end with `duration`, counted from its start; null: never. */
const endOf = (entry: ModerationCase, duration: CaseDuration) => (duration === PERMANENT ? null : Date.parse(entry.createdAt) + DURATIONS[duration]);

function DurationForm({ guildId, entry, onClose }: { guildId: string; entry: ModerationCase; onClose: () => void }) {
  const isBan = entry.action === 'ban';
  const [duration, setDuration] = useState<CaseDuration | ''>(entry.duration ?? (isBan ? PERMANENT : ''));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [openedAt] = useState(() => Date.now());
  const run = useCaseMutation(guildId, (next: CaseDuration) => editCase(guildId, entry.caseNumber, { duration: next }), 'Duration changed', onClose);
  const options = CASE_DURATIONS.filter((key) => isBan || key !== PERMANENT).map((key) => ({
    value: key,
    label: key === PERMANENT ? 'Permanent' : DURATION_LABELS[key],
  }));
  const end = duration ? endOf(entry, duration) : undefined;
  const ends =
    end === undefined
      ? null
      : end === null
        ? 'The ban will not end on its own.'
        : end <= openedAt
          ? `Ends at ${formatDateTime(new Date(end).toISOString())}: already over, so the ${isBan ? 'ban is lifted within seconds' : 'timeout is lifted now'}.`
          : `Ends at ${formatDateTime(new Date(end).toISOString())}.`;
  return (
    <DialogContent
      title={`Change the duration of case #${entry.caseNumber}`}
      description={`Counted from when the ${isBan ? 'ban' : 'timeout'} began (${formatDateTime(entry.createdAt)}), not from now. Discord is changed too.`}
    >
      <form
        className="stack"
        noValidate
        aria-label="Change duration"
        onSubmit={(event) => {
          event.preventDefault();
          if (!duration) return setErrors({ duration: 'Pick the new duration.' });
          setErrors({});
          run.mutate(duration, { onError: (error) => setErrors(fieldErrorsOf(error)) });
        }}
      >
        <Field label="Duration" error={errors.duration} hint={ends ?? undefined}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label="Duration"
              value={duration}
              placeholder="Pick a duration"
              onValueChange={(next) => setDuration(CASE_DURATIONS.find((key) => key === next) ?? '')}
              options={options}
            />
          )}
        </Field>
        <Actions pending={run.isPending} submit="Change duration" onClose={onClose} />
      </form>
    </DialogContent>
  );
}

function PardonForm({ guildId, entry, onClose }: { guildId: string; entry: ModerationCase; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = useCaseMutation(guildId, (text: string) => pardonCase(guildId, entry.caseNumber, { reason: text }), 'Warning pardoned', onClose);
  return (
    <DialogContent
      title={`Pardon warning #${entry.caseNumber}`}
      description="The warning stays in the log but no longer counts toward the warning ladder. The pardon is logged as a case of its own."
    >
      <form
        className="stack"
        noValidate
        aria-label="Pardon warning"
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason.trim()) return setErrors({ reason: 'Say why the warning is pardoned.' });
          setErrors({});
          run.mutate(reason.trim(), { onError: (error) => setErrors(fieldErrorsOf(error)) });
        }}
      >
        <ReasonField
          label="Why"
          error={errors.reason}
          hint="Kept in the moderation log."
          value={reason}
          onChange={setReason}
          placeholder="Apologised, a misunderstanding…"
        />
        <Actions pending={run.isPending} submit="Pardon" onClose={onClose} />
      </form>
    </DialogContent>
  );
}
