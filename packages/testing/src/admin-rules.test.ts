import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The error paths and edge cases of the admin and storefront services at engine level, with the
 * codes and params of docs/contract.md#errors (the HTTP suites assert the same over the wire):
 * discounts' PATCH rules, API keys and authentication, admin orders, carts, customers, catalog.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('discounts: PATCH is checked against the stored discount', () => {
  test('type cannot change; a code discount keeps a code; an automatic one takes none', async () => {
    t = await createTestEngine();
    const coded = await t.fixtures.discount({ code: 'TEN' });
    const auto = await t.fixtures.discount();
    await expectCode(t.store.discounts.update(coded.id, { type: 'automatic' }), 'parameter_invalid', 'type');
    await expectCode(t.store.discounts.update(coded.id, { code: null }), 'parameter_invalid', 'code');
    await expectCode(t.store.discounts.update(auto.id, { code: 'NOPE' }), 'parameter_invalid', 'code');
    expect((await t.store.discounts.update(coded.id, { code: 'TWELVE' })).code).toBe('TWELVE');
  });

  test('a value out of range for the stored value type; a value type whose stored value does not fit; free shipping', async () => {
    t = await createTestEngine();
    const pct = await t.fixtures.discount({ code: 'PCT', value: 50 });
    await expectCode(t.store.discounts.update(pct.id, { value: 150 }), 'parameter_invalid', 'value');
    const fixed = await t.fixtures.discount({ code: 'FIX', value_type: 'fixed', value: 5000 });
    await expectCode(
      t.store.discounts.update(fixed.id, { value_type: 'percentage' }),
      'parameter_missing',
      'value',
    );
    expect((await t.store.discounts.update(fixed.id, { value_type: 'percentage', value: 25 })).value).toBe(
      25,
    );

    const free = await t.store.discounts.update(pct.id, { value_type: 'free_shipping' });
    expect(free).toMatchObject({ value_type: 'free_shipping', value: 0, target: 'shipping' });
    const order = await t.fixtures.discount({ code: 'ORD', value: 10, target: 'order' });
    await expectCode(
      t.store.discounts.update(order.id, { value_type: 'free_shipping', target: 'order' }),
      'parameter_invalid',
      'target',
    );
  });

  test('ends_at must stay after the stored starts_at; conditions are stored and replaced; unknown ids are 404', async () => {
    t = await createTestEngine();
    const starts = Date.parse('2025-02-01T00:00:00Z');
    const d = await t.fixtures.discount({ code: 'WIN', starts_at: new Date(starts).toISOString() });
    await expectCode(
      t.store.discounts.update(d.id, { ends_at: '2025-01-15T00:00:00Z' }),
      'parameter_invalid',
      'ends_at',
    );
    const { product } = await t.fixtures.product({ price: 1000 });
    const withConditions = await t.store.discounts.update(d.id, {
      conditions: [{ type: 'product', operator: 'in', values: [product.id] }],
    });
    expect(withConditions.conditions).toMatchObject([
      { type: 'product', operator: 'in', values: [product.id] },
    ]);
    expect(withConditions.conditions[0]?.id).toMatch(/^cond_/);
    expect((await t.store.discounts.get(d.id)).conditions).toHaveLength(1);

    await expectCode(t.store.discounts.get('disc_nope'), 'not_found');
    await expectCode(t.store.discounts.update('disc_nope', { name: 'x' }), 'not_found');
    await expectCode(t.store.discounts.delete('disc_nope'), 'not_found');
    expect(await t.store.discounts.delete(d.id)).toEqual({ id: d.id, deleted: true });
    await expectCode(t.store.discounts.get(d.id), 'not_found');
  });

  test('a per-customer limit: the second order of the same customer is refused at checkout (422 discount_usage_limit_reached)', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    await t.fixtures.discount({ code: 'ONCEEACH', per_customer_limit: 1 });
    const customer = await t.fixtures.customer();
    const first = await t.fixtures.cart([{ variant_id: variant.id }], {
      customer_id: customer.id,
      discount_codes: ['ONCEEACH'],
    });
    const second = await t.fixtures.cart([{ variant_id: variant.id }], {
      customer_id: customer.id,
      discount_codes: ['ONCEEACH'],
    });
    expect((await t.checkout(first.id)).discount_total.amount).toBe(100);
    const error = await expectCode(t.checkout(second.id), 'discount_usage_limit_reached');
    expect(error.data).toMatchObject({ code: 'ONCEEACH' });
  });
});

