import {
  HCAuthError,
  HCNotFoundError,
  HCValidationError,
  HeadlessCommerceError,
  type ValidationErrorDetail,
} from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { ADDRESS, createSellable, expectSdkError, sdkClients, unique } from './support';

/**
 * Our errors (docs/contract.md#errors) as `@headless-commerce/sdk` 0.2.0 surfaces them, and the SDK's
 * `idempotencyKey` request option against our replay rules (docs/contract.md#idempotency).
 *
 * What the SDK keeps of our error body: `message`, `code` (our code, verbatim), the HTTP status,
 * and `details` (ours: `[{ param, message }]` on validation errors). It drops `type`, `param` and
 * `request_id`, and it always throws the base `HeadlessCommerceError` — never its subclasses
 * `HCValidationError` / `HCNotFoundError` / `HCAuthError` — so callers branch on `isValidationError`,
 * `isNotFound`, `isAuthError` or on `code`.
 */

describeApi('sdk: errors and idempotency', (api) => {
  test('400 → isValidationError with our code; our `param` is reachable through `details`', async () => {
    const { admin, storefront } = sdkClients(api());
    const { variant } = await createSellable(admin);
    const cart = await storefront.carts.addItem((await storefront.carts.create()).id, {
      variant_id: variant.id,
    });
    const itemId = cart.items[0]!.id;

    const error = await expectSdkError(
      storefront.carts.updateItem(cart.id, itemId, { quantity: 0 }),
      400,
      'parameter_invalid',
    );
    expect(error).toBeInstanceOf(HeadlessCommerceError);
    expect(error.isValidationError).toBe(true);
    expect(error.isNotFound || error.isAuthError || error.isRateLimitError).toBe(false);
    expect(error.message).toBe('quantity must be at least 1');
    // Ours is the docs/contract.md#errors array `[{ param, message }]` (the SDK types it as an object of
    // ValidationErrorDetail-like entries with `field`).
    const details = error.details as unknown as Array<{ param: string; message: string }>;
    expect(details).toEqual([{ param: 'quantity', message: 'quantity must be at least 1' }]);
    expect((details[0] as unknown as ValidationErrorDetail).field).toBeUndefined();
    // SDK 0.2.0 never throws its subclasses.
    expect(error).not.toBeInstanceOf(HCValidationError);

    // The same request without the SDK: the full body of docs/contract.md#errors.
    const raw = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${itemId}`, {
      quantity: 0,
    });
    expect(raw.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'quantity',
      message: error.message,
      request_id: expect.stringMatching(/^req_/),
    });

    // Missing required field and unknown field: the code tells them apart.
    await expectSdkError(
      admin.products.adminCreate({ name: '', slug: unique('s') }),
      400,
      'parameter_invalid',
    );
    const unknown = await expectSdkError(
      storefront.carts.update(cart.id, { shipping_method_id: null, bogus: 1 } as never),
      400,
      'parameter_unknown',
    );
    expect(unknown.details).toEqual(expect.arrayContaining([expect.objectContaining({ param: 'bogus' })]));
  });

  test('422 business rules are validation errors too; a `param` outside `details` is not reachable through the SDK', async () => {
    const { admin, storefront } = sdkClients(api());
    const { variant } = await createSellable(admin, { on_hand: 2 });
    const cart = await storefront.carts.create();
    const stock = await expectSdkError(
      storefront.carts.addItem(cart.id, { variant_id: variant.id, quantity: 3 }),
      422,
      'insufficient_inventory',
    );
    expect(stock.isValidationError).toBe(true);
    await expectSdkError(
      storefront.carts.applyDiscount(cart.id, { code: 'NOPE' }),
      422,
      'discount_not_found',
    );

    const currency = await expectSdkError(
      admin.shippingMethods.adminCreate({ name: 'Euro', price: { amount: 5, currency: 'EUR' } as never }),
      422,
      'currency_mismatch',
    );
    expect(currency.details).toBeUndefined();
    const raw = await api().post('/v1/admin/shipping-methods', {
      name: 'Euro',
      price: { amount: 5, currency: 'EUR' },
    });
    expect(raw.body.error).toMatchObject({ code: 'currency_mismatch', param: 'price' });
  });

  test('404 → isNotFound (code not_found); 401 → isAuthError (unauthenticated, invalid_api_key, invalid_customer_token); 403 forbidden', async () => {
    const { admin, storefront, storefrontAs, withKey } = sdkClients(api());
    const missing = await expectSdkError(storefront.products.get('prod_doesnotexist'), 404, 'not_found');
    expect(missing.isNotFound).toBe(true);
    expect(missing).not.toBeInstanceOf(HCNotFoundError);
    await expectSdkError(admin.orders.adminGet('ord_doesnotexist'), 404, 'not_found');
    await expectSdkError(storefront.carts.get('not-an-id'), 404, 'not_found');

    const badKey = await expectSdkError(
      withKey('sk_test_unknown000000000000').store.adminGet(),
      401,
      'invalid_api_key',
    );
    expect(badKey.isAuthError).toBe(true);
    expect(badKey).not.toBeInstanceOf(HCAuthError);
    // An empty apiKey makes the SDK send `Authorization: Bearer ` — malformed.
    expect((await expectSdkError(withKey('').store.adminGet(), 401, 'unauthenticated')).isAuthError).toBe(
      true,
    );
    const badToken = await expectSdkError(
      storefrontAs('ct_unknown').orders.list(),
      401,
      'invalid_customer_token',
    );
    expect(badToken.isAuthError).toBe(true);

    const forbidden = await expectSdkError(
      withKey(api().keys.publishable).store.adminGet(),
      403,
      'forbidden',
    );
    expect(forbidden.isAuthError || forbidden.isValidationError).toBe(false);
  });

  test('idempotencyKey (RequestOptions) replays the first response: same ids, one effect; another body → 409', async () => {
    const { admin, storefront } = sdkClients(api());
    const key = unique('idem-');
    const slug = unique('idem-').toLowerCase();
    const first = await admin.products.adminCreate({ name: 'Once', slug }, { idempotencyKey: key });
    const again = await admin.products.adminCreate({ name: 'Once', slug }, { idempotencyKey: key });
    expect(again).toEqual(first);
    expect(
      (await admin.products.adminList({ q: 'Once', limit: 100 })).data.filter((p) => p.slug === slug),
    ).toHaveLength(1);
    const reused = await expectSdkError(
      admin.products.adminCreate({ name: 'Other', slug: `${slug}-2` }, { idempotencyKey: key }),
      409,
      'idempotency_key_reused',
    );
    expect(reused.isValidationError).toBe(false);

    // A cart line added twice with one key is added once.
    const { variant } = await createSellable(admin);
    const cart = await storefront.carts.create();
    const addKey = unique('add-');
    const added = await storefront.carts.addItem(
      cart.id,
      { variant_id: variant.id, quantity: 2 },
      { idempotencyKey: addKey },
    );
    const replayed = await storefront.carts.addItem(
      cart.id,
      { variant_id: variant.id, quantity: 2 },
      { idempotencyKey: addKey },
    );
    expect(replayed).toEqual(added);
    expect((await storefront.carts.get(cart.id)).items[0]!.quantity).toBe(2);

    // Checkout twice with one key: one order, the same response.
    const checkoutKey = unique('checkout-');
    const input = { email: `${unique('idem')}@example.com`, shipping_address: ADDRESS };
    const order = await storefront.checkout.create(cart.id, input, { idempotencyKey: checkoutKey });
    const replay = await storefront.checkout.create(cart.id, input, { idempotencyKey: checkoutKey });
    expect(replay.id).toBe(order.id);
    expect(replay.number).toBe(order.number);
    expect((await admin.orders.adminList({ email: input.email } as never)).data.map((o) => o.id)).toEqual([
      order.id,
    ]);
    // Without the key, the completed cart refuses a second checkout.
    await expectSdkError(storefront.checkout.create(cart.id, input), 409, 'cart_not_active');
  });
});
