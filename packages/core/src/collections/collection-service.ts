import { slugify } from '../catalog/slug';
import { productToWire } from '../catalog/wire';
import { BASE_TEXT, type ReadLanguage } from '../locales/negotiate';
import { namedIn, productsIn } from '../locales/records';
import type {
  CollectionMembership,
  CollectionRecord,
  Page,
  ProductListFilter,
  Repositories,
  Scope,
} from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { sortWasGiven } from '../shared/schemas/common';
import { read, write } from '../shared/unit-of-work';
import { compileRules, rulesNeedCategories } from './rules';
import {
  type AdminCollectionListParams,
  COLLECTION_DETAIL_PRODUCTS,
  type CollectionDetail,
  type CreateCollectionInput,
  rulesOf,
  type StorefrontCollectionListParams,
  typeRuleIssues,
  type UpdateCollectionInput,
} from './schemas';
import { type CollectionWire, collectionToWire } from './wire';

/** Every `product_ids[i]` names a live product of the scope, else 404 naming the first that does not. */
async function assertProducts(tx: Repositories, scope: Scope, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const existing = await tx.collections.existingProducts(scope, ids);
  const index = ids.findIndex((id) => !existing.has(id));
  if (index >= 0) {
    throw new CommerceError('not_found', `No such product: '${ids[index]}'`, {
      param: `product_ids[${index}]`,
    });
  }
}

/** The slug is free among the scope's collections (another one's → 409 `duplicate_slug`). */
async function assertSlugFree(tx: Repositories, scope: Scope, slug: string, except?: string): Promise<void> {
  const holder = await tx.collections.get(scope, { slug });
  if (holder && holder.id !== except) {
    throw new CommerceError('duplicate_slug', 'A collection with this slug already exists', {
      param: 'slug',
    });
  }
}

/** A record with its members as the wire shows it (members of manual collections only). */
async function withMembers(
  tx: Repositories,
  scope: Scope,
  records: readonly CollectionRecord[],
  activeOnly: boolean,
): Promise<CollectionWire[]> {
  const manual = records.filter((record) => record.type === 'manual').map((record) => record.id);
  const members =
    manual.length > 0 ? await tx.collections.members(scope, manual, { active_only: activeOnly }) : new Map();
  return records.map((record) => collectionToWire(record, members.get(record.id) ?? []));
}

function pageToWire<T>(page: Page<unknown>, data: T[]) {
  return { data, total_count: page.total_count, has_more: page.has_more, next_cursor: page.next_cursor };
}

/** The product list filter of a collection: its member rows, or its rules compiled (categories expanded). */
async function membershipOf(
  tx: Repositories,
  scope: Scope,
  record: CollectionRecord,
  inOrder: boolean,
): Promise<CollectionMembership> {
  if (record.type === 'manual' || record.rules === null) {
    return { type: 'manual', id: record.id, in_order: inOrder && record.type === 'manual' };
  }
  const tree = rulesNeedCategories(record.rules) ? await tx.categories.all(scope) : [];
  return { type: 'auto', rules: compileRules(record.rules, tree) };
}

/**
 * Collections (decisions §17): manual ones (ordered `product_ids`, ≤ 250) and automatic ones
 * (rules evaluated when read). Admin CRUD with `collection.created|updated|deleted` events, the
 * storefront's list and detail, and the `collection_id` filter of both product lists.
 */