describe('API keys and authentication', () => {
  test('create: a test key cannot create live keys (forbidden), expires_at must be in the future', async () => {
    t = await createTestEngine();
    await expectCode(
      t.store.apiKeys.create({ name: 'x', key_type: 'secret', mode: 'live' }),
      'forbidden',
      'mode',
    );
    await expectCode(
      t.store.apiKeys.create({
        name: 'x',
        key_type: 'secret',
        mode: 'test',
        expires_at: '2024-12-31T00:00:00Z',
      }),
      'parameter_invalid',
      'expires_at',
    );
    await expectCode(t.store.apiKeys.get('key_nope'), 'not_found');
    await expectCode(t.store.apiKeys.delete('key_nope'), 'not_found');
    await expectCode(t.store.apiKeys.rotate('key_nope'), 'not_found');
  });

  test('authenticate: a valid key resolves to its store and mode; unknown, malformed, revoked and expired keys are invalid_api_key', async () => {
    t = await createTestEngine();
    const key = await t.store.apiKeys.create({
      name: 'pos',
      key_type: 'secret',
      mode: 'test',
      expires_at: '2025-01-02T00:00:00Z',
    });
    const principal = await t.engine.auth.authenticateApiKey(key.key);
    expect(principal).toEqual({
      key_id: key.id,
      store_id: t.scope.store_id,
      mode: 'test',
      key_type: 'secret',
    });
    await expectCode(t.engine.auth.authenticateApiKey('not-a-key'), 'invalid_api_key');
    await expectCode(
      t.engine.auth.authenticateApiKey(t.engine.apiKeys.generateKey('secret', 'test')),
      'invalid_api_key',
    );

    t.clock.advance('2d');
    await expectCode(t.engine.auth.authenticateApiKey(key.key), 'invalid_api_key');

    const other = await t.store.apiKeys.create({ name: 'web', key_type: 'publishable', mode: 'test' });
    expect((await t.engine.auth.authenticateApiKey(other.key)).key_type).toBe('publishable');
    await t.store.apiKeys.delete(other.id);
    await expectCode(t.engine.auth.authenticateApiKey(other.key), 'invalid_api_key');
    await expectCode(t.store.apiKeys.rotate(other.id), 'not_found');
  });

  test('register: a configured key is stored once, usable at once; a malformed one is parameter_invalid', async () => {
    t = await createTestEngine();
    const raw = t.engine.apiKeys.generateKey('secret', 'live');
    expect(raw).toMatch(/^sk_live_/);
    expect(await t.engine.apiKeys.register(t.scope.store_id, raw, 'from env')).toBe(true);
    expect(await t.engine.apiKeys.register(t.scope.store_id, raw, 'from env')).toBe(false);
    expect(await t.engine.auth.authenticateApiKey(raw)).toMatchObject({ mode: 'live', key_type: 'secret' });
    await expectCode(t.engine.apiKeys.register(t.scope.store_id, 'hello'), 'parameter_invalid', 'key');
  });

  test('customer tokens: malformed, unknown and disabled customers are refused', async () => {
    t = await createTestEngine();
    const customer = await t.fixtures.customer();
    const { token } = await t.store.customers.issueToken(customer.id);
    expect((await t.engine.auth.authenticateCustomerToken(t.scope, token)).customer_id).toBe(customer.id);
    await expectCode(t.engine.auth.authenticateCustomerToken(t.scope, 'garbage'), 'invalid_customer_token');
    await expectCode(
      t.engine.auth.authenticateCustomerToken(t.scope, `ct_${'a'.repeat(43)}`),
      'invalid_customer_token',
    );
    await t.store.customers.update(customer.id, { status: 'disabled' });
    await expectCode(t.engine.auth.authenticateCustomerToken(t.scope, token), 'customer_disabled');
  });
});

