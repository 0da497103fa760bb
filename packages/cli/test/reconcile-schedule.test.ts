import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeStripe, startFakeStripe } from '@cartwright/payments-stripe/fake-stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  call,
  crash,
  DATABASE_TARGETS,
  eventually,
  freshDatabaseUrl,
  type ServeProcess,
  startServe,
  stop,
} from './support/serve-process';

/**
 * A crash during a Stripe charge heals by itself. `serve` is killed (-9) while Stripe
 * has taken the money and its answer is still on the way (the fake holds it back): the attempt is
 * recorded, the order is not. A new `serve` — with nobody running `cartwright reconcile` — writes
 * the order on its reconciliation schedule, from the attempt, without charging again.
 */
const SECRET = 'sk_test_reconcileSchedule000000000000001';
const PUBLISHABLE = 'pk_test_reconcileSchedule00000000000001';
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

let fake: FakeStripe;
const dir = mkdtempSync(join(tmpdir(), 'cartwright-reconcile-'));

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

for (const target of DATABASE_TARGETS) {
  describe(`serve on ${target} reconciles on a schedule`, () => {
    const servers: ServeProcess[] = [];
    afterAll(async () => {
      await Promise.all(servers.map(stop));
    });

    test('kill -9 while Stripe holds its answer: the next serve writes the order by itself, charging once', async () => {
      fake.reset();
      const databaseUrl = await freshDatabaseUrl(target, dir, `${target}-crash.db`);
      const env = {
        COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_API_BASE: fake.url,
      };
      // The first server never reconciles (it is about to crash anyway).
      const first = await startServe(databaseUrl, { ...env, COMMERCE_RECONCILE_INTERVAL_MS: '0' });
      servers.push(first);
      const product = await call(first, 'POST', '/v1/admin/products', SECRET, {
        name: 'Lamp',
        status: 'active',
        variants: [{ sku: `LAMP-${target}`, price: 4200, inventory: { on_hand: 3 } }],
      });
      expect(product.status).toBe(200);
      const cart = await call(first, 'POST', '/v1/storefront/carts', PUBLISHABLE, {
        items: [{ variant_id: product.body.variants[0].id, quantity: 2 }],
        shipping_address: ADDRESS,
      });
      expect(cart.status).toBe(200);

      fake.setNetworkFailure('hang-next');
      const checkout = call(first, 'POST', `/v1/storefront/carts/${cart.body.id}/checkout`, PUBLISHABLE, {
        email: 'ada@example.com',
        payment_provider: 'stripe',
        payment_method_id: 'pm_card_visa',
      }).catch((error: unknown) => error);
      await eventually(async () => (fake.charges().length === 1 ? true : undefined), 15_000, 'the charge');
      await crash(first);
      expect(await checkout).toBeInstanceOf(Error); // the connection died with the server
      fake.setNetworkFailure('none');

      const second = await startServe(databaseUrl, {
        ...env,
        COMMERCE_RECONCILE_INTERVAL_MS: '200',
        COMMERCE_RECONCILE_AFTER_MS: '0',
      });
      servers.push(second);
      // Before the schedule's first run the order may not exist yet; no one calls reconcile.
      const orders = await eventually(
        async () => {
          const list = await call(second, 'GET', '/v1/admin/orders', SECRET);
          return list.body.total_count === 1 ? list.body.data : undefined;
        },
        20_000,
        'the reconciled order',
      );
      const order = orders[0];
      expect(order).toMatchObject({
        status: 'confirmed',
        payment_status: 'paid',
        email: 'ada@example.com',
        total: { amount: 8400 },
      });
      expect(order.payments).toHaveLength(1);
      expect(order.payments[0]).toMatchObject({ provider: 'stripe', status: 'completed' });
      expect(order.payments[0].provider_id).toBe(fake.charges()[0]!.payment_intent);
      expect(fake.charges()).toHaveLength(1);

      const after = await call(second, 'GET', `/v1/storefront/carts/${cart.body.id}`, PUBLISHABLE);
      expect(after.body.status).toBe('completed');
      const inventory = await call(
        second,
        'GET',
        `/v1/admin/inventory/${product.body.variants[0].inventory.id}`,
        SECRET,
      );
      expect(inventory.body).toMatchObject({ on_hand: 3, reserved: 2, available: 1 });
      expect(second.output()).toContain('"outcome":"order_created"');
    }, 90_000);
  });
}
