import { expect, test } from 'vitest';
import { type ApiResponse, describeApi, type TestApi } from './support/harness';
import {
  adminOrder,
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  orderOf,
  placeOrder,
  unique,
} from './support/order-fixtures';

/**
 * Data limits a hostile client meets (decisions §15, issue 37) over real HTTP on every engine:
 * a cart line's `metadata` is at most 2 KB serialised, so the largest cart a shopper can make stays
 * under 1 MB; money in any request (admin payments and refunds included) is at most 999,999,999;
 * a list cursor outside the list's own scope is answered as an unknown id.
 */

const MAX_AMOUNT = 999_999_999;
const MAX_LINE_METADATA_BYTES = 2048;
const MAX_CART_METADATA_BYTES = 32_768;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Metadata of exactly `size` bytes serialised (2048 at most): four values of 500 characters and a fifth that tops it up. */
function metadataOf(size: number): Record<string, string> {
  const full = 'm'.repeat(500);
  const base = { a: full, b: full, c: full, d: full, e: '' };
  return { ...base, e: 'e'.repeat(size - bytes(base)) };
}

/**
 * The largest cart metadata: 32,768 bytes serialised, as much of it as can be in characters JSON
 * escapes as six bytes (`\u0001`), in 40-character keys.
 */
function largestCartMetadata(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; bytes(out) < MAX_CART_METADATA_BYTES; i += 1) {
    const key = `${String(i).padStart(2, '0')}${'\u0001'.repeat(38)}`;
    out[key] = '';
    if (bytes(out) > MAX_CART_METADATA_BYTES) {
      delete out[key];
      break;
    }
    const room = Math.min(500, Math.floor((MAX_CART_METADATA_BYTES - bytes(out)) / 6));
    out[key] = '\u0001'.repeat(room);
    if (room < 500) {
      out[key] += 'a'.repeat(Math.min(500 - room, MAX_CART_METADATA_BYTES - bytes(out)));
      break;
    }
  }
  return out;
}

const longText = (char: string) => char.repeat(255);
const largestAddress = {
  name: longText('\u0001'),
  company: longText('\u0001'),
  line1: longText('\u0001'),
  line2: longText('\u0001'),
  city: longText('\u0001'),
  state: longText('\u0001'),
  postal_code: longText('\u0001'),
  country: 'US',
  phone: longText('\u0001'),
  receiver_name: longText('\u0001'),
};

/** A product of 250 active variants, its name, option and SKUs 255 characters long (so are the variants' names, their option value), stock untracked. */
async function wideProduct(api: TestApi): Promise<string[]> {
  const tag = unique('w');
  const values = Array.from({ length: 250 }, (_, i) => `${tag}-${i}-`.padEnd(255, 'v'));
  const res = expectStatus(
    await api.post('/v1/admin/products', {
      name: longText('P'),
      status: 'active',
      options: [{ name: longText('O'), values }],
      variants: values.map((value, i) => ({
        sku: `${tag}-${i}-`.padEnd(255, 'S'),
        price: MAX_AMOUNT,
        options: { [longText('O')]: value },
        inventory: { track_inventory: false },
      })),
    }),
    200,
  );
  return (res.body.variants as Array<{ id: string }>).map((variant) => variant.id);
}

