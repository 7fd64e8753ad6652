// Work the first screen does not need (the toast code, the header's health check) waits until the
// page has loaded and the browser has a quiet moment: on a slow phone each request before the main
// content shares the link with the page's own code and data (issue 26, point 6).

/** How long a busy page makes such work wait at most once loaded, ms. */
const IDLE_TIMEOUT_MS = 1_000;

/** Runs `task` once after the window's load event and the next idle moment; answers a cancel. */
export function afterLoad(task: () => void): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  const idle = () => {
    if (cancelled) return;
    if (typeof requestIdleCallback === 'function') idleHandle = requestIdleCallback(() => !cancelled && task(), { timeout: IDLE_TIMEOUT_MS });
    else idleHandle = window.setTimeout(() => !cancelled && task(), 0);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', idle);
    if (idleHandle === undefined) return;
    if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idleHandle);
    else window.clearTimeout(idleHandle);
  };
}
