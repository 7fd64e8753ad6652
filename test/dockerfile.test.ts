// No Docker engine runs here, so this test reads the Dockerfile and mirrors its steps:
// every file it copies exists and is not docker-ignored, every script it runs exists, the
// build stage's commands produce what the runtime stage copies, the runtime starts from
// exactly those files with the image's environment and nothing else (`docker run -p 3000:3000`,
// the README's demo), its HEALTHCHECK command passes against it, a browser signs in through
// the published port alone, and the sandbox's control API is not reachable through that port.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { signInThroughDashboard } from './helpers/dashboard-signin';
import { outsideAddress } from './helpers/network';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name: string;
  instructions: Instruction[];
}

/** Splits the Dockerfile into stages of instructions, joining continued lines. */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op.toUpperCase() === 'FROM') {
      const [from = '', , name = ''] = args.split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

/** An ENV instruction's variables (`ENV A=1 B=2`). */
function envOf(stage: Stage | undefined): Record<string, string> {
  const pairs = (stage?.instructions ?? []).filter((i) => i.op === 'ENV').flatMap((i) => i.args.split(/\s+/));
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** COPY arguments without flags: sources then destination. */
function copyPaths(args: string): { flags: string[]; sources: string[]; dest: string } {
  const parts = args.split(/\s+/);
  const flags = parts.filter((part) => part.startsWith('--'));
  const paths = parts.filter((part) => !part.startsWith('--'));
  return { flags, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
}

describe('Dockerfile', async () => {
  const dockerfile = await readFile(path.join(root, 'Dockerfile'), 'utf8');
  const stages = parseDockerfile(dockerfile);
  const ignored = (await readFile(path.join(root, '.dockerignore'), 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [build, runtime] = stages;

  test('has a build stage and a slim runtime stage on a current LTS Node image', () => {
    assert.equal(stages.length, 2);
    for (const stage of stages) {
      const major = Number(/^node:(\d+)-/.exec(stage.from)?.[1]);
      assert.ok(major >= 22 && major % 2 === 0, `${stage.from} is an LTS Node image`);
    }
    assert.match(runtime?.from ?? '', /slim/);
  });

  test('every file the build stage copies exists in the context and is not docker-ignored', () => {
    for (const { op, args } of build?.instructions ?? []) {
      if (op !== 'COPY') continue;
      for (const source of copyPaths(args).sources) {
        assert.ok(existsSync(path.join(root, source)), `${source} exists`);
        assert.ok(!ignored.includes(source), `${source} is not in .dockerignore`);
      }
    }
  });

  test('the image needs no variable for the offline demo: it publishes the port it listens on, and the README runs it so first', async () => {
    const env = envOf(runtime);
    assert.ok(
      runtime?.instructions.some((i) => i.op === 'EXPOSE' && i.args.split(/\s+/).includes(env.PORT ?? '')),
      `EXPOSE ${env.PORT}`,
    );
    for (const name of ['DISCORD_TOKEN', 'PUBLIC_URL', 'SANDBOX_PORT', 'SESSION_SECRET']) assert.equal(env[name], undefined, `the image sets no ${name}`);
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const docker = readme.slice(readme.indexOf('## Docker'));
    const firstRun = /docker run[^\n]*/.exec(docker)?.[0] ?? '';
    assert.match(firstRun, new RegExp(`-p ${env.PORT}:${env.PORT}`), 'the demo publishes the port PUBLIC_URL defaults to');
    assert.doesNotMatch(firstRun, /\s-e\s/, 'the demo sets no variable');
  });

  /** The packages each `apt-get install` of a stage installs, and whether every one keeps the image small. */
  function aptInstalls(stage: Stage | undefined): { packages: string[]; lean: boolean }[] {
    return (stage?.instructions ?? [])
      .filter((i) => i.op === 'RUN' && /apt-get install/.test(i.args))
      .map(({ args }) => {
        const words = (/apt-get install ([^&;]*)/.exec(args)?.[1] ?? '').split(/\s+/).filter(Boolean);
        return {
          packages: words.filter((word) => !word.startsWith('-')),
          // Updated and cleaned in the same layer, without recommended packages: no stale or dead weight in a layer.
          lean: words.includes('--no-install-recommends') && /apt-get update/.test(args) && /rm -rf \/var\/lib\/apt\/lists/.test(args),
        };
      });
  }

  test('the runtime image has ffmpeg (the music player spawns it), and every apt-get install keeps its layer lean', () => {
    const runtimeInstalls = aptInstalls(runtime);
    assert.ok(
      runtimeInstalls.some((install) => install.packages.includes('ffmpeg')),
      'the runtime stage installs ffmpeg',
    );
    assert.ok(!aptInstalls(build).some((install) => install.packages.includes('ffmpeg')), 'the build stage needs no ffmpeg (nothing copies it across)');
    for (const install of [...aptInstalls(build), ...runtimeInstalls]) assert.ok(install.lean, `apt-get install ${install.packages.join(' ')} is lean`);
    // The runtime installs before it drops to the unprivileged user, who could not.
    const instructions = runtime?.instructions ?? [];
    const installAt = instructions.findIndex((i) => i.op === 'RUN' && /apt-get install/.test(i.args));
    assert.ok(installAt >= 0 && installAt < instructions.findIndex((i) => i.op === 'USER'), 'installed as root, before USER');
  });

  test('every npm script the Dockerfile runs exists', () => {
    const scripts = [...dockerfile.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1] ?? '');
    assert.ok(scripts.length > 0);
    for (const script of scripts) assert.ok(pkg.scripts[script], `npm run ${script} exists in package.json`);
  });

  test('the runtime copies only what the build stage made, runs as non-root, keeps data/ in a volume, and checks health', () => {
    const copies = (runtime?.instructions ?? []).filter((i) => i.op === 'COPY').map((i) => copyPaths(i.args));
    assert.ok(copies.every((copy) => copy.flags.includes('--from=build')));
    assert.deepEqual(copies.map((copy) => copy.sources[0]).sort(), ['/app/dist', '/app/node_modules', '/app/package.json']);
    const user = runtime?.instructions.find((i) => i.op === 'USER')?.args;
    assert.ok(user && user !== 'root' && user !== '0');
    assert.ok(runtime?.instructions.some((i) => i.op === 'VOLUME' && i.args.includes('/app/data')));
    assert.ok(runtime?.instructions.some((i) => i.op === 'HEALTHCHECK' && i.args.includes('/api/health')));
    // The image runs the product as npm start does, with the same V8 flags.
    const startFlags =
      pkg.scripts.start
        ?.match(/node ((?:--\S+ )*)dist\/server\/main\.js/)?.[1]
        ?.trim()
        .split(' ')
        .filter(Boolean) ?? [];
    assert.ok(startFlags.length > 0, 'npm start passes its V8 flags');
    assert.deepEqual(JSON.parse(runtime?.instructions.find((i) => i.op === 'CMD')?.args ?? '[]'), ['node', ...startFlags, 'dist/server/main.js']);
  });

  test('mirrored: the build stage builds from the copied files, and the runtime starts and passes its HEALTHCHECK', { timeout: 120_000 }, async () => {
    const context = await mkdtemp(path.join(tmpdir(), 'docker-build-'));
    const app = await mkdtemp(path.join(tmpdir(), 'docker-runtime-'));
    try {
      // Build stage: only the COPY'd files, with the installed node_modules standing in for `npm ci`.
      for (const { op, args } of build?.instructions ?? []) {
        if (op !== 'COPY') continue;
        for (const source of copyPaths(args).sources) await cp(path.join(root, source), path.join(context, source), { recursive: true });
      }
      await symlink(path.join(root, 'node_modules'), path.join(context, 'node_modules'), 'dir');
      await run(process.execPath, ['esbuild.config.mjs'], { cwd: context });
      assert.ok(existsSync(path.join(context, 'dist/server/main.js')));
      assert.ok(existsSync(path.join(context, 'dist/web/index.html')));

      // Runtime stage: package.json, node_modules and dist only.
      await cp(path.join(context, 'package.json'), path.join(app, 'package.json'));
      await cp(path.join(context, 'dist'), path.join(app, 'dist'), { recursive: true });
      await symlink(path.join(root, 'node_modules'), path.join(app, 'node_modules'), 'dir');
      await mkdir(path.join(app, 'data'));
      const backupScript = /^node (\S+)$/.exec(pkg.scripts.backup ?? '')?.[1] ?? '';
      assert.ok(backupScript && existsSync(path.join(app, backupScript)), 'npm run backup runs a file the image has');

      const cmd = JSON.parse(runtime?.instructions.find((i) => i.op === 'CMD')?.args ?? '[]') as string[];
      const imageEnv = envOf(runtime);
      const child = spawn(cmd[0] === 'node' ? process.execPath : (cmd[0] ?? ''), cmd.slice(1), {
        cwd: app,
        // The image's ENV and nothing else, as `docker run -p 3000:3000 IMAGE` runs it: only the
        // port (any free one here) and /app standing for the temporary directory differ.
        env: { PATH: process.env.PATH, ...imageEnv, PORT: '0', DATABASE_URL: imageEnv.DATABASE_URL?.replace('/app/', `${app}/`) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const port = await new Promise<string>((resolve, reject) => {
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const match = /Dashboard: http:\/\/localhost:(\d+)/.exec(output);
            if (match?.[1]) resolve(match[1]);
          });
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
        });
        const healthcheck = /CMD \[(.*)\]/.exec(runtime?.instructions.find((i) => i.op === 'HEALTHCHECK')?.args ?? '')?.[1] ?? '';
        const [, flag, script] = JSON.parse(`[${healthcheck}]`) as string[];
        const check = await run(process.execPath, [flag ?? '-e', script ?? ''], { env: { ...process.env, PORT: port } }).then(
          () => 0,
          (error: { code?: number }) => error.code ?? 1,
        );
        assert.equal(check, 0, 'HEALTHCHECK passes');
        assert.ok(existsSync(path.join(app, 'data/bot.sqlite')), 'the store lives in the data volume');

        // The demo: a browser on the host signs in through the published port alone.
        const origin = `http://localhost:${port}`;
        const signIn = await signInThroughDashboard(origin);
        assert.equal(signIn.consentUrl.pathname, '/_discord/oauth2/authorize', "the sandbox's consent page, under the dashboard's origin");
        assert.equal(signIn.me.username, 'demo_admin');

        // A published port's clients are not loopback inside the container (Docker relays them from
        // the bridge address): the control API and REST are not there for them, avatars are.
        // Without a second address, a request a proxy relayed stands in (the mount refuses those too).
        const outside = outsideAddress();
        const remote: { base: string; headers: Record<string, string> } = outside
          ? { base: `http://${outside}:${port}`, headers: {} }
          : { base: origin, headers: { 'X-Forwarded-For': '203.0.113.5' } };
        assert.equal((await fetch(`${remote.base}/api/health`, { headers: remote.headers })).status, 200, 'the dashboard listens on every interface');
        assert.equal((await fetch(`${remote.base}/_discord/_sandbox/state`, { headers: remote.headers })).status, 404, 'no control API from outside');
        assert.equal((await fetch(`${remote.base}/_discord/api/v10/gateway`, { headers: remote.headers })).status, 404, 'no REST from outside');
        assert.equal((await fetch(`${remote.base}/_discord/cdn/avatars/1/a.png`, { headers: remote.headers })).status, 200, 'avatars from outside');
        assert.equal((await fetch(`http://127.0.0.1:${port}/_discord/_sandbox/state`)).status, 200, 'inside the container, the control API answers');
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    } finally {
      await rm(context, { recursive: true, force: true });
      await rm(app, { recursive: true, force: true });
    }
  });
});
