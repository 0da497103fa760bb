import { CommerceError } from '@cartwright/core';
import type { PaymentProvider } from '@cartwright/core/providers';
import { CheckoutSchema } from '@cartwright/core/schemas';
import type { PaymentRecord, Repositories, Storage } from '@cartwright/core/storage';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import {
  ADDRESS,
  checkout,
  createCart,
  createCodeDiscount,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  placeOrder,
  recordEvents,
} from './support/order-fixtures';

/**
 * Checkout with a provider that `settlesInProcess` (manual) runs as ONE transaction. These tests
 * pin what that transaction writes (one payment row, inserted once in its final state), that a
 * failure in its middle leaves nothing behind, and that every provider outcome leaves exactly
 * what the two-transaction path (claim → provider → settle) leaves: the same provider is run
 * with the flag off and on, and the observable results are compared.
 */

let inProcess = false;

/** A card provider double registered as `stripe`, whose `settlesInProcess` the tests switch. */
const switchable: PaymentProvider = {
  name: 'stripe',
  requiresPaymentMethod: true,
  get settlesInProcess() {
    return inProcess;
  },
  async createPayment(input) {
    const provider_id = `pi_${input.reference.payment_id}`;
    switch (input.payment_method_id) {
      case 'pm_ok':
        return { status: 'succeeded', provider_id };
      case 'pm_later':
        return { status: 'pending', provider_id };
      case 'pm_3ds':
        return { status: 'requires_action', provider_id, client_secret: `${provider_id}_secret` };
      case 'pm_cancel':
        return { status: 'cancelled', provider_id, failure_message: 'Cancelled by the bank.' };
      case 'pm_unknown':
        throw new CommerceError('parameter_invalid', 'No such payment method', {
          param: 'payment_method_id',
        });
      default:
        return {
          status: 'failed',
          provider_id,
          failure_code: 'card_declined',
          failure_message: 'Your card was declined.',
        };
    }
  },
  async refundPayment(input) {
    return { status: 'succeeded', provider_refund_id: `re_${input.idempotency_key}` };
  },
};

/** What a test sees of the storage while a checkout runs. */
interface Watch {
  transactions: number;
  /** `orders.insert` (or `insertNumbered`) calls: the payments inserted with each order. */
  orderInserts: PaymentRecord[][];
  insertPayment: number;
  updatePayment: number;
  restore(): void;
}

/**
 * Wraps the engine's storage: counts transactions and payment writes; `fault(tx)` may replace
 * repository methods of each transaction (to inject a failure in the middle of checkout).
 */
function watchStorage(api: TestApi, fault?: (tx: Repositories) => Partial<Repositories>): Watch {
  const ctx = api.engine.context;
  const original: Storage = ctx.storage;
  const watch: Watch = {
    transactions: 0,
    orderInserts: [],
    insertPayment: 0,
    updatePayment: 0,
    restore: () => {
      ctx.storage = original;
    },
  };
  const orders = (tx: Repositories): Repositories['orders'] =>
    new Proxy(tx.orders, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        const fn = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          // `insertNumbered`: the PostgreSQL storage's insert that takes the number with the order.
          if (prop === 'insert' || prop === 'insertNumbered')
            watch.orderInserts.push([...(args[0] as { payments: PaymentRecord[] }).payments]);
          if (prop === 'insertPayment') watch.insertPayment += 1;
          if (prop === 'updatePayment') watch.updatePayment += 1;
          return fn.apply(target, args);
        };
      },
    });
  ctx.storage = {
    migrate: () => original.migrate(),
    read: (fn) => original.read(fn),
    close: () => original.close(),
    transaction: (fn) =>
      original.transaction((tx) => {
        watch.transactions += 1;
        const replaced = { ...fault?.(tx) };
        return fn(
          new Proxy(tx, {
            get: (target, prop) =>
              prop === 'orders'
                ? (replaced.orders ?? orders(target))
                : (replaced[prop as keyof Repositories] ?? Reflect.get(target, prop, target)),
          }),
        );
      }),
  };
  return watch;
}

/** The checkout attempts of a cart as stored (`checkout_<cart>_<n>`, n = 1, 2, …). */
async function attemptsOf(api: TestApi, cartId: string): Promise<PaymentRecord[]> {
  const found: PaymentRecord[] = [];
  for (let n = 1; ; n++) {
    const row = await api.engine.storage.read((tx) =>
      tx.orders.getPayment(api.scope, { idempotency_key: `checkout_${cartId}_${n}` }),
    );
    if (!row) return found;
    found.push(row);
  }
}

