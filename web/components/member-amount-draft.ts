// The draft of a "member, amount, reason" dialog (Give Coins, Adjust XP): its fields, the server's
// field errors, and a close that empties them for the next opening.
import { useState } from 'react';

/** The fields of the dialog and `close`, which closes it and clears them. */
export function useMemberAmountDraft(onOpenChange: (open: boolean) => void) {
  const [userId, setUserId] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const close = () => {
    onOpenChange(false);
    setUserId(null);
    setAmount('');
    setReason('');
    setErrors({});
  };
  return { userId, setUserId, amount, setAmount, reason, setReason, errors, setErrors, close };
}
