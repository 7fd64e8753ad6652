// The dialog for the server's questions (pendingQuestion): a role with staff permissions to
// confirm, or changes made meanwhile to save over. Confirming sends the same write again with the
// answer; the other button (or Escape) backs out and nothing is saved.
import { useSignals } from '@preact/signals-react/runtime';
import { pendingQuestion } from '../state/confirmations';
import { ConfirmDialog } from './confirm-dialog';

/** Mounted once in the signed-in frame. */
export function ServerQuestion() {
  useSignals();
  const pending = pendingQuestion.value;
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) pending?.answer(false);
      }}
      title={pending?.title ?? ''}
      description={pending?.message ?? ''}
      confirmLabel={pending?.confirmLabel ?? 'Confirm'}
      cancelLabel={pending?.cancelLabel ?? 'Cancel'}
      tone={pending?.tone ?? 'danger'}
      onConfirm={() => pending?.answer(true)}
    >
      {pending?.details?.length ? (
        <ul className="question-details">
          {pending.details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </ConfirmDialog>
  );
}
