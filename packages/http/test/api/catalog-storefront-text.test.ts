import { StorefrontProductListQuerySchema } from '@cartwright/core/schemas';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { RouteEngine } from '../../src/engine-port';
import { createPipeline } from '../../src/pipeline';
import type { RawRequest } from '../../src/raw-http';
import { defineRoute, jsonText } from '../../src/route';
import { describeApi, type TestApi } from './support/harness';
import {
  checkout,
  createCart,
  createProduct,
  expectError,
  placeOrder,
  unique as uniqueName,
} from './support/order-fixtures';

/**
 * `GET /v1/storefront/products` is served as prepared text (storefront templates filled with
 * live stock). Its body must be byte for byte `JSON.stringify` of the object path
 * (`listStorefront`) for the same query, whatever the strings hold, across pages, filters,
 * sorts, catalog writes and stock changes.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}-${(++counter).toString(36)}-${Date.now().toString(36)}`;

/** The raw body of a storefront list request and the object path's serialisation of the same query. */
async function bothBodies(api: TestApi, query: Record<string, string>) {
  const search = new URLSearchParams(query).toString();
  const res = await fetch(`${api.baseUrl}/v1/storefront/products?${search}`, {
    headers: { authorization: `Bearer ${api.keys.publishable}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const text = await res.text();
  const objects = await api.engine.products.listStorefront(
    api.scope,
    StorefrontProductListQuerySchema.parse(query),
  );
  return { text, expected: JSON.stringify(objects) };
}

/** Walks every page of `query` and checks each body. Returns the product ids seen. */
async function expectIdentical(api: TestApi, query: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const { text, expected } = await bothBodies(api, {
      ...query,
      ...(cursor !== null && { starting_after: cursor }),
    });
    expect(text).toBe(expected);
    const page = JSON.parse(text) as { data: Array<{ id: string }>; next_cursor: string | null };
    ids.push(...page.data.map((p) => p.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  return ids;
}

describeApi('catalog: storefront list as prepared text', (api) => {
  test('the body is byte-identical to JSON.stringify(listStorefront(…)) through writes, stock changes, pages and filters', async () => {
    const tag = unique('txt');
    const created: Array<{ id: string; variants: Array<{ id: string; inventory: { id: string } }> }> = [];
    const names = [
      'Crème "brûlée" \\ lamp',
      'Tab\tand\nnewline \u2028 😀',
      '<script>alert(1)</script>',
      'plain',
    ];
    for (const [i, name] of names.entries()) {
      const res = await api().post('/v1/admin/products', {
        name,
        status: i === 3 ? 'draft' : 'active',
        tags: [tag, i % 2 === 0 ? 'even' : 'odd', 'q"\\'],
        description: i === 0 ? null : `Desc ${name}`,
        attributes: { a: name, n: [i, 1.5] },
        metadata: { m: '\u0001\u001f', nested: { x: name } },
        images: [{ url: `https://cdn.example.com/${i}.png?q="x"`, alt_text: name, width: 10, height: 20 }],
        options: [{ name: 'Size "S"', values: ['S', 'Ü', 'L'] }],
        variants: [
          {
            price: 1000 + i * 100,
            cost_price: 400,
            options: { 'Size "S"': 'S' },
            metadata: { v: name },
            inventory: { on_hand: 5 + i },
          },
          {
            price: 900 + i * 100,
            is_active: i !== 1,
            options: { 'Size "S"': 'Ü' },
            inventory: { on_hand: 2 },
          },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      created.push(res.body);
    }
    const all = await expectIdentical(api(), { tag, limit: '2' });
    expect(all).toHaveLength(3); // the draft is hidden
    const [first, second] = created as [(typeof created)[0], (typeof created)[0]];

    // Catalog writes: product fields, a variant, an image; stock edits.
    expect((await api().patch(`/v1/admin/products/${first.id}`, { name: 'Renamed "x"' })).status).toBe(200);
    expect(
      (
        await api().post(`/v1/admin/products/${second.id}/variants`, {
          price: 50,
          options: { 'Size "S"': 'L' },
        })
      ).status,
    ).toBe(200);
    expect((await api().patch(`/v1/admin/variants/${first.variants[0]?.id}`, { price: 3000 })).status).toBe(
      200,
    );
    expect(
      (await api().post(`/v1/admin/products/${second.id}/images`, { url: 'https://cdn.example.com/new.png' }))
        .status,
    ).toBe(200);
    const inventory = first.variants[0]?.inventory.id as string;
    expect(
      (await api().patch(`/v1/admin/inventory/${inventory}`, { allow_backorder: true, on_hand: 40 })).status,
    ).toBe(200);
    expect((await api().post(`/v1/admin/inventory/${inventory}/adjust`, { quantity: -3 })).status).toBe(200);

    for (const query of [
      { tag },
      { tag, limit: '1', sort: 'name', order: 'asc' },
      { tag: `${tag},even`, sort: 'price' },
      { tag, price_min: '950', price_max: '1200', sort: 'price', order: 'desc' },
      { tag, q: 'RENAMED' },
    ]) {
      await expectIdentical(api(), query);
    }
    // Single products, by id and by slug; hidden ones are 404 on both paths.
    for (const product of created as unknown as Array<{ id: string; slug: string; status: string }>) {
      const byId = await fetch(`${api().baseUrl}/v1/storefront/products/${product.id}`, {
        headers: { authorization: `Bearer ${api().keys.publishable}` },
      });
      const bySlug = await fetch(
        `${api().baseUrl}/v1/storefront/products/by-slug/${encodeURIComponent(product.slug)}`,
        {
          headers: { authorization: `Bearer ${api().keys.publishable}` },
        },
      );
      if (product.status !== 'active') {
        expect([byId.status, bySlug.status]).toEqual([404, 404]);
        continue;
      }
      const expected = JSON.stringify(await api().engine.products.getStorefront(api().scope, product.id));
      expect(await byId.text()).toBe(expected);
      expect(await bySlug.text()).toBe(expected);
    }

    const { text } = await bothBodies(api(), { tag, q: 'renamed' });
    expect(text).toContain(
      '"allow_backorder":true,"safety_stock":null,"on_hand":null,"reserved":null,"available":37,',
    );
  });
});

