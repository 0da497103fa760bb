import {
  CartCreateSchema,
  CartItemAddSchema,
  CheckoutSchema,
  CommerceError,
  createEngine,
  ProductCreateSchema,
  parseInput,
} from '@cartwright/core';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { expect, test } from 'vitest';

// The code of docs/embedding.md, section 1, run as it is written there.
test('embedding: the engine in process, with the same validation and errors as over HTTP', async () => {
  const engine = await createEngine({ storage: sqliteStorage({ filename: ':memory:' }) }); // migrates on start

  const scope = await engine.scopeFor('test'); // { store_id, mode }: what a test-mode key sees
  const actor = { key_type: 'secret', customer_id: null } as const; // who acts on carts

  const product = await engine.products.create(
    scope,
    parseInput(ProductCreateSchema, {
      name: 'Tee',
      status: 'active',
      variants: [{ sku: 'TEE-M', price: 2500, inventory: { on_hand: 10 } }],
    }),
  );
  const variant = product.variants[0]!;
  const cart = await engine.carts.create(scope, actor, parseInput(CartCreateSchema, { session_id: 'abc' }));
  await engine.carts.addItem(
    scope,
    actor,
    cart.id,
    parseInput(CartItemAddSchema, { variant_id: variant.id, quantity: 2 }),
  );

  const confirmed: string[] = [];
  engine.events.on('order.created', (event) => confirmed.push(event.data.id as string)); // after commit

  const order = await engine.checkout.checkout(
    scope,
    cart.id,
    parseInput(CheckoutSchema, {
      email: 'a@b.co',
      payment_provider: 'manual',
      shipping_address: {
        name: 'A B',
        line1: '1 Main St',
        city: 'Springfield',
        postal_code: '12345',
        country: 'US',
      },
    }),
    actor,
  );
  expect(order).toMatchObject({ number: 1001, status: 'pending', payment_status: 'unpaid' });
  expect(order.total).toEqual({ amount: 5000, currency: 'USD' });
  expect(confirmed).toEqual([order.id]);

  // Errors are CommerceErrors with the wire code (and param), exactly as the API answers them.
  const error = await engine.carts
    .addItem(scope, actor, cart.id, parseInput(CartItemAddSchema, { variant_id: variant.id }))
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CommerceError);
  expect((error as CommerceError).code).toBe('cart_not_active');
  try {
    parseInput(CartItemAddSchema, { variant_id: variant.id, quantity: 0 });
    expect.unreachable();
  } catch (e) {
    expect([(e as CommerceError).code, (e as CommerceError).param]).toEqual([
      'parameter_invalid',
      'quantity',
    ]);
  }
  await engine.close();
});
