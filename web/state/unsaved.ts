// Which forms on screen hold changes not saved yet, and the one guard over them. Every form with
// a draft registers here (useUnsavedChanges). While one is dirty, a navigation to another page
// inside the dashboard asks "Leave this page?" first (main.tsx puts the question on the router's
// history: guarded-history.ts), and the browser's own question is armed for a reload or a closed
// tab (beforeunload), which no page may word itself. A clean page leaves without either.
import { effect, signal } from '@preact/signals-react';
import { useEffect, useId } from 'react';
import { askConfirmation, type Question } from './confirmations';

/** The ids of the forms whose draft differs from what is saved. */
export const unsavedForms = signal<ReadonlySet<string>>(new Set());

/** True while any form on screen has unsaved changes. */
export function hasUnsavedChanges(): boolean {
  return unsavedForms.peek().size > 0;
}

/** Marks the form `id` as holding unsaved changes, or not. */
function markUnsaved(id: string, dirty: boolean): void {
  const current = unsavedForms.peek();
  if (current.has(id) === dirty) return;
  const next = new Set(current);
  if (dirty) next.add(id);
  else next.delete(id);
  unsavedForms.value = next;
}

/**
 * Registers a form's dirty state with the guard while the form is on screen. A form that saves
 * reports clean in the render after the save, so a link followed then is not questioned.
 */
export function useUnsavedChanges(dirty: boolean): void {
  const id = useId();
  useEffect(() => {
    markUnsaved(id, dirty);
    return () => markUnsaved(id, false);
  }, [id, dirty]);
}

/** Forgets every draft: the person chose to lose them (signing out) before the forms unmount. */
export function forgetUnsavedChanges(): void {
  unsavedForms.value = new Set();
}

/** The question before leaving a page with unsaved changes. */
export const LEAVE_QUESTION: Question = {
  title: 'Leave this page?',
  message: 'You have unsaved changes on this page. If you leave now, they are lost.',
  confirmLabel: 'Leave',
  cancelLabel: 'Stay',
  tone: 'danger',
};

/** True when going from `from` to `to` leaves the page (not a change of the hash alone) with unsaved changes. */
export function leavesUnsavedChanges(from: { pathname: string; search: string }, to: { pathname: string; search: string }): boolean {
  return hasUnsavedChanges() && (from.pathname !== to.pathname || from.search !== to.search);
}

/** Resolves true at once when nothing is unsaved, else asks the person whether to leave. */
export function confirmLeaving(): Promise<boolean> {
  return hasUnsavedChanges() ? askConfirmation(LEAVE_QUESTION) : Promise.resolve(true);
}

/** What the browser needs to ask before unloading: a cancelled event (returnValue for older engines). */
function askBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  event.returnValue = '';
}

/** Arms the browser's question before a reload or a closed tab while, and only while, a form is dirty. Call once. */
export function guardUnload(): () => void {
  return effect(() => {
    if (unsavedForms.value.size === 0) return;
    window.addEventListener('beforeunload', askBeforeUnload);
    return () => window.removeEventListener('beforeunload', askBeforeUnload);
  });
}