async function usageCount(api: TestApi, discountId: string): Promise<number> {
  return expectStatus(await api.get(`/v1/admin/discounts/${discountId}`), 200).body.usage_count;
}

/**
 * One checkout of a fresh product (3 units, safety stock 2, 2 ordered: the reservation fires
 * `inventory.low`) with a code discount, paid with `payment_method_id`; the body also sets the
 * billing address and metadata on the cart. Returns everything a client or the admin can observe,
 * with ids and times replaced by placeholders.
 */
async function observeCheckout(api: TestApi, payment_method_id: string) {
  const events = recordEvents(api);
  try {
    const item = await createProduct(api, { price: 4200, on_hand: 3, safety_stock: 2 });
    const discount = await createCodeDiscount(api, { prefix: 'ONE' });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
    expectStatus(
      await api.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code: discount.code }),
      200,
    );
    const res = await checkout(api, cart.id, {
      email: 'same@example.com',
      payment_provider: 'stripe',
      payment_method_id,
      billing_address: { ...ADDRESS, name: 'Billing Person' },
      metadata: { gift: true },
    });
    const attempts = await attemptsOf(api, cart.id);
    // What differs between two runs by construction: ids, unique names, times, order numbers.
    const names: Array<[string, string]> = [
      [cart.id, '<cart>'],
      [item.variant_id, '<variant>'],
      [item.product_id, '<product>'],
      [item.inventory_id, '<inventory>'],
      [item.sku, '<sku>'],
      [item.name, '<name>'],
      [discount.id, '<discount>'],
      [discount.code, '<code>'],
      ...attempts.map((p, i): [string, string] => [p.id, `<payment ${i + 1}>`]),
    ];
    if (res.status === 201) names.push([res.body.id, '<order>']);
    const varying = new Set([
      'created_at',
      'updated_at',
      'completed_at',
      'confirmed_at',
      'number',
      'request_id',
    ]);
    const anonymise = (value: unknown): unknown => {
      let text = JSON.stringify(value, (key, v) => (varying.has(key) ? '<varies>' : v));
      for (const [actual, placeholder] of names) text = text.split(actual).join(placeholder);
      return JSON.parse(text.replace(/\b(line|item|evt|use|ilvl)_[0-9A-Za-z]+/g, '<id>'));
    };
    const cartAfter = expectStatus(await api.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body;
    return anonymise({
      response: { status: res.status, body: res.body },
      attempts,
      inventory: await inventoryOf(api, item.inventory_id),
      usage_count: await usageCount(api, discount.id),
      cart: {
        status: cartAfter.status,
        billing_address: cartAfter.billing_address,
        metadata: cartAfter.metadata,
      },
      events: events.seen.filter(
        (e) =>
          e.data.cart_id === cart.id ||
          e.data.variant_id === item.variant_id ||
          (res.status === 201 && (e.data.id === res.body.id || e.data.order_id === res.body.id)),
      ),
    });
  } finally {
    events.stop();
  }
}

