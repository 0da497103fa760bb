import type { Category, Product, UpdateCategoryInput } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { expectSdkError, sdkClients, tickingClock, unique } from './support';

/**
 * decisions §17's categories as `@headless-commerce/sdk` 0.2.0 calls them, unmodified: the six
 * `categories.*` methods (`list`, `getBySlug`, `adminList` (and its auto-paginating form),
 * `adminCreate`, `adminUpdate`, `adminDelete`), and the `products.list({ category_id })` filter,
 * with products assigned through the field we add beyond the SDK (`category_ids`, which its
 * client forwards).
 */

type OurProduct = Product & { category_ids: string[] };

const slug = (prefix: string) => unique(prefix).toLowerCase();

describeApi(
  'sdk: categories served as the client calls them (decisions §17)',
  (api) => {
    test('adminCreate → the Category; list → the whole tree; getBySlug → one category with its subtree', async () => {
      const { admin, storefront } = sdkClients(api());
      const clothing = await admin.categories.adminCreate({ name: 'Clothing', slug: slug('clothing') });
      const mens = await admin.categories.adminCreate({
        name: "Men's",
        slug: slug('mens'),
        parent_id: clothing.id,
        position: 1,
        description: 'For men',
        metadata: { menu: true },
      });
      const womens = await admin.categories.adminCreate({
        name: "Women's",
        slug: slug('womens'),
        parent_id: clothing.id,
        position: 0,
      });
      const shirts = await admin.categories.adminCreate({
        name: 'Shirts',
        slug: slug('shirts'),
        parent_id: mens.id,
      });
      expect(mens).toMatchObject({
        name: "Men's",
        parent_id: clothing.id,
        position: 1,
        description: 'For men',
        metadata: { menu: true },
        children: [],
      } satisfies Partial<Category>);
      expect(mens.id).toMatch(/^cat_/);

      const tree = await storefront.categories.list();
      const root = tree.data.find((c) => c.id === clothing.id) as Category;
      expect(root.children.map((c) => c.id)).toEqual([womens.id, mens.id]);
      expect(root.children[1]?.children).toEqual([shirts]);

      const bySlug = await storefront.categories.getBySlug(mens.slug);
      expect(bySlug).toEqual({ ...mens, children: [shirts] });
      await expectSdkError(storefront.categories.getBySlug('no-such-category'), 404, 'not_found');
    });

    test('adminList: newest first, total_count, parent_id filter; adminListAutoPaginate walks every page', async () => {
      const { admin } = sdkClients(api());
      const parent = await admin.categories.adminCreate({ name: 'Parent', slug: slug('parent') });
      const kids: Category[] = [];
      for (let i = 0; i < 5; i++) {
        kids.push(
          await admin.categories.adminCreate({ name: `Kid ${i}`, slug: slug('kid'), parent_id: parent.id }),
        );
      }
      const page = await admin.categories.adminList({ parent_id: parent.id, limit: 2 });
      expect(page.data.map((c) => c.id)).toEqual([kids[4]?.id, kids[3]?.id]);
      expect(page).toMatchObject({ total_count: 5, has_more: true, next_cursor: kids[3]?.id });
      const walked: string[] = [];
      for await (const category of admin.categories.adminListAutoPaginate({
        parent_id: parent.id,
        limit: 2,
      })) {
        walked.push(category.id);
      }
      expect(walked).toEqual(kids.map((k) => k.id).reverse());
    });

    test('adminUpdate: moves with the subtree (null: to the root); a cycle → 422 invalid_parent; too deep → 422', async () => {
      const { admin, storefront } = sdkClients(api());
      const a = await admin.categories.adminCreate({ name: 'A', slug: slug('a') });
      const b = await admin.categories.adminCreate({ name: 'B', slug: slug('b'), parent_id: a.id });
      const c = await admin.categories.adminCreate({ name: 'C', slug: slug('c'), parent_id: b.id });
      const renamed = await admin.categories.adminUpdate(b.id, { name: 'B2', position: 3 });
      expect(renamed).toMatchObject({ name: 'B2', position: 3, parent_id: a.id, children: [{ id: c.id }] });
      const error = await expectSdkError(
        admin.categories.adminUpdate(a.id, { parent_id: c.id }),
        422,
        'invalid_parent',
      );
      expect(error.message).toMatch(/descendant/);
      await expectSdkError(admin.categories.adminUpdate(a.id, { parent_id: a.id }), 422, 'invalid_parent');
      await expectSdkError(
        admin.categories.adminUpdate(a.id, { parent_id: 'cat_00000000000000000000000000' }),
        404,
        'not_found',
      );
      // The SDK types `parent_id` as a string; JSON null moves to the root.
      const moved = await admin.categories.adminUpdate(b.id, {
        parent_id: null,
      } as unknown as UpdateCategoryInput);
      expect(moved.parent_id).toBeNull();
      expect((await storefront.categories.list()).data.map((n) => n.id)).toContain(b.id);

      // Eight levels at most.
      let parent = a;
      for (let level = 2; level <= 8; level++) {
        parent = await admin.categories.adminCreate({
          name: `L${level}`,
          slug: slug('l'),
          parent_id: parent.id,
        });
      }
      await expectSdkError(
        admin.categories.adminCreate({ name: 'L9', slug: slug('l9'), parent_id: parent.id }),
        422,
        'invalid_parent',
      );
    });

    test('adminDelete: children → 409 category_has_children; a leaf → { id, deleted: true }; its products lose it', async () => {
      const { admin, storefront } = sdkClients(api());
      const a = await admin.categories.adminCreate({ name: 'A', slug: slug('del-a') });
      const b = await admin.categories.adminCreate({ name: 'B', slug: slug('del-b'), parent_id: a.id });
      await expectSdkError(admin.categories.adminDelete(a.id), 409, 'category_has_children');
      // `category_ids` is ours (beyond the SDK); its client forwards the field.
      const product = (await admin.products.adminCreate({
        name: unique('Tee '),
        slug: slug('tee'),
        status: 'active',
        category_ids: [b.id, a.id],
      } as Parameters<typeof admin.products.adminCreate>[0])) as OurProduct;
      expect(product.category_ids).toEqual([b.id, a.id]);
      expect(await admin.categories.adminDelete(b.id)).toEqual({ id: b.id, deleted: true });
      expect(((await storefront.products.get(product.id)) as OurProduct).category_ids).toEqual([a.id]);
      await expectSdkError(storefront.categories.getBySlug(b.slug), 404, 'not_found');
    });

    test('products.list({ category_id }): the category and its descendants; an unknown id → an empty list', async () => {
      const { admin, storefront } = sdkClients(api());
      const top = await admin.categories.adminCreate({ name: 'Top', slug: slug('top') });
      const sub = await admin.categories.adminCreate({ name: 'Sub', slug: slug('sub'), parent_id: top.id });
      const create = (name: string, category_ids: string[]) =>
        admin.products.adminCreate({
          name,
          slug: slug('p'),
          status: 'active',
          category_ids,
        } as Parameters<typeof admin.products.adminCreate>[0]);
      const inTop = await create('In top', [top.id]);
      const inSub = await create('In sub', [sub.id]);
      await create('Elsewhere', []);
      const listed = await storefront.products.list({ category_id: top.id });
      expect(listed.data.map((p) => p.id)).toEqual([inSub.id, inTop.id]);
      expect((await storefront.products.list({ category_id: sub.id })).data.map((p) => p.id)).toEqual([
        inSub.id,
      ]);
      expect(
        (await storefront.products.list({ category_id: 'cat_00000000000000000000000000' })).data,
      ).toEqual([]);
    });
  },
  { clock: tickingClock() },
);
