import { CommerceError, createEngine } from '@cartwright/core';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { expect, test } from 'vitest';

// The code of docs/embedding.md, section 1, run as it is written there.
test('embedding: the engine in process, with the same validation and errors as over HTTP', async () => {
  const engine = await createEngine({ storage: sqliteStorage({ filename: ':memory:' }) }); // migrates on start

  const scope = await engine.scopeFor('test'); // { store_id, mode }: what a test-mode key sees
  const store = engine.forStore(scope); // the API of that store, acting as a secret key

  const product = await store.products.create({
    name: 'Tee',
    status: 'active',
    variants: [{ sku: 'TEE-M', price: 2500, inventory: { on_hand: 10 } }],
  });
  const variant = product.variants[0]!;
  const cart = await store.carts.create({ session_id: 'abc' });
  await store.carts.addItem(cart.id, { variant_id: variant.id, quantity: 2 });

  const created: string[] = [];
  engine.events.on('order.created', (event) => created.push(event.data.id)); // typed, after commit

  const order = await store.checkout(cart.id, {
    email: 'a@b.co',
    payment_provider: 'manual',
    shipping_address: {
      name: 'A B',
      line1: '1 Main St',
      city: 'Springfield',
      postal_code: '12345',
      country: 'US',
    },
  });
  expect(order).toMatchObject({ number: 1001, status: 'pending', payment_status: 'unpaid' });
  expect(order.total).toEqual({ amount: 5000, currency: 'USD' });
  expect(created).toEqual([order.id]);

  // Errors are CommerceErrors with the wire code (and param), exactly as the API answers them.
  const error = await store.carts.addItem(cart.id, { variant_id: variant.id }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CommerceError);
  expect((error as CommerceError).code).toBe('cart_not_active');
  const invalid = await store.carts
    .create({ items: [{ variant_id: variant.id, quantity: 0 }] })
    .catch((e: unknown) => e);
  expect([(invalid as CommerceError).code, (invalid as CommerceError).param]).toEqual([
    'parameter_invalid',
    'items[0][quantity]',
  ]);
  await engine.close();
});
