import { expect, test } from 'vitest';
import { describeApi } from './support/harness';
import { expectStatus, unique } from './support/order-fixtures';

/**
 * The representative price (docs/contract.md#representative-price) is core's rule: the variant
 * commands compute it from the product's live active variants and write it as `products.price`.
 * These walk the admin variant endpoints and check the stored price (admin read, storefront
 * list filters and sort) against that rule, sequentially and under concurrent variant writes.
 */
describeApi('representative price', (api) => {
  async function priceOf(productId: string): Promise<number | null> {
    const body = expectStatus(await api().get(`/v1/admin/products/${productId}`), 200).body;
    return body.price === null ? null : (body.price.amount as number);
  }

  test('follows variant creates, price and is_active updates and deletes: 1999 → 500 → 1999 → 700 → null', async () => {
    const a = api();
    const product = expectStatus(
      await a.post('/v1/admin/products', {
        name: unique('Lamp'),
        status: 'active',
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants: [{ price: 1999, options: { Size: 'S' } }],
      }),
      200,
    ).body;
    const first = product.variants[0].id as string;
    expect(product.price).toEqual({ amount: 1999, currency: 'USD' });
    const cheap = expectStatus(
      await a.post(`/v1/admin/products/${product.id}/variants`, { price: 500, options: { Size: 'M' } }),
      200,
    ).body;
    expect(await priceOf(product.id)).toBe(500);
    expectStatus(await a.patch(`/v1/admin/variants/${cheap.id}`, { is_active: false }), 200);
    expect(await priceOf(product.id)).toBe(1999);
    expectStatus(await a.patch(`/v1/admin/variants/${first}`, { price: 700 }), 200);
    expect(await priceOf(product.id)).toBe(700);
    expectStatus(await a.delete(`/v1/admin/variants/${first}`), 200);
    expect(await priceOf(product.id)).toBeNull();
    expectStatus(await a.patch(`/v1/admin/variants/${cheap.id}`, { is_active: true }), 200);
    expect(await priceOf(product.id)).toBe(500);
    expectStatus(await a.delete(`/v1/admin/variants/${cheap.id}`), 200);
    expect(await priceOf(product.id)).toBeNull();
  });

  test('the stored price drives storefront price filters and sort=price', async () => {
    const a = api();
    const tag = unique('rp');
    const make = async (name: string, prices: number[]) =>
      expectStatus(
        await a.post('/v1/admin/products', {
          name: `${name} ${tag}`,
          status: 'active',
          tags: [tag],
          options: [{ name: 'Size', values: prices.map((_, i) => `S${i}`) }],
          variants: prices.map((price, i) => ({ price, options: { Size: `S${i}` } })),
        }),
        200,
      ).body;
    const mug = await make('Mug', [1200, 3000]);
    const pot = await make('Pot', [2500]);
    // The mug's cheap variant goes inactive: its price becomes 3000, above the pot's.
    expectStatus(await a.patch(`/v1/admin/variants/${mug.variants[0].id}`, { is_active: false }), 200);
    const names = async (query: string) =>
      (
        expectStatus(await a.storefront.get(`/v1/storefront/products?tag=${tag}${query}`), 200).body.data as {
          name: string;
        }[]
      ).map((p) => p.name.split(' ')[0]);
    expect(await names('&sort=price')).toEqual(['Pot', 'Mug']);
    expect(await names('&price_max=2999')).toEqual(['Pot']);
    expect(await names('&price_min=3000')).toEqual(['Mug']);
    expect(pot.price.amount).toBe(2500);
  });

  test('concurrent variant creates and updates of one product leave the minimum of its live active variants', async () => {
    const a = api();
    const sizes = Array.from({ length: 12 }, (_, i) => `S${i}`);
    const product = expectStatus(
      await a.post('/v1/admin/products', {
        name: unique('Rack'),
        status: 'active',
        options: [{ name: 'Size', values: sizes }],
        variants: [{ price: 5000, options: { Size: 'S0' } }],
      }),
      200,
    ).body;
    const original = product.variants[0].id as string;
    const responses = await Promise.all([
      ...sizes.slice(1).map((size, i) =>
        a.post(`/v1/admin/products/${product.id}/variants`, {
          price: 3000 + i * 10,
          options: { Size: size },
        }),
      ),
      ...[4000, 2500, 4500].map((price) => a.patch(`/v1/admin/variants/${original}`, { price })),
    ]);
    for (const response of responses) expect(response.status).toBe(200);
    const read = expectStatus(await a.get(`/v1/admin/products/${product.id}`), 200).body;
    const active = (read.variants as { price: { amount: number }; is_active: boolean }[])
      .filter((v) => v.is_active)
      .map((v) => v.price.amount);
    expect(active).toHaveLength(12);
    expect(read.price.amount).toBe(Math.min(...active));
  }, 60_000);
});
