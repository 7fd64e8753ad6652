// The webhook URL of Bot Settings: each notification is POSTed as JSON, signed with HMAC-SHA256 of
// the raw body using the API key (X-Signature-256), retried when the receiver fails, and logged.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WebhookDeliveryListSchema } from '../../src/shared/notifications';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const h = useHarness({ ALLOW_PRIVATE_WEBHOOKS: '1' }, { webhookRetryDelaysMs: [50, 50] });
const KEY = 'whsec_sandbox_test_key_0001';

/** A local receiver that records each delivery and answers with the next planned status. */
interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}
let receiver: Server;
let url = '';
const received: Received[] = [];
let plan: number[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = plan.shift() ?? 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/awesomebot`;
});
after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function configure(body: object) {
  const admin = await h().signIn(h().demo.adminUserId);
  await admin.put(`/api/servers/${h().guildId}/settings`, body).expect(200);
  return admin;
}

describe('webhook deliveries', () => {
  test('a join is POSTed as JSON with a valid X-Signature-256, and the delivery is logged', async () => {
    const admin = await configure({ webhookUrl: url, apiKey: KEY, notifyJoinLeave: true });
    received.length = 0;
    const member = await buildMember(h(), { username: 'webhook_joiner' });
    const delivery = await waitFor(() => received[0], 5000, 'the webhook delivery');
    const expected = `sha256=${createHmac('sha256', KEY).update(delivery.body).digest('hex')}`;
    assert.equal(delivery.headers['x-signature-256'], expected);
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.equal(delivery.headers['x-webhook-event'], 'memberJoin');
    const payload = JSON.parse(delivery.body) as { event: string; guildId: string; data: { userId: string; username: string } };
    assert.equal(payload.event, 'memberJoin');
    assert.equal(payload.guildId, h().guildId);
    assert.equal(payload.data.userId, member.userId);
    const log = await waitFor(
      async () => {
        const rows = WebhookDeliveryListSchema.parse((await admin.get(`/api/servers/${h().guildId}/webhook-deliveries`).expect(200)).body);
        return rows[0]?.status === 'delivered' ? rows : null;
      },
      5000,
      'the delivery to be logged',
    );
    assert.equal(log[0]?.target, url);
    assert.equal(log[0]?.attempts, 1);
  });

  test('a failing receiver is retried; a receiver that keeps failing is marked failed with its answer', async () => {
    const admin = await configure({ webhookUrl: url, apiKey: KEY, notifyJoinLeave: true });
    received.length = 0;
    plan = [503];
    await buildMember(h());
    await waitFor(() => received.length === 2, 5000, 'a retry after the 503');
    const retried = await waitFor(
      async () => {
        const [row] = WebhookDeliveryListSchema.parse((await admin.get(`/api/servers/${h().guildId}/webhook-deliveries`)).body);
        return row?.status === 'delivered' ? row : null;
      },
      5000,
      'the retried delivery',
    );
    assert.equal(retried.attempts, 2);

    received.length = 0;
    plan = [500, 500, 500];
    await buildMember(h());
    const failed = await waitFor(
      async () => {
        const [row] = WebhookDeliveryListSchema.parse((await admin.get(`/api/servers/${h().guildId}/webhook-deliveries`)).body);
        return row?.status === 'failed' ? row : null;
      },
      5000,
      'the delivery to fail',
    );
    assert.equal(failed.attempts, 3);
    assert.equal(failed.responseStatus, 500);
    assert.equal(failed.error, 'The receiver answered 500.');
    assert.equal(received.length, 3);
  });

  test('a receiver answering 4xx is not retried', async () => {
    const admin = await configure({ webhookUrl: url, apiKey: KEY, notifyJoinLeave: true });
    received.length = 0;
    plan = [410];
    await buildMember(h());
    await waitFor(() => received.length === 1, 5000, 'the delivery');
    // The barrier: a delivery is marked failed only once the sender has given up on it.
    const [row] = await waitFor(
      async () => {
        const rows = WebhookDeliveryListSchema.parse((await admin.get(`/api/servers/${h().guildId}/webhook-deliveries`)).body);
        return rows[0]?.status === 'failed' ? rows : null;
      },
      5000,
      'the delivery to be given up',
    );
    assert.equal(row?.attempts, 1);
    assert.equal(row?.responseStatus, 410);
    assert.equal(received.length, 1);
  });
});
