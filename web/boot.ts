// The dashboard's first script, its own <script> tag ahead of main's: module scripts run in
// document order, so this runs before any module of the dashboard is evaluated.

// zod 4 probes `new Function` to compile fast parsers when a schema is built, and a strict
// Content-Security-Policy (no eval) reports that probe as a violation even though zod catches it.
// zod reads its configuration from this global, so it must exist before zod loads. The
// dashboard parses small answers; zod's interpreter is plenty.
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };

// Every lazy import() in the built files first calls this with the chunks it is about to need
// (esbuild.config.mjs writes the list), so the browser fetches them all at once instead of one
// level of imports after another. Chunks already preloaded, or linked by index.html, are skipped.
const preloaded = new Set(
  [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel="modulepreload"], script[type="module"][src]')].map(
    (element) => new URL(element instanceof HTMLLinkElement ? element.href : element.src, document.baseURI).pathname,
  ),
);

/** Adds a <link rel="modulepreload"> for each chunk not asked for yet. */
function preloadChunks(chunks: readonly string[]): void {
  for (const chunk of chunks) {
    if (preloaded.has(chunk)) continue;
    preloaded.add(chunk);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = chunk;
    document.head.append(link);
  }
}
(globalThis as { __preloadChunks?: typeof preloadChunks }).__preloadChunks = preloadChunks;
