import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, tally, useServers } from './support/serve-process';

/**
 * docs/contract.md#cart-concurrency: concurrent requests on one cart behave as if run one after another
 * with any number of processes — three `cartwright serve` processes on one SQLite file or one
 * PostgreSQL, each cart's requests spread over all of them.
 */
const SECRET = 'sk_test_cartRacesSecret00000000000000001';
const PUBLISHABLE = 'pk_test_cartRacesPublishable000000000001';
const SERVERS = 3;
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

type Line = { variant_id: string; quantity: number };

/** Lines as `variant → quantity`, whatever their order. */
function quantities(lines: readonly Line[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of lines) out[line.variant_id] = (out[line.variant_id] ?? 0) + line.quantity;
  return out;
}

for (const target of DATABASE_TARGETS) {
  describe(`cart races over ${SERVERS} processes on one ${target} database`, () => {
    const { at } = useServers(
      target,
      SERVERS,
      { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` },
      'cartwright-cart-races-',
    );

    async function product(sku: string, onHand: number) {
      const created = await call(at(0), 'POST', '/v1/admin/products', SECRET, {
        name: sku,
        status: 'active',
        variants: [{ sku: `${sku}-${target}`, price: 1000, inventory: { on_hand: onHand } }],
      });
      expect(created.status).toBe(200);
      return created.body.variants[0].id as string;
    }

    async function cart(items: Line[], i = 0, customerToken?: string): Promise<string> {
      const created = await call(
        at(i),
        'POST',
        '/v1/storefront/carts',
        PUBLISHABLE,
        { items, shipping_address: ADDRESS },
        customerToken ? { 'x-customer-token': customerToken } : {},
      );
      expect(created.status).toBe(200);
      return created.body.id;
    }

    async function read(id: string) {
      const res = await call(at(0), 'GET', `/v1/storefront/carts/${id}`, SECRET);
      expect(res.status).toBe(200);
      return res.body as { id: string; status: string; customer_id: string | null; items: Line[] };
    }

    function add(i: number, cartId: string, variant_id: string, quantity = 1) {
      return call(at(i), 'POST', `/v1/storefront/carts/${cartId}/items`, PUBLISHABLE, {
        variant_id,
        quantity,
      });
    }

    async function customer(i: number) {
      const created = await call(at(0), 'POST', '/v1/admin/customers', SECRET, {
        email: `cart-races-${target}-${i}-${Date.now()}@example.com`,
      });
      expect(created.status).toBe(200);
      const token = await call(at(1), 'POST', `/v1/admin/customers/${created.body.id}/token`, SECRET, {});
      expect(token.status).toBe(200);
      return { id: created.body.id as string, token: token.body.token as string };
    }

    test('the same variant added at once from different processes: one line with the summed quantity; 30 adds of one unit make 30', async () => {
      const variant = await product('SAME', 1000);
      const carts = await Promise.all(Array.from({ length: 8 }, (_, i) => cart([], i)));
      const pairs = await Promise.all(
        carts.flatMap((id, i) => [add(i, id, variant, 1), add(i + 1, id, variant, 2)]),
      );
      expect(tally(pairs)).toEqual({ 200: 16 });
      for (const id of carts)
        expect((await read(id)).items).toMatchObject([{ variant_id: variant, quantity: 3 }]);

      const one = await cart([]);
      const adds = await Promise.all(Array.from({ length: 30 }, (_, i) => add(i, one, variant)));
      expect(tally(adds)).toEqual({ 200: 30 });
      expect((await read(one)).items).toMatchObject([{ variant_id: variant, quantity: 30 }]);
    }, 120_000);

    test('30 adds against 10 in stock from 3 processes: exactly 10 × 200, 20 × 422 insufficient_inventory; the line holds 10', async () => {
      const variant = await product('SCARCE', 10);
      const id = await cart([]);
      const adds = await Promise.all(Array.from({ length: 30 }, (_, i) => add(i, id, variant)));
      expect(tally(adds)).toEqual({ 200: 10, 422: 20 });
      for (const r of adds) if (r.status === 422) expect(r.body.error.code).toBe('insufficient_inventory');
      expect((await read(id)).items).toMatchObject([{ variant_id: variant, quantity: 10 }]);
    }, 120_000);

    test('adds racing a checkout on another process: each is in the order or 409 cart_not_active; the completed cart holds exactly the order', async () => {
      const first = await product('RACE-A', 10_000);
      const second = await product('RACE-B', 10_000);
      for (let round = 0; round < 4; round++) {
        const id = await cart([{ variant_id: first, quantity: 1 }], round);
        const addsBefore = Array.from({ length: 9 }, (_, i) => add(i, id, i % 2 === 0 ? first : second));
        const checkout = call(at(round + 1), 'POST', `/v1/storefront/carts/${id}/checkout`, PUBLISHABLE, {
          email: 'race@example.com',
          payment_provider: 'manual',
        });
        const addsAfter = Array.from({ length: 9 }, (_, i) => add(i + 2, id, i % 2 === 0 ? second : first));
        const [order, ...answers] = await Promise.all([checkout, ...addsBefore, ...addsAfter]);
        expect(order!.status).toBe(201);
        for (const r of answers) {
          if (r.status !== 200) expect([r.status, r.body.error.code]).toEqual([409, 'cart_not_active']);
        }
        const lines = quantities(order!.body.lines);
        const stored = await read(id);
        expect(stored.status).toBe('completed');
        expect(quantities(stored.items)).toEqual(lines);
        const units = Object.values(lines).reduce((sum, q) => sum + q, 0);
        expect(units).toBe(1 + answers.filter((r) => r.status === 200).length);
      }
    }, 120_000);

    test('guest carts merged at once through different processes: the customer ends with one active cart holding every item', async () => {
      const x = await product('MERGE-X', 1000);
      const y = await product('MERGE-Y', 1000);
      for (let round = 0; round < 3; round++) {
        const buyer = await customer(round);
        const guests = await Promise.all([
          cart([{ variant_id: x, quantity: 1 }], 0),
          cart(
            [
              { variant_id: y, quantity: 1 },
              { variant_id: x, quantity: 2 },
            ],
            1,
          ),
          cart([{ variant_id: y, quantity: 2 }], 2),
        ]);
        const merges = await Promise.all(
          guests.map((id, i) =>
            call(at(i), 'POST', `/v1/storefront/carts/${id}/merge`, PUBLISHABLE, undefined, {
              'x-customer-token': buyer.token,
            }),
          ),
        );
        expect(tally(merges)).toEqual({ 200: 3 });
        const kept = new Set(merges.map((m) => m.body.id as string));
        expect(kept.size).toBe(1);
        const [keptId] = [...kept];
        const states = await Promise.all(guests.map(read));
        expect(states.map((s) => s.status).sort()).toEqual(['abandoned', 'abandoned', 'active']);
        const merged = await read(keptId!);
        expect(merged).toMatchObject({ status: 'active', customer_id: buyer.id });
        expect(merged.items).toHaveLength(2);
        expect(quantities(merged.items)).toEqual({ [x]: 3, [y]: 3 });
      }
    }, 120_000);
  });
}