export function createCollectionService(ctx: ServiceContext) {
  return {
    /** `POST /v1/admin/collections`. Emits `collection.created`. */
    async create(scope: Scope, input: CreateCollectionInput): Promise<CollectionWire> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const id = ctx.ids.next('col');
        const slug = input.slug ?? (slugify(input.name) || slugify(id));
        const productIds = input.type === 'manual' ? (input.product_ids ?? []) : [];
        await assertProducts(tx, scope, productIds);
        await assertSlugFree(tx, scope, slug);
        const record: CollectionRecord = {
          id,
          store_id: scope.store_id,
          mode: scope.mode,
          name: input.name,
          slug,
          description: input.description ?? null,
          type: input.type,
          rules: input.type === 'auto' && input.rules ? rulesOf(input.rules) : null,
          position: input.position,
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
        };
        await tx.collections.insert(record);
        if (productIds.length > 0) await tx.collections.setMembers(scope, id, productIds);
        const wire = collectionToWire(record, productIds);
        work.emit(scope, 'collection.created', wire);
        return wire;
      });
    },

    /** `GET /v1/admin/collections`: newest first; filter `type`. */
    async list(scope: Scope, query: AdminCollectionListParams) {
      return read(ctx, async (tx) => {
        const page = await tx.collections.list(scope, query.type === undefined ? {} : { type: query.type }, {
          limit: query.limit,
          starting_after: query.starting_after,
          sort: 'created_at',
          order: query.order,
        });
        return pageToWire(page, await withMembers(tx, scope, page.data, false));
      });
    },

    /** `GET /v1/admin/collections/{id}`. */
    async get(scope: Scope, id: string): Promise<CollectionWire> {
      return read(ctx, async (tx) => {
        const record = await tx.collections.get(scope, id);
        if (!record) throw errors.notFound('collection', id);
        return (await withMembers(tx, scope, [record], false))[0] as CollectionWire;
      });
    },

    /**
     * `PATCH /v1/admin/collections/{id}`: fields given replace the stored ones. To `auto` needs
     * `rules` in the same request; to `manual` drops the rules (`product_ids` default `[]`); an
     * `auto` collection's members are its rules' (an auto one refuses `product_ids`). Emits
     * `collection.updated`.
     */
    async update(scope: Scope, id: string, input: UpdateCollectionInput): Promise<CollectionWire> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const current = await tx.collections.get(scope, id);
        if (!current) throw errors.notFound('collection', id);
        const type = input.type ?? current.type;
        const issue = typeRuleIssues(type, input, type === 'auto' && current.type !== 'auto')[0];
        if (issue)
          throw new CommerceError(issue.code, `${issue.param} ${issue.message}`, { param: issue.param });
        const newMembers =
          type === 'manual'
            ? (input.product_ids ?? (current.type === 'auto' ? [] : undefined))
            : current.type === 'manual'
              ? []
              : undefined;
        if (type === 'manual' && input.product_ids) await assertProducts(tx, scope, input.product_ids);
        if (input.slug !== undefined && input.slug !== current.slug)
          await assertSlugFree(tx, scope, input.slug, id);
        const rules =
          type === 'auto'
            ? input.rules
              ? rulesOf(input.rules)
              : undefined
            : current.rules !== null
              ? null
              : undefined;
        const updated = await tx.collections.update(scope, id, {
          updated_at: now,
          ...(input.name !== undefined && { name: input.name }),
          ...(input.slug !== undefined && { slug: input.slug }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.type !== undefined && { type: input.type }),
          ...(rules !== undefined && { rules }),
          ...(input.position !== undefined && { position: input.position }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw errors.notFound('collection', id);
        if (newMembers !== undefined) await tx.collections.setMembers(scope, id, newMembers);
        const wire = (await withMembers(tx, scope, [updated], false))[0] as CollectionWire;
        work.emit(scope, 'collection.updated', wire);
        return wire;
      });
    },

    /** `DELETE /v1/admin/collections/{id}`. Emits `collection.deleted` with the collection as it was. */
    async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
      return write(ctx, scope, async (work) => {
        const { tx } = work;
        const record = await tx.collections.get(scope, id);
        if (!record) throw errors.notFound('collection', id);
        const wire = (await withMembers(tx, scope, [record], false))[0] as CollectionWire;
        if (!(await tx.collections.delete(scope, id))) throw errors.notFound('collection', id);
        work.emit(scope, 'collection.deleted', wire);
        return { id, deleted: true as const };
      });
    },

    /** `GET /v1/storefront/collections`: `position` ascending, then newest first. */
    async listStorefront(
      scope: Scope,
      query: StorefrontCollectionListParams,
      language: ReadLanguage = BASE_TEXT,
    ) {
      return read(ctx, async (tx) => {
        const found = await tx.collections.list(
          scope,
          {},
          { limit: query.limit, starting_after: query.starting_after, sort: 'position', order: 'asc' },
        );
        // Names and descriptions in the language (decisions §21).
        const page = { ...found, data: await namedIn(tx, scope, 'collection', language, found.data) };
        return pageToWire(page, await withMembers(tx, scope, page.data, true));
      });
    },

    /**
     * `GET /v1/storefront/collections/{id}` and `…/by-slug/{slug}`: the collection and its first
     * 100 `active` products in collection order (manual: `product_ids` order; auto: newest first).
     */
    async getStorefront(
      scope: Scope,
      key: string | { slug: string },
      language: ReadLanguage = BASE_TEXT,
    ): Promise<CollectionDetail> {
      return read(ctx, async (tx) => {
        const found = await tx.collections.get(scope, key);
        if (!found) throw errors.notFound('collection', typeof key === 'string' ? key : key.slug);
        // The collection and its products in the language (decisions §21).
        const [record] = await namedIn(tx, scope, 'collection', language, [found]);
        if (!record) throw errors.notFound('collection', typeof key === 'string' ? key : key.slug);
        const collection = (await withMembers(tx, scope, [record], true))[0] as CollectionWire;
        const page = await tx.products.list(
          scope,
          { status: 'active', collection: await membershipOf(tx, scope, record, true) },
          { limit: COLLECTION_DETAIL_PRODUCTS, sort: 'created_at', order: 'desc' },
        );
        const products = await productsIn(tx, scope, language, page.data);
        return { ...collection, products: products.map((product) => productToWire(product, 'storefront')) };
      });
    },

    /**
     * The part of a product list's filter that `collection_id` adds (decisions §17), ANDed with
     * the others: nothing without one; a manual collection's members (in its order when the query
     * names no `sort`); an automatic one's rules. An id that names no collection filters as an
     * empty manual collection (an empty list).
     */
    async productFilter(
      scope: Scope,
      query: { collection_id?: string | undefined },
    ): Promise<Pick<ProductListFilter, 'collection'>> {
      const id = query.collection_id;
      if (id === undefined) return {};
      const inOrder = !sortWasGiven(query);
      return read(ctx, async (tx) => {
        const record = await tx.collections.get(scope, id);
        if (!record) return { collection: { type: 'manual', id, in_order: false } };
        return { collection: await membershipOf(tx, scope, record, inOrder) };
      });
    },
  };
}

export type CollectionService = ReturnType<typeof createCollectionService>;
