// Builds the two bundles of the product:
// - dist/server/main.js: the Node process (bot + HTTP + sandbox), dependencies left external;
// - dist/server/backup.js: `npm run backup`, a copy of the SQLite store made while the bot runs;
// - dist/web/: the dashboard, ESM with code splitting, minified, hashed names, a manifest,
//   and index.html rewritten to point at the hashed entry files (source maps only with --watch).
import * as esbuild from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const outServer = path.join(root, 'dist/server');
const outWeb = path.join(root, 'dist/web');
const watch = process.argv.includes('--watch');

/** @type {esbuild.BuildOptions} */
const serverOptions = {
  entryPoints: { main: path.join(root, 'src/main.ts'), backup: path.join(root, 'src/backup.ts') },
  outdir: outServer,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

/** Writes manifest.json and index.html from the web build's metafile. */
const webManifestPlugin = {
  name: 'web-manifest',
  setup(build) {
    build.onEnd(async (result) => {
      if (!result.metafile) return;
      const manifest = {};
      for (const [file, output] of Object.entries(result.metafile.outputs)) {
        if (!output.entryPoint) continue;
        const publicPath = '/' + path.relative(outWeb, path.join(root, file)).split(path.sep).join('/');
        manifest[output.entryPoint] = { file: publicPath, css: output.cssBundle ? '/' + path.relative(outWeb, path.join(root, output.cssBundle)).split(path.sep).join('/') : undefined };
      }
      const entry = manifest['web/main.tsx'];
      const boot = manifest['web/boot.ts'];
      if (!entry || !boot) return;
      await writeFile(path.join(outWeb, 'manifest.json'), JSON.stringify(manifest, null, 2));
      const template = await readFile(path.join(root, 'web/index.html'), 'utf8');
      // boot first: module scripts run in document order (see web/boot.ts).
      const tags = [
        entry.css ? `<link rel="stylesheet" href="${entry.css}">` : '',
        `<script type="module" src="${boot.file}"></script>`,
        `<script type="module" src="${entry.file}"></script>`,
      ].filter(Boolean).join('\n    ');
      await writeFile(path.join(outWeb, 'index.html'), template.replace('<!-- assets -->', tags));
    });
  },
};

/** @type {esbuild.BuildOptions} */
const webOptions = {
  entryPoints: [path.join(root, 'web/boot.ts'), path.join(root, 'web/main.tsx')],
  outdir: path.join(outWeb, 'assets'),
  outbase: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  minify: !watch,
  // Maps only for `npm run dev`: a production build must not publish the full source.
  sourcemap: watch,
  metafile: true,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'media/[name]-[hash]',
  jsx: 'automatic',
  loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
  define: { 'process.env.NODE_ENV': JSON.stringify(watch ? 'development' : 'production') },
  logLevel: 'warning',
  plugins: [webManifestPlugin],
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
  await Promise.all([esbuild.build(serverOptions), esbuild.build(webOptions)]);
}
