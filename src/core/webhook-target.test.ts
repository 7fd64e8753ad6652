import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkWebhookTarget, isPublicAddress, WebhookTargetRefused } from './webhook-target';

test('loopback, private, link-local, reserved and special-purpose addresses are not public', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.51.100.1',
    '198.18.0.1',
    '192.0.0.8',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '100::1',
    '3fff::1',
    '1::1',
    'not-an-ip',
    '0x7f.1',
    '2130706433',
  ]) {
    assert.equal(isPublicAddress(address), false, address);
  }
});

test('an IPv6 address that embeds an IPv4 one is judged by it (mapped, NAT64) or refused (compatible, 6to4, Teredo)', () => {
  for (const address of [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    // IPv4-compatible (::/96), which ipaddr.js calls plain unicast: loopback and public alike.
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    // 6to4, Teredo, NAT64 local-use and IPv4-translated reach an IPv4 host through a relay: refused whatever it embeds.
    '2002:7f00:1::',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '64:ff9b:1::808:808',
    '::ffff:0:808:808',
  ]) {
    assert.equal(isPublicAddress(address), false, address);
  }
  for (const address of ['1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8']) {
    assert.equal(isPublicAddress(address), true, address);
  }
});

test('a webhook to localhost or a non-public literal is refused unless private targets are allowed', async () => {
  for (const url of [
    'http://127.0.0.1:9/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://0x7f.1/',
    'http://2130706433/',
  ]) {
    await assert.rejects(checkWebhookTarget(new URL(url), false), WebhookTargetRefused, url);
  }
  assert.deepEqual(await checkWebhookTarget(new URL('http://127.0.0.1:9/hook'), true), [{ address: '127.0.0.1', family: 4 }]);
  assert.deepEqual(await checkWebhookTarget(new URL('http://[::7f00:1]/hook'), true), [{ address: '::7f00:1', family: 6 }]);
  assert.deepEqual(await checkWebhookTarget(new URL('https://1.1.1.1/hook'), false), [{ address: '1.1.1.1', family: 4 }]);
});

test('the refusal is a sentence that names the host', async () => {
  await assert.rejects(checkWebhookTarget(new URL('http://[::7f00:1]/'), false), (error: Error) => {
    assert.match(error.message, /^The webhook's host ::7f00:1 points to an address that is not public .*; a webhook must reach a public address\.$/);
    return true;
  });
});
