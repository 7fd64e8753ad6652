// Builds the two bundles of the product:
// - dist/server/main.js: the Node process (bot + HTTP + sandbox), dependencies left external;
// - dist/server/backup.js: `npm run backup`, a copy of the SQLite store made while the bot runs;
// - dist/server/writer.js: the store writer's thread, which main.js starts (src/db/writer.ts);
// - dist/web/: the dashboard, ESM with code splitting, minified, hashed names, a manifest,
//   and index.html rewritten to point at the hashed entry files (source maps only with --watch).
//
// A first pass learns the lazy modules; in the real build each imports what always runs before it
// (alwaysLoadedFirstPlugin), so the entry's and the signed-in shell's code are one chunk each.
// After esbuild, the web build's files are finished here (webOutputPlugin): every lazy import
// first preloads the chunks it will need, all at once (preloadChunkGraphs); index.html preloads
// the entry's chunks; and each text asset gets a brotli (.br) and a gzip (.gz) copy for
// src/http/static.ts to send to clients that accept them (not with --watch).
import * as esbuild from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const root = path.dirname(fileURLToPath(import.meta.url));
const outServer = path.join(root, 'dist/server');
const outWeb = path.join(root, 'dist/web');
const watch = process.argv.includes('--watch');

/** The global function web/boot.ts defines, which rewritten lazy imports call (see preloadChunkGraphs). */
const PRELOAD_FUNCTION = '__preloadChunks';
/** Assets worth compressing; images and fonts in these formats are compressed already. */
const COMPRESSIBLE = /\.(js|css|svg|json|txt)$/;

/** @type {esbuild.BuildOptions} */
const serverOptions = {
  entryPoints: {
    main: path.join(root, 'src/main.ts'),
    backup: path.join(root, 'src/backup.ts'),
    writer: path.join(root, 'src/writer.ts'),
    sandbox: path.join(root, 'src/sandbox-server.ts'),
  },
  outdir: outServer,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

/**
 * `import { X, Y } from 'lucide-react'` resolves, for each importing file, to a module that
 * defines just icons X and Y, copied from their own files (each is a few hundred bytes of path
 * data). esbuild splits code by which entry points reach a module: through the package's index,
 * every icon any page uses would load with the first page; imported from their own files, each
 * icon shared by a different set of pages would be a file of its own, one more request. Copied
 * into each importer, an icon travels with the code that shows it.
 */
const lucideIconsPlugin = {
  name: 'lucide-icons',
  setup(build) {
    /** @type {Promise<Map<string, string | null>> | undefined} see readLucideIndex */
    let icons;
    /** @type {Map<string, Promise<string>>} icon file -> its data object's source */
    const iconData = new Map();
    build.onResolve({ filter: /^lucide-react$/ }, (args) => ({ path: args.importer, namespace: 'lucide-icons' }));
    build.onLoad({ filter: /.*/, namespace: 'lucide-icons' }, async (args) => {
      icons ??= readLucideIndex();
      const byName = await icons;
      const source = await readFile(args.path, 'utf8');
      const lines = ["import createLucideIcon from 'lucide-react/dist/esm/createLucideIcon.mjs';"];
      for (const name of importedNames(source, 'lucide-react')) {
        const file = byName.get(name);
        // A name the index does not export is a type (erased from the importer).
        if (file === undefined) continue;
        if (file === null) {
          lines.push(`export { ${name} } from 'lucide-react/dist/esm/lucide-react.mjs';`);
          continue;
        }
        if (!iconData.has(file)) iconData.set(file, readIconData(file));
        lines.push(`export const ${name} = /* @__PURE__ */ createLucideIcon(${await iconData.get(file)});`);
      }
      return { contents: lines.join('\n'), resolveDir: root, loader: 'js', watchFiles: [args.path] };
    });
  },
};

const lucideDir = path.join(root, 'node_modules/lucide-react/dist/esm');

/**
 * Reads lucide-react's index: for each value it exports, the icon's file (an icon) or null
 * (anything else: Icon, createLucideIcon, LucideProvider...). Types are not in it.
 */
async function readLucideIndex() {
  const index = await readFile(path.join(lucideDir, 'lucide-react.mjs'), 'utf8');
  const byName = new Map();
  for (const [, names = '', from = ''] of index.matchAll(/^export \{([^}]*)\}(?: from '([^']+)')?;$/gm)) {
    const icon = /^\.\/icons\/[\w-]+\.mjs$/.test(from) ? path.join(lucideDir, from) : null;
    for (const specifier of names.split(',')) {
      const name = specifier
        .trim()
        .split(/\s+as\s+/)
        .at(-1);
      if (name) byName.set(name, icon);
    }
  }
  if (![...byName.values()].some(Boolean)) throw new Error('lucide-react: no icons found in its index; its layout changed (see lucideIconsPlugin)');
  return byName;
}

