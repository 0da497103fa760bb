import { CommerceError } from '@cartwright/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * `engine.forStore(scope)`: every method of the embedding facade, with the same validation and
 * the same errors as over HTTP. One store walked from catalog to a refunded order.
 */
describe('engine.forStore(scope) — the embedding facade, end to end', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await createTestEngine();
  });
  afterAll(async () => t.close());

  const rejects = async (promise: Promise<unknown>, code: string) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(CommerceError.is(error), String(error)).toBe(true);
    expect((error as CommerceError).code).toBe(code);
  };

  test('settings, API keys and webhooks', async () => {
    const store = t.engine.forStore(t.scope);
    expect((await store.settings.update({ tax_rate: 10 })).tax_rate).toBe(10);
    expect((await store.settings.get()).tax_rate).toBe(10);
    expect((await store.settings.updateOrganization({ name: 'Acme' })).name).toBe('Acme');
    expect((await store.settings.getOrganization()).name).toBe('Acme');
    await rejects(store.settings.update({ tax_rate: 500 }), 'parameter_invalid');

    const key = await store.apiKeys.create({ name: 'pos', key_type: 'publishable', mode: 'test' });
    expect((await store.apiKeys.get(key.id)).key_prefix).toBe(key.key.slice(0, 12));
    expect((await store.apiKeys.list()).data.some((k) => k.id === key.id)).toBe(true);
    const rotated = await store.apiKeys.rotate(key.id);
    expect(rotated.key).not.toBe(key.key);
    expect(await store.apiKeys.delete(rotated.id)).toEqual({ id: rotated.id, deleted: true });

    const hook = await store.webhooks.create({
      url: 'https://hooks.example.com/in',
      events: ['order.created'],
    });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await store.webhooks.get(hook.id)).secret).toBeNull();
    expect((await store.webhooks.update(hook.id, { events: ['*'] })).events).toEqual(['*']);
    expect((await store.webhooks.list()).data).toHaveLength(1);
    expect((await store.webhooks.listDeliveries(hook.id)).data).toEqual([]);
    expect((await store.webhooks.listNotifications()).data).toEqual([]);
    await rejects(
      store.webhooks.test(hook.id, { event_type: 'nope' as 'order.created' }),
      'parameter_invalid',
    );
    expect(await store.webhooks.delete(hook.id)).toEqual({ id: hook.id, deleted: true });
  });

  test('catalog, shipping methods and inventory', async () => {
    const store = t.engine.forStore(t.scope);
    const product = await store.products.create({
      name: 'Lamp',
      status: 'active',
      tags: ['home'],
      options: [{ name: 'Color', values: ['Red', 'Blue'] }],
      variants: [{ sku: 'LAMP-RED', price: 3000, options: { Color: 'Red' }, inventory: { on_hand: 5 } }],
    });
    expect(product.slug).toBe('lamp');
    await rejects(store.products.create({ name: 'Lamp' }), 'duplicate_slug');
    await rejects(store.products.create({ name: '' }), 'parameter_invalid');

    const blue = await store.products.createVariant(product.id, {
      sku: 'LAMP-BLUE',
      price: 2800,
      options: { Color: 'Blue' },
    });
    expect((await store.products.updateVariant(blue.id, { price: 2700 })).price.amount).toBe(2700);
    expect((await store.products.listVariants(product.id)).data).toHaveLength(2);
    const image = await store.products.addImage(product.id, { url: 'https://img.example.com/lamp.jpg' });
    expect((await store.products.get(product.id)).images.map((i) => i.id)).toEqual([image.id]);
    expect(await store.products.deleteImage(product.id, image.id)).toMatchObject({ deleted: true });
    expect((await store.products.update(product.id, { description: 'Warm light' })).description).toBe(
      'Warm light',
    );
    expect((await store.products.list({ tag: 'home' })).total_count).toBe(1);
    expect((await store.products.listStorefront({ q: 'lam' })).data[0]?.price?.amount).toBe(2700);
    expect((await store.products.getStorefront(product.id)).variants[0]?.cost_price).toBeNull();
    expect((await store.products.getStorefrontBySlug('lamp')).id).toBe(product.id);
    expect(await store.products.deleteVariant(blue.id)).toMatchObject({ deleted: true });

    const method = await store.shippingMethods.create({
      name: 'Post',
      price: 500,
      free_shipping_threshold: 10000,
    });
    expect((await store.shippingMethods.update(method.id, { position: 2 })).position).toBe(2);
    expect((await store.shippingMethods.get(method.id)).name).toBe('Post');
    expect((await store.shippingMethods.list()).total_count).toBeGreaterThan(0);
    expect((await store.shippingMethods.listStorefront()).data.some((m) => m.id === method.id)).toBe(true);
    const spare = await store.shippingMethods.create({ name: 'Spare', price: 1 });
    expect(await store.shippingMethods.delete(spare.id)).toMatchObject({ deleted: true });

    const inventoryId = product.variants[0]!.inventory.id;
    expect((await store.inventory.adjust(inventoryId, { quantity: 5 })).on_hand).toBe(10);
    expect((await store.inventory.update(inventoryId, { safety_stock: 2 })).safety_stock).toBe(2);
    expect((await store.inventory.get(inventoryId)).available).toBe(10);
    expect(
      (await store.inventory.list({ low_stock: 'true' })).data.every(
        (i) => i.available <= (i.safety_stock ?? 0),
      ),
    ).toBe(true);
    await rejects(store.inventory.adjust(inventoryId, { quantity: -100 }), 'insufficient_inventory');
  });

  test('customers, addresses, tokens, discounts, carts, checkout and the order life cycle', async () => {
    const store = t.engine.forStore(t.scope);
    const customer = await store.customers.create({ email: 'ada@example.com', first_name: 'Ada' });
    await rejects(store.customers.create({ email: 'ADA@example.com' }), 'duplicate_email');
    expect((await store.customers.update(customer.id, { tags: ['vip'] })).tags).toEqual(['vip']);
    expect((await store.customers.list({ tag: 'vip' })).data.map((c) => c.id)).toEqual([customer.id]);
    expect((await store.customers.issueToken(customer.id, { expires_in: 60 })).token).toMatch(/^ct_/);
    expect((await store.customers.updateProfile(customer.id, { last_name: 'Lovelace' })).last_name).toBe(
      'Lovelace',
    );
    expect((await store.customers.getProfile(customer.id)).first_name).toBe('Ada');
    const address = await store.customers.createAddress(customer.id, {
      name: 'Ada',
      line1: '1 Main St',
      city: 'London',
      postal_code: 'EC1A 1BB',
      country: 'gb',
    });
    expect(address.country).toBe('GB');
    expect(
      (
        await store.customers.updateAddress(customer.id, address.id, {
          name: 'Ada L',
          line1: '1 Main St',
          city: 'London',
          postal_code: 'EC1A 1BB',
          country: 'GB',
          is_default: true,
        })
      ).is_default,
    ).toBe(true);
    expect((await store.customers.listAddresses(customer.id)).data).toHaveLength(1);

    const discount = await store.discounts.create({
      name: 'Ten',
      code: 'TEN',
      value_type: 'percentage',
      value: 10,
    });
    expect((await store.discounts.update(discount.id, { description: 'ten off' })).description).toBe(
      'ten off',
    );
    expect((await store.discounts.get(discount.id)).code).toBe('TEN');
    expect((await store.discounts.list({ type: 'code' })).data.map((d) => d.id)).toContain(discount.id);

    const { variant } = await t.fixtures.product({ price: 1000, on_hand: 10 });
    const cart = await store.carts.create({ session_id: 'sess-1' });
    const withItem = await store.carts.addItem(cart.id, { variant_id: variant.id, quantity: 2 });
    const itemId = withItem.items[0]!.id;
    expect((await store.carts.updateItem(cart.id, itemId, { quantity: 3 })).summary.total_quantity).toBe(3);
    await rejects(store.carts.updateItem(cart.id, itemId, { quantity: 0 }), 'parameter_invalid');
    expect((await store.carts.applyDiscount(cart.id, { code: 'ten' })).summary.discount_total.amount).toBe(
      300,
    );
    expect((await store.carts.removeDiscount(cart.id, 'TEN')).discount_codes).toEqual([]);
    expect((await store.carts.getBySession('sess-1')).id).toBe(cart.id);
    const extra = await store.carts.addItem(cart.id, {
      variant_id: (await t.fixtures.product({ price: 50 })).variant.id,
    });
    const removed = await store.carts.removeItem(cart.id, extra.items[1]!.id);
    expect(removed.items).toHaveLength(1);
    expect((await store.carts.update(cart.id, { metadata: { gift: true } })).metadata).toEqual({
      gift: true,
    });
    expect((await store.carts.get(cart.id)).status).toBe('active');
    const guest = await store.carts.create({ items: [{ variant_id: variant.id, quantity: 1 }] });
    expect((await store.carts.merge(guest.id, customer.id)).customer_id).toBe(customer.id);

    const order = await store.checkout(cart.id, {
      email: 'guest@example.com',
      payment_provider: 'manual',
      shipping_address: {
        name: 'G',
        line1: '2 High St',
        city: 'Leeds',
        postal_code: 'LS1 1AA',
        country: 'GB',
      },
    });
    expect(order).toMatchObject({ status: 'pending', payment_status: 'unpaid' });
    expect((await store.orders.lookup({ number: String(order.number), email: 'GUEST@example.com' })).id).toBe(
      order.id,
    );
    expect((await store.orders.update(order.id, { note: 'leave at door' })).note).toBe('leave at door');
    await store.orders.payments.complete(order.payments[0]!.id);
    expect((await store.orders.get(order.id)).status).toBe('confirmed');
    const fulfillment = await store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: order.lines[0]!.id, quantity: 3 }],
    });
    expect((await store.orders.fulfillments.update(fulfillment.id, { carrier: 'DHL' })).carrier).toBe('DHL');
    expect((await store.orders.fulfillments.ship(fulfillment.id)).status).toBe('shipped');
    expect((await store.orders.fulfillments.deliver(fulfillment.id)).status).toBe('delivered');
    const refund = await store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: order.lines[0]!.id, quantity: 1 }],
    });
    expect(refund.amount.amount).toBeGreaterThan(0);
    expect((await store.orders.listRefunds(order.id)).data).toHaveLength(1);
    expect((await store.orders.list({ status: 'completed' })).data.map((o) => o.id)).toContain(order.id);

    const draft = await store.orders.create({
      email: 'd@example.com',
      lines: [{ variant_id: variant.id, quantity: 1 }],
    });
    expect(draft.status).toBe('draft');
    await rejects(store.orders.confirm(draft.id), 'invalid_state_transition');
    const pending = await store.orders.update(draft.id, { status: 'pending' });
    expect(pending.status).toBe('pending');
    await store.orders.payments.create(draft.id, { amount: pending.total.amount, provider: 'cash' });
    expect((await store.orders.process(draft.id)).status).toBe('processing');
    expect((await store.orders.complete(draft.id)).status).toBe('completed');
    await rejects(store.orders.cancel(draft.id, { reason: 'too late' }), 'invalid_state_transition');
    const second = await store.orders.create({
      email: 'e@example.com',
      lines: [{ variant_id: variant.id, quantity: 1 }],
    });
    expect((await store.orders.cancel(second.id, { reason: 'changed mind' })).status).toBe('cancelled');

    const mine = await store.customers.create({ email: 'mine@example.com' });
    const own = await store.orders.create({
      customer_id: mine.id,
      status: 'pending',
      lines: [{ variant_id: variant.id, quantity: 1 }],
    });
    expect((await store.orders.listForCustomer(mine.id)).data.map((o) => o.id)).toEqual([own.id]);
    expect((await store.orders.getForCustomer(mine.id, own.id)).id).toBe(own.id);
    await rejects(store.orders.getForCustomer(customer.id, own.id), 'not_found');

    expect(await store.customers.deleteAddress(customer.id, address.id)).toMatchObject({ deleted: true });
    expect(await store.discounts.delete(discount.id)).toMatchObject({ deleted: true });
    expect(await store.customers.delete(mine.id)).toMatchObject({ deleted: true });
    expect((await store.customers.get(customer.id)).email).toBe('ada@example.com');
    expect(await store.products.delete((await t.fixtures.product({ price: 10 })).product.id)).toMatchObject({
      deleted: true,
    });
  });
});
