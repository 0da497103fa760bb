import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createShop, PUBLISHABLE_KEY, SECRET_KEY, type Shop } from '../src/shop';

const open: Shop[] = [];
async function shop(giftCards: Record<string, number>): Promise<Shop> {
  const created = await createShop(giftCards);
  open.push(created);
  return created;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.engine.close();
});

const ADDRESS = {
  name: 'Ada Buyer',
  line1: '1 Main St',
  city: 'Springfield',
  postal_code: '12345',
  country: 'US',
};

/** An active product with stock, through the engine API. */
async function product(s: Shop, price: number) {
  const store = s.engine.forStore(await s.engine.scopeFor('test'));
  const created = await store.products.create({
    name: 'Mug',
    status: 'active',
    variants: [{ sku: `MUG-${price}`, price, inventory: { on_hand: 10 } }],
  });
  return created.variants[0]?.id ?? '';
}

describe('a gift card provider, over the engine API', () => {
  test('checkout with payment_provider gift_card: order confirmed and paid, the card charged', async () => {
    const s = await shop({ 'GC-100': 5000 });
    expect(s.engine.paymentProviders).toEqual(['manual', 'gift_card']);
    const store = s.engine.forStore(await s.engine.scopeFor('test'));
    const cart = await store.carts.create({ items: [{ variant_id: await product(s, 1800), quantity: 2 }] });

    const order = await store.checkout(cart.id, {
      email: 'buyer@example.com',
      shipping_address: ADDRESS,
      payment_provider: 'gift_card',
      payment_method_id: 'GC-100',
    });

    expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: { amount: 3600 } });
    expect(order.payments.map((p) => [p.provider, p.status, p.amount.amount])).toEqual([
      ['gift_card', 'completed', 3600],
    ]);
    expect(s.balances.get('GC-100')).toBe(1400);

    // A refund goes back to the card.
    await store.orders.refunds.create(order.id, { amount: 600 });
    expect(s.balances.get('GC-100')).toBe(2000);
  });

  test('a card that does not cover the total → payment_failed, no order; an unregistered provider → parameter_invalid', async () => {
    const s = await shop({ 'GC-5': 500 });
    const store = s.engine.forStore(await s.engine.scopeFor('test'));
    const cart = await store.carts.create({ items: [{ variant_id: await product(s, 1800) }] });
    const body = { email: 'buyer@example.com', shipping_address: ADDRESS };

    const declined = await store
      .checkout(cart.id, { ...body, payment_provider: 'gift_card', payment_method_id: 'GC-5' })
      .catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(CommerceError);
    expect(declined).toMatchObject({
      code: 'payment_failed',
      message: 'The gift card does not cover the total.',
    });
    expect(s.balances.get('GC-5')).toBe(500);

    const unknown = await store
      .checkout(cart.id, { ...body, payment_provider: 'store_credit' })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'parameter_invalid', param: 'payment_provider' });
  });
});

describe('a gift card provider, over HTTP', () => {
  const call = async (s: Shop, method: string, path: string, key: string | null, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await s.handler(
      new Request(`http://shop.test${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    // biome-ignore lint/suspicious/noExplicitAny: JSON bodies checked field by field.
    return { status: response.status, body: (await response.json()) as any };
  };

  test('POST …/checkout with payment_provider gift_card → 201, the payment recorded with gift_card', async () => {
    const s = await shop({ 'GC-200': 10_000 });
    const product = await call(s, 'POST', '/v1/admin/products', SECRET_KEY, {
      name: 'Tee',
      status: 'active',
      variants: [{ sku: 'TEE', price: 2500, inventory: { on_hand: 5 } }],
    });
    expect(product.status).toBe(200);
    const cart = await call(s, 'POST', '/v1/storefront/carts', PUBLISHABLE_KEY, {
      items: [{ variant_id: product.body.variants[0].id, quantity: 2 }],
    });
    expect(cart.status).toBe(200);

    const order = await call(s, 'POST', `/v1/storefront/carts/${cart.body.id}/checkout`, PUBLISHABLE_KEY, {
      email: 'buyer@example.com',
      shipping_address: ADDRESS,
      payment_provider: 'gift_card',
      payment_method_id: 'GC-200',
    });
    expect(order.status).toBe(201);
    expect(order.body).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect(order.body.payments[0]).toMatchObject({ provider: 'gift_card', status: 'completed' });
    expect(s.balances.get('GC-200')).toBe(5000);

    const stored = await call(s, 'GET', `/v1/admin/orders/${order.body.id}`, SECRET_KEY);
    expect(stored.body.payments[0]).toMatchObject({ provider: 'gift_card', amount: { amount: 5000 } });
  });

  test('errors in the API format: without the card code 400 parameter_missing; stripe (not registered) 400 parameter_invalid', async () => {
    const s = await shop({});
    const cart = await call(s, 'POST', '/v1/storefront/carts', PUBLISHABLE_KEY, {});
    const path = `/v1/storefront/carts/${cart.body.id}/checkout`;
    const missing = await call(s, 'POST', path, PUBLISHABLE_KEY, { payment_provider: 'gift_card' });
    expect([missing.status, missing.body.error.code, missing.body.error.param]).toEqual([
      400,
      'parameter_missing',
      'payment_method_id',
    ]);
    const stripe = await call(s, 'POST', path, PUBLISHABLE_KEY, {
      payment_provider: 'stripe',
      payment_method_id: 'pm_card_visa',
    });
    expect([stripe.status, stripe.body.error.code, stripe.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'payment_provider',
    ]);
  });

  test('GET /v1/openapi.json lists the registered providers as the enum of payment_provider', async () => {
    const s = await shop({});
    const document = await call(s, 'GET', '/v1/openapi.json', null);
    expect(document.status).toBe(200);
    const { payment_provider } = document.body.components.schemas.Checkout.properties;
    expect(payment_provider).toMatchObject({ type: 'string', enum: ['manual', 'gift_card'] });
  });
});
