import type {
  Address,
  CartAddress,
  CheckoutInput,
  CreateAddressInput,
  StorefrontClient,
  UpdateAddressInput,
} from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from '../api/support/harness';
import { ADDRESS, ADDRESS_OUT, createSellable, expectSdkError, isoDate, sdkClients, unique } from './support';

/**
 * decisions §22, addresses as `@headless-commerce/sdk` 0.2.0 sends them (docs/contract.md#addresses):
 * - everywhere an address is taken, `name` or the SDK's `CartAddress` parts `first_name` +
 *   `last_name` (then `name` is "first last"), plus `label` (≤ 100) and `receiver_name`; every
 *   response shows all of them (null when absent);
 * - saved addresses take `type` (default `both`) and their PATCH (`customers.updateAddress`) is
 *   partial; the address that results must satisfy the create rules.
 */

/** The SDK's CartAddress: first_name + last_name instead of name. */
const CART_ADDRESS: CartAddress = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  line1: '12 St James Square',
  city: 'London',
  postal_code: 'SW1Y 4JH',
  country: 'GB',
};

/** CART_ADDRESS as every response shows it. */
const CART_ADDRESS_OUT = { ...ADDRESS_OUT, first_name: 'Ada', last_name: 'Lovelace' };

/** The `param`s of an SDK error's details (our `details` array). */
const params = (details: unknown) => (details as Array<{ param: string }>).map((d) => d.param);

/** A customer with a token, and a storefront client that sends it. */
async function signedInCustomer(api: TestApi): Promise<{ token: string; client: StorefrontClient }> {
  const { admin, storefrontAs } = sdkClients(api);
  const customer = await admin.customers.adminCreate({ email: `${unique('addr')}@example.com` });
  const { token } = await admin.customers.adminCreateToken(customer.id);
  return { token, client: storefrontAs(token) };
}