describe('admin orders', () => {
  test('create: an unknown customer is 404, an unknown shipping method unavailable; a customer gives the e-mail', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    const lines = [{ variant_id: variant.id, quantity: 1 }];
    await expectCode(t.store.orders.create({ lines, customer_id: 'cus_nope' }), 'not_found', 'customer_id');
    await expectCode(
      t.store.orders.create({ lines, email: 'a@example.com', shipping_method_id: 'ship_nope' }),
      'shipping_method_unavailable',
      'shipping_method_id',
    );
    const customer = await t.fixtures.customer();
    const order = await t.store.orders.create({ lines, customer_id: customer.id });
    expect(order).toMatchObject({ status: 'draft', email: customer.email, customer_id: customer.id });
  });

  test('PATCH moves a draft to pending only; any other move is 409 invalid_state_transition', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    const draft = await t.store.orders.create({
      lines: [{ variant_id: variant.id }],
      email: 'a@example.com',
    });
    const error = await expectCode(
      t.store.orders.update(draft.id, { status: 'confirmed' }),
      'invalid_state_transition',
      'status',
    );
    expect(error.data).toMatchObject({ status: 'draft' });
    const pending = await t.store.orders.update(draft.id, { status: 'pending' });
    expect(pending.status).toBe('pending');
    expect(t.events.types()).toContain('order.created');
    await expectCode(t.store.orders.update('ord_nope', { note: 'x' }), 'not_found');
  });

  test('cancelling an order with a pending fulfillment cancels it and un-fulfils its lines', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000, on_hand: 5 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
    const order = await t.checkout(cart.id);
    const fulfillment = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: order.lines[0]!.id, quantity: 1 }],
    });
    expect(fulfillment.status).toBe('pending');
    const cancelled = await t.store.orders.cancel(order.id, { reason: 'customer asked' });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.fulfillments[0]?.status).toBe('cancelled');
    expect(cancelled.lines[0]?.fulfilled_quantity).toBe(0);
    expect((await t.store.inventory.get(variant.inventory.id)).reserved).toBe(0);
  });

  test('cancelling an order whose card payment awaits 3-D Secure voids it at the provider', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id }]);
    const order = await t.checkout(cart.id, { payment_method_id: 'pm_card_authenticationRequired' });
    expect(order.payments[0]?.status).toBe('pending');
    const cancelled = await t.store.orders.cancel(order.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.payments[0]?.status).toBe('cancelled');
  });
});

