import { expect, test } from 'vitest';
import { describeApi } from './support/harness';
import {
  adminOrder,
  checkout,
  createCart,
  createCodeDiscount,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  payOrder,
  placeOrder,
  tally,
} from './support/order-fixtures';

/**
 * Concurrency over HTTP against one server: requests are fired together and the engine's
 * atomic guards (conditional updates, compare-and-set, row locks, the order-number counter) must
 * hold. The first test relies on this block's fresh database for its order numbers.
 */
describeApi('concurrency', (api) => {
  test('40 concurrent checkouts for 5 units: exactly 5 × 201 and 35 × 422 insufficient_inventory; numbers 1001–1005', async () => {
    const a = api();
    const item = await createProduct(a, { price: 999, on_hand: 5 });
    const carts = await Promise.all(
      Array.from({ length: 40 }, () => createCart(a, [{ variant_id: item.variant_id }])),
    );
    const responses = await Promise.all(carts.map((cart) => checkout(a, cart.id)));

    expect(tally(responses)).toEqual({ 201: 5, 422: 35 });
    for (const r of responses) if (r.status === 422) expectError(r, 422, 'insufficient_inventory');
    const numbers = responses.filter((r) => r.status === 201).map((r) => r.body.number as number);
    expect(numbers.sort((x, y) => x - y)).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 5, reserved: 5, available: 0 });
    // Losers left their carts active and nothing else behind.
    const losers = carts.filter((_, i) => responses[i]?.status === 422);
    const states = await Promise.all(
      losers.map((cart) => a.storefront.get(`/v1/storefront/carts/${cart.id}`)),
    );
    expect(new Set(states.map((s) => s.body.status))).toEqual(new Set(['active']));
    expect(expectStatus(await a.get('/v1/admin/orders?limit=1'), 200).body.total_count).toBe(5);
  }, 60_000);

  test('a discount with usage_limit 3 under 20 concurrent checkouts is used exactly 3 times', async () => {
    const a = api();
    const item = await createProduct(a, { price: 2000, on_hand: 1000 });
    const discount = await createCodeDiscount(a, { prefix: 'LIMIT', usage_limit: 3 });
    const { code } = discount;
    const carts = await Promise.all(
      Array.from({ length: 20 }, () => createCart(a, [{ variant_id: item.variant_id }])),
    );
    for (const cart of carts) {
      expectStatus(await a.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code }), 200);
    }
    const responses = await Promise.all(carts.map((cart) => checkout(a, cart.id)));

    expect(tally(responses)).toEqual({ 201: 3, 422: 17 });
    for (const r of responses) if (r.status === 422) expectError(r, 422, 'discount_usage_limit_reached');
    for (const r of responses) if (r.status === 201) expect(r.body.discount_total.amount).toBe(500);
    expect(expectStatus(await a.get(`/v1/admin/discounts/${discount.id}`), 200).body.usage_count).toBe(3);
    // Refused checkouts reserved nothing.
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 3 });
  }, 60_000);

  test('10 concurrent checkouts of one cart make one order; the others get 409 cart_not_active', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 50 });
    const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => checkout(a, cart.id)));
    expect(tally(responses)).toEqual({ 201: 1, 409: 9 });
    for (const r of responses) if (r.status === 409) expectError(r, 409, 'cart_not_active');
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 2 });
  }, 60_000);

  test('concurrent admin actions on one order: one confirm wins, the rest 409; payment completes once', async () => {
    const a = api();
    const item = await createProduct(a, { price: 500 });
    const pending = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id }], { status: 'pending' }),
      201,
    ).body;
    const confirms = await Promise.all(
      Array.from({ length: 10 }, () => a.post(`/v1/admin/orders/${pending.id}/confirm`)),
    );
    expect(tally(confirms)).toEqual({ 200: 1, 409: 9 });

    const order = await placeOrder(a, [{ variant_id: item.variant_id }]);
    const completes = await Promise.all(
      Array.from({ length: 10 }, () => a.post(`/v1/admin/payments/${order.payments[0].id}/complete`)),
    );
    expect(tally(completes)).toEqual({ 200: 1, 409: 9 });
    expect(expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
    });
  }, 60_000);

  test('concurrent fulfillments never exceed the ordered units; concurrent refunds never exceed what was paid', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 100 });
    // Unpaid, so that the fully fulfilled order stays open and the surplus requests meet the unit limit.
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 5 }]);
    const lineId = order.lines[0].id;
    const fulfillments = await Promise.all(
      Array.from({ length: 10 }, () =>
        a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
          lines: [{ order_line_id: lineId, quantity: 1 }],
        }),
      ),
    );
    expect(tally(fulfillments)).toEqual({ 200: 5, 422: 5 });
    expect(
      expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.lines[0].fulfilled_quantity,
    ).toBe(5);
    for (const r of fulfillments)
      if (r.status === 422) expectError(r, 422, 'fulfillment_exceeds_unfulfilled');
    // Paid and fully fulfilled, nothing shipped: processing, not completed (docs/contract.md#order-status).
    expect((await payOrder(a, order)).status).toBe('processing');

    // Total 5000: ten refunds of 1250 → exactly four succeed.
    const refunds = await Promise.all(
      Array.from({ length: 10 }, () => a.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 1250 })),
    );
    expect(tally(refunds)).toEqual({ 200: 4, 422: 6 });
    for (const r of refunds) if (r.status === 422) expectError(r, 422, 'refund_exceeds_refundable');
    expect(expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body).toMatchObject({
      payment_status: 'refunded',
      refunded_total: { amount: 5000 },
    });
  }, 60_000);
  test('concurrent cancels of one pending order: one wins, the rest 409; its units are released once', async () => {
    const a = api();
    const item = await createProduct(a, { price: 700, on_hand: 10 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 3, available: 7 });
    const cancels = await Promise.all(
      Array.from({ length: 10 }, () => a.post(`/v1/admin/orders/${order.id}/cancel`, { reason: 'race' })),
    );
    expect(tally(cancels)).toEqual({ 200: 1, 409: 9 });
    for (const r of cancels) if (r.status === 409) expectError(r, 409, 'invalid_state_transition');
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
      on_hand: 10,
      reserved: 0,
      available: 10,
    });
  }, 60_000);

  test('concurrent restocking refunds of one line: never more units back than were ordered', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 10 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 4 }]);
    await payOrder(a, order);
    const lineId = order.lines[0].id;
    const refunds = await Promise.all(
      Array.from({ length: 10 }, () =>
        a.post(`/v1/admin/orders/${order.id}/refunds`, {
          lines: [{ order_line_id: lineId, quantity: 1 }],
          restock: true,
        }),
      ),
    );
    expect(tally(refunds)).toEqual({ 200: 4, 422: 6 });
    for (const r of refunds) if (r.status === 422) expectError(r, 422, 'quantity_exceeds_refundable');
    const after = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(after.lines[0].refunded_quantity).toBe(4);
    expect(after.refunded_total.amount).toBe(4000);
    // The four unshipped units left `reserved`; none went to on_hand twice.
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
      on_hand: 10,
      reserved: 0,
      available: 10,
    });
  }, 60_000);

  test('one option combination, 10 concurrent writers: one POST variant wins (9 × 400), one PATCH onto it wins (9 × 400)', async () => {
    const a = api();
    const values = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'];
    const product = expectStatus(
      await a.post('/v1/admin/products', {
        name: 'Concurrent sizes',
        status: 'active',
        options: [{ name: 'Size', values }],
        variants: values.slice(0, 10).map((size) => ({ price: 1000, options: { Size: size } })),
      }),
      200,
    ).body;
    const created = await Promise.all(
      Array.from({ length: 10 }, () =>
        a.post(`/v1/admin/products/${product.id}/variants`, { price: 1200, options: { Size: 'K' } }),
      ),
    );
    expect(tally(created)).toEqual({ 200: 1, 400: 9 });
    for (const r of created) if (r.status === 400) expectError(r, 400, 'parameter_invalid');

    const moved = await Promise.all(
      product.variants.map((variant: { id: string }) =>
        a.patch(`/v1/admin/variants/${variant.id}`, { options: { Size: 'L' } }),
      ),
    );
    expect(tally(moved)).toEqual({ 200: 1, 400: 9 });
    for (const r of moved) if (r.status === 400) expectError(r, 400, 'parameter_invalid');

    const after = expectStatus(await a.get(`/v1/admin/products/${product.id}`), 200).body;
    const sizes = after.variants.map((v: { option_values: Array<{ value: string }> }) =>
      v.option_values.map((o) => o.value).join(),
    );
    expect(sizes).toHaveLength(11);
    expect(new Set(sizes).size).toBe(11);
    expect(sizes).toEqual(expect.arrayContaining(['K', 'L']));
  }, 60_000);
});
