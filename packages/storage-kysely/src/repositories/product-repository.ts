import type { Scope } from '@cartwright/core';
import { CommerceError } from '@cartwright/core';
import type {
  ImageRecord,
  InventoryRecord,
  OptionRecord,
  Page,
  PageRequest,
  Patch,
  ProductAggregate,
  ProductListFilter,
  ProductRecord,
  ProductRepository,
  PurchasableVariant,
  VariantRecord,
  VariantWithInventory,
} from '@cartwright/core/storage';
import { type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Args, type BuildContext, type Slots, shapedTemplate, slot, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database, ProductVariantsTable } from '../schema/database';
import { PRICE_ASC_KEY, PRICE_DESC_KEY } from '../schema/sort-keys';
import {
  CATALOG_DOCUMENT_VERSION,
  decodeProductDocument,
  decodeVariantElement,
  documentUpsertSql,
  PURCHASABLE,
  PURCHASABLE_JOINS,
  parseDocument,
  productDocumentSql,
  purchasableDocumentSql,
  variantPurchaseUpdateSql,
} from '../storefront-read-model/catalog-documents';
import { type CountChange, countDeltas, tagPrefilterNeedles } from '../storefront-read-model/product-counts';
import {
  containsPattern,
  decodeAliasedInventory,
  decodeProduct,
  decodeVariant,
  encodeImage,
  encodeInventory,
  encodeProduct,
  encodeVariant,
  INVENTORY_ALIASES,
  type InventoryAliasColumns,
} from './catalog-codecs';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insertProduct = insertTemplate('products');
const insertOption = insertTemplate('product_options');
const insertOptionValue = insertTemplate('product_option_values');
const insertVariantRow = insertTemplate('product_variants');
const insertInventoryRow = insertTemplate('inventory_items');
const insertImageRow = insertTemplate('product_images');

/** How `productDocuments` finds its products. */
type ProductLookup = 'id' | 'slug';

/** Live products with their whole aggregate as one JSON document each (catalog-documents.ts). */
const productDocuments = shapedTemplate(
  (by: ProductLookup) => by,
  ({ db, caps }, p: Slots<ScopeSlots | 'key'>, by: ProductLookup) =>
    db
      .selectFrom('products')
      .select([
        'products.id',
        sql<unknown>`${sql.raw(productDocumentSql(caps.dialect, 'products'))}`.as('doc'),
      ])
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(sql<SqlBool>`${sql.ref(by === 'id' ? 'id' : 'slug')} = ${p.key}`)
      .where('deleted_at', 'is', null),
);

/** A variant (not deleted) with its inventory. */
const variantById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('product_variants as v')
    .innerJoin('inventory_items as i', (join) =>
      join
        .onRef('i.store_id', '=', 'v.store_id')
        .onRef('i.mode', '=', 'v.mode')
        .onRef('i.variant_id', '=', 'v.id'),
    )
    .selectAll('v')
    .select(INVENTORY_ALIASES)
    .where('v.store_id', '=', p.store_id)
    .where('v.mode', '=', p.mode)
    .where('v.id', '=', p.id)
    .where('v.deleted_at', 'is', null),
);

/**
 * Up to this many ids, PostgreSQL reads purchasable variants with one parameter per id
 * (`v.id in ($3, $4)`), one prepared statement per count; more, with one array parameter.
 */
const PURCHASABLE_ID_SLOTS = 16;

/**
 * Live variants by id, each as one purchasable document (catalog-documents.ts). Shaped by the
 * number of ids on PostgreSQL (`count`, ≤ {@link PURCHASABLE_ID_SLOTS}; 0: the array form): a
 * prepared statement over `id = any($3::text[])` is either re-planned at every execution (0.6 ms
 * of the server's CPU for this three-table join, pg_stat_statements over the storefront flow) or
 * given a generic plan that cannot know the array holds two ids and scans every variant,
 * inventory and product row of the store (EXPLAIN ANALYZE on 500 products: 1.31 ms against
 * 0.17 ms). With one parameter per id the generic plan is the index plan, planned once per
 * connection.
 */