describe('carts', () => {
  test('unknown items and codes; a code not on the cart; the same code twice is one code', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    await t.fixtures.discount({ code: 'SAVE' });
    const cart = await t.fixtures.cart([{ variant_id: variant.id }]);
    await expectCode(t.store.carts.updateItem(cart.id, 'item_nope', { quantity: 2 }), 'not_found');
    await expectCode(t.store.carts.removeItem(cart.id, 'item_nope'), 'not_found');
    await expectCode(t.store.carts.applyDiscount(cart.id, { code: 'NOPE' }), 'discount_not_found', 'code');
    await expectCode(t.store.carts.removeDiscount(cart.id, 'SAVE'), 'not_found', 'code');
    await t.store.carts.applyDiscount(cart.id, { code: 'SAVE' });
    const twice = await t.store.carts.applyDiscount(cart.id, { code: 'save' });
    expect(twice.discount_codes).toEqual(['SAVE']);
    await expectCode(t.store.carts.get('cart_nope'), 'not_found');
  });

  test('adding the same variant again adds to its line (metadata replaced); a completed cart cannot change', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
    const added = await t.store.carts.addItem(cart.id, {
      variant_id: variant.id,
      quantity: 2,
      metadata: { gift: true },
    });
    expect(added.items).toHaveLength(1);
    expect(added.items[0]).toMatchObject({ quantity: 3, metadata: { gift: true } });
    await t.checkout(cart.id);
    const error = await expectCode(
      t.store.carts.addItem(cart.id, { variant_id: variant.id }),
      'cart_not_active',
    );
    expect(error.data).toMatchObject({ status: 'completed' });
  });

  test('a cart created with the same variant twice holds one line of the sum', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 700 });
    const cart = await t.store.carts.create({
      items: [
        { variant_id: variant.id, quantity: 1 },
        { variant_id: variant.id, quantity: 2, metadata: { note: 'b' } },
      ],
    });
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({ quantity: 3, metadata: { note: 'b' } });
    expect(cart.summary.subtotal.amount).toBe(2100);
  });

  test('a storefront cannot set another customer on a cart (forbidden); a secret key naming an unknown customer is 404', async () => {
    t = await createTestEngine();
    const ada = await t.fixtures.customer();
    const bob = await t.fixtures.customer();
    const storefront = t.storefront(ada.id);
    await expectCode(storefront.carts.create({ customer_id: bob.id }), 'forbidden', 'customer_id');
    await expectCode(t.store.carts.create({ customer_id: 'cus_nope' }), 'not_found', 'customer_id');
    const cart = await t.store.carts.create({});
    await expectCode(t.store.carts.update(cart.id, { customer_id: 'cus_nope' }), 'not_found', 'customer_id');
    expect((await t.store.carts.update(cart.id, { customer_id: ada.id })).customer_id).toBe(ada.id);
  });

  test('merge: the guest cart goes into the customer cart (quantities added, codes carried), the guest cart is abandoned', async () => {
    t = await createTestEngine();
    const a = await t.fixtures.product({ price: 1000 });
    const b = await t.fixtures.product({ price: 500 });
    await t.fixtures.discount({ code: 'TEN' });
    const ada = await t.fixtures.customer();
    const mine = await t
      .storefront(ada.id)
      .carts.create({ items: [{ variant_id: a.variant.id, quantity: 1 }] });
    const guest = await t.storefront().carts.create({
      items: [
        { variant_id: a.variant.id, quantity: 2 },
        { variant_id: b.variant.id, quantity: 1 },
      ],
    });
    await t.storefront().carts.applyDiscount(guest.id, { code: 'TEN' });
    const merged = await t.storefront(ada.id).carts.merge(guest.id, ada.id);
    expect(merged.id).toBe(mine.id);
    expect(merged.items.map((i) => [i.variant_id, i.quantity])).toEqual([
      [a.variant.id, 3],
      [b.variant.id, 1],
    ]);
    expect(merged.discount_codes).toEqual(['TEN']);
    expect(merged.summary.subtotal.amount).toBe(3500);
    expect((await t.store.carts.get(guest.id)).status).toBe('abandoned');
  });

  test("merge: without a cart of the customer's own, the guest cart becomes theirs; another customer cannot reach it", async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 1000 });
    const ada = await t.fixtures.customer();
    const bob = await t.fixtures.customer();
    const guest = await t.storefront().carts.create({ items: [{ variant_id: variant.id }] });
    const adopted = await t.storefront(ada.id).carts.merge(guest.id, ada.id);
    expect(adopted).toMatchObject({ id: guest.id, customer_id: ada.id });
    // Another customer cannot see it (404, as any cart that is not theirs).
    await expectCode(t.storefront(bob.id).carts.merge(guest.id, bob.id), 'not_found');
  });
});

