import { useEffect, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';

/** How long to wait for a page that is still loading to show its h1 before focusing <main>. */
const HEADING_WAIT_MS = 3000;

/** True while a dialog (not the closing navigation drawer) holds the user's attention. */
function dialogOpen(): boolean {
  return document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]') !== null;
}

/**
 * After a navigation (not the first page of the visit), moves focus to the new page's h1, or to
 * <main> when the page shows none in time. Without it focus falls to <body> when the link that was
 * followed disappears, and a screen reader does not announce the new page. Focus moves a task after
 * the heading shows, so it lands after a closing menu has handed focus back to its trigger; it does
 * not move once the user has pressed a key or the pointer since the navigation, nor away from a
 * field the new page focused itself.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>): void {
  const { pathname, key } = useLocation();
  // The first page of the visit ('default') keeps the browser's own focus handling.
  const firstPage = key === 'default';

  useEffect(() => {
    if (firstPage) return;
    const container = main.current;
    if (!container) return;
    let timer: number | undefined;
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(giveUp);
      window.clearTimeout(timer);
      document.removeEventListener('keydown', stop, true);
      document.removeEventListener('pointerdown', stop, true);
    };
    const focus = (target: HTMLElement) => {
      observer.disconnect();
      window.clearTimeout(giveUp);
      timer = window.setTimeout(() => {
        stop();
        const active = document.activeElement;
        const pageChoseFocus = active !== null && active !== target && active !== container && container.contains(active);
        if (dialogOpen() || pageChoseFocus) return;
        // A heading takes focus from script only; it stays out of the Tab order.
        if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
        target.focus({ preventScroll: true });
        window.scrollTo({ top: 0 });
      }, 0);
    };
    const tryHeading = () => {
      const heading = container.querySelector<HTMLElement>('h1');
      if (heading) focus(heading);
    };
    const observer = new MutationObserver(tryHeading);
    observer.observe(container, { childList: true, subtree: true });
    const giveUp = window.setTimeout(() => focus(container), HEADING_WAIT_MS);
    // The user acting while the page loads keeps the focus they chose.
    document.addEventListener('keydown', stop, true);
    document.addEventListener('pointerdown', stop, true);
    tryHeading();
    return stop;
    // Search changes (filters, pages of a list) are not new pages: only the path counts.
  }, [pathname, firstPage, main]);
}
