import { expect, test } from 'vitest';
import { describeApi } from './support/harness';
import {
  ADDRESS,
  adminOrder,
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  placeOrder,
  unique,
} from './support/order-fixtures';

describeApi('orders', (api) => {
  // ---------------------------------------------------------------- storefront

  test('GET /v1/storefront/orders lists only the signed-in customer’s orders, never drafts, with filters', async () => {
    const a = api();
    const item = await createProduct(a);
    const alice = await createCustomer(a);
    const bob = await createCustomer(a);
    const placed = [];
    for (let i = 0; i < 3; i++) {
      const cart = await createCart(a, [{ variant_id: item.variant_id }], { customerToken: alice.token });
      placed.push(
        expectStatus(
          await checkout(a, cart.id, { payment_provider: 'manual' }, { customerToken: alice.token }),
          201,
        ).body,
      );
    }
    const bobCart = await createCart(a, [{ variant_id: item.variant_id }], { customerToken: bob.token });
    const bobsOrder = expectStatus(
      await checkout(a, bobCart.id, { payment_provider: 'manual' }, { customerToken: bob.token }),
      201,
    ).body;
    // A draft for Alice, made by the admin: invisible on the storefront.
    const draft = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id }], { customer_id: alice.id }),
      201,
    ).body;
    expect(draft.status).toBe('draft');
    expectStatus(await a.post(`/v1/admin/orders/${placed[0].id}/cancel`, {}), 200);

    const mine = expectStatus(
      await a.storefront.get('/v1/storefront/orders', { customerToken: alice.token }),
      200,
    ).body;
    expect(mine.data.map((o: { id: string }) => o.id)).toEqual([placed[2].id, placed[1].id, placed[0].id]);
    expect(mine).toMatchObject({ total_count: 3, has_more: false, next_cursor: null });

    const paged = expectStatus(
      await a.storefront.get('/v1/storefront/orders?limit=2', { customerToken: alice.token }),
      200,
    ).body;
    expect(paged).toMatchObject({ total_count: 3, has_more: true, next_cursor: placed[1].id });
    const rest = expectStatus(
      await a.storefront.get(`/v1/storefront/orders?limit=2&starting_after=${paged.next_cursor}`, {
        customerToken: alice.token,
      }),
      200,
    ).body;
    expect(rest.data.map((o: { id: string }) => o.id)).toEqual([placed[0].id]);

    const cancelled = expectStatus(
      await a.storefront.get('/v1/storefront/orders?status=cancelled', { customerToken: alice.token }),
      200,
    ).body;
    expect(cancelled.data.map((o: { id: string }) => o.id)).toEqual([placed[0].id]);
    const after = expectStatus(
      await a.storefront.get(
        `/v1/storefront/orders?created_after=${encodeURIComponent(placed[1].created_at)}`,
        {
          customerToken: alice.token,
        },
      ),
      200,
    ).body;
    expect(after.data.map((o: { id: string }) => o.id)).toEqual(
      expect.arrayContaining([placed[2].id, placed[1].id]),
    );
    expect(after.data.map((o: { id: string }) => o.id)).not.toContain(bobsOrder.id);

    expectError(
      await a.storefront.get('/v1/storefront/orders?status=draft', { customerToken: alice.token }),
      400,
      'parameter_invalid',
      'status',
    );
    expectError(await a.storefront.get('/v1/storefront/orders'), 401, 'customer_token_required');
    expectError(
      await a.storefront.get('/v1/storefront/orders', { customerToken: 'ct_notarealtokenatall00000' }),
      401,
      'invalid_customer_token',
    );
  });

  test('GET /v1/storefront/orders/{id}: own order 200; another customer’s order, a draft, or no token → 404/401', async () => {
    const a = api();
    const item = await createProduct(a);
    const alice = await createCustomer(a);
    const bob = await createCustomer(a);
    const cart = await createCart(a, [{ variant_id: item.variant_id }], { customerToken: alice.token });
    const order = expectStatus(
      await checkout(a, cart.id, { payment_provider: 'manual' }, { customerToken: alice.token }),
      201,
    ).body;

    const own = expectStatus(
      await a.storefront.get(`/v1/storefront/orders/${order.id}`, { customerToken: alice.token }),
      200,
    ).body;
    expect(own).toMatchObject({ id: order.id, customer_id: alice.id });
    expectError(
      await a.storefront.get(`/v1/storefront/orders/${order.id}`, { customerToken: bob.token }),
      404,
      'not_found',
    );
    expectError(await a.storefront.get(`/v1/storefront/orders/${order.id}`), 401, 'customer_token_required');

    const draft = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id }], { customer_id: alice.id }),
      201,
    ).body;
    expectError(
      await a.storefront.get(`/v1/storefront/orders/${draft.id}`, { customerToken: alice.token }),
      404,
      'not_found',
    );
  });

  test('GET /v1/storefront/orders/lookup: number + e-mail (case-insensitive), 404 unless both match, 400 if either is missing', async () => {
    const a = api();
    const item = await createProduct(a);
    const email = `${unique('Guest')}@Example.com`;
    const order = await placeOrder(a, [{ variant_id: item.variant_id }], email);

    const found = expectStatus(
      await a.storefront.get(
        `/v1/storefront/orders/lookup?number=${order.number}&email=${encodeURIComponent(email.toLowerCase())}`,
      ),
      200,
    ).body;
    expect(found.id).toBe(order.id);
    expectError(
      await a.storefront.get(`/v1/storefront/orders/lookup?number=${order.number}&email=someone@example.com`),
      404,
      'not_found',
    );
    expectError(
      await a.storefront.get(`/v1/storefront/orders/lookup?number=999999&email=${encodeURIComponent(email)}`),
      404,
      'not_found',
    );
    expectError(
      await a.storefront.get(`/v1/storefront/orders/lookup?email=${encodeURIComponent(email)}`),
      400,
      'parameter_missing',
      'number',
    );
    expectError(
      await a.storefront.get(`/v1/storefront/orders/lookup?number=${order.number}`),
      400,
      'parameter_missing',
      'email',
    );
    expectError(
      await a.storefront.get(`/v1/storefront/orders/lookup?number=abc&email=x@example.com`),
      400,
      'parameter_invalid',
      'number',
    );
    // Live mode does not see test orders.
    expectError(
      await a.request(
        'GET',
        `/v1/storefront/orders/lookup?number=${order.number}&email=${encodeURIComponent(email)}`,
        {
          key: a.keys.livePublishable,
        },
      ),
      404,
      'not_found',
    );
    // A draft cannot be looked up.
    const draft = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id }], { email }), 201).body;
    expectError(
      await a.storefront.get(
        `/v1/storefront/orders/lookup?number=${draft.number}&email=${encodeURIComponent(email)}`,
      ),
      404,
      'not_found',
    );
  });

  // ---------------------------------------------------------------- admin create

  test('POST /v1/admin/orders: a draft (default) prices from the catalog and reserves nothing', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1500, on_hand: 4 });
    const res = await adminOrder(a, [{ variant_id: item.variant_id, quantity: 10 }], {
      note: 'phone order',
      metadata: { src: 'phone' },
    });
    const order = expectStatus(res, 201).body;
    expect(order).toMatchObject({
      status: 'draft',
      payment_status: 'unpaid',
      fulfillment_status: 'unfulfilled',
      email: 'admin-order@example.com',
      customer_id: null,
      subtotal: { amount: 15000, currency: 'USD' },
      total: { amount: 15000 },
      note: 'phone order',
      metadata: { src: 'phone' },
      payments: [],
      fulfillments: [],
      refunds: [],
    });
    expect(order.number).toBeGreaterThanOrEqual(1001);
    expect(order.lines[0]).toMatchObject({
      variant_id: item.variant_id,
      quantity: 10,
      unit_price: { amount: 1500 },
    });
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 4, reserved: 0 });
  });

  test('POST /v1/admin/orders status pending reserves, and is refused like a checkout when stock is short', async () => {
    const a = api();
    const item = await createProduct(a, { price: 700, on_hand: 5 });
    const order = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id, quantity: 3 }], { status: 'pending' }),
      201,
    ).body;
    expect(order).toMatchObject({ status: 'pending', payment_status: 'unpaid', total: { amount: 2100 } });
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 3, available: 2 });

    const short = await adminOrder(a, [{ variant_id: item.variant_id, quantity: 3 }], { status: 'pending' });
    expectError(short, 422, 'insufficient_inventory', 'lines[0][quantity]');
    expect(short.body.error.message).toMatch(/3 requested, 2 available/);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 3 });
  });

  test('POST /v1/admin/orders with customer_id only uses the customer’s e-mail', async () => {
    const a = api();
    const item = await createProduct(a);
    const customer = await createCustomer(a);
    const order = expectStatus(
      await a.post('/v1/admin/orders', {
        customer_id: customer.id,
        lines: [{ variant_id: item.variant_id, quantity: 1 }],
      }),
      201,
    ).body;
    expect(order).toMatchObject({ customer_id: customer.id, email: customer.email, shipping_address: null });
  });

  test('POST /v1/admin/orders errors: validation 400s, unknown ids 404, unavailable product 422', async () => {
    const a = api();
    const item = await createProduct(a);
    expectError(
      await a.post('/v1/admin/orders', { email: 'x@example.com', lines: [] }),
      400,
      'parameter_invalid',
      'lines',
    );
    expectError(
      await a.post('/v1/admin/orders', { email: 'x@example.com' }),
      400,
      'parameter_missing',
      'lines',
    );
    expectError(
      await a.post('/v1/admin/orders', { lines: [{ variant_id: item.variant_id, quantity: 1 }] }),
      400,
      'parameter_missing',
      'email',
    );
    expectError(
      await a.post('/v1/admin/orders', {
        email: 'x@example.com',
        lines: [{ variant_id: item.variant_id, quantity: 1, unit_price: 1 }],
      }),
      400,
      'parameter_unknown',
    );
    expectError(
      await adminOrder(a, [{ variant_id: item.variant_id }], { status: 'confirmed' }),
      400,
      'parameter_invalid',
      'status',
    );
    expectError(
      await adminOrder(a, [{ variant_id: item.variant_id, quantity: 0 }]),
      400,
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectError(await adminOrder(a, [{ variant_id: 'var_nope' }]), 404, 'not_found', 'lines[0][variant_id]');
    expectError(
      await adminOrder(a, [{ variant_id: item.variant_id }], { customer_id: 'cus_nope' }),
      404,
      'not_found',
      'customer_id',
    );
    expectError(
      await adminOrder(a, [{ variant_id: item.variant_id }], { shipping_method_id: 'ship_nope' }),
      422,
      'shipping_method_unavailable',
      'shipping_method_id',
    );
    const archived = await createProduct(a, { status: 'archived' });
    expectError(
      await adminOrder(a, [{ variant_id: item.variant_id }, { variant_id: archived.variant_id }]),
      422,
      'product_unavailable',
      'lines[1][variant_id]',
    );
    expectError(
      await a.storefront.post('/v1/admin/orders', { email: 'x@example.com', lines: [] }),
      403,
      'forbidden',
    );
  });

  test('POST /v1/admin/orders with a shipping method: its price and name are on the order', async () => {
    const a = api();
    const item = await createProduct(a, { price: 2500 });
    const method = expectStatus(
      await a.post('/v1/admin/shipping-methods', { name: 'Courier', price: 600 }),
      200,
    ).body;
    const order = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id, quantity: 2 }], { shipping_method_id: method.id }),
      201,
    ).body;
    expect(order).toMatchObject({
      subtotal: { amount: 5000 },
      shipping_total: { amount: 600 },
      total: { amount: 5600 },
      shipping_method_name: 'Courier',
    });
  });

  // ---------------------------------------------------------------- admin reads and PATCH

  test('GET /v1/admin/orders filters by status, payment_status, fulfillment_status, customer_id, email, q and dates', async () => {
    const a = api();
    const item = await createProduct(a, { price: 100 });
    const tag = unique('flt');
    const email = `${tag}@example.com`;
    const customer = await createCustomer(a, `${tag}-c@example.com`);
    const one = await placeOrder(a, [{ variant_id: item.variant_id }], email);
    const two = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }], email);
    const three = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id, quantity: 3 }], {
        customer_id: customer.id,
        email: undefined,
      }),
      201,
    ).body;
    expectStatus(await a.post(`/v1/admin/payments/${two.payments[0].id}/complete`), 200);

    const ids = (body: { data: Array<{ id: string }> }) => body.data.map((o) => o.id);
    const byEmail = expectStatus(
      await a.get(`/v1/admin/orders?email=${encodeURIComponent(email.toUpperCase())}`),
      200,
    ).body;
    expect(ids(byEmail)).toEqual([two.id, one.id]);
    expect(byEmail.total_count).toBe(2);
    expect(ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}`), 200).body)).toEqual([
      three.id,
      two.id,
      one.id,
    ]);
    expect(ids(expectStatus(await a.get(`/v1/admin/orders?q=${one.number}`), 200).body)).toEqual([one.id]);
    expect(ids(expectStatus(await a.get(`/v1/admin/orders?customer_id=${customer.id}`), 200).body)).toEqual([
      three.id,
    ]);
    expect(ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&status=draft`), 200).body)).toEqual([
      three.id,
    ]);
    expect(ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&payment_status=paid`), 200).body)).toEqual(
      [two.id],
    );
    expect(ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&status=confirmed`), 200).body)).toEqual([
      two.id,
    ]);
    expect(
      ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&fulfillment_status=unfulfilled`), 200).body),
    ).toHaveLength(3);
    const since = encodeURIComponent(two.created_at);
    expect(
      ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&created_after=${since}`), 200).body),
    ).toEqual([three.id, two.id]);
    expect(
      ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&created_before=${since}`), 200).body),
    ).toEqual([two.id, one.id]);

    expect(ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&sort=total`), 200).body)).toEqual([
      one.id,
      two.id,
      three.id,
    ]);
    expect(
      ids(expectStatus(await a.get(`/v1/admin/orders?q=${tag}&sort=number&order=desc`), 200).body),
    ).toEqual([three.id, two.id, one.id]);
    expectError(await a.get('/v1/admin/orders?status=shipped'), 400, 'parameter_invalid', 'status');
    expectError(await a.get('/v1/admin/orders?sort=email'), 400, 'parameter_invalid', 'sort');
    expectError(await a.get('/v1/admin/orders?limit=101'), 400, 'parameter_invalid', 'limit');
  });

  test('GET /v1/admin/orders/{id}: 404 for unknown ids and for the other mode; 403 for a publishable key', async () => {
    const a = api();
    const item = await createProduct(a);
    const { payment, ...order } = await placeOrder(a, [{ variant_id: item.variant_id }]);
    // The checkout answer is the order plus `payment` (null for manual); the order views show the rest.
    expect(payment).toBeNull();
    expect(expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body).toEqual(order);
    expectError(await a.get('/v1/admin/orders/ord_nope'), 404, 'not_found');
    expectError(await a.get(`/v1/admin/orders/${order.id}`, { key: a.keys.liveSecret }), 404, 'not_found');
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/confirm`, undefined, { key: a.keys.liveSecret }),
      404,
      'not_found',
    );
    expectError(await a.storefront.get(`/v1/admin/orders/${order.id}`), 403, 'forbidden');
    const live = expectStatus(await a.get('/v1/admin/orders', { key: a.keys.liveSecret }), 200).body;
    expect(live.data.map((o: { id: string }) => o.id)).not.toContain(order.id);
  });

  test('PATCH /v1/admin/orders/{id} changes addresses, note and metadata (replaced whole); null clears', async () => {
    const a = api();
    const item = await createProduct(a);
    const order = await placeOrder(a, [{ variant_id: item.variant_id }]);
    const billing = { ...ADDRESS, name: 'Billing Dept', line2: 'Floor 2' };
    const updated = expectStatus(
      await a.patch(`/v1/admin/orders/${order.id}`, {
        billing_address: billing,
        note: 'VIP',
        metadata: { a: 1 },
      }),
      200,
    ).body;
    expect(updated).toMatchObject({
      billing_address: billing,
      note: 'VIP',
      metadata: { a: 1 },
      status: 'pending',
    });
    const again = expectStatus(
      await a.patch(`/v1/admin/orders/${order.id}`, {
        metadata: { b: 2 },
        note: null,
        shipping_address: null,
      }),
      200,
    ).body;
    expect(again).toMatchObject({
      metadata: { b: 2 },
      note: null,
      shipping_address: null,
      billing_address: billing,
    });
    expectError(
      await a.patch(`/v1/admin/orders/${order.id}`, { email: 'x@example.com' }),
      400,
      'parameter_unknown',
    );
    expectError(
      await a.patch(`/v1/admin/orders/${order.id}`, { status: 'confirmed' }),
      409,
      'invalid_state_transition',
      'status',
    );
    expectError(await a.patch('/v1/admin/orders/ord_nope', { note: 'x' }), 404, 'not_found');
  });

  test('PATCH status pending finalises a draft: it reserves (422 when short) and only a draft can be finalised (409)', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 5 });
    const big = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id, quantity: 6 }]), 201).body;
    expectError(
      await a.patch(`/v1/admin/orders/${big.id}`, { status: 'pending' }),
      422,
      'insufficient_inventory',
    );
    expect(expectStatus(await a.get(`/v1/admin/orders/${big.id}`), 200).body.status).toBe('draft');

    const draft = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id, quantity: 4 }]), 201).body;
    const finalised = expectStatus(
      await a.patch(`/v1/admin/orders/${draft.id}`, { status: 'pending', note: 'ok' }),
      200,
    ).body;
    expect(finalised).toMatchObject({ status: 'pending', note: 'ok', number: draft.number });
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 4, available: 1 });
    expectError(
      await a.patch(`/v1/admin/orders/${draft.id}`, { status: 'pending' }),
      409,
      'invalid_state_transition',
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 4 });
  });

  test('PATCH with any other status is a move PATCH does not make → 409 invalid_state_transition, nothing changes; not a status → 400', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 5 });
    const draft = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id, quantity: 1 }]), 201).body;
    for (const status of ['confirmed', 'completed', 'cancelled', 'draft']) {
      expectError(
        await a.patch(`/v1/admin/orders/${draft.id}`, { status, note: 'not written' }),
        409,
        'invalid_state_transition',
        'status',
      );
    }
    expectError(
      await a.patch(`/v1/admin/orders/${draft.id}`, { status: 'shipped' }),
      400,
      'parameter_invalid',
      'status',
    );
    expect(expectStatus(await a.get(`/v1/admin/orders/${draft.id}`), 200).body).toMatchObject({
      status: 'draft',
      note: draft.note,
    });
    expectError(await a.patch('/v1/admin/orders/ord_missing', { status: 'confirmed' }), 404, 'not_found');
  });

  test('order numbers are per mode: a live-mode order starts its own sequence at 1001', async () => {
    const a = api();
    const live = await a.post(
      '/v1/admin/products',
      { name: unique('Live '), status: 'active', variants: [{ sku: unique('L-'), price: 100 }] },
      { key: a.keys.liveSecret },
    );
    const variantId = expectStatus(live, 200).body.variants[0].id;
    const order = expectStatus(
      await a.post(
        '/v1/admin/orders',
        { email: 'live@example.com', lines: [{ variant_id: variantId }] },
        { key: a.keys.liveSecret },
      ),
      201,
    ).body;
    expect(order.number).toBe(1001);
  });
});