describeApi('data limits (decisions §15)', (api) => {
  test('cart line metadata over 2 KB serialised → 400 parameter_invalid naming it, nothing changes', async () => {
    const { variant_id } = await createProduct(api(), { on_hand: 1000 });
    const fits = metadataOf(MAX_LINE_METADATA_BYTES);
    expect(bytes(fits)).toBe(MAX_LINE_METADATA_BYTES);
    const over = metadataOf(MAX_LINE_METADATA_BYTES + 1);
    expect(bytes(over)).toBe(MAX_LINE_METADATA_BYTES + 1);

    expectError(
      await api().storefront.post('/v1/storefront/carts', { items: [{ variant_id, metadata: over }] }),
      400,
      'parameter_invalid',
      'items[0][metadata]',
    );
    const cart = expectStatus(
      await api().storefront.post('/v1/storefront/carts', { items: [{ variant_id, metadata: fits }] }),
      200,
    ).body;
    expect(cart.items[0].metadata).toEqual(fits);
    const line = cart.items[0].id as string;
    expectError(
      await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${line}`, {
        quantity: 2,
        metadata: over,
      }),
      400,
      'parameter_invalid',
      'metadata',
    );
    const other = await createProduct(api(), { on_hand: 1000 });
    expectError(
      await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
        variant_id: other.variant_id,
        metadata: over,
      }),
      400,
      'parameter_invalid',
      'metadata',
    );
    const after = expectStatus(await api().storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body;
    expect(after.items).toHaveLength(1);
    expect(after.items[0]).toMatchObject({ quantity: 1, metadata: fits });
  });

  test('the largest cart a shopper can make (250 lines, every input at its limit) is under 1 MiB', async () => {
    const variants = await wideProduct(api());
    const metadata = metadataOf(MAX_LINE_METADATA_BYTES);
    const cart = expectStatus(
      await api().storefront.post('/v1/storefront/carts', {
        session_id: longText('\u0001'),
        items: variants.map((variant_id) => ({ variant_id, quantity: 10_000, metadata })),
        shipping_address: largestAddress,
        billing_address: largestAddress,
        metadata: largestCartMetadata(),
      }),
      200,
    ).body;
    expect(cart.items).toHaveLength(250);
    // One byte more of the cart's own metadata is refused.
    expectError(
      await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
        metadata: { ...largestCartMetadata(), zz: 'z'.repeat(10) },
      }),
      400,
      'parameter_invalid',
      'metadata',
    );
    const res = await fetch(`${api().baseUrl}/v1/storefront/carts/${cart.id}`, {
      headers: { authorization: `Bearer ${api().keys.publishable}` },
    });
    expect(res.status).toBe(200);
    const size = (await res.arrayBuffer()).byteLength;
    expect(bytes(cart.metadata)).toBeGreaterThan(MAX_CART_METADATA_BYTES - 6);
    expect(size).toBeLessThan(1_048_576);
  });

  test('admin payments and refunds: amounts over 999,999,999 (2^53 − 1 included) → 400 parameter_invalid, nothing changes', async () => {
    const item = await createProduct(api(), { price: 1000 });
    const order = await placeOrder(api(), [{ variant_id: item.variant_id }]);
    const before = await orderOf(api(), order.id);
    for (const amount of [
      MAX_AMOUNT + 1,
      Number.MAX_SAFE_INTEGER,
      { amount: MAX_AMOUNT + 1, currency: 'USD' },
    ]) {
      const res = await api().post(`/v1/admin/orders/${order.id}/payments`, { amount, provider: 'cash' });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('parameter_invalid');
      expect(res.body.error.param).toMatch(/^amount/);
      const refund = await api().post(`/v1/admin/orders/${order.id}/refunds`, { amount });
      expect(refund.status, JSON.stringify(refund.body)).toBe(400);
      expect(refund.body.error.code).toBe('parameter_invalid');
      expect(refund.body.error.param).toMatch(/^amount/);
    }
    expect(await orderOf(api(), order.id)).toEqual(before);
    // The limit itself is a valid amount (here more than is owed: a business rule, not a 400).
    const atLimit = await api().post(`/v1/admin/orders/${order.id}/payments`, {
      amount: MAX_AMOUNT,
      provider: 'cash',
    });
    expect(atLimit.status).not.toBe(400);
  });

  test('storefront orders: another customer’s order or a draft as starting_after is answered as an unknown id', async () => {
    const item = await createProduct(api(), { on_hand: 1000 });
    const a = await createCustomer(api());
    const b = await createCustomer(api());
    const orderFor = async (customer: { token: string }) => {
      const cart = await createCart(api(), [{ variant_id: item.variant_id }], {
        customerToken: customer.token,
      });
      return expectStatus(
        await checkout(api(), cart.id, { payment_provider: 'manual' }, { customerToken: customer.token }),
        201,
      ).body as { id: string };
    };
    const own = [await orderFor(a), await orderFor(a)];
    const foreign = await orderFor(b);
    const draft = expectStatus(
      await adminOrder(api(), [{ variant_id: item.variant_id }], { customer_id: a.id }),
      201,
    ).body as { id: string };

    const list = (after: string) =>
      api().storefront.get(`/v1/storefront/orders?starting_after=${after}`, { customerToken: a.token });
    const shape = (res: ApiResponse, id: string) => ({
      status: res.status,
      error: {
        ...res.body.error,
        request_id: undefined,
        message: res.body.error?.message?.replace(id, 'ID'),
      },
    });
    const unknownId = `ord_${'0'.repeat(26)}`;
    const unknown = await list(unknownId);
    expectError(unknown, 400, 'parameter_invalid', 'starting_after');
    for (const id of [foreign.id, draft.id]) {
      const res = await list(id);
      expect(shape(res, id)).toEqual(shape(unknown, unknownId));
    }
    // The customer's own order is a cursor: the page after the newest is the older one.
    const page = expectStatus(await list(own[1]!.id), 200).body;
    expect(page.data.map((order: { id: string }) => order.id)).toEqual([own[0]!.id]);
  });
  test('storefront products: a draft or archived product as starting_after is answered as an unknown id', async () => {
    const shown = [await createProduct(api()), await createProduct(api())];
    const draft = await createProduct(api(), { status: 'draft' });
    const archived = await createProduct(api(), { status: 'archived' });
    const list = (after: string) => api().storefront.get(`/v1/storefront/products?starting_after=${after}`);
    const shape = (res: ApiResponse, id: string) => ({
      status: res.status,
      error: {
        ...res.body.error,
        request_id: undefined,
        message: res.body.error?.message?.replace(id, 'ID'),
      },
    });
    const unknownId = `prod_${'0'.repeat(26)}`;
    const unknown = await list(unknownId);
    expectError(unknown, 400, 'parameter_invalid', 'starting_after');
    for (const id of [draft.product_id, archived.product_id]) {
      expect(shape(await list(id), id)).toEqual(shape(unknown, unknownId));
    }
    // An active product is a cursor: the newest one's page goes on with the older ones.
    const page = expectStatus(await list(shown[1]!.product_id), 200).body;
    expect(page.data.map((product: { id: string }) => product.id)).toContain(shown[0]!.product_id);
  });
});
