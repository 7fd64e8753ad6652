// Runs every *.test.ts(x) under src/ and test/ with node:test, TypeScript loaded by tsx.
// Node 20's runner does not glob .ts files itself, so the list is built here.
// Usage: node scripts/test.mjs [filter...]   (a filter keeps files whose path contains it)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Lists test files under a folder, recursively, in a stable order. */
async function findTests(dir) {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

const filters = process.argv.slice(2);
const files = [...(await findTests('src')), ...(await findTests('test'))].filter(
  (file) => filters.length === 0 || filters.some((filter) => file.includes(filter)),
);
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}

// The sandbox's voice gateway is wss (the voice client dials nothing else) with a certificate made
// at run time. Node trusts extra CAs only from NODE_EXTRA_CA_CERTS at start, so the certificate is
// made here, once, before the test processes start: they trust it, and their sandboxes serve it
// (SANDBOX_VOICE_CERT_DIR). A directory of this run's own, removed when it ends.
const certDir = mkdtempSync(path.join(tmpdir(), 'sandbox-voice-'));
const { ensureVoiceCertificate } = await tsImport('../src/sandbox/voice/certificate.ts', import.meta.url);
const { certFile } = await ensureVoiceCertificate(certDir);

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(process.execPath, ['--import', 'tsx/esm', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test', SANDBOX_VOICE_CERT_DIR: certDir, NODE_EXTRA_CA_CERTS: certFile },
});
child.on('exit', (code, signal) => {
  rmSync(certDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
