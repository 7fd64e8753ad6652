import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkWebhookTarget, isPrivateAddress, WebhookTargetRefused } from './target';

test('private, loopback, link-local and mapped addresses are private; public ones are not', () => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '224.0.0.1', 'not-an-ip']) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  for (const address of ['1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isPrivateAddress(address), false, address);
  }
});

test('a webhook to localhost or a private literal is refused unless private targets are allowed', async () => {
  for (const url of ['http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest/meta-data']) {
    await assert.rejects(checkWebhookTarget(new URL(url), false), WebhookTargetRefused, url);
  }
  assert.deepEqual(await checkWebhookTarget(new URL('http://127.0.0.1:9/hook'), true), [{ address: '127.0.0.1', family: 4 }]);
  assert.deepEqual(await checkWebhookTarget(new URL('https://1.1.1.1/hook'), false), [{ address: '1.1.1.1', family: 4 }]);
});
