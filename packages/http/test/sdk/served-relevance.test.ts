import type { Product } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { expectSdkError, sdkClients, tickingClock, unique } from './support';

/**
 * decisions §17's search ranking as `@headless-commerce/sdk` 0.2.0 asks for it, unmodified:
 * `products.list({ q, sort: 'relevance' })` (and `listAutoPaginate`, which follows
 * `next_cursor` across tiers), `include` on lists and `expand` on `products.get` / `getBySlug`
 * accepted and ignored, and the 400s a relevance list without `q` or ascending gets.
 */

/** A search word no other test's products contain. */
const word = () =>
  `qz${unique('')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()}`;

describeApi(
  'sdk: products.list({ q, sort: relevance }) as the client calls it (decisions §17)',
  (api) => {
    test('ranks equal, starts with, starts a word, anywhere — then newest first; listAutoPaginate walks the same order', async () => {
      const { admin, storefront } = sdkClients(api());
      const w = word();
      const create = (name: string) =>
        admin.products.adminCreate({
          name,
          slug: unique('rel-').toLowerCase(),
          status: 'active',
          variants: [{ sku: unique('REL-'), price: 1500 }],
        } as never);
      // Oldest first: newest-first alone would give the reverse.
      const anywhere = await create(`Super${w}`);
      const word2 = await create(`Blue-${w.toUpperCase()} mug`);
      const word1 = await create(`Big ${w}`);
      const prefix = await create(`${w}ish lamp`);
      const equal = await create(w.toUpperCase());
      await create('Something else');

      const page = await storefront.products.list({
        q: w,
        sort: 'relevance',
        limit: 10,
        include: 'variants,images',
      });
      const expected = [equal.id, prefix.id, word1.id, word2.id, anywhere.id];
      expect(page.data.map((p: Product) => p.id)).toEqual(expected);
      expect(page).toMatchObject({ has_more: false, next_cursor: null, total_count: 5 });
      expect(page.data[0]?.variants).toHaveLength(1);

      const walked: string[] = [];
      for await (const product of storefront.products.listAutoPaginate({
        q: w,
        sort: 'relevance',
        limit: 2,
      })) {
        walked.push(product.id);
      }
      expect(walked).toEqual(expected);

      // expand on details is accepted and ignored: the same product with its parts.
      const plain = await storefront.products.get(prefix.id);
      expect(await storefront.products.get(prefix.id, { expand: 'variants,images' })).toEqual(plain);
      expect(await storefront.products.getBySlug(plain.slug, { expand: 'variants' })).toEqual(plain);
    });

    test('relevance needs q and ranks most relevant first only: 400 parameter_invalid naming sort / order', async () => {
      const { storefront } = sdkClients(api());
      const missing = await expectSdkError(
        storefront.products.list({ sort: 'relevance' }),
        400,
        'parameter_invalid',
      );
      expect(missing.details).toEqual([expect.objectContaining({ param: 'sort' })]);
      const asc = await expectSdkError(
        storefront.products.list({ q: 'lamp', sort: 'relevance', order: 'asc' }),
        400,
        'parameter_invalid',
      );
      expect(asc.details).toEqual([expect.objectContaining({ param: 'order' })]);
      expect(
        (await storefront.products.list({ q: 'lamp', sort: 'relevance', order: 'desc' })).data,
      ).toBeInstanceOf(Array);
    });
  },
  { clock: tickingClock() },
);
