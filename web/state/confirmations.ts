// Questions the server asks before a write with consequences (handing out a role that carries
// staff permissions): the transport (api/client.ts) puts the question here and waits; the
// signed-in frame shows it as a dialog (RoleConfirmation) and answers.
import { signal } from '@preact/signals-react';

/** A question waiting for the person's answer. */
export interface PendingConfirmation {
  /** What the server said would happen, in words. */
  message: string;
  answer: (confirmed: boolean) => void;
}

/** The question on screen, or null. */
export const pendingConfirmation = signal<PendingConfirmation | null>(null);

/**
 * Asks the person; resolves true when they confirm, false when they back out. A question asked
 * while another is open answers the first "no" (one dialog at a time).
 */
export function askConfirmation(message: string): Promise<boolean> {
  pendingConfirmation.peek()?.answer(false);
  return new Promise((resolve) => {
    const entry: PendingConfirmation = {
      message,
      answer: (confirmed) => {
        if (pendingConfirmation.peek() === entry) pendingConfirmation.value = null;
        resolve(confirmed);
      },
    };
    pendingConfirmation.value = entry;
  });
}
