// The shape of the code, checked: no import cycles (madge, type imports included), features reach
// the HTTP face only through the route helper and each other only through a public.ts, nothing
// below the features imports them, src/shared stays free of Node, discord.js and Sequelize, and
// the dashboard imports nothing from the server but src/shared.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import madge from 'madge';

const root = path.resolve(import.meta.dirname, '..');

/** Every .ts/.tsx file under a folder, relative to the repo, with its import specifiers. */
async function imports(dir: string): Promise<{ file: string; specifiers: string[] }[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts'));
  return Promise.all(
    files.map(async (entry) => {
      const file = path.relative(root, path.join(entry.parentPath, entry.name));
      const text = await readFile(path.join(root, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g)].map((match) => match[1] ?? '');
      return { file, specifiers };
    }),
  );
}

/** The repo-relative path an import resolves to (without extension). */
function resolved(file: string, specifier: string): string {
  return specifier.startsWith('.') ? path.relative(root, path.resolve(root, path.dirname(file), specifier)) : specifier;
}

test('no import cycles in src and web, type imports included', async () => {
  const result = await madge(['src', 'web'], {
    baseDir: root,
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  assert.deepEqual(result.circular(), []);
});

/** The feature a repo-relative path belongs to (src/features/<name>/...), or null. */
function featureOf(target: string): string | null {
  return /^src\/features\/([^/]+)\//.exec(target)?.[1] ?? null;
}

test("a feature imports another feature only through that feature's public.ts", async () => {
  const offenders: string[] = [];
  for (const { file, specifiers } of await imports('src/features')) {
    const own = featureOf(file);
    for (const specifier of specifiers) {
      const target = resolved(file, specifier);
      const other = featureOf(target);
      if (own && other && other !== own && target !== `src/features/${other}/public`) offenders.push(`${file} imports ${specifier}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('nothing below the features imports them: only the composition roots (main.ts, write-jobs.ts) and the feature list do', async () => {
  const roots = new Set(['src/main.ts', 'src/write-jobs.ts', 'src/features/index.ts']);
  const offenders: string[] = [];
  for (const { file, specifiers } of await imports('src')) {
    if (roots.has(file) || featureOf(file)) continue;
    for (const specifier of specifiers) if (resolved(file, specifier).startsWith('src/features/')) offenders.push(`${file} imports ${specifier}`);
  }
  assert.deepEqual(offenders, []);
});

test('the sandbox Discord uses nothing of the product but the clock and src/shared', async () => {
  const offenders: string[] = [];
  for (const { file, specifiers } of await imports('src/sandbox')) {
    for (const specifier of specifiers) {
      const target = resolved(file, specifier);
      if (target.startsWith('src/') && !target.startsWith('src/sandbox/') && !target.startsWith('src/shared/') && target !== 'src/core/clock') {
        offenders.push(`${file} imports ${specifier}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

test("features reach a guild's rows through Store.guild(id); across guilds only by a query named in src/db/cross-guild.ts", async () => {
  // Accounts, sessions and the bot-wide status belong to no guild.
  const notGuilds = new Set(['Account', 'Session', 'AppSetting']);
  const offenders: string[] = [];
  for (const { file } of await imports('src/features')) {
    const text = await readFile(path.join(root, file), 'utf8');
    for (const match of text.matchAll(/\.models\.([A-Z]\w*)/g)) if (!notGuilds.has(match[1] ?? '')) offenders.push(`${file}: models.${match[1]}`);
    if (text.includes('new GuildScope(')) offenders.push(`${file}: new GuildScope (use services.store.guild(id))`);
  }
  assert.deepEqual(offenders, []);
});

test('features keep no module-level state: no WeakMap keyed by the services (a FeatureState instead)', async () => {
  const offenders: string[] = [];
  for (const { file } of await imports('src/features')) {
    if (/WeakMap<Services\b/.test(await readFile(path.join(root, file), 'utf8'))) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
});

test('features import from src/http only the route helper', async () => {
  for (const { file, specifiers } of await imports('src/features')) {
    for (const specifier of specifiers) {
      const target = resolved(file, specifier);
      if (target.startsWith('src/http')) assert.equal(target, 'src/http/route', `${file} imports ${specifier}`);
    }
  }
});

test('src/shared imports nothing but zod and itself; web imports only src/shared from the server', async () => {
  for (const { file, specifiers } of await imports('src/shared')) {
    for (const specifier of specifiers) assert.ok(specifier === 'zod' || specifier.startsWith('./'), `${file} imports ${specifier}`);
  }
  for (const { file, specifiers } of await imports('web')) {
    for (const specifier of specifiers) {
      const target = resolved(file, specifier);
      if (target.startsWith('src/')) assert.ok(target.startsWith('src/shared/'), `${file} imports ${specifier}`);
    }
  }
});

test("the store writer's thread (src/writer.ts) loads no Sequelize, discord.js or zod: only Node and the two drivers", async () => {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'src/writer.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const externals = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
  assert.deepEqual([...new Set(externals)].sort(), ['node:worker_threads', 'pg', 'sqlite3']);
});

/** Every source file of the repository's code folders. */
async function sourceFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ['src', 'web', 'test', 'scripts']) {
    const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile() || entry.parentPath.includes(`${path.sep}.out`) || entry.parentPath.includes('node_modules')) continue;
      found.push(path.relative(root, path.join(entry.parentPath, entry.name)));
    }
  }
  return found;
}

test('file names are kebab-case (README and LICENSE aside)', async () => {
  const offenders = (await sourceFiles()).filter((file) => {
    const name = path.basename(file);
    return !['README.md', 'LICENSE', '.gitignore'].includes(name) && !/^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+)*$/.test(name);
  });
  assert.deepEqual(offenders, []);
});

test('no line of code is over 160 characters', async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles()) {
    if (!/\.(?:ts|tsx|mjs|css)$/.test(file)) continue;
    const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
    lines.forEach((line, index) => {
      if (line.length > 160) offenders.push(`${file}:${index + 1} (${line.length})`);
    });
  }
  assert.deepEqual(offenders, []);
});
