// The voice gateway is dialled as wss:// (the client has no other scheme), so the sandbox needs a
// certificate for 127.0.0.1 that the bot's process trusts. It is made at run time (no private key
// is committed) and kept in a directory: scripts/test.mjs makes one before it starts the test
// processes and hands them its path in NODE_EXTRA_CA_CERTS (Node reads extra CAs only at start),
// and SANDBOX_VOICE_CERT_DIR tells the sandboxes in them to serve that one.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import tls from 'node:tls';
import { generate } from 'selfsigned';

/** The certificate file's name in its directory (what NODE_EXTRA_CA_CERTS names). */
export const CERT_FILE = 'voice-cert.pem';
const KEY_FILE = 'voice-key.pem';
/** A certificate is made anew once less than this is left of its life. */
const RENEW_BEFORE_MS = 30 * 24 * 3600_000;
/** Its life: two years (it names only loopback addresses, so a long one risks nothing). */
const LIFETIME_MS = 2 * 365 * 24 * 3600_000;

/** A certificate and its key, and where the certificate is on disk. */
export interface VoiceCertificate {
  certFile: string;
  cert: string;
  key: string;
}

/** The directory the sandbox keeps its voice certificate in: SANDBOX_VOICE_CERT_DIR, else data/sandbox-voice. */
export function defaultCertDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.SANDBOX_VOICE_CERT_DIR || path.join('data', 'sandbox-voice'));
}

/**
 * The certificate in `dir`, made (or made anew, when it ends within 30 days or does not name
 * 127.0.0.1) if needed. A self-signed leaf for `localhost` and `127.0.0.1` only, not a CA: trusting
 * it lets nothing else through. Written to a temporary name and renamed, so a reader never sees half.
 */
export async function ensureVoiceCertificate(dir: string, now = Date.now()): Promise<VoiceCertificate> {
  const certFile = path.join(dir, CERT_FILE);
  const keyFile = path.join(dir, KEY_FILE);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    if (stillGood(cert, now)) return { certFile, cert, key };
  }
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 3600_000),
    notAfterDate: new Date(now + LIFETIME_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const suffix = `.${process.pid}.tmp`;
  await writeFile(keyFile + suffix, made.private, { mode: 0o600 });
  await writeFile(certFile + suffix, made.cert);
  await rename(keyFile + suffix, keyFile);
  await rename(certFile + suffix, certFile);
  return { certFile, cert: made.cert, key: made.private };
}

function stillGood(pem: string, now: number): boolean {
  try {
    const cert = new X509Certificate(pem);
    return Date.parse(cert.validTo) - now > RENEW_BEFORE_MS && Date.parse(cert.validFrom) <= now && cert.checkIP('127.0.0.1') !== undefined;
  } catch {
    return false;
  }
}

/** Whether NODE_EXTRA_CA_CERTS names the certificate's file, or a bundle that holds it (the operator's CAs and this one). */
export function namedInExtraCas(voice: Pick<VoiceCertificate, 'certFile' | 'cert'>, env: NodeJS.ProcessEnv = process.env): boolean {
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (!extra) return false;
  if (path.resolve(extra) === path.resolve(voice.certFile)) return true;
  try {
    return readFileSync(extra, 'utf8').includes(voice.cert.trim());
  } catch {
    return false;
  }
}

/**
 * Whether this process trusts `cert` for its TLS connections: it is in NODE_EXTRA_CA_CERTS, or
 * (Node 22.19 and 24.5 on) it was just added to the default CAs with tls.setDefaultCACertificates.
 * On older Node without the variable, nothing in the process can change what it trusts.
 */
export function trustInProcess(voice: Pick<VoiceCertificate, 'certFile' | 'cert'>, env: NodeJS.ProcessEnv = process.env): boolean {
  if (namedInExtraCas(voice, env)) return true;
  const setDefaults = (tls as { setDefaultCACertificates?: (certs: string[]) => void }).setDefaultCACertificates;
  const getCerts = (tls as { getCACertificates?: (type?: string) => string[] }).getCACertificates;
  if (!setDefaults || !getCerts) return false;
  setDefaults([...getCerts('default'), voice.cert]);
  return true;
}
