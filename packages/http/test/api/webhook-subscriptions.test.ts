import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventType } from '@cartwright/core';
import { write } from '@cartwright/core/internal';
import type { Clock } from '@cartwright/core/providers';
import { createNodeWebhookTransport } from '@cartwright/webhooks';
import { afterAll, beforeEach, expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import { expectStatus } from './support/order-fixtures';

/**
 * docs/contract.md#webhook-subscriptions: a webhook receives only events created after it, or after the event
 * type was added to it (PATCH `events`), as at Stripe — also when those events were still waiting
 * in the outbox (not yet fanned out) when it subscribed. Every event here is raised BEFORE the one
 * `deliverDue` that fans them out, so the outbox holds all of them at once.
 */

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A receiver on 127.0.0.1 answering 200, recording `type data.id` of each event received. */
async function startReceiver(): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data: { id: string };
      };
      received.push(`${event.type} ${event.data.id}`);
      res.writeHead(200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

let now = Date.UTC(2024, 6, 1, 8, 0, 0);
const clock: Clock = { now: () => now };
/** One millisecond later: every step below happens at its own time. */
const tick = () => {
  now += 1;
};

async function emit(api: TestApi, type: string, id: string) {
  tick();
  await write(api.engine.context, null, async ({ emit: raise }) =>
    raise(api.scope, type as EventType, { id } as never),
  );
}

/** Deactivates every webhook of the test mode, so each test sees only its own. */
async function isolate(api: TestApi) {
  const list = await api.get('/v1/admin/webhooks?limit=100');
  for (const webhook of list.body.data as Array<{ id: string; is_active: boolean }>) {
    if (webhook.is_active) await api.patch(`/v1/admin/webhooks/${webhook.id}`, { is_active: false });
  }
  await api.engine.webhooks.deliverDue();
}

async function createWebhook(api: TestApi, url: string, events: string[]) {
  tick();
  return expectStatus(await api.post('/v1/admin/webhooks', { url, events }), 200).body as { id: string };
}

async function patchWebhook(api: TestApi, id: string, body: Record<string, unknown>) {
  tick();
  expectStatus(await api.patch(`/v1/admin/webhooks/${id}`, body), 200);
}

describeApi(
  'webhook subscriptions (issue 19)',
  (api) => {
    beforeEach(async () => {
      now += 1000;
      await isolate(api());
    });

    test('an event created before the webhook is not delivered to it, even if still in the outbox', async () => {
      const receiver = await startReceiver();
      await emit(api(), 'customer.created', 'cus_before');
      const webhook = await createWebhook(api(), receiver.url, ['customer.created']);
      await emit(api(), 'customer.created', 'cus_after');
      await api().engine.webhooks.deliverDue();
      expect(receiver.received).toEqual(['customer.created cus_after']);
      const deliveries = expectStatus(
        await api().get(`/v1/admin/webhooks/${webhook.id}/deliveries`),
        200,
      ).body;
      expect(deliveries.data).toHaveLength(1);
    });

    test('PATCH events: an added type counts from then on; the types kept keep their time', async () => {
      const receiver = await startReceiver();
      const webhook = await createWebhook(api(), receiver.url, ['customer.created']);
      await emit(api(), 'customer.created', 'cus_1');
      await emit(api(), 'order.created', 'ord_before');
      await patchWebhook(api(), webhook.id, { events: ['customer.created', 'order.created'] });
      await emit(api(), 'order.created', 'ord_after');
      await emit(api(), 'customer.created', 'cus_2');
      await api().engine.webhooks.deliverDue();
      expect(receiver.received.sort()).toEqual(
        ['customer.created cus_1', 'customer.created cus_2', 'order.created ord_after'].sort(),
      );
    });

    test('switching to ["*"]: new types count from the switch; a type listed before keeps its time; removed then re-added counts anew', async () => {
      const receiver = await startReceiver();
      const webhook = await createWebhook(api(), receiver.url, ['customer.created']);
      await emit(api(), 'customer.created', 'cus_1');
      await emit(api(), 'order.created', 'ord_before');
      await patchWebhook(api(), webhook.id, { events: ['*'] });
      await emit(api(), 'order.created', 'ord_after');
      await emit(api(), 'customer.created', 'cus_star');
      await api().engine.webhooks.deliverDue();
      expect(receiver.received.sort()).toEqual(
        ['customer.created cus_1', 'order.created ord_after', 'customer.created cus_star'].sort(),
      );
      receiver.received.length = 0;
      // Back to a list: a type covered by `*` keeps the time of the switch to `*`.
      await patchWebhook(api(), webhook.id, { events: ['order.created'] });
      await emit(api(), 'order.created', 'ord_list');
      await emit(api(), 'customer.created', 'cus_unsubscribed');
      await patchWebhook(api(), webhook.id, { events: ['order.created', 'customer.created'] });
      await emit(api(), 'customer.created', 'cus_2');
      await api().engine.webhooks.deliverDue();
      expect(receiver.received.sort()).toEqual(['order.created ord_list', 'customer.created cus_2'].sort());
    });

    test('re-activated: events raised while it was inactive are not delivered later', async () => {
      const receiver = await startReceiver();
      const webhook = await createWebhook(api(), receiver.url, ['customer.created']);
      await patchWebhook(api(), webhook.id, { is_active: false });
      await emit(api(), 'customer.created', 'cus_while_inactive');
      await patchWebhook(api(), webhook.id, { is_active: true });
      await emit(api(), 'customer.created', 'cus_after');
      await api().engine.webhooks.deliverDue();
      expect(receiver.received).toEqual(['customer.created cus_after']);
    });
  },
  {
    clock,
    webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
    config: { allow_private_webhooks: true },
  },
);
