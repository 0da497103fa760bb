import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, useServers } from './support/serve-process';

/**
 * The storefront read model across processes (storage-kysely storefront-read-model/README.md):
 * each `cartwright serve` process keeps storefront responses in its own memory under the store's
 * catalog version, so a change committed through ANOTHER process — a rename, an inventory
 * adjustment, a checkout's reservation, archiving — shows at the next request of a process whose
 * cache already holds the page and the product.
 */
const SECRET = 'sk_test_storefrontMultiProcess00000001';
const PUBLISHABLE = 'pk_test_storefrontMultiProcess0000001';

type Response = Awaited<ReturnType<typeof call>>;

const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

for (const target of DATABASE_TARGETS) {
  describe(`storefront responses kept by 2 server processes on one ${target} database`, () => {
    const { at } = useServers(
      target,
      2,
      { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` },
      'cartwright-storefront-',
    );

    test('reader process B serves each change written through process A at its next request (page, by id, by slug)', async () => {
      const created = await call(at(0), 'POST', '/v1/admin/products', SECRET, {
        name: 'Kettle',
        slug: `kettle-${target}`,
        status: 'active',
        variants: [{ sku: `KETTLE-${target}`, price: 3000, inventory: { on_hand: 10 } }],
      });
      expect(created.status).toBe(200);
      const product = created.body;
      const variant = product.variants[0];
      const reader = at(1);
      /** B's page, product by id and by slug, each read twice (the second from B's memory). */
      const served = async () => {
        const texts: Response[] = [];
        for (const path of [
          `/v1/storefront/products?limit=100`,
          `/v1/storefront/products/${product.id}`,
          `/v1/storefront/products/by-slug/kettle-${target}`,
        ]) {
          const first = await call(reader, 'GET', path, PUBLISHABLE);
          const again = await call(reader, 'GET', path, PUBLISHABLE);
          expect(again.status, path).toBe(first.status);
          if (first.status === 200) expect(again.body, path).toEqual(first.body);
          else expect(again.body.error.code, path).toBe(first.body.error.code);
          texts.push(first);
        }
        return texts as [Response, Response, Response];
      };
      const shown = (page: Response) => page.body.data.find((p: { id: string }) => p.id === product.id);

      let [page, byId, bySlug] = await served();
      expect(shown(page).variants[0].inventory.available).toBe(10);

      expect(
        (await call(at(0), 'PATCH', `/v1/admin/products/${product.id}`, SECRET, { name: 'Kettle II' }))
          .status,
      ).toBe(200);
      [page, byId, bySlug] = await served();
      expect([shown(page).name, byId.body.name, bySlug.body.name]).toEqual([
        'Kettle II',
        'Kettle II',
        'Kettle II',
      ]);

      const adjusted = await call(
        at(0),
        'POST',
        `/v1/admin/inventory/${variant.inventory.id}/adjust`,
        SECRET,
        {
          quantity: 5,
        },
      );
      expect(adjusted.status).toBe(200);
      [page, byId] = await served();
      expect([
        shown(page).variants[0].inventory.available,
        byId.body.variants[0].inventory.available,
      ]).toEqual([15, 15]);

      const cart = await call(at(0), 'POST', '/v1/storefront/carts', PUBLISHABLE, {
        items: [{ variant_id: variant.id, quantity: 4 }],
        shipping_address: ADDRESS,
      });
      const order = await call(at(0), 'POST', `/v1/storefront/carts/${cart.body.id}/checkout`, PUBLISHABLE, {
        email: 'buyer@example.com',
        payment_provider: 'manual',
      });
      expect(order.status).toBe(201);
      [page, byId] = await served();
      expect([
        shown(page).variants[0].inventory.available,
        byId.body.variants[0].inventory.available,
      ]).toEqual([11, 11]);

      expect(
        (await call(at(0), 'PATCH', `/v1/admin/products/${product.id}`, SECRET, { status: 'archived' }))
          .status,
      ).toBe(200);
      [page, byId, bySlug] = await served();
      expect(shown(page)).toBeUndefined();
      expect([byId.status, bySlug.status]).toEqual([404, 404]);
    });
  });
}