const purchasable = shapedTemplate(
  (count: number) => String(count),
  ({ db, caps }, p: Slots<ScopeSlots | 'ids'>, count: number) =>
    db
      .selectFrom(sql`product_variants v ${sql.raw(PURCHASABLE_JOINS)}` as never)
      .select(sql<unknown>`${sql.raw(purchasableDocumentSql(caps.dialect))}`.as('doc'))
      .where(sql<SqlBool>`v.store_id = ${p.store_id} and v.mode = ${p.mode}`)
      .where(
        count > 0
          ? sql<SqlBool>`v.id in (${sql.join(Array.from({ length: count }, (_, i) => slot(p, `id${i}`)))})`
          : caps.inList(sql.ref('v.id'), p.ids),
      )
      .where(sql<SqlBool>`v.deleted_at is null`),
);

/**
 * The counted columns of a live product, locked on Postgres (its counts change with them) with
 * the lock its UPDATE takes anyway (see `lockProduct`).
 */
const countedColumns = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) => {
  const query = db
    .selectFrom('products')
    .select(['status', 'tags'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null);
  return caps.forUpdate ? query.forNoKeyUpdate() : query;
});

/**
 * Locks a product row (Postgres) after its children changed, so that writers of one product's
 * children go one after another and each rewrites the document from a snapshot taken
 * after the previous one committed (READ COMMITTED takes one per statement). `FOR NO KEY
 * UPDATE`, the lock an UPDATE of the row takes: it does not conflict with the `FOR KEY SHARE`
 * that inserting a child row takes on its product (foreign key), so two writers that both
 * inserted children cannot deadlock upgrading it.
 */
const lockProduct = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .forNoKeyUpdate(),
);

/**
 * Locks (Postgres) the product of a variant before the variant row is written: `#childrenChanged`
 * rewrites every live variant row of the product under the product's lock, so a writer of one
 * variant row must take the product's lock first (parent, then children) or the two could
 * deadlock. Writers that only insert child rows need not: others do not see (nor wait for) rows
 * not yet committed.
 */
const lockProductOfVariant = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(
      'id',
      '=',
      db
        .selectFrom('product_variants')
        .select('product_id')
        .where('store_id', '=', p.store_id)
        .where('mode', '=', p.mode)
        .where('id', '=', p.id),
    )
    .forNoKeyUpdate(),
);

/** Rewrites a product's catalog document from its child tables (catalog-documents.ts). */
const refreshDocument = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) => {
  const [head, tail] = documentUpsertSql(caps.dialect, '\u0000', CATALOG_DOCUMENT_VERSION).split(
    '\u0000',
  ) as [string, string];
  const statement = sql`${sql.raw(head)}p.store_id = ${p.store_id} and p.mode = ${p.mode} and p.id = ${p.id}${sql.raw(tail)}`;
  return { compile: () => statement.compile(db) };
});

/** Rewrites the kept option value names and image url of a product's live variants (catalog-documents.ts). */
const refreshVariantPurchase = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) => {
  const [head, tail] = variantPurchaseUpdateSql(caps.dialect, '\u0000').split('\u0000') as [string, string];
  const statement = sql`${sql.raw(head)}v.store_id = ${p.store_id} and v.mode = ${p.mode} and v.product_id = ${p.id}${sql.raw(tail)}`;
  return { compile: () => statement.compile(db) };
});

/** Rows per counter upsert statement. */
const COUNT_CHUNK = 50;

