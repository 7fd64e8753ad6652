// Times a dashboard route as a slow phone sees it (issue 26, point 6): Chromium's emulation of a
// 4x slower CPU (Emulation.setCPUThrottlingRate) on a 1.6 Mbit/s down, 750 kbit/s up, 150 ms
// round-trip link (Network.emulateNetworkConditions), in a fresh browser context (nothing cached).
//
// The page's main content counts as shown at the first moment its <h1> is inside <main> and
// nothing in <main> is still a skeleton or marked aria-busy="true": the page's code has arrived
// and its first data with it. Checked on every change of the document (a MutationObserver
// installed before the page's own scripts), so the time is when the DOM got there, taken in the
// page's own clock from navigation start.
//
// Requests and bytes "before the main content" are those the browser started before that moment
// (the document included), bytes as on the wire (headers and compressed bodies, Chromium's
// encodedDataLength), counted when each finishes even if after the moment.
import type { Browser, BrowserContext } from 'playwright-core';

/** The slow phone: CPU slowdown, link speeds in bytes/s and round trip. */
export const SLOW_PHONE = { cpuRate: 4, downBytesPerSecond: 1_600_000 / 8, upBytesPerSecond: 750_000 / 8, rttMs: 150 };

/** One timed load of a route. */
export interface RouteTiming {
  /** Navigation start until the main content showed, ms. */
  mainMs: number;
  /** Requests started before it (the document included). */
  requests: number;
  /** Their bytes on the wire. */
  bytes: number;
  /** The URL paths of those requests, in the order they started. */
  urls: string[];
  /** Those requests in order: path, resource type, bytes on the wire, start and end (ms from navigation start). */
  list: { url: string; type: string; bytes: number; startMs: number; endMs: number }[];
}

/**
 * Installs the "main content shown" check in the page, before its own scripts. A string, not a
 * function: tsx wraps named functions in a helper the page does not have.
 */
const MARKER_SCRIPT = `(() => {
  const marks = { main: -1 };
  globalThis.__mainContent = marks;
  const shown = () => {
    const main = document.querySelector('main');
    return !!main && !!main.querySelector('h1') && !main.querySelector('.skeleton, .page-skeleton, [aria-busy="true"]');
  };
  new MutationObserver((_, observer) => {
    if (!shown()) return;
    marks.main = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy', 'class'] });
})();`;

/**
 * Opens `pathname` in a fresh context (signed in when `storageState` is given) on the slow phone
 * and answers when its main content showed and what was asked for before.
 */
export async function timeRoute(
  browser: Browser,
  options: {
    baseURL: string;
    pathname: string;
    viewport: { width: number; height: number };
    storageState?: Awaited<ReturnType<BrowserContext['storageState']>>;
  },
): Promise<RouteTiming> {
  const context = await browser.newContext({ viewport: options.viewport, baseURL: options.baseURL, storageState: options.storageState });
  try {
    await context.addInitScript({ content: MARKER_SCRIPT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const started = new Map<string, { wallMs: number; timestamp: number; url: string; type: string }>();
    const bytes = new Map<string, number>();
    const finished = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (event) => {
      if (!started.has(event.requestId))
        started.set(event.requestId, { wallMs: event.wallTime * 1000, timestamp: event.timestamp, url: event.request.url, type: event.type ?? '' });
    });
    cdp.on('Network.loadingFinished', (event) => {
      bytes.set(event.requestId, event.encodedDataLength);
      finished.set(event.requestId, event.timestamp);
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_PHONE.rttMs,
      downloadThroughput: SLOW_PHONE.downBytesPerSecond,
      uploadThroughput: SLOW_PHONE.upBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuRate });
    await page.goto(options.pathname, { waitUntil: 'commit' });
    await page.waitForFunction(() => ((globalThis as { __mainContent?: { main: number } }).__mainContent?.main ?? -1) >= 0, undefined, {
      timeout: 60_000,
      polling: 100,
    });
    const { mainMs, origin } = await page.evaluate(() => ({
      mainMs: (globalThis as unknown as { __mainContent: { main: number } }).__mainContent.main,
      origin: performance.timeOrigin,
    }));
    // Let what was under way finish, so its bytes are known.
    await page.waitForLoadState('load');
    await page.waitForTimeout(1_500);
    const shownAt = origin + mainMs;
    const before = [...started].filter(([, request]) => request.wallMs <= shownAt).sort(([, a], [, b]) => a.wallMs - b.wallMs);
    return {
      mainMs: Math.round(mainMs),
      requests: before.length,
      bytes: before.reduce((sum, [id]) => sum + (bytes.get(id) ?? 0), 0),
      urls: before.map(([, request]) => new URL(request.url).pathname),
      list: before.map(([id, request]) => {
        // CDP timestamps are monotonic seconds; wallTime anchors the request's start to the page's clock.
        const startMs = request.wallMs - origin;
        const end = finished.get(id);
        return {
          url: new URL(request.url).pathname + new URL(request.url).search,
          type: request.type,
          bytes: bytes.get(id) ?? 0,
          startMs: Math.round(startMs),
          endMs: end === undefined ? -1 : Math.round(startMs + (end - request.timestamp) * 1000),
        };
      }),
    };
  } finally {
    await context.close();
  }
}
