// After a submit with errors, the person is taken to the first field that is wrong: it is
// scrolled into view and focused, so a message under a field below the fold (or low in a dialog)
// is never left unseen while nothing seems to happen. Fields mark themselves (`data-invalid-control`,
// with the id of their control). A submit leaves its form waiting for errors: the dashboard's own
// checks draw them at once, the server's come with its answer; the first to show takes the focus.
// An error that appears while the person types (a live check) moves nothing.

/** The attribute a field with an error carries: the id of the control to focus. */
export const INVALID_CONTROL = 'data-invalid-control';

/** Forms submitted whose errors have not taken the person to them yet, with when (a save that went through leaves no error to wait for). */
const submitted = new WeakMap<Element, number>();
/** How long after a submit its errors may still come: the server's slowest answers; a live check later moves nothing. */
const ANSWER_WAIT_MS = 20_000;
const waiting = {
  has: (form: Element) => performance.now() - (submitted.get(form) ?? -Infinity) < ANSWER_WAIT_MS,
  add: (form: Element) => submitted.set(form, performance.now()),
  delete: (form: Element) => submitted.delete(form),
};
let listening = false;

/** Scrolls the first invalid field of the form into view and focuses its control. */
function focusFirstInvalid(form: Element): boolean {
  const first = form.querySelector(`[${INVALID_CONTROL}]`);
  if (!first) return false;
  const control = document.getElementById(first.getAttribute(INVALID_CONTROL) ?? '') ?? first.querySelector<HTMLElement>('input, textarea, select, button');
  // The field's whole block (label, control, message) in the middle of the view, then the focus
  // without a second scroll: focus alone may leave the message under the fold or a sticky bar.
  first.scrollIntoView({ block: 'center', inline: 'nearest' });
  control?.focus({ preventScroll: true });
  return true;
}

/** A field of `form` shows an error: if the form was submitted and is waiting for its errors, they are shown now. */
export function fieldErrorShown(field: Element | null): void {
  const form = field?.closest('form');
  if (!form || !waiting.has(form)) return;
  // After this render: every field of the same answer has marked itself by then.
  requestAnimationFrame(() => {
    if (waiting.has(form) && focusFirstInvalid(form)) waiting.delete(form);
  });
}

/** Listens (once) for submits: each leaves its form waiting for errors; errors already shown and unchanged are shown again at once. */
export function listenForSubmits(): void {
  if (listening) return;
  listening = true;
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    waiting.add(form);
    // The same mistake again draws nothing new: once the submit's own render is done, the errors still there are shown.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (waiting.has(form) && focusFirstInvalid(form)) waiting.delete(form);
      }),
    );
  });
}