/** Adds `n<i>` to the live count of status `s<i>` (rows in key order, see product-counts.ts). */
const addStatusCounts = shapedTemplate(
  (rows: number) => String(rows),
  ({ db }, p: Slots<ScopeSlots>, rows: number) =>
    db
      .insertInto('product_counts')
      .values(
        Array.from({ length: rows }, (_, i) => ({
          store_id: p.store_id,
          mode: p.mode,
          status: slot(p, `s${i}`),
          n: slot(p, `n${i}`),
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['store_id', 'mode', 'status'])
          .doUpdateSet({ n: sql<number>`product_counts.n + excluded.n` }),
      ),
);

/** Adds `n<i>` to the live count of tag `t<i>` and status `s<i>`. */
const addTagCounts = shapedTemplate(
  (rows: number) => String(rows),
  ({ db }, p: Slots<ScopeSlots>, rows: number) =>
    db
      .insertInto('product_tag_counts')
      .values(
        Array.from({ length: rows }, (_, i) => ({
          store_id: p.store_id,
          mode: p.mode,
          tag: slot(p, `t${i}`),
          status: slot(p, `s${i}`),
          n: slot(p, `n${i}`),
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['store_id', 'mode', 'tag', 'status'])
          .doUpdateSet({ n: sql<number>`product_tag_counts.n + excluded.n` }),
      ),
);

/** Live products of the scope, of one status or all. */
const liveCount = shapedTemplate(
  (byStatus: boolean) => String(byStatus),
  ({ db }, p: Slots<ScopeSlots | 'status'>, byStatus: boolean) => {
    const query = db
      .selectFrom('product_counts')
      .select(sql<number>`coalesce(sum(n), 0)`.as('count'))
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode);
    return byStatus ? query.where('status', '=', p.status) : query;
  },
);

/** Live products of the scope carrying a tag, of one status or all. */
const liveTagCount = shapedTemplate(
  (byStatus: boolean) => String(byStatus),
  ({ db }, p: Slots<ScopeSlots | 'tag' | 'status'>, byStatus: boolean) => {
    const query = db
      .selectFrom('product_tag_counts')
      .select(sql<number>`coalesce(sum(n), 0)`.as('count'))
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('tag', '=', p.tag);
    return byStatus ? query.where('status', '=', p.status) : query;
  },
);

/** SKUs of the scope already taken by live variants (other than `except_id`). */
const takenSkus = template(({ db, caps }, p: Slots<ScopeSlots | 'skus' | 'except_id'>) =>
  db
    .selectFrom('product_variants')
    .select('sku')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('sku'), p.skus))
    .where('deleted_at', 'is', null)
    .where('id', '!=', p.except_id),
);

const updateProduct = updateTemplate('products', { where: 'deleted_at is null' });
const updateVariantRow = updateTemplate('product_variants', { where: 'deleted_at is null' });

const softDeleteProduct = template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
  db
    .updateTable('products')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null)
    .returning(['status', 'tags']),
);
const softDeleteVariantsOfProduct = template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
  db
    .updateTable('product_variants')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('product_id', '=', p.id)
    .where('deleted_at', 'is', null),
);
const softDeleteVariant = template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
  db
    .updateTable('product_variants')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null)
    .returning('product_id'),
);
const deleteImageRow = template(({ db }, p: Slots<ScopeSlots | 'product_id' | 'id'>) =>
  db
    .deleteFrom('product_images')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('product_id', '=', p.product_id)
    .where('id', '=', p.id),
);

interface ProductFilterShape {
  status: boolean;
  type: boolean;
  q: boolean;
  tags: boolean;
  /** SQLite: how many `instr` prefilters precede the exact tag test (see `tagPrefilterNeedles`). */
  tagNeedles: number;
  price_min: boolean;
  price_max: boolean;
}

/**
 * The products list (sorts, filter shapes, the filtered base query) with a page select: the same
 * pages, cursors and counts whatever the page's columns.
 */
