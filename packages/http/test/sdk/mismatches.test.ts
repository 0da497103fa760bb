import type { CartAddress } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { ADDRESS, ADDRESS_OUT, createSellable, expectSdkError, sdkClients, unique } from './support';

/**
 * Where `@headless-commerce/sdk` 0.2.0 sends something our contract (the spec and decisions.md)
 * decides otherwise, the server keeps the contract. Each test pins our behaviour for the SDK's
 * request, and shows the request our contract takes, through the SDK's own methods or its
 * low-level `request(method, path, body)`.
 */

describeApi('sdk: requests the contract decides otherwise', (api) => {
  test('variants.adminCreate: width / height / depth / position are not variant fields (decisions §9) → 400 parameter_unknown', async () => {
    const { admin } = sdkClients(api());
    const product = await admin.products.adminCreate({ name: 'Box', slug: unique('box-').toLowerCase() });
    const error = await expectSdkError(
      admin.variants.adminCreate(product.id, {
        sku: unique('BOX-'),
        price: 500,
        width: 10,
        height: 5,
        depth: 2,
        position: 1,
      }),
      400,
      'parameter_unknown',
    );
    expect((error.details as unknown as Array<{ param: string }>).map((d) => d.param)).toEqual([
      'width',
      'height',
      'depth',
      'position',
    ]);
    // Weight (grams) is ours; the variant is created without the other fields.
    const variant = await admin.variants.adminCreate(product.id, {
      sku: unique('BOX-'),
      price: 500,
      weight: 250,
    });
    expect(variant.weight).toBe(250);
  });

  test('carts.update: the SDK’s CartAddress (first_name / last_name) is not the spec’s Address (name) → 400', async () => {
    const { storefront } = sdkClients(api());
    const cart = await storefront.carts.create();
    const sdkAddress: CartAddress = {
      first_name: 'Ada',
      last_name: 'Lovelace',
      line1: '12 St James Square',
      city: 'London',
      postal_code: 'SW1Y 4JH',
      country: 'GB',
    };
    const error = await expectSdkError(
      storefront.carts.update(cart.id, { shipping_address: sdkAddress }),
      400,
      'parameter_unknown',
    );
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ param: 'shipping_address[name]' }),
        expect.objectContaining({ param: 'shipping_address[first_name]' }),
        expect.objectContaining({ param: 'shipping_address[last_name]' }),
      ]),
    );
    const updated = await storefront.carts.update(cart.id, { billing_address: ADDRESS as never });
    expect(updated.billing_address).toEqual(ADDRESS_OUT);
  });

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

  test('webhooks.adminTest sends no body, but the spec requires `event_type` → 400 parameter_missing', async () => {
    const { admin } = sdkClients(api());
    const webhook = await admin.webhooks.adminCreate({ url: 'https://hooks.example.com/t', events: ['*'] });
    const error = await expectSdkError(admin.webhooks.adminTest(webhook.id), 400, 'parameter_missing');
    expect(error.details).toEqual([expect.objectContaining({ param: 'event_type' })]);
    // An unknown event type through the low-level request is refused before any delivery.
    await expectSdkError(
      admin.request('POST', `/admin/webhooks/${webhook.id}/test`, { event_type: 'order.teleported' }),
      400,
      'parameter_invalid',
    );
  });

  test('list sorts the SDK declares and the contract does not: storefront `relevance`, admin products `updated_at` → 400', async () => {
    const { admin, storefront } = sdkClients(api());
    const relevance = await expectSdkError(
      storefront.products.list({ sort: 'relevance' }),
      400,
      'parameter_invalid',
    );
    expect(relevance.details).toEqual([expect.objectContaining({ param: 'sort' })]);
    await expectSdkError(admin.products.adminList({ sort: 'updated_at' }), 400, 'parameter_invalid');
    // Query parameters we do not know (the SDK's include / expand / category_id) are ignored.
    expect(
      (await storefront.products.list({ include: 'variants', category_id: 'cat_x', limit: 1 })).data,
    ).toBeInstanceOf(Array);
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
