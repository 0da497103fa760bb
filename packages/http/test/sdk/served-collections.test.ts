import type { Collection, CollectionDetail, CreateCollectionInput, Product } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { expectSdkError, sdkClients, tickingClock, unique } from './support';

/**
 * decisions §17's collections as `@headless-commerce/sdk` 0.2.0 calls them, unmodified: the seven
 * `collections.*` methods (`list`, `get`, `getBySlug`, `adminList` (and the auto-paginating
 * forms), `adminCreate`, `adminUpdate`, `adminDelete`), and `products.list({ collection_id })`,
 * with manual members given through the field we add beyond the SDK (`product_ids`, which its
 * client forwards) and automatic collections through its `rules`.
 */

type OurCollection = Collection & {
  updated_at: string;
  rules: { match: 'all' | 'any'; conditions: Record<string, unknown>[] } | null;
  product_ids: string[] | null;
};

const slug = (prefix: string) => unique(prefix).toLowerCase();

/** `CreateCollectionInput` plus `product_ids` (beyond the SDK; its client sends it as given). */
const withMembers = (input: CreateCollectionInput, product_ids: string[]) =>
  ({ ...input, product_ids }) as CreateCollectionInput;

describeApi(
  'sdk: collections served as the client calls them (decisions §17)',
  (api) => {
    async function products(count: number, tags: string[] = []): Promise<Product[]> {
      const { admin } = sdkClients(api());
      const made: Product[] = [];
      for (let i = 0; i < count; i++) {
        made.push(
          await admin.products.adminCreate({
            name: unique('Item '),
            slug: slug('item-'),
            status: 'active',
            tags,
            variants: [{ price: 1000 + i }],
          } as never),
        );
      }
      return made;
    }

    test('adminCreate (manual, product_ids) → the Collection; get / getBySlug → it with its active products in order', async () => {
      const { admin, storefront } = sdkClients(api());
      const [a, b, c] = await products(3);
      const created = (await admin.collections.adminCreate(
        withMembers(
          {
            name: 'Summer Sale',
            slug: slug('summer-sale'),
            description: 'Hot',
            position: 2,
            metadata: { hero: true },
          },
          [c!.id, a!.id, b!.id],
        ),
      )) as OurCollection;
      expect(created).toMatchObject({
        name: 'Summer Sale',
        description: 'Hot',
        type: 'manual',
        position: 2,
        metadata: { hero: true },
        rules: null,
        product_ids: [c!.id, a!.id, b!.id],
      });
      expect(created.id).toMatch(/^col_/);

      await admin.products.adminUpdate(a!.id, { status: 'draft' });
      const detail: CollectionDetail = await storefront.collections.get(created.id);
      expect(detail.products.map((p) => p.id)).toEqual([c!.id, b!.id]);
      expect((detail as unknown as OurCollection).product_ids).toEqual([c!.id, b!.id]);
      expect(detail.products[0]).toEqual(await storefront.products.get(c!.id));
      expect(await storefront.collections.getBySlug(created.slug)).toEqual(detail);
      await expectSdkError(storefront.collections.get('col_missing'), 404, 'not_found');
      await expectSdkError(storefront.collections.getBySlug('no-such-collection'), 404, 'not_found');
    });

    test('adminUpdate replaces fields and members; adminDelete → { id, deleted: true }', async () => {
      const { admin } = sdkClients(api());
      const [a, b] = await products(2);
      const created = (await admin.collections.adminCreate(
        withMembers({ name: 'Picks', slug: slug('picks') }, [a!.id]),
      )) as OurCollection;
      const updated = (await admin.collections.adminUpdate(created.id, {
        name: 'Staff picks',
        position: 4,
        product_ids: [b!.id, a!.id],
      } as never)) as OurCollection;
      expect(updated).toMatchObject({ name: 'Staff picks', position: 4, product_ids: [b!.id, a!.id] });
      // To auto: rules in the same request (the SDK's `rules` field).
      const auto = (await admin.collections.adminUpdate(created.id, {
        type: 'auto',
        rules: { conditions: [{ type: 'product', operator: 'in', values: [a!.id] }] },
      })) as OurCollection;
      expect(auto).toMatchObject({ type: 'auto', product_ids: null, rules: { match: 'all' } });
      const refused = await expectSdkError(
        admin.collections.adminUpdate(created.id, {
          type: 'manual',
          rules: { conditions: [{ type: 'product', operator: 'in', values: [a!.id] }] },
        }),
        400,
        'parameter_invalid',
      );
      expect(refused.message).toMatch(/rules/);
      expect(await admin.collections.adminDelete(created.id)).toEqual({ id: created.id, deleted: true });
      await expectSdkError(admin.collections.adminDelete(created.id), 404, 'not_found');
      await expectSdkError(storefront404(created.id), 404, 'not_found');

      function storefront404(id: string) {
        return sdkClients(api()).storefront.collections.get(id);
      }
    });

    test('adminCreate refuses what §17 refuses (400 / 404 / 409), as HCValidationError and friends', async () => {
      const { admin } = sdkClients(api());
      const taken = slug('taken');
      await admin.collections.adminCreate({ name: 'Taken', slug: taken });
      await expectSdkError(
        admin.collections.adminCreate({ name: 'Again', slug: taken }),
        409,
        'duplicate_slug',
      );
      await expectSdkError(
        admin.collections.adminCreate(withMembers({ name: 'X', slug: slug('x') }, ['prod_missing'])),
        404,
        'not_found',
      );
      await expectSdkError(
        admin.collections.adminCreate({ name: 'X', slug: slug('x'), type: 'auto' }),
        400,
        'parameter_missing',
      );
      await expectSdkError(
        admin.collections.adminCreate({
          name: 'X',
          slug: slug('x'),
          type: 'auto',
          rules: { conditions: [{ type: 'price', operator: 'in', value: 5 }] },
        }),
        400,
        'parameter_invalid',
      );
    });

    test('auto collections (rules) and products.list({ collection_id }): manual order with cursors, rules when read', async () => {
      const { admin, storefront } = sdkClients(api());
      const tag = unique('tag').toLowerCase();
      const made = await products(5, [tag]);
      const order = [made[3]!, made[0]!, made[4]!, made[1]!].map((p) => p.id);
      const manual = await admin.collections.adminCreate(
        withMembers({ name: 'Ordered', slug: slug('ordered') }, order),
      );
      const walked: string[] = [];
      for await (const product of storefront.products.listAutoPaginate({
        collection_id: manual.id,
        limit: 3,
      })) {
        walked.push(product.id);
      }
      expect(walked).toEqual(order);
      const firstPage = await storefront.products.list({ collection_id: manual.id, limit: 2 });
      expect(firstPage.data.map((p) => p.id)).toEqual(order.slice(0, 2));
      expect(firstPage.has_more).toBe(true);

      const auto = await admin.collections.adminCreate({
        name: 'Cheap tagged',
        slug: slug('cheap'),
        type: 'auto',
        rules: {
          conditions: [
            { type: 'product_tag', operator: 'in', values: [tag] },
            { type: 'price', operator: 'lte', value: 1002 },
          ],
        },
      });
      const ids = async () =>
        (await storefront.products.list({ collection_id: auto.id })).data.map((p) => p.id);
      expect(await ids()).toEqual([made[2]!, made[1]!, made[0]!].map((p) => p.id));
      await admin.variants.adminUpdate(made[4]!.variants[0]!.id, { price: 10 });
      expect(await ids()).toEqual([made[4]!, made[2]!, made[1]!, made[0]!].map((p) => p.id));
      expect((await storefront.collections.get(auto.id)).products.map((p) => p.id)).toEqual(await ids());
      expect((await storefront.products.list({ collection_id: 'col_missing' })).data).toEqual([]);
    });

    test('list: position ascending then newest first; adminList: newest first, type filter, total_count; auto-paginated', async () => {
      const { admin, storefront } = sdkClients(api());
      const fresh = await admin.collections.adminCreate({ name: 'Front', slug: slug('front'), position: 0 });
      const back = await admin.collections.adminCreate({ name: 'Back', slug: slug('back'), position: 99 });

      const front: Collection[] = [];
      for await (const collection of storefront.collections.listAutoPaginate({ limit: 2 }))
        front.push(collection);
      const positions = front.map((c) => c.position);
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
      expect(front.at(-1)?.id).toBe(back.id);
      expect(front.findIndex((c) => c.id === fresh.id)).toBe(0);
      const page = await storefront.collections.list({ limit: 1 });
      expect(page.data[0]?.id).toBe(fresh.id);

      const newest = await admin.collections.adminList({ limit: 2 });
      expect(newest.data.map((c) => c.id)).toEqual([back.id, fresh.id]);
      expect(newest.total_count).toBeGreaterThanOrEqual(2);
      const all: Collection[] = [];
      for await (const c of admin.collections.adminListAutoPaginate({ limit: 3 })) all.push(c);
      expect(all).toHaveLength(newest.total_count);
      const autos = await admin.collections.adminList({ type: 'auto' });
      expect(autos.data.every((c) => c.type === 'auto')).toBe(true);
      expect(autos.data.length).toBeGreaterThan(0);
    });
  },
  { clock: tickingClock() },
);