function productList<R>(
  select: (
    ctx: BuildContext,
    query: SelectQueryBuilder<Database, 'products', object>,
  ) => SelectQueryBuilder<Database, 'products', R>,
) {
  return keysetList({
    table: 'products',
    sorts: {
      created_at: ['created_at'],
      name: ['name_lower'],
      price: { asc: [PRICE_ASC_KEY], desc: [PRICE_DESC_KEY] },
      // Admin only (decisions §22); `products_updated_idx` (0019) serves it.
      updated_at: ['updated_at'],
    },
    filterKey: (f: ProductFilterShape) =>
      `${[f.status, f.type, f.q, f.tags, f.price_min, f.price_max].map((flag) => (flag ? 1 : 0)).join('')}${f.tagNeedles}`,
    base: ({ db, caps }, p: Slots<'store_id' | 'mode' | keyof ProductFilterShape>, f) => {
      let query = db
        .selectFrom('products')
        .where('store_id', '=', p.store_id)
        .where('mode', '=', p.mode)
        .where('deleted_at', 'is', null);
      if (f.status) query = query.where('status', '=', p.status);
      if (f.type) query = query.where('type', '=', p.type);
      if (f.q) query = query.where(sql<SqlBool>`name_lower like ${p.q} escape '\\'`);
      for (let i = 0; i < f.tagNeedles; i++) {
        query = query.where(sql<SqlBool>`instr(tags, ${slot(p, `tag_needle${i}`)}) > 0`);
      }
      if (f.tags) query = query.where(caps.jsonArrayContainsAll(sql.ref('tags'), p.tags));
      if (f.price_min) query = query.where('price', '>=', p.price_min);
      if (f.price_max) query = query.where('price', '<=', p.price_max);
      return query;
    },
    select,
  });
}

/** Product pages as whole aggregate documents. */
const list = productList(({ caps }, query) =>
  query.select([
    'products.id',
    sql<unknown>`${sql.raw(productDocumentSql(caps.dialect, 'products'))}`.as('doc'),
  ]),
);

type VariantJoinRow = Selectable<ProductVariantsTable> & InventoryAliasColumns;

/**
 * Products with options, variants (with inventory) and images.
 * - Reads: a product, or a list page, is one statement returning a JSON document per product
 *   (its columns, its `product_documents` children, its variants' live inventory; see
 *   catalog-documents.ts). Every write to options, values, variants or images rewrites the
 *   product's document in the same transaction (`#childrenChanged`); `price` is a plain column
 *   core sets (on insert and through `update`).
 * - Purchases (`getPurchasable`): each live variant keeps its option value names and image url
 *   (`option_value_names`, `image_url`), rewritten with the document. Since that rewrites every
 *   variant row of the product under the product's lock, writers of one variant row take the
 *   product's lock first (Postgres, `lockProductOfVariant`).
 * - `total_count` of lists filtered by at most a status and one tag comes from the live-product
 *   counters (product-counts.ts), kept here in the transaction of every insert, status or tags
 *   change and delete; other filters COUNT (SQLite tag filters prefilter with `instr`).
 * SKU uniqueness is checked before writing so that `param` names the offending variant
 * (`variants[i][sku]`); the unique index remains the final guard under concurrency.
 */