describeApi(
  'checkout in one transaction',
  (api) => {
    test('manual: one transaction; the payment row is inserted once, with the order, in its final state', async () => {
      const a = api();
      const item = await createProduct(a, { price: 1500, on_hand: 5 });
      const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
      const events = recordEvents(a);
      const watch = watchStorage(a);
      let order: Awaited<ReturnType<typeof a.engine.checkout.checkout>>;
      try {
        order = await a.engine.checkout.checkout(
          a.scope,
          cart.id,
          CheckoutSchema.parse({ email: 'one@example.com', payment_provider: 'manual' }),
          { key_type: 'publishable', customer_id: null },
        );
      } finally {
        watch.restore();
        events.stop();
      }
      expect(watch.transactions).toBe(1);
      expect(watch.updatePayment).toBe(0);
      expect(watch.insertPayment).toBe(0);
      expect(watch.orderInserts).toHaveLength(1);
      expect(watch.orderInserts[0]).toHaveLength(1);
      expect(watch.orderInserts[0]?.[0]).toMatchObject({
        order_id: order.id,
        status: 'pending',
        provider: 'manual',
        metadata: {},
      });

      expect(order).toMatchObject({ status: 'pending', payment_status: 'unpaid', total: { amount: 3000 } });
      const attempts = await attemptsOf(a, cart.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({
        id: order.payments[0]?.id,
        order_id: order.id,
        cart_id: cart.id,
        provider: 'manual',
        provider_id: null,
        status: 'pending',
        amount: 3000,
        client_secret: null,
        failure_reason: null,
        metadata: {},
      });
      expect(attempts[0]?.updated_at).toBe(attempts[0]?.created_at);
      expect(events.typesFor(order.id)).toEqual(['order.created', 'payment.created']);
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 2, available: 3 });
      expect(expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
        'completed',
      );
    });

    test.each([
      ['the order insert fails', 'insert'],
      ['the discount use is refused (used up concurrently)', 'usage'],
    ] as const)(
      'a failure after the reservation (%s) leaves no order, reservation, discount use, number or payment',
      async (_label, fault) => {
        const a = api();
        const item = await createProduct(a, { price: 2000, on_hand: 4 });
        const discount = await createCodeDiscount(a, { prefix: 'ONE', usage_limit: 10 });
        const first = await placeOrder(a, [{ variant_id: item.variant_id }]);
        const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
        expectStatus(
          await a.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code: discount.code }),
          200,
        );
        const events = recordEvents(a);
        const watch = watchStorage(a, (tx) =>
          fault === 'insert'
            ? {
                orders: new Proxy(tx.orders, {
                  get: (target, prop) =>
                    prop === 'insert' || prop === 'insertNumbered'
                      ? async () => {
                          throw new Error('simulated crash while writing the order');
                        }
                      : Reflect.get(target, prop, target).bind(target),
                }),
              }
            : {
                discounts: new Proxy(tx.discounts, {
                  get: (target, prop) =>
                    prop === 'recordUsage'
                      ? async (...args: Parameters<Repositories['discounts']['recordUsage']>) => {
                          await target.recordUsage(...args); // counted, then refused: must roll back too
                          return null; // the usage_limit cap refused it
                        }
                      : Reflect.get(target, prop, target).bind(target),
                }),
              },
        );
        let res: Awaited<ReturnType<typeof checkout>>;
        try {
          res = await checkout(a, cart.id);
        } finally {
          watch.restore();
          events.stop();
        }
        if (fault === 'insert') expectError(res, 500, 'internal_error');
        else expectError(res, 422, 'discount_usage_limit_reached');
        expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 1, available: 3 });
        expect(await usageCount(a, discount.id)).toBe(0);
        expect(await attemptsOf(a, cart.id)).toEqual([]);
        expect(expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
          'active',
        );
        expect(events.seen).toEqual([]);
        // No number was used: the retry takes the one after the first order.
        const retried = expectStatus(await checkout(a, cart.id), 201).body;
        expect(retried.number).toBe(first.number + 1);
        expect(await usageCount(a, discount.id)).toBe(1);
        expect(await attemptsOf(a, cart.id)).toHaveLength(1);
      },
    );

    test.each([
      ['declined', 'pm_declined'],
      ['cancelled by the provider', 'pm_cancel'],
      ['refused with an error (unknown payment method)', 'pm_unknown'],
      ['succeeded', 'pm_ok'],
      ['pending', 'pm_later'],
      ['requires_action (3-D Secure)', 'pm_3ds'],
    ])(
      'provider outcome %s: settling in process leaves exactly what claim → provider → settle leaves',
      async (_label, pm) => {
        const a = api();
        inProcess = false;
        const twoSteps = await observeCheckout(a, pm);
        inProcess = true;
        let oneStep: unknown;
        try {
          oneStep = await observeCheckout(a, pm);
        } finally {
          inProcess = false;
        }
        expect(oneStep).toEqual(twoSteps);
        expect(twoSteps).toMatchObject({ inventory: { on_hand: 3 } });
      },
    );

    test('a decline in one transaction keeps the attempt numbering: the retry is attempt 2 and succeeds', async () => {
      const a = api();
      inProcess = true;
      try {
        const item = await createProduct(a, { price: 700, on_hand: 2 });
        const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
        const body = { email: 'retry@example.com', payment_provider: 'stripe' };
        expectError(
          await checkout(a, cart.id, { ...body, payment_method_id: 'pm_declined' }),
          402,
          'payment_failed',
        );
        expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 0, available: 2 });
        const order = expectStatus(
          await checkout(a, cart.id, { ...body, payment_method_id: 'pm_ok' }),
          201,
        ).body;
        expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
        const attempts = await attemptsOf(a, cart.id);
        expect(attempts.map((p) => [p.status, p.order_id])).toEqual([
          ['failed', null],
          ['completed', order.id],
        ]);
      } finally {
        inProcess = false;
      }
    });
  },
  { payments: [switchable] },
);
