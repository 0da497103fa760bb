import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, useServers } from './support/serve-process';

/**
 * The atomic rules hold across processes (docs/contract.md#inventory, #pricing, #carts): several `cartwright serve`
 * processes share one database — a SQLite file, or PostgreSQL — and concurrent checkouts spread
 * over them still never oversell, never use a discount beyond its limit, and number orders
 * 1001, 1002, … without gaps.
 */
const SECRET = 'sk_test_multiProcessSecret00000000000001';
const PUBLISHABLE = 'pk_test_multiProcessPublishable000000001';
const SERVERS = 3;

const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

for (const target of DATABASE_TARGETS) {
  describe(`${SERVERS} server processes on one ${target} database`, () => {
    // The first process migrates and creates the store; the others start on the ready schema.
    const { at } = useServers(
      target,
      SERVERS,
      { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` },
      'cartwright-multi-',
    );

    test('40 concurrent checkouts over 3 processes for 5 units: exactly 5 orders, numbered 1001–1005, 35 × 422', async () => {
      const product = await call(at(0), 'POST', '/v1/admin/products', SECRET, {
        name: 'Last units',
        status: 'active',
        variants: [{ sku: `LAST-${target}`, price: 1000, inventory: { on_hand: 5 } }],
      });
      expect(product.status).toBe(200);
      const variant = product.body.variants[0];
      const carts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(at(i), 'POST', '/v1/storefront/carts', PUBLISHABLE, {
            items: [{ variant_id: variant.id, quantity: 1 }],
            shipping_address: ADDRESS,
          }),
        ),
      );
      expect(carts.every((cart) => cart.status === 200)).toBe(true);
      const results = await Promise.all(
        carts.map((cart, i) =>
          call(at(i + 1), 'POST', `/v1/storefront/carts/${cart.body.id}/checkout`, PUBLISHABLE, {
            email: `buyer${i}@example.com`,
            payment_provider: 'manual',
          }),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status === 422);
      expect(created).toHaveLength(5);
      expect(refused).toHaveLength(35);
      expect(refused.every((r) => r.body.error.code === 'insufficient_inventory')).toBe(true);
      expect(created.map((r) => r.body.number).sort()).toEqual([1001, 1002, 1003, 1004, 1005]);
      const stock = await call(at(2), 'GET', `/v1/admin/inventory/${variant.inventory.id}`, SECRET);
      expect([stock.body.on_hand, stock.body.reserved, stock.body.available]).toEqual([5, 5, 0]);
    });

    test('a discount with usage_limit 3 under 20 concurrent checkouts over 3 processes is used exactly 3 times', async () => {
      const product = await call(at(0), 'POST', '/v1/admin/products', SECRET, {
        name: 'Plenty',
        status: 'active',
        variants: [{ sku: `PLENTY-${target}`, price: 2000, inventory: { on_hand: 1000 } }],
      });
      const discount = await call(at(1), 'POST', '/v1/admin/discounts', SECRET, {
        name: 'Three only',
        code: `THREE${target.toUpperCase()}`,
        value_type: 'percentage',
        value: 10,
        usage_limit: 3,
      });
      expect(discount.status).toBe(200);
      const carts = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const cart = await call(at(i), 'POST', '/v1/storefront/carts', PUBLISHABLE, {
            items: [{ variant_id: product.body.variants[0].id, quantity: 1 }],
            shipping_address: ADDRESS,
          });
          const applied = await call(
            at(i),
            'POST',
            `/v1/storefront/carts/${cart.body.id}/discounts`,
            PUBLISHABLE,
            {
              code: discount.body.code,
            },
          );
          expect(applied.status).toBe(200);
          return cart.body.id as string;
        }),
      );
      const results = await Promise.all(
        carts.map((id, i) =>
          call(at(i + 2), 'POST', `/v1/storefront/carts/${id}/checkout`, PUBLISHABLE, {
            email: `code${i}@example.com`,
            payment_provider: 'manual',
          }),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      expect(created).toHaveLength(3);
      expect(created.every((r) => r.body.discount_total.amount === 200)).toBe(true);
      expect(
        results
          .filter((r) => r.status === 422)
          .every((r) => r.body.error.code === 'discount_usage_limit_reached'),
      ).toBe(true);
      const after = await call(at(0), 'GET', `/v1/admin/discounts/${discount.body.id}`, SECRET);
      expect(after.body.usage_count).toBe(3);
      // order numbers stay gap-free across processes and both tests
      const orders = await call(at(1), 'GET', '/v1/admin/orders?limit=100&sort=number&order=asc', SECRET);
      expect(orders.body.data.map((o: { number: number }) => o.number)).toEqual([
        1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008,
      ]);
    });
  });
}
