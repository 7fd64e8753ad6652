import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ensureVoiceCertificate, namedInExtraCas } from './certificate';

describe('the voice certificate', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'voice-cert-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is made for 127.0.0.1 and localhost only, not as a CA, its key readable by its owner alone', async () => {
    const made = await ensureVoiceCertificate(dir);
    const cert = new X509Certificate(made.cert);
    assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(cert.checkHost('localhost'), 'localhost');
    assert.equal(cert.checkHost('discord.com'), undefined);
    assert.equal(cert.ca, false);
    assert.equal(statSync(path.join(dir, 'voice-key.pem')).mode & 0o077, 0);
  });

  it('is reused while it has time left, and made anew within 30 days of its end', async () => {
    const first = await ensureVoiceCertificate(dir);
    assert.equal((await ensureVoiceCertificate(dir)).cert, first.cert);
    const later = Date.parse(new X509Certificate(first.cert).validTo) - 10 * 24 * 3600_000;
    assert.notEqual((await ensureVoiceCertificate(dir, later)).cert, first.cert);
  });

  it('counts as trusted when NODE_EXTRA_CA_CERTS names its file or a bundle holding it, not another bundle', async () => {
    const voice = await ensureVoiceCertificate(dir);
    assert.equal(namedInExtraCas(voice, { NODE_EXTRA_CA_CERTS: voice.certFile }), true);
    const bundle = path.join(dir, 'bundle.pem');
    writeFileSync(bundle, `-----BEGIN CERTIFICATE-----\nb3RoZXI=\n-----END CERTIFICATE-----\n${voice.cert}`);
    assert.equal(namedInExtraCas(voice, { NODE_EXTRA_CA_CERTS: bundle }), true);
    writeFileSync(bundle, '-----BEGIN CERTIFICATE-----\nb3RoZXI=\n-----END CERTIFICATE-----\n');
    assert.equal(namedInExtraCas(voice, { NODE_EXTRA_CA_CERTS: bundle }), false);
    assert.equal(namedInExtraCas(voice, {}), false);
  });
});
