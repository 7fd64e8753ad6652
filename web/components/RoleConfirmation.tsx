// The dialog for the server's questions (pendingConfirmation): "@Moderator carries Ban Members...
// Confirm that you mean to hand it out." Confirming sends the same write again with the
// confirmation; Cancel or Escape backs out and nothing is saved.
import { useSignals } from '@preact/signals-react/runtime';
import { pendingConfirmation } from '../state/confirmations';
import { ConfirmDialog } from './ConfirmDialog';

/** Mounted once in the signed-in frame. */
export function RoleConfirmation() {
  useSignals();
  const pending = pendingConfirmation.value;
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) pending?.answer(false);
      }}
      title="Hand out a role with staff permissions?"
      description={pending?.message ?? ''}
      confirmLabel="Hand it out"
      onConfirm={() => pending?.answer(true)}
    />
  );
}
