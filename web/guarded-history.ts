// The dashboard's browser history, with a guard: a navigation to another page (a link, a
// redirect, back or forward) can be held while a question is asked, and then go through or not.
// react-router's own blocker (useBlocker) needs its data router, whose code would add some 17 KB
// gzip to the login page (its budget is 110 KB) for nothing a signed-out visitor uses; this is the
// same idea over the history BrowserRouter already uses (unstable_HistoryRouter renders it).
import { UNSAFE_createBrowserHistory as createBrowserHistory } from 'react-router-dom';

/** The history react-router's routers use. */
export type BrowserHistory = ReturnType<typeof createBrowserHistory>;
type To = Parameters<BrowserHistory['push']>[0];
type Location = BrowserHistory['location'];
type Listener = Parameters<BrowserHistory['listen']>[0];

/** What the guard asks of its owner. */
export interface NavigationGuard {
  /** True when leaving `from` for `to` needs the person's word first. */
  holds(from: Location, to: { pathname: string; search: string }): boolean;
  /** Asks; resolves true to go on, false to stay. */
  ask(): Promise<boolean>;
}

/**
 * A browser history whose push, replace and back/forward pass `guard` first. A held push or
 * replace waits for the answer. Back and forward have already changed the address when the
 * browser tells the page, so a held one is undone at once (the page stays as it is) and, if the
 * person chooses to leave, done again.
 */
export function createGuardedHistory(guard: NavigationGuard, base: BrowserHistory = createBrowserHistory({ v5Compat: true })): BrowserHistory {
  /** The location the router shows: back and forward change the base history's before it does. */
  let shown = base.location;
  /** Set while the base history moves back over a held back/forward: that move is not news. */
  let undoing = false;
  /** Set while a back/forward the person chose to finish is done again: it goes through unasked. */
  let redoing = false;

  const target = (to: To) => {
    const { pathname, search } = base.createURL(to);
    return { pathname, search };
  };
  /** Runs `go` now, or after a yes when the guard holds the move. */
  const guarded = (to: To, go: () => void) => {
    if (!guard.holds(shown, target(to))) return go();
    void guard.ask().then((leave) => {
      if (leave) go();
    });
  };

  const listen = (listener: Listener) =>
    base.listen((update) => {
      if (update.action !== 'POP') {
        shown = update.location;
        return listener(update);
      }
      if (undoing) {
        undoing = false;
        return;
      }
      const { delta } = update;
      if (redoing || delta === null || delta === 0 || !guard.holds(shown, update.location)) {
        redoing = false;
        shown = update.location;
        return listener(update);
      }
      undoing = true;
      base.go(-delta);
      void guard.ask().then((leave) => {
        if (!leave) return;
        redoing = true;
        base.go(delta);
      });
    });

  return {
    get action() {
      return base.action;
    },
    get location() {
      return base.location;
    },
    createHref: (to) => base.createHref(to),
    createURL: (to) => base.createURL(to),
    encodeLocation: (to) => base.encodeLocation(to),
    push: (to, state?: unknown) => guarded(to, () => base.push(to, state)),
    replace: (to, state?: unknown) => guarded(to, () => base.replace(to, state)),
    go: (delta) => base.go(delta),
    listen,
  };
}
