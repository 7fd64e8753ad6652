// The product as `npm run build` makes it, built in a temporary copy of the sources so that tests
// running at the same time keep the repo's dist/ (the build empties it first).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** A built copy: `dir` holds package.json, node_modules (linked) and dist/. */
export interface BuiltProduct {
  dir: string;
  dispose(): Promise<void>;
}

/** Copies what the build reads, links node_modules, and runs the build there. */
export async function buildProduct(): Promise<BuiltProduct> {
  const dir = await mkdtemp(path.join(tmpdir(), 'built-product-'));
  for (const source of ['package.json', 'tsconfig.json', 'esbuild.config.mjs', 'src', 'web']) {
    await cp(path.join(root, source), path.join(dir, source), { recursive: true });
  }
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await run(process.execPath, ['esbuild.config.mjs'], { cwd: dir });
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
