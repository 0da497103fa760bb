import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The merge with `source_cart_id` (decisions §22, docs/contract.md#cart-merge) at engine level:
 * `{id}` is the customer's cart, the source (a guest cart or another of the customer's) is merged
 * into it by the rules of §12 and abandoned; its refusals and what they leave unchanged.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function expectCode(promise: Promise<unknown>, code: string, param?: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  expect({ code: (error as CommerceError).code, param: (error as CommerceError).param }).toEqual({
    code,
    param,
  });
  return error as CommerceError;
}

const quantities = (cart: { items: Array<{ variant_id: string; quantity: number }> }) =>
  Object.fromEntries(cart.items.map((i) => [i.variant_id, i.quantity]));

describe('merge with source_cart_id', () => {
  test('the source goes into {id}: quantities summed within stock, unbuyable lines dropped, valid codes carried, addresses filled, source abandoned', async () => {
    t = await createTestEngine();
    const tracked = await t.fixtures.product({ price: 1000, on_hand: 5 });
    const backorder = await t.fixtures.product({ price: 100, on_hand: 1, allow_backorder: true });
    const retired = await t.fixtures.product({ price: 300 });
    await t.fixtures.discount({ code: 'TEN' });
    const ada = await t.fixtures.customer();
    const bob = await t.fixtures.customer();
    await t.fixtures.discount({
      code: 'NOTADA',
      value_type: 'fixed',
      value: 50,
      conditions: [{ type: 'customer', operator: 'not_in', values: [ada.id] }],
    });
    const as = t.storefront(ada.id);
    const target = await t.fixtures.cart([{ variant_id: tracked.variant.id, quantity: 4 }], {
      customer_id: ada.id,
      shipping_address: null,
    });
    const newer = await as.carts.create({});
    const guest = await t.storefront().carts.create({
      items: [
        { variant_id: tracked.variant.id, quantity: 3 },
        { variant_id: backorder.variant.id, quantity: 6 },
        { variant_id: retired.variant.id, quantity: 1 },
      ],
      shipping_address: {
        name: 'G',
        line1: '1 Guest St',
        city: 'Paris',
        postal_code: '75001',
        country: 'FR',
      },
    });
    await t.storefront().carts.applyDiscount(guest.id, { code: 'TEN' });
    await t.storefront().carts.applyDiscount(guest.id, { code: 'NOTADA' });
    await t.store.products.update(retired.product.id, { status: 'archived' });

    const merged = await as.carts.merge(target.id, ada.id, { source_cart_id: guest.id });
    expect(merged).toMatchObject({ id: target.id, customer_id: ada.id, status: 'active' });
    expect(quantities(merged)).toEqual({ [tracked.variant.id]: 5, [backorder.variant.id]: 6 });
    expect(merged.discount_codes).toEqual(['TEN']);
    expect(merged.shipping_address).toMatchObject({ line1: '1 Guest St' });
    expect((await t.store.carts.get(guest.id)).status).toBe('abandoned');
    expect((await t.store.carts.get(newer.id)).items).toEqual([]);

    // Bob cannot name Ada's carts, as source or target, with either key.
    const bobs = await t.storefront(bob.id).carts.create({});
    await expectCode(
      t.storefront(bob.id).carts.merge(bobs.id, bob.id, { source_cart_id: newer.id }),
      'not_found',
      'source_cart_id',
    );
    await expectCode(
      t.store.carts.merge(newer.id, bob.id, { source_cart_id: bobs.id }),
      'not_found',
      undefined,
    );
    expect((await t.store.carts.get(newer.id)).status).toBe('active');
    expect((await t.store.carts.get(bobs.id)).status).toBe('active');
  });

  test("another of the customer's carts as the source; the same variant twice is one line", async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 500 });
    const ada = await t.fixtures.customer();
    const as = t.storefront(ada.id);
    const first = await as.carts.create({ items: [{ variant_id: variant.id, quantity: 1 }] });
    const second = await as.carts.create({ items: [{ variant_id: variant.id, quantity: 2 }] });
    const merged = await as.carts.merge(first.id, ada.id, { source_cart_id: second.id });
    expect(merged.id).toBe(first.id);
    expect(merged.items).toHaveLength(1);
    expect(quantities(merged)).toEqual({ [variant.id]: 3 });
    expect((await as.carts.get(second.id)).status).toBe('abandoned');
  });

  test('refusals: itself (400), unknown (404), a target that is not hers (404), non-active carts (409), unknown field (400); nothing changes', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 500 });
    const ada = await t.fixtures.customer();
    const as = t.storefront(ada.id);
    const mine = await as.carts.create({ items: [{ variant_id: variant.id, quantity: 1 }] });
    const guest = await t.storefront().carts.create({ items: [{ variant_id: variant.id, quantity: 2 }] });

    await expectCode(
      as.carts.merge(mine.id, ada.id, { source_cart_id: mine.id }),
      'parameter_invalid',
      'source_cart_id',
    );
    await expectCode(
      as.carts.merge(mine.id, ada.id, { source_cart_id: 'cart_nope' }),
      'not_found',
      'source_cart_id',
    );
    await expectCode(
      as.carts.merge('cart_nope', ada.id, { source_cart_id: guest.id }),
      'not_found',
      undefined,
    );
    // A guest cart is no target: the merge without source_cart_id is how it becomes hers.
    await expectCode(as.carts.merge(guest.id, ada.id, { source_cart_id: mine.id }), 'not_found', undefined);
    await expectCode(
      as.carts.merge(mine.id, ada.id, { source_cart_id: guest.id, into: mine.id } as never),
      'parameter_unknown',
      'into',
    );
    expect(await t.store.carts.get(guest.id)).toMatchObject({ status: 'active', customer_id: null });
    expect(quantities(await t.store.carts.get(mine.id))).toEqual({ [variant.id]: 1 });

    // Abandoned source; completed target.
    const gone = await t.storefront().carts.create({ items: [{ variant_id: variant.id, quantity: 1 }] });
    await as.carts.merge(mine.id, ada.id, { source_cart_id: gone.id });
    await expectCode(
      as.carts.merge(mine.id, ada.id, { source_cart_id: gone.id }),
      'cart_not_active',
      undefined,
    );
    const done = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }], { customer_id: ada.id });
    await t.storefront(ada.id).checkout(done.id, {});
    await expectCode(
      as.carts.merge(done.id, ada.id, { source_cart_id: guest.id }),
      'cart_not_active',
      undefined,
    );
    await expectCode(
      as.carts.merge(mine.id, ada.id, { source_cart_id: done.id }),
      'cart_not_active',
      undefined,
    );
    expect(await t.store.carts.get(guest.id)).toMatchObject({ status: 'active', customer_id: null });
  });

  test('without source_cart_id ({}), the guest cart goes into her newest active cart as before', async () => {
    t = await createTestEngine();
    const { variant } = await t.fixtures.product({ price: 500 });
    const ada = await t.fixtures.customer();
    const as = t.storefront(ada.id);
    await as.carts.create({});
    const newest = await as.carts.create({});
    const guest = await t.storefront().carts.create({ items: [{ variant_id: variant.id, quantity: 2 }] });
    const merged = await as.carts.merge(guest.id, ada.id, {});
    expect(merged.id).toBe(newest.id);
    expect(quantities(merged)).toEqual({ [variant.id]: 2 });
    expect((await t.store.carts.get(guest.id)).status).toBe('abandoned');
  });
});
