// Questions the server asks before a write goes through: handing out a role that carries staff
// permissions ("Hand it out?"), or saving over changes someone made meanwhile ("Keep mine or
// reload?"). The transport (api/client.ts) puts the question here and waits; the signed-in frame
// shows it as a dialog (ServerQuestion) and answers.
import { signal } from '@preact/signals-react';

/** What the dialog shows. */
export interface Question {
  title: string;
  /** The server's sentence. */
  message: string;
  /** Lines under it (each change made meanwhile). */
  details?: string[];
  confirmLabel: string;
  cancelLabel: string;
  tone: 'danger' | 'primary';
}

/** A question waiting for the person's answer. */
export interface PendingQuestion extends Question {
  answer: (confirmed: boolean) => void;
}

/** The question on screen, or null. */
export const pendingQuestion = signal<PendingQuestion | null>(null);

/**
 * Asks the person; resolves true when they confirm, false when they back out. A question asked
 * while another is open answers the first "no" (one dialog at a time).
 */
export function askConfirmation(question: Question): Promise<boolean> {
  pendingQuestion.peek()?.answer(false);
  return new Promise((resolve) => {
    const entry: PendingQuestion = {
      ...question,
      answer: (confirmed) => {
        if (pendingQuestion.peek() === entry) pendingQuestion.value = null;
        resolve(confirmed);
      },
    };
    pendingQuestion.value = entry;
  });
}
