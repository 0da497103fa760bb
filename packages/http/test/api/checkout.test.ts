import type { PaymentProvider } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi } from './support/harness';
import {
  ADDRESS,
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  recordEvents,
  unique,
} from './support/order-fixtures';

describeApi('checkout', (api) => {
  test('a storefront goes from browsing to a paid, shipped, partly refunded order through HTTP alone', async () => {
    const a = api();
    const mug = await createProduct(a, { name: unique('Mug '), price: 1250, on_hand: 10 });

    // Browse: the product is listed and readable on the storefront.
    const list = expectStatus(
      await a.storefront.get(`/v1/storefront/products?q=${encodeURIComponent(mug.name)}`),
      200,
    );
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(mug.product_id);
    const product = expectStatus(
      await a.storefront.get(`/v1/storefront/products/${mug.product_id}`),
      200,
    ).body;
    const variantId = product.variants[0].id;

    // Cart: create, add 3 mugs, set the address.
    const cart = expectStatus(
      await a.storefront.post('/v1/storefront/carts', { session_id: unique('sess') }),
      200,
    ).body;
    expectStatus(
      await a.storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
        variant_id: variantId,
        quantity: 3,
      }),
      200,
    );
    const priced = expectStatus(
      await a.storefront.patch(`/v1/storefront/carts/${cart.id}`, { shipping_address: ADDRESS }),
      200,
    ).body;
    expect(priced.summary.total.amount).toBe(3750);

    // Checkout with the manual provider: 201, pending and unpaid, stock reserved, cart completed.
    const email = `${unique('buyer')}@example.com`;
    const order = expectStatus(await checkout(a, cart.id, { email, payment_provider: 'manual' }), 201).body;
    expect(order).toMatchObject({
      status: 'pending',
      payment_status: 'unpaid',
      fulfillment_status: 'unfulfilled',
      email,
      total: { amount: 3750, currency: 'USD' },
      refunded_total: { amount: 0, currency: 'USD' },
    });
    expect(order.payments).toHaveLength(1);
    expect(order.payments[0]).toMatchObject({
      provider: 'manual',
      status: 'pending',
      amount: { amount: 3750 },
    });
    expect(order.lines[0]).toMatchObject({
      variant_id: variantId,
      quantity: 3,
      sku: mug.sku,
      product_name: mug.name,
    });
    expect(await inventoryOf(a, mug.inventory_id)).toMatchObject({ on_hand: 10, reserved: 3, available: 7 });
    expect(expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
      'completed',
    );

    // The guest finds the order by number and e-mail (any case).
    const found = expectStatus(
      await a.storefront.get(
        `/v1/storefront/orders/lookup?number=${order.number}&email=${email.toUpperCase()}`,
      ),
      200,
    ).body;
    expect(found.id).toBe(order.id);

    // The merchant receives the money: paid and confirmed.
    expectStatus(await a.post(`/v1/admin/payments/${order.payments[0].id}/complete`), 200);
    const paid = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(paid).toMatchObject({ status: 'confirmed', payment_status: 'paid' });

    // Ship everything: processing, then stock leaves the warehouse, then delivered → completed.
    const fulfillment = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 3 }],
        carrier: 'Royal Mail',
        tracking_number: 'RM123',
      }),
      200,
    ).body;
    expectStatus(await a.post(`/v1/admin/fulfillments/${fulfillment.id}/ship`), 200);
    expect(await inventoryOf(a, mug.inventory_id)).toMatchObject({ on_hand: 7, reserved: 0, available: 7 });
    const delivered = expectStatus(
      await a.post(`/v1/admin/fulfillments/${fulfillment.id}/deliver`),
      200,
    ).body;
    expect(delivered.status).toBe('delivered');
    const shipped = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(shipped).toMatchObject({ status: 'completed', fulfillment_status: 'fulfilled' });
    expect(shipped.completed_at).not.toBeNull();

    // One mug comes back broken: 1 of 3 units refunded = 1250, restocked onto on_hand.
    const refund = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/refunds`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
        restock: true,
        reason: 'broken',
      }),
      200,
    ).body;
    expect(refund).toMatchObject({
      amount: { amount: 1250 },
      status: 'completed',
      restock: true,
      reason: 'broken',
    });
    expect(await inventoryOf(a, mug.inventory_id)).toMatchObject({ on_hand: 8, reserved: 0 });
    const final = expectStatus(
      await a.storefront.get(`/v1/storefront/orders/lookup?number=${order.number}&email=${email}`),
      200,
    ).body;
    expect(final).toMatchObject({
      status: 'completed',
      payment_status: 'partially_refunded',
      refunded_total: { amount: 1250 },
    });
    expect(final.lines[0]).toMatchObject({ fulfilled_quantity: 3, refunded_quantity: 1 });
  });

  test('a signed-in customer checks out without an e-mail: the customer’s is used, and the order is theirs', async () => {
    const a = api();
    const item = await createProduct(a, { price: 500 });
    const customer = await createCustomer(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }], { customerToken: customer.token });

    // Without the token, a publishable key cannot see the customer's cart.
    expectError(await checkout(a, cart.id, { payment_provider: 'manual' }), 404, 'not_found');

    const order = expectStatus(
      await checkout(a, cart.id, { payment_provider: 'manual' }, { customerToken: customer.token }),
      201,
    ).body;
    expect(order).toMatchObject({ email: customer.email, customer_id: customer.id });
  });

  test('the body’s addresses, note and metadata are applied; payment_method is the older name of payment_provider', async () => {
    const a = api();
    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }], { shipping_address: null });
    const billing = { ...ADDRESS, name: 'Accounts', company: 'Analytical Engines Ltd' };
    const order = expectStatus(
      await checkout(a, cart.id, {
        email: 'body@example.com',
        payment_method: 'manual',
        shipping_address: ADDRESS,
        billing_address: billing,
        note: 'leave at the door',
        metadata: { gift: true },
      }),
      201,
    ).body;
    expect(order.shipping_address).toMatchObject({ ...ADDRESS, company: null, line2: null });
    expect(order.billing_address).toMatchObject(billing);
    expect(order).toMatchObject({ note: 'leave at the door', metadata: { gift: true } });
    expect(order.payments[0].provider).toBe('manual');
  });

  test('lines snapshot names, SKU and prices: a later price change does not touch the order', async () => {
    const a = api();
    const item = await createProduct(a, { price: 2000 });
    const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    const order = expectStatus(await checkout(a, cart.id), 201).body;
    expectStatus(await a.patch(`/v1/admin/variants/${item.variant_id}`, { price: 9999 }), 200);
    const again = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(again.lines[0]).toMatchObject({
      product_id: item.product_id,
      product_name: item.name,
      sku: item.sku,
      unit_price: { amount: 2000 },
      line_discount: { amount: 0 },
      line_total: { amount: 4000 },
    });
    expect(again.subtotal.amount).toBe(4000);
  });

  test('checkout prices the cart afresh from the catalog and applies its discount codes', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const code = unique('TEN').toUpperCase();
    expectStatus(
      await a.post('/v1/admin/discounts', {
        name: 'Ten off',
        code,
        type: 'code',
        value_type: 'fixed',
        value: 1000,
      }),
      200,
    );
    const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 3 }]);
    expectStatus(await a.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code }), 200);
    expectStatus(await a.patch(`/v1/admin/variants/${item.variant_id}`, { price: 1500 }), 200);
    const order = expectStatus(await checkout(a, cart.id), 201).body;
    // 3 × 1500 = 4500, minus 1000 = 3500: the new catalog price, not the one the cart showed.
    expect(order).toMatchObject({
      subtotal: { amount: 4500 },
      discount_total: { amount: 1000 },
      total: { amount: 3500 },
    });
    expect(order.applied_discounts).toEqual([
      expect.objectContaining({
        code,
        value_type: 'fixed',
        value: 1000,
        saved: { amount: 1000, currency: 'USD' },
      }),
    ]);
    expect(order.lines[0]).toMatchObject({ line_discount: { amount: 1000 }, line_total: { amount: 3500 } });
  });

  test('events: order.created and payment.created are emitted for a manual checkout', async () => {
    const a = api();
    const events = recordEvents(a);
    try {
      const item = await createProduct(a);
      const cart = await createCart(a, [{ variant_id: item.variant_id }]);
      const order = expectStatus(await checkout(a, cart.id), 201).body;
      expect(events.typesFor(order.id)).toEqual(['order.created', 'payment.created']);
      const created = events.seen.find((e) => e.type === 'order.created' && e.data.id === order.id);
      expect(created?.data).toMatchObject({
        id: order.id,
        number: order.number,
        status: 'pending',
        total: order.total,
      });
    } finally {
      events.stop();
    }
  });

  test('a digital-only cart needs no shipping address; a physical item does (422 shipping_address_required)', async () => {
    const a = api();
    const ebook = await createProduct(a, { type: 'digital', track_inventory: false });
    const digital = await createCart(a, [{ variant_id: ebook.variant_id }], { shipping_address: null });
    expectStatus(await checkout(a, digital.id), 201);

    const book = await createProduct(a, { type: 'physical' });
    const physical = await createCart(a, [{ variant_id: book.variant_id }], { shipping_address: null });
    expectError(await checkout(a, physical.id), 422, 'shipping_address_required');
  });

  test('a shipping method deactivated after the cart chose it → 422 shipping_method_unavailable, nothing written; another method → 201', async () => {
    const a = api();
    const mug = await createProduct(a, { price: 1000, on_hand: 3 });
    const method = expectStatus(
      await a.post('/v1/admin/shipping-methods', { name: unique('Courier '), price: 500 }),
      200,
    ).body;
    const cart = await createCart(a, [{ variant_id: mug.variant_id }], { shipping_method_id: method.id });
    const chosen = expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body;
    expect(chosen.summary.shipping_total.amount).toBe(500);
    expectStatus(await a.patch(`/v1/admin/shipping-methods/${method.id}`, { is_active: false }), 200);

    expectError(await checkout(a, cart.id), 422, 'shipping_method_unavailable', 'shipping_method_id');
    expect(await inventoryOf(a, mug.inventory_id)).toMatchObject({ reserved: 0 });
    expect(expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
      'active',
    );

    const other = expectStatus(
      await a.post('/v1/admin/shipping-methods', { name: unique('Post '), price: 300 }),
      200,
    ).body;
    expectStatus(
      await a.storefront.patch(`/v1/storefront/carts/${cart.id}`, { shipping_method_id: other.id }),
      200,
    );
    const order = expectStatus(await checkout(a, cart.id), 201).body;
    expect(order).toMatchObject({ shipping_total: { amount: 300 }, shipping_method_name: other.name });
  });

  test('errors: unknown cart 404, empty cart 422 cart_empty, second checkout 409 cart_not_active', async () => {
    const a = api();
    expectError(await checkout(a, 'cart_doesnotexist'), 404, 'not_found');

    const empty = expectStatus(
      await a.storefront.post('/v1/storefront/carts', { shipping_address: ADDRESS }),
      200,
    ).body;
    expectError(await checkout(a, empty.id), 422, 'cart_empty');

    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }]);
    expectStatus(await checkout(a, cart.id), 201);
    expectError(await checkout(a, cart.id), 409, 'cart_not_active');
  });

  test('errors: guest without e-mail 400 parameter_missing; stripe unconfigured 400 parameter_invalid (with or without payment_method_id)', async () => {
    const a = api();
    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }]);
    expectError(
      await checkout(a, cart.id, { payment_provider: 'manual' }),
      400,
      'parameter_missing',
      'email',
    );
    expectError(
      await checkout(a, cart.id, {
        email: 'a@example.com',
        payment_provider: 'stripe',
        payment_method_id: 'pm_1',
      }),
      400,
      'parameter_invalid',
      'payment_provider',
    );
    expectError(
      await checkout(a, cart.id, { email: 'a@example.com', payment_provider: 'stripe' }),
      400,
      'parameter_invalid',
      'payment_provider',
    );
    expectError(
      await checkout(a, cart.id, { email: 'a@example.com', payment_provider: 'paypal' }),
      400,
      'parameter_invalid',
    );
    expectError(await checkout(a, cart.id, { email: 'not-an-email' }), 400, 'parameter_invalid', 'email');
    expectError(
      await checkout(a, cart.id, { email: 'a@example.com', coupon: 'x' }),
      400,
      'parameter_unknown',
    );
    // None of these changed anything: the cart is still active and checks out.
    expectStatus(await checkout(a, cart.id), 201);
  });

  test('errors roll everything back: 422 insufficient_inventory leaves no order, no reservation, the cart active', async () => {
    const a = api();
    const scarce = await createProduct(a, { on_hand: 5 });
    const plenty = await createProduct(a, { on_hand: 50 });
    const cart = await createCart(a, [
      { variant_id: plenty.variant_id, quantity: 2 },
      { variant_id: scarce.variant_id, quantity: 4 },
    ]);
    // Stock falls after the items were added.
    expectStatus(await a.post(`/v1/admin/inventory/${scarce.inventory_id}/adjust`, { quantity: -3 }), 200);
    const before = expectStatus(await a.get('/v1/admin/orders?limit=1'), 200).body.total_count;

    const res = await checkout(a, cart.id);
    expectError(res, 422, 'insufficient_inventory');
    expect(res.body.error.message).toMatch(/4 requested, 2 available/);

    expect(expectStatus(await a.get('/v1/admin/orders?limit=1'), 200).body.total_count).toBe(before);
    expect(await inventoryOf(a, plenty.inventory_id)).toMatchObject({ reserved: 0 });
    expect(await inventoryOf(a, scarce.inventory_id)).toMatchObject({ on_hand: 2, reserved: 0 });
    expect(expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
      'active',
    );
  });

  test('errors: a product archived after it was added → 422 product_unavailable', async () => {
    const a = api();
    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }]);
    expectStatus(await a.patch(`/v1/admin/products/${item.product_id}`, { status: 'archived' }), 200);
    expectError(await checkout(a, cart.id), 422, 'product_unavailable');
  });

  test('a discount with usage_limit 1: the second checkout is refused (422 discount_usage_limit_reached) and counts nothing', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const code = unique('ONCE').toUpperCase();
    const discount = expectStatus(
      await a.post('/v1/admin/discounts', {
        name: 'Once',
        code,
        type: 'code',
        value_type: 'percentage',
        value: 50,
        usage_limit: 1,
      }),
      200,
    ).body;
    const first = await createCart(a, [{ variant_id: item.variant_id }]);
    const second = await createCart(a, [{ variant_id: item.variant_id }]);
    for (const cart of [first, second]) {
      expectStatus(await a.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code }), 200);
    }
    const order = expectStatus(await checkout(a, first.id), 201).body;
    expect(order.total.amount).toBe(500);
    expectError(await checkout(a, second.id), 422, 'discount_usage_limit_reached');
    expect(expectStatus(await a.get(`/v1/admin/discounts/${discount.id}`), 200).body.usage_count).toBe(1);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 1 });
  });

  test('Idempotency-Key: a replay returns the same order; another body with the key → 409 idempotency_key_reused', async () => {
    const a = api();
    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }]);
    const key = unique('idem');
    const body = { email: 'idem@example.com', payment_provider: 'manual' };
    const first = expectStatus(await checkout(a, cart.id, body, { idempotencyKey: key }), 201).body;
    const replay = expectStatus(await checkout(a, cart.id, body, { idempotencyKey: key }), 201).body;
    expect(replay.id).toBe(first.id);
    // The number (on PostgreSQL taken with COMMIT, and put into the stored response there) is real.
    expect(first.number).toBeGreaterThan(1000);
    expect(replay.number).toBe(first.number);
    expect(expectStatus(await a.get(`/v1/admin/orders/${first.id}`), 200).body.number).toBe(first.number);
    expectError(
      await checkout(a, cart.id, { ...body, email: 'other@example.com' }, { idempotencyKey: key }),
      409,
      'idempotency_key_reused',
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 1 });
  });

  test('Idempotency-Key: two concurrent checkouts with one key make one order', async () => {
    const a = api();
    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    const key = unique('idem');
    const responses = await Promise.all([
      checkout(a, cart.id, undefined, { idempotencyKey: key }),
      checkout(a, cart.id, undefined, { idempotencyKey: key }),
    ]);
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of responses) if (r.status !== 201) expectError(r, 409, 'idempotency_key_in_use');
    const orders = expectStatus(await a.get('/v1/admin/orders?email=guest@example.com&limit=100'), 200).body
      .data;
    expect(
      orders.filter(
        (o: { lines: Array<{ variant_id: string }> }) => o.lines[0]?.variant_id === item.variant_id,
      ),
    ).toHaveLength(1);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 2 });
  });

  test('a live-mode key cannot check out a test-mode cart (404)', async () => {
    const a = api();
    const item = await createProduct(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }]);
    expectError(await checkout(a, cart.id, undefined, { key: a.keys.livePublishable }), 404, 'not_found');
  });
});

/**
 * A card provider double registered as `stripe`: `pm_card_visa` succeeds, anything else is
 * declined. Refunds always succeed.
 */
const fakeCards: PaymentProvider = {
  name: 'stripe',
  requiresPaymentMethod: true,
  async createPayment(input) {
    if (input.payment_method_id === 'pm_card_visa') {
      return { status: 'succeeded', provider_id: `pi_${input.reference.payment_id}` };
    }
    return {
      status: 'failed',
      provider_id: null,
      failure_code: 'card_declined',
      failure_message: 'Your card was declined.',
    };
  },
  async refundPayment(input) {
    return { status: 'succeeded', provider_refund_id: `re_${input.idempotency_key}` };
  },
};

describeApi(
  'checkout with a card provider',
  (api) => {
    test('a card that succeeds: order confirmed, payment completed, payment_status paid, events in order', async () => {
      const a = api();
      const events = recordEvents(a);
      try {
        const item = await createProduct(a, { price: 4200 });
        const cart = await createCart(a, [{ variant_id: item.variant_id }]);
        const order = expectStatus(
          await checkout(a, cart.id, {
            email: 'card@example.com',
            payment_provider: 'stripe',
            payment_method_id: 'pm_card_visa',
          }),
          201,
        ).body;
        expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
        expect(order.payments[0]).toMatchObject({
          provider: 'stripe',
          status: 'completed',
          amount: { amount: 4200 },
        });
        expect(order.payments[0].provider_id).toMatch(/^pi_pay_/);
        expect(events.typesFor(order.id)).toEqual([
          'order.created',
          'payment.created',
          'payment.completed',
          'order.confirmed',
        ]);

        // Refunding it goes through the provider and is recorded completed.
        const refund = expectStatus(
          await a.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 200 }),
          200,
        ).body;
        expect(refund).toMatchObject({ status: 'completed', amount: { amount: 200 } });
      } finally {
        events.stop();
      }
    });

    test('a declined card: 402 payment_failed, no order, nothing reserved, the cart stays active, payment.failed emitted', async () => {
      const a = api();
      const events = recordEvents(a);
      try {
        const item = await createProduct(a, { price: 4200, on_hand: 3 });
        const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
        const before = expectStatus(await a.get('/v1/admin/orders?limit=1'), 200).body.total_count;
        const res = await checkout(a, cart.id, {
          email: 'declined@example.com',
          payment_provider: 'stripe',
          payment_method_id: 'pm_card_declined',
        });
        expectError(res, 402, 'payment_failed');
        expect(res.body.error.type).toBe('payment_error');
        expect(expectStatus(await a.get('/v1/admin/orders?limit=1'), 200).body.total_count).toBe(before);
        expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 0, available: 3 });
        expect(expectStatus(await a.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
          'active',
        );
        const failed = events.seen.filter((e) => e.type === 'payment.failed' && e.data.cart_id === cart.id);
        expect(failed).toHaveLength(1);
        expect(failed[0]?.data).toMatchObject({
          status: 'failed',
          provider: 'stripe',
          amount: { amount: 8400 },
        });
        expect(
          events.seen.some((e) => e.type === 'order.created' && e.data.email === 'declined@example.com'),
        ).toBe(false);

        // The same cart then checks out with a good card, and its order takes the next number.
        const order = expectStatus(
          await checkout(a, cart.id, {
            email: 'declined@example.com',
            payment_provider: 'stripe',
            payment_method_id: 'pm_card_visa',
          }),
          201,
        ).body;
        expect(order.status).toBe('confirmed');
      } finally {
        events.stop();
      }
    });
  },
  { payments: [fakeCards] },
);
