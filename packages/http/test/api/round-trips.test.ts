import {
  CartCreateSchema,
  CartItemAddSchema,
  CartUpdateSchema,
  CheckoutSchema,
} from '@cartwright/core/schemas';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createShippingMethod } from './support/catalog-fixtures';
import { startApi, type TestApi } from './support/harness';
import { ADDRESS, createCustomer, createProduct, placeOrder } from './support/order-fixtures';

/**
 * Round trips to PostgreSQL per use case of the storefront flow (issue 24): the storage
 * pipelines the statements a use case starts together (BEGIN with the first, the last writes
 * with COMMIT), so a use case costs one round trip per level of reads that depend on earlier
 * ones. Counted by the adapter (`PostgresStorage.stats()`), around each service call (no
 * API-key lookup, no HTTP). The figures are exact: a use case that starts to wait once more per
 * request fails here.
 */

interface Traffic {
  statements: number;
  roundTrips: number;
}

function statsOf(api: TestApi): () => Traffic {
  const storage = api.engine.storage as unknown as { stats?(): Traffic };
  if (typeof storage.stats !== 'function') throw new Error('the PostgreSQL storage counts no traffic');
  return () => storage.stats!();
}

describe('round trips of the storefront flow [postgres]', () => {
  let api: TestApi & { close(): Promise<void> };
  let stats: () => Traffic;
  const guest = { key_type: 'publishable', customer_id: null } as const;

  beforeAll(async () => {
    api = await startApi('postgres');
    stats = statsOf(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  /** The traffic of one call. */
  async function measure<T>(call: () => Promise<T>): Promise<{ value: T; traffic: Traffic }> {
    const before = stats();
    const value = await call();
    const after = stats();
    return {
      value,
      traffic: {
        statements: after.statements - before.statements,
        roundTrips: after.roundTrips - before.roundTrips,
      },
    };
  }

  test("over HTTP, a write with a key this process found usable moments ago: the key is confirmed by the transaction's first flight, no round trip of its own; a read authenticates first", async () => {
    // The first request reads the key before its transaction (and remembers it).
    const first = await measure(() => api.storefront.post('/v1/storefront/carts', {}));
    expect(first.value.status).toBe(200);
    expect(first.traffic.roundTrips).toBeGreaterThanOrEqual(3);
    // [BEGIN, key, store, automatic discounts, default region] [cart insert] [COMMIT]
    const second = await measure(() => api.storefront.post('/v1/storefront/carts', {}));
    expect(second.value.status).toBe(200);
    expect(second.traffic).toEqual({ statements: 7, roundTrips: 2 });
    // A read: [key] then its own statements.
    const cartId = (second.value.body as { id: string }).id;
    const read = await measure(() => api.storefront.get(`/v1/storefront/carts/${cartId}`));
    expect(read.value.status).toBe(200);
    expect(read.traffic.roundTrips).toBe(1 + read.traffic.statements - 1);
  });

  test('create, add items, set the address and method, check out: 2, 2, 2, 2, 3 round trips in the transaction (the API-key lookup before it is one more)', async () => {
    const first = await createProduct(api, { price: 1500, on_hand: 10 });
    const second = await createProduct(api, { price: 700, on_hand: 10 });
    const shipping_method_id = await createShippingMethod(api, { price: 500 });
    // The store's first order creates its order-number counter (two statements more, once).
    await placeOrder(api, [{ variant_id: second.variant_id }]);
    const { scope, engine } = api;

    // [BEGIN, store, automatic discounts, default region] [cart insert] [COMMIT] (the default
    // region, decisions §19, is read beside the rest: a statement more, no round trip more)
    const created = await measure(() => engine.carts.create(scope, guest, CartCreateSchema.parse({})));
    expect(created.traffic).toEqual({ statements: 6, roundTrips: 2 });
    const cartId = created.value.id;

    // [BEGIN, lock + cart, store, automatic discounts, variants] [touch + item insert, COMMIT]:
    // the variants of the cart's items (a subquery on cart_items) and of the one added are read
    // beside the lock, before the cart is known — pricing reads nothing more for a cart without
    // a customer, codes, a region or a shipping method (was 3 round trips: [variants] alone).
    for (const variant_id of [first.variant_id, second.variant_id]) {
      const added = await measure(() =>
        engine.carts.addItem(scope, guest, cartId, CartItemAddSchema.parse({ variant_id, quantity: 2 })),
      );
      expect(added.traffic).toEqual({ statements: 9, roundTrips: 2 });
    }

    // [BEGIN, lock + cart, store, automatic discounts, variants, shipping method] [set, COMMIT]:
    // the method the request sets is read by its id beside the lock, the variants as on add
    // (was 3 round trips: [variants, shipping method] alone).
    const updated = await measure(() =>
      engine.carts.update(
        scope,
        guest,
        cartId,
        CartUpdateSchema.parse({ shipping_address: ADDRESS, shipping_method_id }),
      ),
    );
    expect(updated.traffic).toEqual({ statements: 9, roundTrips: 2 });
    expect(updated.value.shipping_method_id).toBe(shipping_method_id);
    expect(updated.value.summary.shipping_total).toEqual({ amount: 500, currency: 'USD' });

    // [BEGIN, lock + cart, store, automatic discounts, attempt 1, the cart's variants, the cart's
    // shipping method] [inventory] [cart completed, number + order + events (one statement),
    // COMMIT]: the pricing reads that need only the cart's id go beside the lock (subqueries on
    // the cart's rows, as a cart write's), and the order number is taken in the COMMIT flight, so
    // the store's counter row is locked for that round trip only (was [BEGIN, …, attempt 1]
    // [variants, shipping method] [inventory] [number, cart completed] [order insert, events,
    // COMMIT]: 14 statements, 5 round trips).
    const heard: Array<{ id: string; number: number }> = [];
    const unsubscribe = engine.events.on('order.created', (event) => heard.push(event.data));
    const checkedOut = await measure(() =>
      engine.checkout.checkout(
        scope,
        cartId,
        CheckoutSchema.parse({ email: 'buyer@example.com', payment_provider: 'manual' }),
        guest,
      ),
    );
    expect(checkedOut.value.status).toBe('pending');
    expect(checkedOut.traffic).toEqual({ statements: 12, roundTrips: 3 });
    // The number the order got is the one it answers, stored and in its outbox event.
    const stored = await engine.orders.get(scope, checkedOut.value.id);
    expect(checkedOut.value.number).toBeGreaterThan(1001);
    expect(stored.number).toBe(checkedOut.value.number);
    const { db } = engine.storage as unknown as {
      db: {
        selectFrom(t: string): {
          select(c: string[]): {
            where(...a: unknown[]): { execute(): Promise<Array<{ type: string; data: unknown }>> };
          };
        };
      };
    };
    const outbox = await db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', 'in', ['order.created'])
      .execute();
    const createdEvent = outbox
      .map(
        (row) =>
          (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as { id: string; number: number },
      )
      .find((data) => data.id === checkedOut.value.id);
    expect(createdEvent?.number).toBe(checkedOut.value.number);
    // In-process listeners hear it with the number too.
    await expect
      .poll(() => heard.find((order) => order.id === checkedOut.value.id)?.number)
      .toBe(checkedOut.value.number);
    unsubscribe();
  });

  test('a checkout with an Idempotency-Key over HTTP: its response is stored with COMMIT (no round trip of its own), the order number in it', async () => {
    const product = await createProduct(api, { price: 1100, on_hand: 10 });
    const shipping_method_id = await createShippingMethod(api, { price: 300 });
    const cartOf = async () => {
      const cart = await api.storefront.post('/v1/storefront/carts', {
        items: [{ variant_id: product.variant_id, quantity: 1 }],
      });
      expect(cart.status).toBe(200);
      const id = (cart.body as { id: string }).id;
      const set = await api.storefront.patch(`/v1/storefront/carts/${id}`, {
        shipping_address: ADDRESS,
        shipping_method_id,
      });
      expect(set.status).toBe(200);
      return id;
    };
    const checkoutOf = (cartId: string, key?: string) =>
      measure(() =>
        api.storefront.post(
          `/v1/storefront/carts/${cartId}/checkout`,
          { email: 'keyed@example.com', payment_provider: 'manual' },
          key === undefined ? {} : { idempotencyKey: key },
        ),
      );
    const plain = await checkoutOf(await cartOf());
    const key = `idem_rt_${Date.now()}`;
    const keyedCart = await cartOf();
    const keyed = await checkoutOf(keyedCart, key);
    expect([plain.value.status, keyed.value.status]).toEqual([201, 201]);
    // The key's claim is a transaction of its own ([BEGIN, claim] [COMMIT]); the checkout's
    // transaction then costs what it costs without a key: its response's compare-and-set goes with
    // COMMIT, and the order is numbered in that flight too (was 4 more: the compare-and-set had a
    // round trip of its own, and so had the number, which the stored response had to hold).
    expect(keyed.traffic.roundTrips - plain.traffic.roundTrips).toBe(2);
    const order = keyed.value.body as { id: string; number: number };
    expect(order.number).toBe((plain.value.body as { number: number }).number + 1);
    const replay = await api.storefront.post(
      `/v1/storefront/carts/${keyedCart}/checkout`,
      { email: 'keyed@example.com', payment_provider: 'manual' },
      { idempotencyKey: key },
    );
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(keyed.value.body);
  });

  test("a customer's cart: add an item, set the method, change the address — 2 round trips each, the customer read beside the lock; an add to a cart that names a method reads it in a round trip of its own", async () => {
    const product = await createProduct(api, { price: 1200, on_hand: 10 });
    const shipping_method_id = await createShippingMethod(api, { price: 400 });
    const customer = await createCustomer(api);
    const actor = { key_type: 'publishable', customer_id: customer.id } as const;
    const { scope, engine } = api;
    const cart = await engine.carts.create(scope, actor, CartCreateSchema.parse({}));
    expect(cart.customer_id).toBe(customer.id);
    const add = () =>
      measure(() =>
        engine.carts.addItem(
          scope,
          actor,
          cart.id,
          CartItemAddSchema.parse({ variant_id: product.variant_id, quantity: 1 }),
        ),
      );

    // [BEGIN, lock + cart, store, automatic discounts, variants, customer] [touch + item insert,
    // COMMIT]: the caller's customer, read by the token's id, is the cart's.
    const added = await add();
    expect(added.traffic).toEqual({ statements: 10, roundTrips: 2 });

    // [BEGIN, lock + cart, store, automatic discounts, variants, shipping method, customer]
    // [set, COMMIT]
    const method = await measure(() =>
      engine.carts.update(scope, actor, cart.id, CartUpdateSchema.parse({ shipping_method_id })),
    );
    expect(method.traffic).toEqual({ statements: 10, roundTrips: 2 });

    // [BEGIN, lock + cart, store, automatic discounts, variants, the cart's shipping method (by a
    // subquery on the cart's row), customer] [set, COMMIT]
    const address = await measure(() =>
      engine.carts.update(scope, actor, cart.id, CartUpdateSchema.parse({ shipping_address: ADDRESS })),
    );
    expect(address.traffic).toEqual({ statements: 10, roundTrips: 2 });
    expect(address.value.summary.shipping_total).toEqual({ amount: 400, currency: 'USD' });

    // [BEGIN, lock + cart, store, automatic discounts, variants, customer] [shipping method]
    // [touch + item update, COMMIT]: an add does not read the cart's method beside the lock (it
    // would be a statement more on every add to a cart without one).
    const again = await add();
    expect(again.traffic).toEqual({ statements: 11, roundTrips: 3 });
    expect(again.value.items[0]?.quantity).toBe(2);
  });

  test('an unknown variant added: 404 once the first round trip read that it is not there, nothing read again', async () => {
    const cart = await api.engine.carts.create(api.scope, guest, CartCreateSchema.parse({}));
    const before = stats();
    await expect(
      api.engine.carts.addItem(
        api.scope,
        guest,
        cart.id,
        CartItemAddSchema.parse({ variant_id: 'var_missing', quantity: 1 }),
      ),
    ).rejects.toMatchObject({ code: 'not_found', param: 'variant_id' });
    const after = stats();
    // [BEGIN, lock + cart, store, automatic discounts, variants] [ROLLBACK]
    expect({
      statements: after.statements - before.statements,
      roundTrips: after.roundTrips - before.roundTrips,
    }).toEqual({ statements: 7, roundTrips: 2 });
  });

  test('a cart created with its items prices them in the first round trip: 2 round trips', async () => {
    const product = await createProduct(api, { price: 900, on_hand: 5 });
    const created = await measure(() =>
      api.engine.carts.create(
        api.scope,
        guest,
        CartCreateSchema.parse({ items: [{ variant_id: product.variant_id, quantity: 1 }] }),
      ),
    );
    expect(created.value.items).toHaveLength(1);
    // [BEGIN, store, automatic discounts, variants, default region] [cart and items insert] [COMMIT]
    expect(created.traffic).toEqual({ statements: 7, roundTrips: 2 });
  });
});
