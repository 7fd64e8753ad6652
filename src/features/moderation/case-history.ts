// A case's edit history: each change of its reason or duration after the fact, with who made it
// and when. Kept on the case row (a short list: the latest MAX_CASE_EDITS), read back leniently.
import { CaseEditSchema, type CaseEdit } from '../../shared/moderation';
import { MAX_CASE_EDITS } from '../../shared/moderation-cases';

/** The stored edits as the API shows them; anything unreadable (written by hand, a future shape) is left out. */
export function readEdits(stored: unknown): CaseEdit[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry) => {
    const parsed = CaseEditSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The history with one more edit, the oldest dropped past MAX_CASE_EDITS. */
export function withEdit(stored: unknown, edit: CaseEdit): CaseEdit[] {
  return [...readEdits(stored), edit].slice(-MAX_CASE_EDITS);
}
