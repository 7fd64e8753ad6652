// Toast notifications as a signal. One toast at a time (spec section 9); a toast can be
// stashed in sessionStorage to survive a full-page redirect and shown on the next load.
import { signal } from '@preact/signals-react';

/** Only one toast shows at a time. */
export const TOAST_LIMIT = 1;
/** A dismissed toast is dropped from state after this long (its exit animation has ended by then). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** How long a toast stays open by default. */
export const TOAST_DURATION_MS = 5000;
/** Swipe distance that dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;

/** An optional button inside a toast. */
export interface ToastAction {
  label: string;
  /** What a screen reader announces for the action. */
  altText: string;
  onClick: () => void;
}

/** A toast entity (spec section 3). */
export interface Toast {
  id: string;
  title?: string;
  description?: string;
  action?: ToastAction;
  variant: 'default' | 'destructive';
  open: boolean;
}

/** What callers pass to `toast()`. */
export type ToastInput = Omit<Toast, 'id' | 'open' | 'variant'> & { variant?: Toast['variant'] };

/** The toasts, newest first. */
export const toasts = signal<Toast[]>([]);

let counter = 0;

/** Shows a toast; returns its id. */
export function toast(input: ToastInput): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const next: Toast = { ...input, variant: input.variant ?? 'default', id, open: true };
  toasts.value = [next, ...toasts.peek()].slice(0, TOAST_LIMIT);
  return id;
}

/** Closes a toast (it animates out), then drops it after TOAST_REMOVE_DELAY_MS. */
export function dismissToast(id: string): void {
  toasts.value = toasts.peek().map((item) => (item.id === id ? { ...item, open: false } : item));
  window.setTimeout(() => {
    toasts.value = toasts.peek().filter((item) => item.id !== id);
  }, TOAST_REMOVE_DELAY_MS);
}

const PENDING_KEY = 'dashboard.pendingToast';

/** Keeps a toast for the next page load, for messages shown right before a full redirect. */
export function toastAfterRedirect(input: Omit<ToastInput, 'action'>): void {
  try {
    window.sessionStorage.setItem(PENDING_KEY, JSON.stringify(input));
  } catch {
    toast(input);
  }
}

/** Shows the toast stashed by toastAfterRedirect, if any. Called once at start-up. */
export function showPendingToast(): void {
  let raw: string | null;
  try {
    raw = window.sessionStorage.getItem(PENDING_KEY);
    window.sessionStorage.removeItem(PENDING_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return;
    const { title, description, variant } = value as Record<string, unknown>;
    toast({
      title: typeof title === 'string' ? title : undefined,
      description: typeof description === 'string' ? description : undefined,
      variant: variant === 'destructive' ? 'destructive' : 'default',
    });
  } catch {
    // A corrupt entry is dropped.
  }
}