describe('customers and catalog', () => {
  test('addresses: unknown ids are 404; an unchanged update changes nothing; a new default replaces the old', async () => {
    t = await createTestEngine();
    const c = await t.fixtures.customer();
    const address = { name: 'Ada', line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' };
    const first = await t.store.customers.createAddress(c.id, { ...address, is_default: true });
    const second = await t.store.customers.createAddress(c.id, {
      ...address,
      line1: '2 Main St',
      is_default: true,
    });
    const list = (await t.store.customers.listAddresses(c.id)).data;
    expect(list.find((a) => a.id === first.id)?.is_default).toBe(false);
    expect(list.find((a) => a.id === second.id)?.is_default).toBe(true);
    const same = await t.store.customers.updateAddress(c.id, second.id, {
      ...address,
      line1: '2 Main St',
      is_default: true,
    });
    expect(same).toEqual(list.find((a) => a.id === second.id));
    await expectCode(t.store.customers.updateAddress(c.id, 'addr_nope', address), 'not_found');
    await expectCode(t.store.customers.deleteAddress(c.id, 'addr_nope'), 'not_found');
    await expectCode(t.store.customers.get('cus_nope'), 'not_found');
    await expectCode(t.store.customers.delete('cus_nope'), 'not_found');
    expect((await t.store.customers.update(c.id, {})).id).toBe(c.id);
  });

  test('passwords: a wrong current password, a malformed reset token, a disabled customer', async () => {
    t = await createTestEngine();
    const session = await t.store.customers.register({
      email: 'ada@example.com',
      password: 'correct horse 1',
    });
    await expectCode(
      t.store.customers.changePassword(session.token, {
        current_password: 'wrong password 1',
        new_password: 'another one 22',
      }),
      'invalid_credentials',
    );
    await expectCode(
      t.store.customers.resetPassword({ token: 'short', new_password: 'another one 22' }),
      'reset_token_invalid',
    );
    await t.store.customers.update(session.customer.id, { status: 'disabled' });
    await expectCode(
      t.store.customers.signIn({ email: 'ada@example.com', password: 'correct horse 1' }),
      'customer_disabled',
    );
  });

  test('products: duplicate SKUs within one product and across products; images must name own variants; unknown ids', async () => {
    t = await createTestEngine();
    await expectCode(
      t.store.products.create({
        name: 'Twins',
        variants: [
          { sku: 'SAME', price: 1 },
          { sku: 'SAME', price: 2 },
        ],
      }),
      'duplicate_sku',
      'variants[1][sku]',
    );
    const { product, variant } = await t.fixtures.product({ price: 1000, sku: 'TAKEN' });
    await expectCode(
      t.store.products.create({
        name: 'Copy',
        variants: [
          { sku: 'FREE', price: 1 },
          { sku: 'TAKEN', price: 1 },
        ],
      }),
      'duplicate_sku',
      'variants[1][sku]',
    );
    const other = await t.fixtures.product({ price: 1 });
    await expectCode(
      t.store.products.addImage(product.id, {
        url: 'https://img.example.com/a.jpg',
        variant_ids: [other.variant.id],
      }),
      'parameter_invalid',
      'variant_ids[0]',
    );
    const img1 = await t.store.products.addImage(product.id, {
      url: 'https://img.example.com/1.jpg',
      variant_ids: [variant.id],
    });
    const img2 = await t.store.products.addImage(product.id, { url: 'https://img.example.com/2.jpg' });
    expect(img2.position).toBe(img1.position + 1);
    await expectCode(t.store.products.deleteImage(product.id, 'img_nope'), 'not_found');
    await expectCode(t.store.products.update('prod_nope', { name: 'x' }), 'not_found');
    await expectCode(t.store.products.delete('prod_nope'), 'not_found');
    await expectCode(t.store.products.updateVariant('var_nope', { price: 1 }), 'not_found');
    await expectCode(t.store.products.deleteVariant('var_nope'), 'not_found');
    await expectCode(t.store.inventory.get('inv_nope'), 'not_found');
    await expectCode(t.store.inventory.update('inv_nope', { safety_stock: 1 }), 'not_found');
  });

  test('the storefront sees active products only: draft ones are 404 by id and by slug, and not listed', async () => {
    t = await createTestEngine();
    const { product: draft } = await t.fixtures.product({ price: 1000, status: 'draft', name: 'Hidden' });
    const { product: active } = await t.fixtures.product({ price: 1000, name: 'Shown' });
    await expectCode(t.store.products.getStorefront(draft.id), 'not_found');
    await expectCode(t.store.products.getStorefrontBySlug(draft.slug), 'not_found');
    expect((await t.store.products.listStorefront()).data.map((p) => p.id)).toEqual([active.id]);
  });

  test('variant options: changing a variant to the options of another is refused', async () => {
    t = await createTestEngine();
    const product = await t.store.products.create({
      name: 'Tee',
      status: 'active',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { sku: 'TEE-S', price: 1000, options: { Size: 'S' } },
        { sku: 'TEE-M', price: 1000, options: { Size: 'M' } },
      ],
    });
    const m = product.variants.find((v) => v.sku === 'TEE-M')!;
    const error = await expectCode(
      t.store.products.updateVariant(m.id, { options: { Size: 'S' } }),
      'parameter_invalid',
    );
    expect(error.param).toBe('options');
  });
});
