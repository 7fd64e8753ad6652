// The dashboard's first script, its own <script> tag ahead of main's: module scripts run in
// document order, so this runs before any module of the dashboard is evaluated.
//
// zod 4 probes `new Function` to compile fast parsers when a schema is built, and a strict
// Content-Security-Policy (no eval) reports that probe as a violation even though zod catches it.
// zod reads its configuration from this global, so it must exist before zod loads. The
// dashboard parses small answers; zod's interpreter is plenty.
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };
