import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { createCaptureTransport } from './capture-transport';
import { createTestEngine, type TestEngine } from './create-test-engine';

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
});

describe('createCaptureTransport with a test engine', () => {
  test('a checkout is delivered as order.created, signed with the webhook secret', async () => {
    const transport = createCaptureTransport();
    t = await createTestEngine({ webhookTransport: transport });
    const webhook = await t.store.webhooks.create({
      url: 'https://shop.example/hooks',
      events: ['order.created'],
    });
    const { variant } = await t.fixtures.product({ price: 1000 });
    const order = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id);

    const result = await t.engine.webhooks.deliverDue();
    expect([result.claimed, result.succeeded]).toEqual([1, 1]);
    const [delivery] = transport.deliveries;
    expect(delivery?.url).toBe('https://shop.example/hooks');
    expect(delivery?.event.type).toBe('order.created');
    expect(delivery?.event.data.id).toBe(order.id);
    const signature = createHmac('sha256', webhook.secret ?? '')
      .update(delivery?.body ?? '')
      .digest('hex');
    expect(delivery?.headers['x-webhook-signature']).toBe(signature);
  });

  test('a failing receiver is retried after 5 minutes of fake time, not before', async () => {
    const transport = createCaptureTransport(500);
    t = await createTestEngine({ webhookTransport: transport });
    await t.store.webhooks.create({ url: 'https://shop.example/hooks', events: ['customer.created'] });
    await t.fixtures.customer();

    expect((await t.engine.webhooks.deliverDue()).failed).toBe(1);
    t.clock.advance('4m');
    expect((await t.engine.webhooks.deliverDue()).claimed).toBe(0);
    transport.respondWith(204);
    t.clock.advance('1m');
    expect((await t.engine.webhooks.deliverDue()).succeeded).toBe(1);
    expect(transport.deliveries.map((d) => d.event.type)).toEqual(['customer.created', 'customer.created']);
  });
});