describeApi('catalog: storefront list pages kept by catalog version', (api) => {
  test('the same page read again follows checkouts, cancellations, declined payments and archiving at once', async () => {
    const tag = uniqueName('kept');
    const product = await createProduct(api(), { tags: [tag], on_hand: 10 });
    const query = `/v1/storefront/products?tag=${tag}`;
    const available = async () => {
      const res = await api().storefront.get(query);
      expect(res.status).toBe(200);
      return res.body.data.map((p: { variants: Array<{ inventory: { available: number } }> }) =>
        p.variants.map((v) => v.inventory.available),
      );
    };
    expect(await available()).toEqual([[10]]);
    expect(await available()).toEqual([[10]]);

    const order = await placeOrder(api(), [{ variant_id: product.variant_id, quantity: 3 }]);
    expect(await available()).toEqual([[7]]);

    // A refused checkout (more than is left) changes nothing, and the page says so.
    const cart = await createCart(api(), [{ variant_id: product.variant_id, quantity: 7 }]);
    expect(
      (await api().post(`/v1/admin/inventory/${product.inventory_id}/adjust`, { quantity: -1 })).status,
    ).toBe(200);
    expect(await available()).toEqual([[6]]);
    expectError(await checkout(api(), cart.id), 422, 'insufficient_inventory');
    expect(await available()).toEqual([[6]]);

    expect((await api().post(`/v1/admin/orders/${order.id}/cancel`, {})).status).toBe(200);
    expect(await available()).toEqual([[9]]);

    expect(
      (await api().patch(`/v1/admin/products/${product.product_id}`, { status: 'archived' })).status,
    ).toBe(200);
    expect(await available()).toEqual([]);
  });
});

describe('prepared JSON text and response validation', () => {
  const engine = {
    auth: {
      authenticateApiKey: () => ({ key_id: 'key_1', store_id: 'store_1', mode: 'test', key_type: 'secret' }),
      authenticateCustomerToken: () => {
        throw new Error('no tokens here');
      },
    },
  } as unknown as RouteEngine;
  const routeReturning = (text: string) =>
    defineRoute({
      method: 'GET',
      path: '/v1/prepared',
      auth: 'none',
      customerToken: 'none',
      response: z.object({ data: z.array(z.object({ id: z.string() })) }),
      summary: 'Prepared text',
      tags: ['Test'],
      handler: async () => jsonText(text),
    });
  const get = (text: string, validateResponses: boolean) =>
    createPipeline(engine, { routes: [routeReturning(text)], validateResponses, onError: () => {} }).handle({
      method: 'GET',
      path: '/v1/prepared',
      query: '',
      headers: { get: () => null },
      readBody: async () => ({ kind: 'text', text: '' }),
    } satisfies RawRequest);

  test('with validation on, prepared text of the declared shape is sent as is', async () => {
    const res = await get('{"data":[{"id":"a"}]}', true);
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"data":[{"id":"a"}]}');
  });

  test('with validation on, prepared text that breaks the schema (or is not JSON) is a 500; off, it is sent unchecked', async () => {
    expect((await get('{"data":[{"id":1}]}', true)).status).toBe(500);
    expect((await get('{"data":[', true)).status).toBe(500);
    expect((await get('{"data":[{"id":1}]}', false)).body).toBe('{"data":[{"id":1}]}');
  });
});
