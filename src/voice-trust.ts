// The sandbox's voice gateway is wss with a certificate made on this machine, which the bot's
// voice client must trust. Node reads extra CAs only at start (NODE_EXTRA_CA_CERTS); from Node
// 22.19 and 24.5 the process can add one at run time. On an older Node, `npm start` in sandbox mode
// starts itself once more with the variable naming the certificate (with the operator's own extra
// CAs, when they set some), so music works there too; the first process only passes signals on and
// exits as the second does.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import tls from 'node:tls';

/** Whether this Node can add a CA at run time (tls.setDefaultCACertificates). */
function trustsAtRunTime(): boolean {
  return typeof (tls as { setDefaultCACertificates?: unknown }).setDefaultCACertificates === 'function';
}

/**
 * In sandbox mode on a Node that cannot trust the voice certificate at run time, runs this
 * process's command again with NODE_EXTRA_CA_CERTS holding it and answers true (the caller does
 * nothing more); otherwise answers false and the caller starts the product itself.
 */
export async function relaunchTrustingSandboxVoice(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (env.DISCORD_TOKEN || trustsAtRunTime()) return false;
  // Loaded only here: a process talking to Discord never holds the sandbox's code.
  const { defaultCertDir, ensureVoiceCertificate, namedInExtraCas } = await import('./sandbox/voice/certificate');
  const dir = defaultCertDir(env);
  let extraCas: string;
  try {
    const voice = await ensureVoiceCertificate(dir);
    if (namedInExtraCas(voice, env)) return false;
    extraCas = voice.certFile;
    if (env.NODE_EXTRA_CA_CERTS) {
      // The operator's extra CAs stay trusted: one bundle of theirs and the sandbox's.
      extraCas = path.join(dir, 'extra-cas.pem');
      await writeFile(extraCas, `${(await readFile(env.NODE_EXTRA_CA_CERTS, 'utf8')).trimEnd()}\n${voice.cert}`);
    }
  } catch (error) {
    // Without the certificate the product still starts; the sandbox warns that the bot cannot join voice.
    process.stderr.write(`voice: could not prepare the sandbox's voice certificate in ${dir} (${(error as Error).message})\n`);
    return false;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...env, NODE_EXTRA_CA_CERTS: extraCas, SANDBOX_VOICE_CERT_DIR: dir },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return true;
}