describeApi('sdk: addresses with first_name / last_name, label and receiver_name (decisions §22)', (api) => {
  test('carts.update takes the SDK’s CartAddress (name "Ada Lovelace"); checkout carries it into the order, with a billing label and receiver_name', async () => {
    const { admin, storefront } = sdkClients(api());
    const { variant } = await createSellable(admin);
    const cart = await storefront.carts.create();
    await storefront.carts.addItem(cart.id, { variant_id: variant.id });

    const updated = await storefront.carts.update(cart.id, { shipping_address: CART_ADDRESS });
    expect(updated.shipping_address).toEqual(CART_ADDRESS_OUT);
    expect((await storefront.carts.get(cart.id)).shipping_address).toEqual(CART_ADDRESS_OUT);

    // The checkout body repeats no shipping address: the cart's is used. Its billing address has
    // the SDK Address's label and receiver_name.
    const billing: Address = { ...ADDRESS, label: 'Office', receiver_name: 'Front desk' };
    const order = await storefront.checkout.create(cart.id, {
      email: `${unique('ada')}@example.com`,
      billing_address: billing,
    } as CheckoutInput);
    const billingOut = { ...ADDRESS_OUT, label: 'Office', receiver_name: 'Front desk' };
    expect(order.shipping_address).toEqual(CART_ADDRESS_OUT);
    expect(order.billing_address).toEqual(billingOut);
    const stored = await admin.orders.adminGet(order.id);
    expect(stored.shipping_address).toEqual(CART_ADDRESS_OUT);
    expect(stored.billing_address).toEqual(billingOut);
  });

  test('checkout takes CartAddress parts too; carts.create takes them (low-level request)', async () => {
    const { admin, storefront, withKey } = sdkClients(api());
    const { variant } = await createSellable(admin);
    // The SDK's CreateCartInput has no addresses: its low-level request sends them.
    const created = await withKey(api().keys.publishable).request<{ id: string; billing_address: unknown }>(
      'POST',
      '/storefront/carts',
      {
        items: [{ variant_id: variant.id }],
        billing_address: { ...CART_ADDRESS, company: 'Analytical Engines' },
      },
    );
    expect(created.billing_address).toEqual({ ...CART_ADDRESS_OUT, company: 'Analytical Engines' });
    const order = await storefront.checkout.create(created.id, {
      email: `${unique('ada')}@example.com`,
      shipping_address: { ...CART_ADDRESS, first_name: 'Augusta', receiver_name: 'Ada' },
    } as unknown as CheckoutInput);
    expect(order.shipping_address).toEqual({
      ...CART_ADDRESS_OUT,
      name: 'Augusta Lovelace',
      first_name: 'Augusta',
      receiver_name: 'Ada',
    });
  });

  test('name and both parts: name wins, the parts are kept as given', async () => {
    const { storefront } = sdkClients(api());
    const cart = await storefront.carts.create();
    const updated = await storefront.carts.update(cart.id, {
      billing_address: { ...CART_ADDRESS, name: 'Countess of Lovelace', last_name: 'King' } as CartAddress,
    });
    expect(updated.billing_address).toEqual({
      ...CART_ADDRESS_OUT,
      name: 'Countess of Lovelace',
      last_name: 'King',
    });
  });

  test('one part alone → 400 parameter_missing naming the other; neither → naming name; label over 100 → 400; nothing changes', async () => {
    const { storefront } = sdkClients(api());
    const cart = await storefront.carts.create();
    await storefront.carts.update(cart.id, { shipping_address: CART_ADDRESS });
    const { last_name: _last, ...onlyFirst } = CART_ADDRESS;
    const half = await expectSdkError(
      storefront.carts.update(cart.id, { shipping_address: onlyFirst as CartAddress }),
      400,
      'parameter_missing',
    );
    expect(params(half.details)).toEqual(['shipping_address[last_name]']);
    expect(half.message).toBe('shipping_address[last_name] is required when first_name is given');
    const { first_name: _first, ...onlyLast } = CART_ADDRESS;
    const other = await expectSdkError(
      storefront.carts.update(cart.id, { billing_address: onlyLast as CartAddress }),
      400,
      'parameter_missing',
    );
    expect(params(other.details)).toEqual(['billing_address[first_name]']);
    const { first_name: _f, last_name: _l, ...nameless } = CART_ADDRESS;
    const none = await expectSdkError(
      storefront.carts.update(cart.id, { shipping_address: nameless as CartAddress }),
      400,
      'parameter_missing',
    );
    expect(params(none.details)).toEqual(['shipping_address[name]']);
    // Every missing field at once: the name group's and the others'.
    const { line1: _line1, ...bare } = nameless;
    const both = await expectSdkError(
      storefront.carts.update(cart.id, { shipping_address: bare as CartAddress }),
      400,
      'parameter_missing',
    );
    expect(params(both.details).sort()).toEqual(['shipping_address[line1]', 'shipping_address[name]']);
    const long = await expectSdkError(
      storefront.carts.update(cart.id, {
        shipping_address: { ...CART_ADDRESS, label: 'x'.repeat(101) } as CartAddress,
      }),
      400,
      'parameter_invalid',
    );
    expect(params(long.details)).toEqual(['shipping_address[label]']);
    const fits = await storefront.carts.update(cart.id, {
      billing_address: { ...ADDRESS, label: 'x'.repeat(100) } as unknown as CartAddress,
    });
    expect(fits.billing_address).toEqual({ ...ADDRESS_OUT, label: 'x'.repeat(100) });
    expect((await storefront.carts.get(cart.id)).shipping_address).toEqual(CART_ADDRESS_OUT);
  });

  test('admin orders: create takes label and receiver_name; PATCH takes the CartAddress parts', async () => {
    const { admin } = sdkClients(api());
    const { variant } = await createSellable(admin);
    const order = await admin.orders.adminCreate({
      email: `${unique('ada')}@example.com`,
      lines: [{ variant_id: variant.id, quantity: 1 }],
      shipping_address: { ...ADDRESS, label: 'Home', receiver_name: 'Ada' },
    });
    expect(order.shipping_address).toEqual({ ...ADDRESS_OUT, label: 'Home', receiver_name: 'Ada' });
    expect(order.billing_address).toBeNull();
    const patched = await admin.orders.adminUpdate(order.id, {
      shipping_address: { ...CART_ADDRESS, first_name: 'Grace', last_name: 'Hopper' } as unknown as Address,
    });
    expect(patched.shipping_address).toEqual({
      ...CART_ADDRESS_OUT,
      name: 'Grace Hopper',
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    await expectSdkError(
      admin.orders.adminUpdate(order.id, {
        shipping_address: { ...CART_ADDRESS, last_name: undefined } as never,
      }),
      400,
      'parameter_missing',
    );
    expect((await admin.orders.adminGet(order.id)).shipping_address).toEqual(patched.shipping_address);
  });
});

describeApi('sdk: saved addresses — type, label, partial PATCH (decisions §22)', (api) => {
  test('customers.createAddress with type and label; customers.updateAddress changes one field and keeps the rest', async () => {
    const { client } = await signedInCustomer(api());
    const created = await client.customers.createAddress({
      ...ADDRESS,
      phone: '+44 20 7946 0000',
      type: 'shipping',
      label: 'Office',
      receiver_name: 'Reception',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^addr_/),
      ...ADDRESS_OUT,
      phone: '+44 20 7946 0000',
      label: 'Office',
      receiver_name: 'Reception',
      type: 'shipping',
      is_default: false,
      created_at: isoDate,
    });
    // type defaults to both.
    const plain = await client.customers.createAddress({ ...ADDRESS });
    expect(plain).toMatchObject({ type: 'both', label: null, receiver_name: null, first_name: null });

    const moved = await client.customers.updateAddress(created.id, { city: 'Paris' });
    expect(moved).toEqual({ ...created, city: 'Paris' });
    const relabelled = await client.customers.updateAddress(created.id, { label: 'HQ', type: 'both' });
    expect(relabelled).toEqual({ ...created, city: 'Paris', label: 'HQ', type: 'both' });
    // null clears an optional field; an empty PATCH changes nothing.
    const cleared = await client.customers.updateAddress(created.id, {
      phone: null,
      receiver_name: null,
    } as unknown as UpdateAddressInput);
    expect(cleared).toEqual({ ...relabelled, phone: null, receiver_name: null });
    expect(await client.customers.updateAddress(created.id, {})).toEqual(cleared);

    const { data } = await client.customers.listAddresses();
    expect(data).toEqual([cleared, plain]);
    // The Customer resource lists them in the Address shape (no id, type or default flag).
    const me = await client.customers.me();
    const { id: _id, type: _type, is_default: _default, created_at: _at, ...shape } = cleared;
    expect(me.addresses[0]).toEqual(shape);
  });

  test('first_name + last_name on a saved address; a PATCH that would leave it invalid → 400 with the missing param, nothing changed', async () => {
    const { client, token } = await signedInCustomer(api());
    const { name: _name, ...rest } = ADDRESS;
    const created = await client.customers.createAddress({
      ...rest,
      first_name: 'Ada',
      last_name: 'Lovelace',
    } as unknown as CreateAddressInput);
    expect(created).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      type: 'both',
    });

    // One part changed: merged with the stored other; name follows.
    const renamed = await client.customers.updateAddress(created.id, {
      first_name: 'Augusta',
    } as UpdateAddressInput);
    expect(renamed).toEqual({ ...created, name: 'Augusta Lovelace', first_name: 'Augusta' });
    // A name alone (what the SDK's UpdateAddressInput has) replaces the parts.
    const named = await client.customers.updateAddress(created.id, { name: 'Grace Hopper' });
    expect(named).toEqual({ ...created, name: 'Grace Hopper', first_name: null, last_name: null });

    // Now a first_name alone would leave the address without a last_name.
    const error = await expectSdkError(
      client.customers.updateAddress(created.id, { first_name: 'Grace' } as UpdateAddressInput),
      400,
      'parameter_missing',
    );
    expect(error.message).toBe('last_name is required when first_name is given');
    const raw = await api().storefront.patch(
      `/v1/storefront/customers/me/addresses/${created.id}`,
      { last_name: 'Hopper' },
      { customerToken: token },
    );
    expect(raw.status).toBe(400);
    expect(raw.body.error).toMatchObject({ code: 'parameter_missing', param: 'first_name' });
    // Create rules on the fields themselves: a required one cannot be cleared.
    const invalid = await expectSdkError(
      client.customers.updateAddress(created.id, { line1: null } as unknown as UpdateAddressInput),
      400,
      'parameter_invalid',
    );
    expect(params(invalid.details)).toEqual(['line1']);
    await expectSdkError(
      client.customers.createAddress({ ...rest, first_name: 'Ada' } as unknown as CreateAddressInput),
      400,
      'parameter_missing',
    );

    const { data } = await client.customers.listAddresses();
    expect(data).toEqual([named]);
  });
});
