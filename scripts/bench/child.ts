// Spawns a benchmark helper process (tsx) and reads the first JSON line it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** With BENCH_CPU_PROF=<dir>, every helper process writes a V8 CPU profile there when it exits. */
const profileArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];

/**
 * Starts `script` (relative to the repo) with tsx (or plain node with `tsx: false`, for built
 * JavaScript) and resolves with its first JSON line and the process. Other lines it prints (V8's
 * --trace-gc, say) go to this process's stderr.
 */
export function spawnJson<T>(
  script: string,
  env: NodeJS.ProcessEnv = {},
  { tsx = true, nodeFlags = [] }: { tsx?: boolean; nodeFlags?: readonly string[] } = {},
): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, [...profileArgs, ...nodeFlags, ...(tsx ? ['--import', 'tsx'] : []), path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    let ready = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let end = buffer.indexOf('\n');
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (!ready && line.startsWith('{')) {
          ready = true;
          resolve({ child, info: JSON.parse(line) as T });
        } else {
          process.stderr.write(`${line}\n`);
        }
        end = buffer.indexOf('\n');
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

/** Stops a helper process and waits for it. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The median of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
