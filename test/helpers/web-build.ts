// The built dashboard (dist/web, from `npm run build`) as its metafile describes it: which files
// a route loads, and what went into them.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Metafile } from 'esbuild';

/** dist/web. */
export const webRoot = path.resolve(import.meta.dirname, '../../dist/web');

/** The web build's metafile and the routes it can answer for. */
export interface WebBuild {
  metafile: Metafile;
  /** A built file's URL path, e.g. /assets/chunks/Login-ABC.js. */
  publicPath(output: string): string;
  /** The output (metafile key) built for a source entry point or lazy import (e.g. web/pages/dashboard.tsx), or holding a module bundled into another. */
  outputOf(module: string): string;
  /** Every output `output` imports statically, directly or not, itself included. */
  staticGraph(output: string): Set<string>;
  /** What a page showing `pages` loads: boot, main (its CSS too), each page's output, and what they import. */
  routeFiles(pages: readonly string[]): Set<string>;
}

/** Reads dist/web/metafile.json; fails with what to do when the dashboard is not built. */
export async function readWebBuild(): Promise<WebBuild> {
  const file = path.join(webRoot, 'metafile.json');
  if (!existsSync(file)) throw new Error('dist/web/metafile.json is missing: run `npm run build` first');
  const metafile = JSON.parse(await readFile(file, 'utf8')) as Metafile;
  const repoRoot = path.resolve(webRoot, '../..');
  const publicPath = (output: string) => '/' + path.relative(webRoot, path.join(repoRoot, output)).split(path.sep).join('/');
  const outputOf = (module: string) => {
    const outputs = Object.entries(metafile.outputs);
    const found = outputs.find(([, output]) => output.entryPoint === module) ?? outputs.find(([, output]) => module in output.inputs);
    if (!found) throw new Error(`the build has no output with ${module}`);
    return found[0];
  };
  const staticGraph = (output: string, seen = new Set<string>()) => {
    if (seen.has(output)) return seen;
    seen.add(output);
    for (const { path: imported, kind } of metafile.outputs[output]?.imports ?? []) {
      if (kind === 'import-statement') staticGraph(imported, seen);
    }
    return seen;
  };
  const routeFiles = (pages: readonly string[]) => {
    const files = new Set<string>();
    for (const entryPoint of ['web/boot.ts', 'web/main.tsx', ...pages]) {
      const output = outputOf(entryPoint);
      for (const file of staticGraph(output)) files.add(file);
      const css = metafile.outputs[output]?.cssBundle;
      if (css) files.add(css);
    }
    return files;
  };
  return { metafile, publicPath, outputOf, staticGraph, routeFiles };
}
