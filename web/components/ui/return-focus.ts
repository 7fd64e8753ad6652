// Where focus goes back to when a dialog closes: the element that opened it, or, when that element
// has gone meanwhile (its row re-rendered, or removed by what the dialog did), the element that now
// stands in its place, or the first control left in the nearest part of the page still shown.

/** The element that had focus when a dialog opened, and what is needed to find its stand-in. */
export interface Opener {
  element: HTMLElement;
  /** Its tag and the name it is read by, to find the same control drawn anew. */
  tag: string;
  name: string;
  /** Its ancestors, nearest first, up to <main> (or the body). */
  ancestors: HTMLElement[];
}

const TABBABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The name a control is read by: its aria-label, else its text. */
const nameOf = (element: Element) => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';

/** Whether `element` can take focus now: in the page, shown, not disabled, not inside a closing dialog. */
function canFocus(element: HTMLElement): boolean {
  if (!element.isConnected || element.closest('[inert], [aria-hidden="true"]')) return false;
  if ((element as HTMLButtonElement).disabled) return false;
  return element.getClientRects().length > 0;
}

/**
 * The element that last took focus. A form's button that turns disabled while its request runs
 * drops focus to the body; a dialog that request then opens (a question to confirm) still knows
 * where the person was.
 */
let lastFocused: HTMLElement | null = null;
let tracking = false;

/** Starts following focus (once, on the first dialog). */
export function trackFocus(): void {
  if (tracking) return;
  tracking = true;
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement) lastFocused = event.target;
  });
}

/** Remembers the focused element, or the one that last had focus when it is on the body now. */
export function rememberOpener(active: Element | null): Opener | null {
  const element = active instanceof HTMLElement && active !== document.body ? active : lastFocused?.isConnected ? lastFocused : null;
  if (!element) return null;
  const ancestors: HTMLElement[] = [];
  for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
    ancestors.push(node);
    if (node.tagName === 'MAIN') break;
  }
  return { element, tag: element.tagName, name: nameOf(element), ancestors };
}

/** The control that stands in for a gone opener. */
function standIn(opener: Opener): HTMLElement | undefined {
  if (opener.name) {
    const same = [...document.querySelectorAll<HTMLElement>(opener.tag)].find((element) => nameOf(element) === opener.name && canFocus(element));
    if (same) return same;
  }
  const kept = opener.ancestors.find((ancestor) => ancestor.isConnected);
  if (!kept) return undefined;
  return [...kept.querySelectorAll<HTMLElement>(TABBABLE)].find(canFocus);
}

/** How long a disabled opener (its form busy while the dialog asked) is waited for. */
const WAIT_MS = 1000;

/** Whether focus is nowhere (on the body): nothing the person chose meanwhile would be taken. */
const focusIsLost = () => document.activeElement === null || document.activeElement === document.body;

/**
 * Gives focus back to the opener or its stand-in; false when there is none. An opener still in
 * the page but disabled (its form waits on the answer the dialog gave) gets focus once enabled.
 */
export function returnFocus(opener: Opener): boolean {
  if (canFocus(opener.element)) {
    opener.element.focus();
    return true;
  }
  if (!opener.element.isConnected) {
    const target = standIn(opener);
    target?.focus();
    return target !== undefined;
  }
  const started = performance.now();
  const retry = () => {
    if (!focusIsLost()) return;
    if (canFocus(opener.element)) opener.element.focus();
    else if (performance.now() - started < WAIT_MS) requestAnimationFrame(retry);
    else standIn(opener)?.focus();
  };
  requestAnimationFrame(retry);
  return true;
}

/** One dialog's memory of its opener, kept across its renders. */
export class OpenerMemory {
  private opener: Opener | null = null;
  private open = false;

  /** Follows the dialog's `open`; on opening, remembers what has focus (Radix has not moved it yet). */
  follow(isOpen: boolean): void {
    if (isOpen && !this.open) this.opener = rememberOpener(document.activeElement);
    this.open = isOpen;
  }

  /**
   * A content of the dialog unmounted: true when focus is taken care of (the dialog is still open
   * and its next step has focus, or focus went back to the opener); false leaves it to Radix.
   */
  contentClosed(): boolean {
    if (this.open) return true;
    const opener = this.opener;
    this.opener = null;
    return opener !== null && returnFocus(opener);
  }
}
