import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, tally, useServers } from './support/serve-process';

/**
 * Returns across processes (decisions §18): two `cartwright serve` processes on one SQLite file
 * or one PostgreSQL. Creation locks the order, so requests for the last returnable units sent to
 * both processes at once never put more units into returns than were shipped; a return completed
 * from both processes at once completes once (one refund, one restock).
 */
const SECRET = 'sk_test_returnRacesSecret000000000000001';
const PUBLISHABLE = 'pk_test_returnRacesPublishable0000000001';
const SERVERS = 2;
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

for (const target of DATABASE_TARGETS) {
  describe(`return races over ${SERVERS} processes on one ${target} database`, () => {
    const { at } = useServers(
      target,
      SERVERS,
      { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` },
      'cartwright-return-races-',
    );

    /** A paid pending admin order of `quantity` units, every unit shipped. */
    async function shippedOrder(sku: string, quantity: number) {
      const created = await call(at(0), 'POST', '/v1/admin/products', SECRET, {
        name: sku,
        status: 'active',
        variants: [{ sku: `${sku}-${target}-${Date.now()}`, price: 1000, inventory: { on_hand: 50 } }],
      });
      expect(created.status).toBe(200);
      const variant = created.body.variants[0];
      const order = await call(at(0), 'POST', '/v1/admin/orders', SECRET, {
        lines: [{ variant_id: variant.id, quantity }],
        email: 'returns@example.com',
        shipping_address: ADDRESS,
        status: 'pending',
      });
      expect(order.status).toBe(201);
      const paid = await call(at(1), 'POST', `/v1/admin/orders/${order.body.id}/payments`, SECRET, {
        amount: order.body.total.amount,
        provider: 'cash',
      });
      expect(paid.status).toBe(200);
      const line = order.body.lines[0].id;
      const f = await call(at(0), 'POST', `/v1/admin/orders/${order.body.id}/fulfillments`, SECRET, {
        lines: [{ order_line_id: line, quantity }],
      });
      expect(f.status).toBe(200);
      expect((await call(at(1), 'POST', `/v1/admin/fulfillments/${f.body.id}/ship`, SECRET)).status).toBe(
        200,
      );
      return { order: order.body, line, inventory_id: variant.inventory.id as string };
    }

    test('requests for the last returnable units sent to both processes at once: exactly as many units go into returns as shipped', async () => {
      const { order, line } = await shippedOrder('RET-RACE', 3);
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(at(i), 'POST', `/v1/admin/orders/${order.id}/returns`, SECRET, {
            lines: [{ order_line_id: line, quantity: 1 }],
          }),
        ),
      );
      expect(tally(responses)).toEqual({ 200: 3, 422: 7 });
      for (const r of responses) {
        if (r.status === 422) expect(r.body.error.code).toBe('quantity_exceeds_returnable');
      }
      const returns = await call(at(1), 'GET', `/v1/admin/returns?order_id=${order.id}&limit=100`, SECRET);
      expect(returns.body.data).toHaveLength(3);
      const after = await call(at(0), 'GET', `/v1/admin/orders/${order.id}`, SECRET);
      expect(after.body.lines[0].returnable_quantity).toBe(0);
    }, 60_000);

    test('a return completed from both processes at once completes once: one refund, one restock', async () => {
      const { order, line, inventory_id } = await shippedOrder('RET-DONE', 2);
      const ret = await call(at(0), 'POST', `/v1/admin/orders/${order.id}/returns`, SECRET, {
        lines: [{ order_line_id: line, quantity: 2 }],
      });
      expect(ret.status).toBe(200);
      expect((await call(at(1), 'POST', `/v1/admin/returns/${ret.body.id}/receive`, SECRET)).status).toBe(
        200,
      );
      const before = (await call(at(0), 'GET', `/v1/admin/inventory/${inventory_id}`, SECRET)).body.on_hand;
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call(at(i), 'POST', `/v1/admin/returns/${ret.body.id}/complete`, SECRET),
        ),
      );
      expect(tally(responses)).toEqual({ 200: 1, 409: 5 });
      const after = (await call(at(1), 'GET', `/v1/admin/orders/${order.id}`, SECRET)).body;
      expect(after.refunds).toHaveLength(1);
      expect(after.refunded_total.amount).toBe(order.total.amount);
      expect(after.fulfillment_status).toBe('returned');
      expect((await call(at(0), 'GET', `/v1/admin/inventory/${inventory_id}`, SECRET)).body.on_hand).toBe(
        before + 2,
      );
    }, 60_000);
  });
}
