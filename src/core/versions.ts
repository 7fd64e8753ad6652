// The rule for saves based on an outdated copy, with no face and no store: a page sends only what
// the person changed and the version its copy was loaded at. Someone else's changes meanwhile to
// other fields merge; a change meanwhile to a field the save changes too (to another value) would
// be undone silently, so the save is refused with what changed, in words, and the version to save
// over if the person keeps theirs.
import { isDeepStrictEqual } from 'node:util';
import { asSentence, fieldInWords } from '../shared/words';
import { StaleVersion, type ChangeMeanwhile } from './errors';

/** One field's change. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** One recorded edit made after the page's version: who, when, what. */
export interface EditMeanwhile {
  by: string | null;
  at: Date;
  changes: readonly FieldChange[];
}

/** How a value reads in a sentence (a role's name for its id, "on" for true). */
export type DescribeValue = (field: string, value: unknown) => string;

/** Values in words for any field: switches on/off, nothing for empty, lists joined, the rest as text. */
export function plainValue(_field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'nothing';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length === 0 ? 'nothing' : value.map((item) => plainValue('', item)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The changes meanwhile to the fields the save would change, where the save's value differs from
 * the one now stored (the same value set by both is no conflict), oldest first.
 */
export function conflictingChanges(
  meanwhile: readonly EditMeanwhile[],
  saving: Readonly<Record<string, unknown>>,
  stored: Readonly<Record<string, unknown>>,
): { edit: EditMeanwhile; change: FieldChange }[] {
  const contested = new Set(Object.keys(saving).filter((field) => !isDeepStrictEqual(saving[field], stored[field])));
  return meanwhile.flatMap((edit) => edit.changes.filter((change) => contested.has(change.field)).map((change) => ({ edit, change })));
}

/** "Text multiplier": a field as a label. */
function labelOf(field: string): string {
  const words = fieldInWords(field);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Refuses a save that would undo changes made meanwhile (see conflictingChanges), naming each:
 * "While you were editing, Alex changed Text multiplier from 1 to 1.7. Reload to see the current
 * values, or save again to keep yours." Does nothing when there is no conflict.
 */
export function refuseStaleSave(options: {
  meanwhile: readonly EditMeanwhile[];
  saving: Readonly<Record<string, unknown>>;
  stored: Readonly<Record<string, unknown>>;
  version: number;
  describe?: DescribeValue;
}): void {
  const describe = options.describe ?? plainValue;
  const conflicts = conflictingChanges(options.meanwhile, options.saving, options.stored);
  if (conflicts.length === 0) return;
  const changes: ChangeMeanwhile[] = conflicts.map(({ edit, change }) => ({
    field: change.field,
    label: labelOf(change.field),
    from: describe(change.field, change.from),
    to: describe(change.field, change.to),
    by: edit.by,
    at: edit.at.toISOString(),
  }));
  const shown = changes.slice(0, 3).map((change) => `${change.by ?? 'The bot'} changed ${change.label} from ${change.from} to ${change.to}`);
  const more = changes.length > shown.length ? `, and ${changes.length - shown.length} more` : '';
  const message = `${asSentence(`While you were editing, ${shown.join('; ')}${more}`)} Reload to see the current values, or save again to keep yours.`;
  throw new StaleVersion(message, options.version, changes);
}
