import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { ADDRESS, createSellable, expectSdkError, sdkClients, unique } from './support';

/**
 * Where `@headless-commerce/sdk` 0.2.0 sends something our contract (the spec and decisions.md)
 * decides otherwise, the server keeps the contract. Each test pins our behaviour for the SDK's
 * request, and shows the request our contract takes, through the SDK's own methods or its
 * low-level `request(method, path, body)`.
 */

describeApi('sdk: requests the contract decides otherwise', (api) => {
  // variants.adminCreate / adminUpdate with width / height / depth / position, and admin products'
  // sort=updated_at, are served as the SDK sends them since decisions §22: see served-catalog.test.ts.

  // The SDK's CartAddress (first_name / last_name), label and receiver_name, and partial saved-address
  // PATCHes are served as the SDK sends them since decisions §22: see served-addresses.test.ts.

  test('a cart has no e-mail (spec PATCH body): `email` on carts.update → 400; the e-mail goes with checkout', async () => {
    const { admin, storefront } = sdkClients(api());
    const { variant } = await createSellable(admin);
    const cart = await storefront.carts.create();
    await storefront.carts.addItem(cart.id, { variant_id: variant.id });
    const error = await expectSdkError(
      storefront.carts.update(cart.id, { email: 'guest@example.com' } as never),
      400,
      'parameter_unknown',
    );
    expect(error.details).toEqual([expect.objectContaining({ param: 'email' })]);
    // A guest checkout without an e-mail: 400 parameter_missing (docs/contract.md#checkout).
    await expectSdkError(
      storefront.checkout.create(cart.id, { shipping_address: ADDRESS } as never),
      400,
      'parameter_missing',
    );
    const order = await storefront.checkout.create(cart.id, {
      email: 'guest@example.com',
      shipping_address: ADDRESS,
    });
    expect(order.email).toBe('guest@example.com');
  });

  // webhooks.adminTest (no body) and webhooks.adminCreate({ is_active }) are served as the SDK sends
  // them since decisions §22: see served-carts-webhooks.test.ts.

  // `sort: 'relevance'` with `q` is served since decisions §17 (served-relevance.test.ts); without one it ranks nothing.
  test('storefront `relevance` without `q` → 400 naming sort; unknown query parameters (include) are ignored', async () => {
    const { storefront } = sdkClients(api());
    const relevance = await expectSdkError(
      storefront.products.list({ sort: 'relevance' }),
      400,
      'parameter_invalid',
    );
    expect(relevance.details).toEqual([expect.objectContaining({ param: 'sort' })]);
    // Query parameters we do not know (the SDK's include / expand) are ignored.
    expect((await storefront.products.list({ include: 'variants', limit: 1 })).data).toBeInstanceOf(Array);
    // `category_id` filters since decisions §17 (served-categories.test.ts): one naming nothing → empty.
    expect(await storefront.products.list({ category_id: 'cat_x', limit: 1 })).toEqual({
      data: [],
      total_count: 0,
      has_more: false,
      next_cursor: null,
    });
  });

  test('orders.adminCreate / adminUpdate: the SDK’s inputs have no `status`; ours is draft by default, finalised by PATCH status (decisions §13)', async () => {
    const { admin } = sdkClients(api());
    const { variant, inventory_id } = await createSellable(admin, { on_hand: 3 });
    const order = await admin.orders.adminCreate({
      email: `${unique('draft')}@example.com`,
      lines: [{ variant_id: variant.id, quantity: 2 }],
    });
    expect(order.status).toBe('draft');
    expect(await admin.inventory.adminGet(inventory_id)).toMatchObject({ reserved: 0 });
    const pending = await admin.request<{ status: string }>('PATCH', `/admin/orders/${order.id}`, {
      status: 'pending',
    });
    expect(pending.status).toBe('pending');
    expect(await admin.inventory.adminGet(inventory_id)).toMatchObject({ reserved: 2, available: 1 });
    // Created as pending directly: the same low-level request with the body of the spec.
    const direct = await admin.request<{ status: string }>('POST', '/admin/orders', {
      email: `${unique('pending')}@example.com`,
      lines: [{ variant_id: variant.id, quantity: 1 }],
      status: 'pending',
    });
    expect(direct.status).toBe('pending');
  });
});