export class KyselyProductRepository implements ProductRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(product: ProductAggregate): Promise<void> {
    const c = this.q.caps;
    const scope = { store_id: product.store_id, mode: product.mode };
    await this.#assertSkusFree(
      scope,
      product.variants.map((variant) => variant.sku),
      (i) => `variants[${i}][sku]`,
    );
    await insertRows(this.q, insertProduct, 'products', [encodeProduct(product, c)]);
    await this.#insertOptions(scope, product.id, product.options);
    try {
      await insertRows(
        this.q,
        insertVariantRow,
        'product_variants',
        product.variants.map((variant) => encodeVariant(variant, c)),
      );
    } catch (error) {
      // A concurrent insert took a SKU after the check (Postgres names it in the error).
      const value = CommerceError.is(error) && error.code === 'duplicate_sku' ? error.data?.value : undefined;
      const index = product.variants.findIndex((variant) => variant.sku === value);
      throw index >= 0 ? duplicateSku(`variants[${index}][sku]`) : error;
    }
    await insertRows(
      this.q,
      insertInventoryRow,
      'inventory_items',
      product.variants.map((variant) => encodeInventory(variant.inventory, c)),
    );
    await insertRows(
      this.q,
      insertImageRow,
      'product_images',
      product.images.map((image) => encodeImage(scope, image, c)),
    );
    await this.q.affected(refreshDocument, scoped(scope, { id: product.id }));
    if (product.variants.length > 0)
      await this.q.affected(refreshVariantPurchase, scoped(scope, { id: product.id }));
    await this.#changeCounts(scope, { before: null, after: product });
  }

  /**
   * `forUpdate` locks the product row first (Postgres `FOR NO KEY UPDATE`, the lock the variant
   * writers take too; SQLite's writer lock already serialises writers), so the aggregate read
   * after it stays current until the transaction ends.
   */
  async get(
    scope: Scope,
    key: string | { slug: string },
    options?: { forUpdate?: boolean },
  ): Promise<ProductAggregate | null> {
    if (typeof key !== 'string') {
      if (options?.forUpdate && this.q.caps.forUpdate) {
        const id = (await this.#documents(scope, 'slug', key.slug))[0]?.id;
        return id === undefined ? null : this.get(scope, id, options);
      }
      return (await this.#documents(scope, 'slug', key.slug))[0] ?? null;
    }
    if (options?.forUpdate && this.q.caps.forUpdate)
      await this.q.first(lockProduct, scoped(scope, { id: key }));
    return (await this.#documents(scope, 'id', key))[0] ?? null;
  }

  list(
    scope: Scope,
    filter: ProductListFilter,
    page: PageRequest<'created_at' | 'name' | 'price' | 'updated_at'>,
  ): Promise<Page<ProductAggregate>> {
    const c = this.q.caps;
    const { shape, args, count } = this.#listArgs(scope, filter);
    return runKeysetList(
      this.q,
      list,
      scope,
      shape,
      args,
      page,
      (rows) => rows.map((row) => decodeProductDocument(scope, row.id, parseDocument(row.doc), c)),
      { count },
    );
  }

  /** The filter shape, filter arguments and (when counters answer it) the count of a product list. */
  #listArgs(scope: Scope, filter: ProductListFilter) {
    const c = this.q.caps;
    const tags = filter.tags?.length ? filter.tags : undefined;
    const needles = tags && c.dialect === 'sqlite' ? tagPrefilterNeedles(tags) : [];
    const shape: ProductFilterShape = {
      status: filter.status !== undefined,
      type: filter.type !== undefined,
      q: filter.q !== undefined && filter.q !== '',
      tags: tags !== undefined,
      tagNeedles: needles.length,
      price_min: filter.price_min !== undefined,
      price_max: filter.price_max !== undefined,
    };
    const args: Record<string, unknown> = {
      status: filter.status,
      type: filter.type,
      q: shape.q ? containsPattern(filter.q as string) : undefined,
      tags: tags ? c.json(tags) : undefined,
      price_min: filter.price_min,
      price_max: filter.price_max,
    };
    needles.forEach((needle, i) => {
      args[`tag_needle${i}`] = needle;
    });
    // Counters answer a status and at most one tag; any other filter counts the rows.
    const counted =
      !shape.type && !shape.q && !shape.price_min && !shape.price_max && (tags?.length ?? 0) <= 1;
    const count = counted ? () => this.#liveCount(scope, filter.status, tags?.[0]) : undefined;
    return { shape, args, count };
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      ProductRecord,
      'name' | 'slug' | 'description' | 'type' | 'status' | 'tags' | 'attributes' | 'metadata' | 'price'
    >,
  ): Promise<ProductRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        name_lower: patch.name?.toLowerCase(),
        slug: patch.slug,
        description: patch.description,
        type: patch.type,
        status: patch.status,
        tags: patch.tags === undefined ? undefined : c.json(patch.tags),
        attributes: patch.attributes === undefined ? undefined : c.json(patch.attributes),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        price: patch.price,
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    // A status or tags change moves the product between counters: read (and lock) what it was.
    const before =
      patch.status !== undefined || patch.tags !== undefined
        ? await this.q.first(countedColumns, scoped(scope, { id }))
        : undefined;
    const row = await this.q.first(updateProduct, args, shape);
    if (!row) return null;
    const product = decodeProduct(row, c);
    if (before) {
      await this.#changeCounts(scope, {
        before: { status: before.status, tags: c.parseJson<string[]>(before.tags) },
        after: product,
      });
    }
    return product;
  }

  async delete(scope: Scope, id: string, at: number): Promise<boolean> {
    const deleted = await this.q.first(softDeleteProduct, scoped(scope, { id, at }));
    if (!deleted) return false;
    await this.q.affected(softDeleteVariantsOfProduct, scoped(scope, { id, at }));
    await this.#changeCounts(scope, {
      before: { status: deleted.status, tags: this.q.caps.parseJson<string[]>(deleted.tags) },
      after: null,
    });
    return true;
  }

  async insertVariant(variant: VariantRecord, inventory: InventoryRecord): Promise<void> {
    const c = this.q.caps;
    const scope = { store_id: variant.store_id, mode: variant.mode };
    await this.#assertSkusFree(scope, [variant.sku], () => 'sku');
    await this.#lockBeforeChildInsert(scope, variant.product_id);
    await insertRows(this.q, insertVariantRow, 'product_variants', [encodeVariant(variant, c)]);
    await insertRows(this.q, insertInventoryRow, 'inventory_items', [encodeInventory(inventory, c)]);
    await this.#childrenChanged(scope, variant.product_id);
  }

  async getVariant(scope: Scope, id: string): Promise<VariantWithInventory | null> {
    const row = (await this.q.first(variantById, scoped(scope, { id }))) as VariantJoinRow | undefined;
    if (!row) return null;
    const c = this.q.caps;
    return { ...decodeVariant(row, c), inventory: decodeAliasedInventory(row, c) };
  }

  async updateVariant(
    scope: Scope,
    id: string,
    patch: Patch<
      VariantRecord,
      | 'sku'
      | 'barcode'
      | 'price'
      | 'compare_at_price'
      | 'cost_price'
      | 'weight'
      | 'width'
      | 'height'
      | 'depth'
      | 'position'
      | 'is_active'
      | 'option_value_ids'
      | 'metadata'
    >,
  ): Promise<VariantRecord | null> {
    const c = this.q.caps;
    if (patch.sku !== undefined) await this.#assertSkusFree(scope, [patch.sku], () => 'sku', id);
    const { shape, args } = updateArgs(
      {
        sku: patch.sku,
        barcode: patch.barcode,
        price: patch.price,
        compare_at_price: patch.compare_at_price,
        cost_price: patch.cost_price,
        weight: patch.weight,
        width: patch.width,
        height: patch.height,
        depth: patch.depth,
        position: patch.position,
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
        option_value_ids: patch.option_value_ids === undefined ? undefined : c.json(patch.option_value_ids),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    if (c.forUpdate) await this.q.first(lockProductOfVariant, scoped(scope, { id }));
    const row = await this.q.first(updateVariantRow, args, shape);
    if (!row) return null;
    await this.#childrenChanged(scope, row.product_id);
    return decodeVariant(row, c);
  }

  async deleteVariant(scope: Scope, id: string, at: number): Promise<boolean> {
    if (this.q.caps.forUpdate) await this.q.first(lockProductOfVariant, scoped(scope, { id }));
    const row = await this.q.first(softDeleteVariant, scoped(scope, { id, at }));
    if (!row) return false;
    await this.#childrenChanged(scope, row.product_id);
    return true;
  }

  async insertImage(scope: Scope, image: ImageRecord): Promise<void> {
    await this.#lockBeforeChildInsert(scope, image.product_id);
    await insertRows(this.q, insertImageRow, 'product_images', [encodeImage(scope, image, this.q.caps)]);
    await this.#childrenChanged(scope, image.product_id);
  }

  async deleteImage(scope: Scope, product_id: string, image_id: string): Promise<boolean> {
    if ((await this.q.affected(deleteImageRow, scoped(scope, { product_id, id: image_id }))) === 0)
      return false;
    await this.#childrenChanged(scope, product_id);
    return true;
  }

  async getPurchasable(scope: Scope, variant_ids: string[]): Promise<PurchasableVariant[]> {
    if (variant_ids.length === 0) return [];
    const c = this.q.caps;
    const ids = [...new Set(variant_ids)];
    const count = c.dialect === 'postgres' && ids.length <= PURCHASABLE_ID_SLOTS ? ids.length : 0;
    const args: Record<string, unknown> & Args<ScopeSlots | 'ids'> = scoped(scope, {
      ids: count > 0 ? null : c.list(ids),
    });
    for (let i = 0; i < count; i++) args[`id${i}`] = ids[i];
    const rows = await this.q.rows(purchasable, args, count);
    return rows.map((row): PurchasableVariant => {
      const doc = parseDocument(row.doc);
      const productId = doc[PURCHASABLE.productId] as string;
      const { inventory, ...variant } = decodeVariantElement(
        scope,
        productId,
        doc[PURCHASABLE.variant] as unknown[],
        c,
      );
      const productName = doc[PURCHASABLE.productName] as string;
      const names = (doc[PURCHASABLE.valueNames] as string[] | null) ?? [];
      const optionNames = (doc[PURCHASABLE.optionNames] as string[] | null) ?? [];
      return {
        variant,
        inventory,
        product: {
          id: productId,
          name: productName,
          status: doc[PURCHASABLE.productStatus] as ProductRecord['status'],
          type: doc[PURCHASABLE.productType] as ProductRecord['type'],
          tags: doc[PURCHASABLE.productTags] as string[],
          deleted: c.toBool(doc[PURCHASABLE.productDeleted]),
        },
        variant_name: names.length > 0 ? names.join(' / ') : productName,
        option_values: optionValuesByName(optionNames, names),
        image_url: (doc[PURCHASABLE.imageUrl] as string | null) ?? null,
      };
    });
  }

  async #insertOptions(scope: Scope, productId: string, options: readonly OptionRecord[]): Promise<void> {
    if (options.length === 0) return;
    await insertRows(
      this.q,
      insertOption,
      'product_options',
      options.map((option) => ({
        ...scope,
        id: option.id,
        product_id: productId,
        name: option.name,
        position: option.position,
      })),
    );
    await insertRows(
      this.q,
      insertOptionValue,
      'product_option_values',
      options.flatMap((option) =>
        option.values.map((value) => ({
          ...scope,
          id: value.id,
          option_id: option.id,
          product_id: productId,
          value: value.value,
          position: value.position,
        })),
      ),
    );
  }

  /** duplicate_sku when a SKU repeats within `skus` or is taken in the scope. */
  async #assertSkusFree(
    scope: Scope,
    skus: readonly (string | null)[],
    paramOf: (index: number) => string,
    exceptId = '',
  ): Promise<void> {
    const seen = new Set<string>();
    const present: string[] = [];
    for (const [i, sku] of skus.entries()) {
      if (sku === null) continue;
      if (seen.has(sku)) throw duplicateSku(paramOf(i));
      seen.add(sku);
      present.push(sku);
    }
    if (present.length === 0) return;
    const taken = new Set(
      (
        await this.q.rows(takenSkus, scoped(scope, { skus: this.q.caps.list(present), except_id: exceptId }))
      ).map((row) => row.sku),
    );
    const index = skus.findIndex((sku) => sku !== null && taken.has(sku));
    if (index >= 0) throw duplicateSku(paramOf(index));
  }

  /**
   * MariaDB (InnoDB): inserting a child row takes a shared lock on its product (foreign key), so
   * two writers that inserted children would deadlock upgrading it in `#childrenChanged`; they
   * take the product's lock first instead (parent, then children).
   */
  async #lockBeforeChildInsert(scope: Scope, productId: string): Promise<void> {
    if (this.q.caps.dialect === 'mysql') await this.q.first(lockProduct, scoped(scope, { id: productId }));
  }

  /**
   * After a write to a product's children: its catalog document and its variants' kept option
   * value names and image urls are recomputed, on Postgres under the product's row lock (see
   * `lockProduct`).
   */
  async #childrenChanged(scope: Scope, productId: string): Promise<void> {
    const key = scoped(scope, { id: productId });
    if (this.q.caps.forUpdate) await this.q.first(lockProduct, key);
    await this.q.affected(refreshDocument, key);
    await this.q.affected(refreshVariantPurchase, key);
  }

  /** Live products found by id or slug, as aggregates. */
  async #documents(scope: Scope, by: ProductLookup, key: unknown): Promise<ProductAggregate[]> {
    const c = this.q.caps;
    const rows = await this.q.rows(productDocuments, scoped(scope, { key }), by);
    return rows.map((row) => decodeProductDocument(scope, row.id, parseDocument(row.doc), c));
  }

  /** Live products of the scope with `status` (or any) and `tag` (or any), from the counters. */
  async #liveCount(scope: Scope, status: string | undefined, tag: string | undefined): Promise<number> {
    const byStatus = status !== undefined;
    const row =
      tag === undefined
        ? await this.q.first(liveCount, scoped(scope, { status: status ?? '' }), byStatus)
        : await this.q.first(liveTagCount, scoped(scope, { tag, status: status ?? '' }), byStatus);
    return Number(row?.count ?? 0);
  }

  /** Applies a product's move between counters (see product-counts.ts). */
  async #changeCounts(scope: Scope, change: CountChange): Promise<void> {
    const { statuses, tags } = countDeltas(change);
    for (let start = 0; start < statuses.length; start += COUNT_CHUNK) {
      const rows = statuses.slice(start, start + COUNT_CHUNK);
      const args: Record<string, unknown> & Scope = { ...scope };
      rows.forEach(([status, n], i) => {
        args[`s${i}`] = status;
        args[`n${i}`] = n;
      });
      await this.q.affected(addStatusCounts, args, rows.length);
    }
    for (let start = 0; start < tags.length; start += COUNT_CHUNK) {
      const rows = tags.slice(start, start + COUNT_CHUNK);
      const args: Record<string, unknown> & Scope = { ...scope };
      rows.forEach(([tag, status, n], i) => {
        args[`t${i}`] = tag;
        args[`s${i}`] = status;
        args[`n${i}`] = n;
      });
      await this.q.affected(addTagCounts, args, rows.length);
    }
  }
}

/**
 * `{ option name: value }` of a purchasable variant: its kept value names are in its
 * `option_value_ids` order, which is its product's option order (core resolves one value per
 * option, in position order; options are written only with the product), so the i-th name is the
 * value of the product's i-th option.
 */
function optionValuesByName(optionNames: readonly string[], valueNames: readonly string[]) {
  const values: Record<string, string> = {};
  const n = Math.min(optionNames.length, valueNames.length);
  for (let i = 0; i < n; i++) values[optionNames[i] as string] = valueNames[i] as string;
  return values;
}

function duplicateSku(param: string): CommerceError {
  return new CommerceError('duplicate_sku', 'A variant with this SKU already exists', { param });
}
