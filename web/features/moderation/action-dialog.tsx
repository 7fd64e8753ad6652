// The moderation action dialog (spec sections 2, 4, 5 and 8): the action (preselected by the quick
// action that opened it), the member (searched by name, or any user id pasted: an unban's target is
// no longer a member), the reason and, for a timeout (required) or a ban (a temporary ban), the
// duration. Without a member or a reason it says 'Missing Information' and sends nothing; on success
// it closes, clears its fields and the log and the stat cards refresh.
import { useState } from 'react';
import { MODERATION_ACTIONS, MODERATION_MESSAGES, type Duration, type ModerationAction, type ModerationActionInput } from '../../../src/shared/moderation';
import type { SettingsView } from '../../../src/shared/settings';
import { ApiRequestError, fieldErrorsOf } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Field, MemberPicker } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Select } from '../../components/ui/select';
import { toast } from '../../state/toasts';
import { moderationKeys, runModerationAction } from './api';
import { DurationSelect } from './duration-select';
import { ReasonField } from './reason-field';

/** The dialog's title, its submit button and what the action does, per action. */
export const ACTION_WORDS: Record<ModerationAction, { title: string; submit: string; does: string }> = {
  ban: { title: 'Ban User', submit: 'Ban', does: 'Removes them from the server; they cannot rejoin until unbanned (or until the duration ends).' },
  kick: { title: 'Kick User', submit: 'Kick', does: 'Removes them from the server; they can rejoin with an invite.' },
  timeout: { title: 'Timeout User', submit: 'Time out', does: 'They cannot chat, react or speak until the timeout ends.' },
  warn: { title: 'Warn User', submit: 'Warn', does: 'Recorded as a warning; enough active warnings trigger the escalation ladder.' },
  unban: { title: 'Unban User', submit: 'Unban', does: 'Lifts their ban; paste their user ID, since they are no longer a member.' },
  note: { title: 'Add Note', submit: 'Save note', does: 'Recorded in the log only: nothing happens in Discord and they are not told.' },
  untimeout: { title: 'Remove Timeout', submit: 'Remove timeout', does: 'They can chat again at once; a timeout longer than 28 days is no longer renewed.' },
};

const ACTION_OPTIONS = MODERATION_ACTIONS.map((action) => ({ value: action, label: ACTION_WORDS[action].title.replace(' User', '') }));

/** Props of ActionDialog: `action` is the preselected action, null when closed. */
export interface ActionDialogProps {
  guildId: string;
  view: SettingsView;
  action: ModerationAction | null;
  onClose: () => void;
}

/** The dialog; its form starts blank each time it opens. */
export function ActionDialog({ guildId, view, action, onClose }: ActionDialogProps) {
  return (
    <Dialog open={action !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {action ? <ActionForm key={action} guildId={guildId} view={view} initial={action} onClose={onClose} /> : null}
    </Dialog>
  );
}

function ActionForm({ guildId, view, initial, onClose }: { guildId: string; view: SettingsView; initial: ModerationAction; onClose: () => void }) {
  const [action, setAction] = useState<ModerationAction>(initial);
  const [targetId, setTargetId] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState<Duration | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = useGuildMutation({
    request: (input: ModerationActionInput) => runModerationAction(guildId, input),
    invalidate: [moderationKeys.all(guildId)],
    success: (done) => ({ title: MODERATION_MESSAGES.completedTitle, description: MODERATION_MESSAGES.completed(done.action) }),
    failure: (error) => ({
      title: MODERATION_MESSAGES.failedTitle,
      description: error instanceof ApiRequestError && error.body ? error.body.message : MODERATION_MESSAGES.failedFallback,
    }),
    // Closing drops the form, so it opens blank next time (spec section 4: it closes and clears).
    onSuccess: onClose,
  });
  const takesDuration = action === 'timeout' || action === 'ban';
  const words = ACTION_WORDS[action];
  // Unban, note and lifting a timeout tell nobody; the others DM the member first when the server's setting says so.
  const dmOn = action === 'unban' || action === 'note' || action === 'untimeout' ? false : view.moderationDm[action];

  const submit = () => {
    // Spec section 5: a user and a reason, else 'Missing Information' and no request.
    if (!targetId || reason.trim() === '') {
      setErrors({ ...(targetId ? {} : { targetId: 'Pick a member or paste a user ID.' }), ...(reason.trim() ? {} : { reason: 'Say why.' }) });
      toast({ ...MODERATION_MESSAGES.missing, variant: 'destructive' });
      return;
    }
    if (action === 'timeout' && !duration) {
      setErrors({ duration: 'Pick how long the timeout lasts.' });
      return;
    }
    setErrors({});
    // The duration goes only with a timeout or a ban, and only when chosen.
    const input: ModerationActionInput = { action, targetId, reason: reason.trim(), ...(takesDuration && duration ? { duration } : {}) };
    run.mutate(input, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };

  return (
    <DialogContent title={words.title} description={words.does}>
      <form
        className="stack"
        noValidate
        aria-label={words.title}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field label="Action" error={errors.action}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label="Action"
              value={action}
              onValueChange={(next) => {
                const chosen = MODERATION_ACTIONS.find((candidate) => candidate === next) ?? action;
                setAction(chosen);
                if (chosen !== 'timeout' && chosen !== 'ban') setDuration(null);
              }}
              options={ACTION_OPTIONS}
            />
          )}
        </Field>
        <Field
          label="Member"
          error={errors.targetId}
          hint={action === 'unban' ? 'Paste the user ID of the banned user.' : 'Search by name, or paste a user ID.'}
        >
          {(ids) => <MemberPicker {...ids} guildId={guildId} value={targetId} onChange={setTargetId} placeholder="Pick a member or paste an ID" />}
        </Field>
        <ReasonField
          error={errors.reason}
          hint={dmOn ? 'Sent to the member by DM before the action, and kept in the log.' : 'Kept in the log.'}
          value={reason}
          onChange={setReason}
          placeholder="What they did"
        />
        {takesDuration ? (
          <Field
            label="Duration"
            error={errors.duration}
            hint={
              action === 'ban'
                ? 'A temporary ban is lifted by the bot when it ends.'
                : 'Discord lifts the timeout when it ends; the bot renews one longer than 28 days until then.'
            }
          >
            {(ids) => <DurationSelect id={ids.id} label="Duration" value={duration} onChange={setDuration} permanent={action === 'ban'} />}
          </Field>
        ) : null}
        <div className="dialog-actions">
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={action === 'ban' || action === 'kick' ? 'danger' : 'primary'} disabled={run.isPending}>
            {run.isPending ? 'Working…' : words.submit}
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}