/** The `{ name, size, node }` object literal an icon's file passes to createLucideIcon. */
async function readIconData(file) {
  const source = await readFile(file, 'utf8');
  const data = /^const __iconData = (\{[\s\S]*?^\});$/m.exec(source)?.[1];
  if (!data) throw new Error(`${file}: no __iconData object; lucide-react's layout changed (see lucideIconsPlugin)`);
  return data;
}

/** The value names `source` imports from `specifier` (type-only imports left out). */
function importedNames(source, specifier) {
  const names = new Set();
  const pattern = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${specifier}['"]`, 'g');
  for (const [, list = ''] of source.matchAll(pattern)) {
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return [...names];
}

/** The web build's output graph, from its metafile: files, their static imports, public paths. */
function chunkGraph(metafile) {
  const outputs = metafile.outputs;
  const publicPath = (file) => '/' + path.relative(outWeb, path.join(root, file)).split(path.sep).join('/');
  /** Every file `file` imports statically, directly or not (without itself). */
  const staticClosure = (file, seen = new Set()) => {
    for (const { path: imported, kind } of outputs[file]?.imports ?? []) {
      if (kind !== 'import-statement' || seen.has(imported)) continue;
      seen.add(imported);
      staticClosure(imported, seen);
    }
    return seen;
  };
  const byEntryPoint = new Map(
    Object.entries(outputs)
      .filter(([, output]) => output.entryPoint)
      .map(([file, output]) => [output.entryPoint, file]),
  );
  return { outputs, publicPath, staticClosure, byEntryPoint };
}

/**
 * Rewrites each lazy `import("./chunk.js")` in `code` (the output `file`) to first preload that
 * chunk and every chunk it imports that `file` has not loaded already, in parallel: without it the
 * browser learns of each level of imports only once the level above has arrived (a waterfall).
 */
function preloadChunkGraphs(file, code, graph) {
  const loaded = graph.staticClosure(file);
  let rewritten = code;
  for (const { path: target, kind } of graph.outputs[file]?.imports ?? []) {
    if (kind !== 'dynamic-import') continue;
    let specifier = path.posix.relative(path.posix.dirname(file), target);
    if (!specifier.startsWith('.')) specifier = `./${specifier}`;
    const chunks = [target, ...graph.staticClosure(target)].filter((chunk) => !loaded.has(chunk)).map(graph.publicPath);
    const call = `import(${JSON.stringify(specifier)})`;
    if (!rewritten.includes(call)) throw new Error(`${file}: no ${call} to preload for; esbuild's output changed (see preloadChunkGraphs)`);
    rewritten = rewritten.replaceAll(call, `(globalThis.${PRELOAD_FUNCTION}?.(${JSON.stringify(chunks)}),${call})`);
  }
  return rewritten;
}

/** Writes a file's brotli and gzip copies at their strongest settings, each only when smaller. */
async function writeCompressed(file, contents) {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: contents.length };
  const [br, gz] = await Promise.all([brotli(contents, { params }), gzip(contents, { level: zlib.constants.Z_BEST_COMPRESSION })]);
  await Promise.all([
    br.length < contents.length ? writeFile(`${file}.br`, br) : undefined,
    gz.length < contents.length ? writeFile(`${file}.gz`, gz) : undefined,
  ]);
}

/**
 * Finishes the web build (written here: esbuild runs with write: false): lazy imports preload
 * their chunks, then the files, their compressed copies, manifest.json (per entry point and lazy
 * chunk: its file, CSS and every chunk it imports), esbuild's metafile and index.html, which links the entry's CSS,
 * preloads the entry's chunks and loads boot before main. index.html itself is not precompressed:
 * the server writes each response's CSP nonce into it, and compresses it per response.
 */
const webOutputPlugin = {
  name: 'web-output',
  setup(build) {
    build.onEnd(async (result) => {
      if (!result.metafile || !result.outputFiles) return;
      const graph = chunkGraph(result.metafile);
      const written = await Promise.all(
        result.outputFiles.map(async (output) => {
          const file = path.relative(root, output.path).split(path.sep).join('/');
          const contents = file.endsWith('.js') ? Buffer.from(preloadChunkGraphs(file, output.text, graph)) : Buffer.from(output.contents);
          await mkdir(path.dirname(output.path), { recursive: true });
          await writeFile(output.path, contents);
          return { path: output.path, contents };
        }),
      );
      if (!watch) await Promise.all(written.filter((output) => COMPRESSIBLE.test(output.path)).map((output) => writeCompressed(output.path, output.contents)));

      const manifest = {};
      for (const [entryPoint, file] of graph.byEntryPoint) {
        const output = graph.outputs[file];
        manifest[entryPoint] = {
          file: graph.publicPath(file),
          css: output?.cssBundle ? graph.publicPath(output.cssBundle) : undefined,
          imports: [...graph.staticClosure(file)].map(graph.publicPath),
        };
      }
      const entry = manifest['web/main.tsx'];
      const boot = manifest['web/boot.ts'];
      if (!entry || !boot) return;
      await writeFile(path.join(outWeb, 'manifest.json'), JSON.stringify(manifest, null, 2));
      // For tests and page-weight checks (not served: only /assets/ and the page are).
      await writeFile(path.join(outWeb, 'metafile.json'), JSON.stringify(result.metafile));
      const template = await readFile(path.join(root, 'web/index.html'), 'utf8');
      // boot first: module scripts run in document order (see web/boot.ts).
      const tags = [
        entry.css ? `<link rel="stylesheet" href="${entry.css}">` : '',
        ...[...new Set([...boot.imports, ...entry.imports])].map((chunk) => `<link rel="modulepreload" href="${chunk}">`),
        `<script type="module" src="${boot.file}"></script>`,
        `<script type="module" src="${entry.file}"></script>`,
      ]
        .filter(Boolean)
        .join('\n    ');
      await writeFile(path.join(outWeb, 'index.html'), template.replace('<!-- assets -->', tags));
    });
  },
};

/**
 * esbuild puts each module in a chunk by the set of entry points (the entries and every lazy
 * import) that reach it, so code shared by the entry and by different sets of lazy pages ended in
 * dozens of small chunks: some 50 files before a signed-in page could show, six at a time over
 * HTTP/1.1, each a round trip on a slow link. Every lazy module is made to import, besides its own
 * code, the module that always runs before it (the signed-in routes; for those, the entry), and
 * the signed-in routes import every module that more than one lazy module uses. A module is then
 * in one of three sets: the entry's closure (reached by every entry point), the signed-in shell's
 * (reached by the shell and every lazy module) or one lazy module's own: one chunk each, and a
 * page loads the entry's chunk, the shell's and its own. The cost: the few signed-out pages that
 * are lazy (the OAuth callback, the appeal sign-in, the test login) load the shell's code too.
 * Nothing runs twice: the browser evaluates a module once, and these have run when a page loads.
 * The charts' code (recharts, see web/components/lazy-charts.tsx) stays apart: it is not counted
 * as shared, so only a page that shows a chart loads it.
 */
function alwaysLoadedFirstPlugin(targets) {
  return {
    name: 'always-loaded-first',
    setup(build) {
      build.onLoad({ filter: /[\\/]web[\\/].*\.tsx?$/, namespace: 'file' }, async (args) => {
        const module = path.relative(root, args.path).split(path.sep).join('/');
        const before = targets.get(module);
        if (!before) return undefined;
        const source = await readFile(args.path, 'utf8');
        // A namespace re-export, not a bare import: esbuild drops a bare import of a package marked
        // free of side effects, and the module would stay in the chunks of the pages that use it.
        const imports = before.map((imported, index) => `export * as __loadedFirst${index} from ${JSON.stringify(path.join(root, imported))};`).join('\n');
        return {
          contents: `${source}\n${imports}\n`,
          loader: module.endsWith('x') ? 'tsx' : 'ts',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

/**
 * The lazy modules of the dashboard and what each must import (see alwaysLoadedFirstPlugin), from
 * a first build's module graph: the signed-in routes for every lazy module, the entry for the
 * signed-in routes, which also import each module two or more lazy modules (charts left out) use.
 */
async function lazyModules() {
  const { metafile } = await esbuild.build({ ...webOptions, minify: false, write: false, plugins: [lucideIconsPlugin] });
  const inputs = metafile.inputs;
  const closure = (module, seen = new Set()) => {
    if (seen.has(module)) return seen;
    seen.add(module);
    for (const { path: imported, kind } of inputs[module]?.imports ?? []) if (kind === 'import-statement') closure(imported, seen);
    return seen;
  };
  const lazy = new Set();
  const charts = new Set();
  for (const [importer, input] of Object.entries(inputs)) {
    for (const { path: target, kind } of input.imports) {
      if (kind !== 'dynamic-import' || !target.startsWith('web/')) continue;
      lazy.add(target);
      if (importer === CHARTS) charts.add(target);
    }
  }
  const shell = new Set([...closure(ENTRY), ...closure(SIGNED_IN)]);
  const users = new Map();
  for (const module of lazy) {
    if (module === SIGNED_IN || charts.has(module)) continue;
    for (const used of closure(module)) if (!shell.has(used) && used !== module) users.set(used, (users.get(used) ?? 0) + 1);
  }
  // Plugin namespaces (lucide-icons:...) are imported through their importer, not by path.
  const shared = [...users].filter(([module, count]) => count > 1 && !module.includes(':') && /\.[cm]?[jt]sx?$/.test(module)).map(([module]) => module);
  if (process.env.DEBUG_CHUNKS) console.log(shared);
  const targets = new Map();
  for (const module of lazy) targets.set(module, module === SIGNED_IN ? [ENTRY, ...shared] : [SIGNED_IN]);
  return targets;
}

const ENTRY = 'web/main.tsx';
const CHARTS = 'web/components/lazy-charts.tsx';
const SIGNED_IN = 'web/signed-in-routes.tsx';

/** @type {esbuild.BuildOptions} */
const webOptions = {
  entryPoints: [path.join(root, 'web/boot.ts'), path.join(root, 'web/main.tsx')],
  outdir: path.join(outWeb, 'assets'),
  outbase: root,
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  minify: !watch,
  // Maps only for `npm run dev`: a production build must not publish the full source.
  sourcemap: watch,
  metafile: true,
  write: false,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'media/[name]-[hash]',
  jsx: 'automatic',
  loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
  define: { 'process.env.NODE_ENV': JSON.stringify(watch ? 'development' : 'production') },
  logLevel: 'warning',
  plugins: [lucideIconsPlugin, webOutputPlugin],
};

await rm(path.join(root, 'dist'), { recursive: true, force: true });
await mkdir(outWeb, { recursive: true });

if (watch) {
  const contexts = await Promise.all([esbuild.context(serverOptions), esbuild.context(webOptions)]);
  await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching src/ and web/; the server restarts when its bundle changes');
  // node --watch restarts the process whenever the server bundle is rewritten.
  const { spawn } = await import('node:child_process');
  const server = spawn(process.execPath, ['--enable-source-maps', '--watch-path=dist/server', 'dist/server/main.js'], {
    cwd: root,
    stdio: 'inherit',
  });
  const stop = () => {
    server.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  const web = { ...webOptions, plugins: [alwaysLoadedFirstPlugin(await lazyModules()), ...webOptions.plugins] };
  await Promise.all([esbuild.build(serverOptions), esbuild.build(web)]);
}
