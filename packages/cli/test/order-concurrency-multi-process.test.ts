import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, tally, useServers } from './support/serve-process';

/**
 * The order-side races hold across processes too — three `cartwright serve` processes
 * on one SQLite file or one PostgreSQL: keyed retries sent to every process at once make one
 * order per key, concurrent refunds never exceed what was paid nor the units ordered, concurrent
 * cancels release the reservation once.
 */
const SECRET = 'sk_test_orderRacesSecret0000000000000001';
const PUBLISHABLE = 'pk_test_orderRacesPublishable00000000001';
const SERVERS = 3;
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

for (const target of DATABASE_TARGETS) {
  describe(`order races over ${SERVERS} processes on one ${target} database`, () => {
    const { at } = useServers(
      target,
      SERVERS,
      { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` },
      'cartwright-order-races-',
    );

    async function product(sku: string, onHand: number, price = 1000) {
      const created = await call(at(0), 'POST', '/v1/admin/products', SECRET, {
        name: sku,
        status: 'active',
        variants: [{ sku: `${sku}-${target}`, price, inventory: { on_hand: onHand } }],
      });
      expect(created.status).toBe(200);
      return { variant_id: created.body.variants[0].id, inventory_id: created.body.variants[0].inventory.id };
    }

    async function inventory(id: string) {
      return (await call(at(0), 'GET', `/v1/admin/inventory/${id}`, SECRET)).body;
    }

    async function pendingOrder(variant_id: string, quantity: number) {
      const order = await call(at(0), 'POST', '/v1/admin/orders', SECRET, {
        lines: [{ variant_id, quantity }],
        email: 'races@example.com',
        shipping_address: ADDRESS,
        status: 'pending',
      });
      expect(order.status).toBe(201);
      return order.body;
    }

    test('the same Idempotency-Key sent to every process at once: one order per key, the others replay it', async () => {
      const item = await product('KEYED', 100);
      const keys = Array.from({ length: 8 }, (_, i) => `order-${target}-${i}-${Date.now()}`);
      const responses = await Promise.all(
        keys.flatMap((key) =>
          Array.from({ length: SERVERS }, (_, s) =>
            call(
              at(s),
              'POST',
              '/v1/admin/orders',
              SECRET,
              {
                lines: [{ variant_id: item.variant_id, quantity: 2 }],
                email: 'k@example.com',
                status: 'pending',
              },
              { 'idempotency-key': key },
            ),
          ),
        ),
      );
      for (const [k] of keys.entries()) {
        const forKey = responses.slice(k * SERVERS, (k + 1) * SERVERS);
        // Each is the first response or its replay (a request still waiting past the lock time
        // would be 409 idempotency_key_in_use, never a second order).
        const created = forKey.filter((r) => r.status === 201);
        expect(created.length).toBeGreaterThanOrEqual(1);
        expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
        expect(created.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
        for (const r of forKey)
          if (r.status !== 201) expect(r.body.error.code).toBe('idempotency_key_in_use');
      }
      const orders = await call(at(1), 'GET', '/v1/admin/orders?email=k@example.com&limit=100', SECRET);
      expect(orders.body.total_count).toBe(keys.length);
      expect(await inventory(item.inventory_id)).toMatchObject({ reserved: 2 * keys.length });
    }, 60_000);

    test('concurrent refunds of one order over the processes never exceed what was paid nor the units ordered', async () => {
      const item = await product('REFUND', 20, 1000);
      const order = await pendingOrder(item.variant_id, 4);
      const paid = await call(at(1), 'POST', `/v1/admin/orders/${order.id}/payments`, SECRET, {
        amount: order.total.amount,
        provider: 'cash',
      });
      expect(paid.status).toBe(200);
      const line = order.lines[0].id;
      const refunds = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call(at(i), 'POST', `/v1/admin/orders/${order.id}/refunds`, SECRET, {
            lines: [{ order_line_id: line, quantity: 1 }],
            restock: true,
          }),
        ),
      );
      expect(tally(refunds)).toEqual({ 200: 4, 422: 8 });
      const after = (await call(at(2), 'GET', `/v1/admin/orders/${order.id}`, SECRET)).body;
      expect(after.lines[0].refunded_quantity).toBe(4);
      expect(after.refunded_total.amount).toBe(order.total.amount);
      expect(after.payment_status).toBe('refunded');
      expect(await inventory(item.inventory_id)).toMatchObject({ on_hand: 20, reserved: 0, available: 20 });
    }, 60_000);

    test('concurrent cancels of one order over the processes: one wins, the reservation is released once', async () => {
      const item = await product('CANCEL', 10);
      const order = await pendingOrder(item.variant_id, 3);
      expect(await inventory(item.inventory_id)).toMatchObject({ reserved: 3 });
      const cancels = await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          call(at(i), 'POST', `/v1/admin/orders/${order.id}/cancel`, SECRET, { reason: 'race' }),
        ),
      );
      expect(tally(cancels)).toEqual({ 200: 1, 409: 8 });
      expect(await inventory(item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 0, available: 10 });
    }, 60_000);
  });
}
