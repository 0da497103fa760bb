import type { Scope } from '@cartwright/core';
import { CommerceError } from '@cartwright/core';
import type {
  ImageRecord,
  InventoryRecord,
  OptionRecord,
  Page,
  PageRequest,
  Patch,
  PricedProduct,
  ProductAggregate,
  ProductListFilter,
  ProductRecord,
  ProductRepository,
  PurchasableVariant,
  VariantRecord,
  VariantWithInventory,
} from '@cartwright/core/storage';
import { nameWordsText, searchText, wordStartNeedle } from '@cartwright/core/storage-rules';
import { type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList, type SortKey } from '../query/keyset-list';
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
import {
  type CollectionShape,
  collectionArgs,
  collectionKey,
  collectionShapeOf,
  collectionWhere,
  documentsByIds,
  leaveCollections,
  MAX_MEMBERS_READ,
  memberRows,
} from './collection-filter';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insertProduct = insertTemplate('products');
const insertOption = insertTemplate('product_options');
const insertOptionValue = insertTemplate('product_option_values');
const insertVariantRow = insertTemplate('product_variants');
const insertInventoryRow = insertTemplate('inventory_items');
const insertImageRow = insertTemplate('product_images');
const insertMembershipRow = insertTemplate('product_categories');

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
 * {@link purchasable} of the variants of a cart's items and of `count` more ids (`id0`, …), one
 * parameter each (`count` ≤ {@link PURCHASABLE_ID_SLOTS}: one statement text per count, prepared
 * once per connection on PostgreSQL): `v.id in (the cart's variant ids union all the ids)`, a
 * semi-join that keeps each variant once, through `cart_items_cart_idx` and the variants' key.
 */
const purchasableForCart = shapedTemplate(
  (count: number) => String(count),
  ({ db, caps }, p: Slots<ScopeSlots | 'cart_id'>, count: number) => {
    const extra = Array.from({ length: count }, (_, i) => sql` union all select ${slot(p, `id${i}`)}`);
    return db
      .selectFrom(sql`product_variants v ${sql.raw(PURCHASABLE_JOINS)}` as never)
      .select(sql<unknown>`${sql.raw(purchasableDocumentSql(caps.dialect))}`.as('doc'))
      .where(sql<SqlBool>`v.store_id = ${p.store_id} and v.mode = ${p.mode}`)
      .where(
        sql<SqlBool>`v.id in (select ci.variant_id from cart_items ci where ci.store_id = ${p.store_id} and ci.mode = ${p.mode} and ci.cart_id = ${p.cart_id}${sql.join(extra, sql``)})`,
      )
      .where(sql<SqlBool>`v.deleted_at is null`);
  },
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
/** A page of the scope's live product ids by id (`pricedVariants`). */
const livePricedIds = shapedTemplate(
  (after: boolean) => (after ? 'after' : 'first'),
  ({ db }, p: Slots<ScopeSlots | 'after' | 'limit'>, after: boolean) => {
    let query = db
      .selectFrom('products')
      .select('id')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('deleted_at', 'is', null);
    if (after) query = query.where('id', '>', p.after);
    return query.orderBy('id').limit(p.limit);
  },
);
/** The given products that are live (`pricedVariants`). */
const liveProductIds = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('deleted_at', 'is', null)
    .where(caps.inList(sql.ref('id'), p.ids)),
);
/** The live variants' prices of the given products, in display order (`pricedVariants`). */
const pricedVariantRows = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('product_variants')
    .select(['product_id', 'id', 'price', 'compare_at_price', 'is_active'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('deleted_at', 'is', null)
    .where(caps.inList(sql.ref('product_id'), p.ids))
    .orderBy('product_id')
    .orderBy('position')
    .orderBy('id'),
);

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

/**
 * `total_count` of a list filtered by categories (and a status at most), driven from the
 * memberships: an index range of `product_categories_category_idx` per category, then one
 * primary-key lookup per member. The generic COUNT walks every product of the scope and tests
 * each against the member list (SQLite's planner picks the status index, or the memberships'
 * primary key for `count(distinct)`): measured on SQLite with 20,000 products and 1,000 members,
 * ~22 ms against ~2 ms. SQLite: CROSS JOINs keep `json_each` outermost (it does not reorder them).
 */
const categoryCount = shapedTemplate(
  (byStatus: boolean) => String(byStatus),
  ({ db, caps }, p: Slots<ScopeSlots | 'status' | 'category_ids'>, byStatus: boolean) => {
    if (caps.dialect === 'sqlite') {
      const statement = sql<{
        count: number;
      }>`select count(distinct pc.product_id) as count from json_each(${p.category_ids}) j
        cross join product_categories pc cross join products pr
        where pc.store_id = ${p.store_id} and pc.mode = ${p.mode} and pc.category_id = j.value
        and pr.store_id = pc.store_id and pr.mode = pc.mode and pr.id = pc.product_id and pr.deleted_at is null${
          byStatus ? sql` and pr.status = ${p.status}` : sql``
        }`;
      return { compile: () => statement.compile(db) };
    }
    let query = db
      .selectFrom('product_categories as pc')
      .innerJoin('products as pr', (join) =>
        join
          .onRef('pr.store_id', '=', 'pc.store_id')
          .onRef('pr.mode', '=', 'pc.mode')
          .onRef('pr.id', '=', 'pc.product_id'),
      )
      .select(sql<number>`count(distinct pc.product_id)`.as('count'))
      .where('pc.store_id', '=', p.store_id)
      .where('pc.mode', '=', p.mode)
      .where(caps.inList(sql.ref('pc.category_id'), p.category_ids))
      .where('pr.deleted_at', 'is', null);
    if (byStatus) query = query.where('pr.status', '=', p.status);
    return query;
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

/**
 * `sort=relevance` (decisions §17, core's catalog/relevance.ts): `3 - tier`, so that the list's
 * one direction (`desc`: rank, then `created_at`, then `id`) is tier 0 first. Tier 0: the
 * lower-cased name is `q`; 1: starts with it; 2: `name_words` (0024, core's `nameWordsText`)
 * contains `wordStartNeedle(q)`, i.e. `q` starts a word; else 3. Only exact comparisons of
 * stored lower-cased text, so SQLite, PostgreSQL and MariaDB rank alike: SQLite `=` and `instr`
 * (binary; cheaper than `LIKE` per row), the others `LIKE` with escaped patterns (MariaDB's `=`
 * ignores trailing spaces). The cursor lookup computes the anchor's rank with the same
 * expression and arguments (`relevanceArgs`).
 */
function relevanceRank(p: Slots<string>, { caps }: BuildContext) {
  const [equal, prefix, word] = [slot(p, 'rank_equal'), slot(p, 'rank_prefix'), slot(p, 'rank_word')];
  if (caps.dialect === 'sqlite') {
    return sql<number>`case when name_lower = ${equal} then 3 when instr(name_lower, ${prefix}) = 1 then 2 when instr(name_words, ${word}) > 0 then 1 else 0 end`;
  }
  const like = (column: string, pattern: never) => sql`${sql.ref(column)} like ${pattern} escape '\\'`;
  return sql<number>`case when ${like('name_lower', equal)} then 3 when ${like('name_lower', prefix)} then 2 when ${like('name_words', word)} then 1 else 0 end`;
}

/** The arguments of {@link relevanceRank} for `q`. */
function relevanceArgs(
  q: string,
  dialect: string,
): Record<'rank_equal' | 'rank_prefix' | 'rank_word', string> {
  const text = searchText(q);
  const needle = wordStartNeedle(q);
  if (dialect === 'sqlite') return { rank_equal: text, rank_prefix: text, rank_word: needle };
  const literal = likeLiteral(text);
  return { rank_equal: literal, rank_prefix: `${literal}%`, rank_word: `%${likeLiteral(needle)}%` };
}

/** `text` as a LIKE pattern matching itself (`\` escapes the wildcards). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A product's category memberships (0022_categories), removed before they are rewritten or on delete. */
const deleteMemberships = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('product_categories')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('product_id', '=', p.id),
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
  /** In any of the `category_ids` (a category and its descendants, decisions §17). */
  category: boolean;
  /** A collection's members (decisions §17): its member rows, or its rules (collection-filter below). */
  collection: CollectionShape | null;
  /** With `q`: the name translated into `q_locale` matches too (decisions §21, `translations_entity_unique`). */
  q_locale: boolean;
  /**
   * In a region (decisions §19) with a price bound or `sort=price` (its representative prices,
   * `region_product_prices`, 0031): `join` — `sort=price`, the page walks the region's price index
   * (`rp`) and reads each product by primary key; `exists` — another sort with price bounds, the
   * page walks the products in that sort's order (as without a region) and tests each one's row
   * in the region by primary key, so that a bound costs what it costs on `products.price`.
   */
  region: 'join' | 'exists' | null;
  /** With `join`: the page's order, whose index key the price bounds are written on (a range of it). */
  region_desc: boolean;
}

/**
 * The region's price sort key over `rp`: the index expression on SQLite and Postgres, its
 * generated column on MariaDB (0031).
 */
function regionPriceKeySql(dialect: string, desc: boolean) {
  if (dialect === 'mysql') return sql.raw(desc ? 'rp.price_desc_key' : 'rp.price_asc_key');
  return sql.raw(desc ? REGION_PRICE_DESC_KEY : REGION_PRICE_ASC_KEY);
}

/** {@link regionPriceKeySql} as a sort key of the list (`region_price`). */
function regionPriceKey(desc: boolean): SortKey {
  return (_p, { caps }) => regionPriceKeySql(caps.dialect, desc);
}

/**
 * A region's price bounds over `rp` as a range of the region's price index (0031): on its key
 * expression (`coalesce(rp.price, …)`, the sort's direction's) on SQLite and Postgres, with `price
 * is not null` (a null price never matches a bound); on the plain `price` column on MariaDB
 * (`region_product_prices_price_idx`).
 */
function regionBounds(
  dialect: string,
  desc: boolean,
  min: unknown,
  max: unknown,
): ReturnType<typeof sql<SqlBool>>[] {
  const key = regionPriceKeySql(dialect, desc);
  return [
    sql<SqlBool>`rp.price is not null`,
    ...(min === undefined ? [] : [sql<SqlBool>`${key} >= ${min}`]),
    ...(max === undefined ? [] : [sql<SqlBool>`${key} <= ${max}`]),
  ];
}

/**
 * `total_count` of a region list filtered by price bounds and at most a status (the storefront's
 * common case): the region's price index range, each product read by primary key — not a test of
 * every product of the scope.
 */
const regionBoundCount = shapedTemplate(
  (f: { min: boolean; max: boolean; status: boolean }) =>
    `${f.min ? 1 : 0}${f.max ? 1 : 0}${f.status ? 1 : 0}`,
  (
    { db, caps },
    p: Slots<'store_id' | 'mode' | 'region_id' | 'price_min' | 'price_max' | 'status'>,
    f: { min: boolean; max: boolean; status: boolean },
  ) => {
    let query = db
      .selectFrom('region_product_prices as rp')
      .innerJoin('products', (join) =>
        join
          .onRef('products.store_id', '=', 'rp.store_id')
          .onRef('products.mode', '=', 'rp.mode')
          .onRef('products.id', '=', 'rp.product_id'),
      )
      .select(sql<number | string>`count(*)`.as('count'))
      .where('rp.store_id', '=', p.store_id)
      .where('rp.mode', '=', p.mode)
      .where('rp.region_id', '=', p.region_id)
      .where('products.deleted_at', 'is', null);
    for (const bound of regionBounds(
      caps.dialect,
      false,
      f.min ? p.price_min : undefined,
      f.max ? p.price_max : undefined,
    )) {
      query = query.where(bound);
    }
    if (f.status) query = query.where('products.status', '=', p.status);
    return query;
  },
);

/**
 * `sort=price` in a region: the nulls-last keys of `region_product_prices_price_asc_idx` /
 * `_desc_idx` (0031; written identically to them), then `rp.product_id` (`idKey`), so that a
 * page walks the region's index range in order and reads each product by primary key.
 */
const REGION_PRICE_ASC_KEY = 'coalesce(rp.price, 9007199254740991)';
const REGION_PRICE_DESC_KEY = 'coalesce(rp.price, -1)';

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
      // Storefront, with `q` (decisions §17): see `relevanceRank`.
      relevance: [relevanceRank, 'created_at'],
      // By id only: a manual collection's matching members, read whole (`#inCollectionOrder`).
      member: [],
      // `sort=price` in a region (decisions §19): the region's representative prices.
      region_price: { asc: [regionPriceKey(false)], desc: [regionPriceKey(true)] },
    },
    filterKey: (f: ProductFilterShape) =>
      `${[f.status, f.type, f.q, f.tags, f.price_min, f.price_max].map((flag) => (flag ? 1 : 0)).join('')}${f.tagNeedles}${f.category ? 'c' : ''}${collectionKey(f.collection)}${f.q_locale ? 'l' : ''}${f.region === null ? '' : f.region[0]}${f.region_desc ? 'd' : ''}`,
    base: ({ db, caps }, p: Slots<'store_id' | 'mode' | 'region_id' | keyof ProductFilterShape>, f) => {
      let query = db.selectFrom('products');
      if (f.region === 'join' && caps.dialect === 'mysql') {
        // MariaDB reads `products` first unless told (then sorts every match through a temporary
        // table): STRAIGHT_JOIN keeps the region's price index outermost, in the page's order.
        query = db
          .selectFrom('region_product_prices as rp')
          .innerJoin('products', (join) =>
            join
              .onRef('products.store_id', '=', 'rp.store_id')
              .onRef('products.mode', '=', 'rp.mode')
              .onRef('products.id', '=', 'rp.product_id'),
          )
          .where('rp.store_id', '=', p.store_id)
          .where('rp.mode', '=', p.mode)
          .where('rp.region_id', '=', p.region_id)
          .modifyFront(sql`straight_join`) as unknown as typeof query;
      } else if (f.region === 'join') {
        query = query.innerJoin('region_product_prices as rp', (join) =>
          join
            .onRef('rp.store_id', '=', 'products.store_id')
            .onRef('rp.mode', '=', 'products.mode')
            .onRef('rp.product_id', '=', 'products.id')
            .on('rp.region_id', '=', p.region_id),
        ) as unknown as typeof query;
      }
      query = query
        .where('products.store_id', '=', p.store_id)
        .where('products.mode', '=', p.mode)
        .where('deleted_at', 'is', null);
      if (f.status) query = query.where('status', '=', p.status);
      if (f.type) query = query.where('type', '=', p.type);
      if (f.q && !f.q_locale) query = query.where(sql<SqlBool>`name_lower like ${p.q} escape '\\'`);
      // The base name, or its translation (one index lookup per product; decisions §21).
      if (f.q && f.q_locale) {
        query = query.where(
          sql<SqlBool>`(name_lower like ${p.q} escape '\\' or exists (select 1 from translations t where t.store_id = products.store_id and t.mode = products.mode and t.entity_type = 'product' and t.entity_id = products.id and t.locale = ${p.q_locale} and t.field = 'name' and t.value_lower like ${p.q} escape '\\'))`,
        );
      }
      for (let i = 0; i < f.tagNeedles; i++) {
        query = query.where(sql<SqlBool>`instr(tags, ${slot(p, `tag_needle${i}`)}) > 0`);
      }
      if (f.tags) query = query.where(caps.jsonArrayContainsAll(sql.ref('tags'), p.tags));
      if (f.region === 'exists' && caps.dialect === 'mysql') {
        // MariaDB flattens an EXISTS into a semi-join sorted through a temporary table that
        // holds every match's document; a correlated scalar subquery stays a key lookup per row.
        const price = sql`(select rp.price from region_product_prices rp where rp.store_id = products.store_id and rp.mode = products.mode and rp.region_id = ${p.region_id} and rp.product_id = products.id)`;
        query = query.where(
          f.price_min && f.price_max
            ? sql<SqlBool>`${price} between ${p.price_min} and ${p.price_max}`
            : f.price_min
              ? sql<SqlBool>`${price} >= ${p.price_min}`
              : sql<SqlBool>`${price} <= ${p.price_max}`,
        );
      } else if (f.region === 'exists') {
        const bounds = [
          ...(f.price_min ? [sql<SqlBool>`rp.price >= ${p.price_min}`] : []),
          ...(f.price_max ? [sql<SqlBool>`rp.price <= ${p.price_max}`] : []),
        ];
        query = query.where(
          sql<SqlBool>`exists (select 1 from region_product_prices rp where rp.store_id = products.store_id and rp.mode = products.mode and rp.region_id = ${p.region_id} and rp.product_id = products.id and ${sql.join(bounds, sql` and `)})`,
        );
      } else if (f.region === 'join') {
        const bounds = regionBounds(
          caps.dialect,
          f.region_desc,
          f.price_min ? p.price_min : undefined,
          f.price_max ? p.price_max : undefined,
        );
        if (f.price_min || f.price_max) for (const bound of bounds) query = query.where(bound);
      } else {
        if (f.price_min) query = query.where('price', '>=', p.price_min);
        if (f.price_max) query = query.where('price', '<=', p.price_max);
      }
      if (f.category) {
        // Not correlated: the members are read once (an index range per category), not per product.
        query = query.where(
          sql<SqlBool>`id in (select pc.product_id from product_categories pc where pc.store_id = ${p.store_id} and pc.mode = ${p.mode} and ${caps.inList(sql.ref('pc.category_id'), slot(p, 'category_ids'))})`,
        );
      }
      if (f.collection) query = query.where(collectionWhere(caps, p, f.collection));
      return query;
    },
    select,
    // No index orders by rank: choose the page's ids before building their documents.
    deferSelect: (sort) => sort === 'relevance',
    idKey: (sort) => (sort === 'region_price' ? 'rp.product_id' : 'id'),
    // The anchor's key in the region, from its row (the storefront checked it is shown).
    cursorQuery: (ctx, p, sort, keys) =>
      sort === 'region_price'
        ? (ctx.db
            .selectFrom('region_product_prices as rp')
            .select(
              keys.map((key, i) =>
                sql<unknown>`${typeof key === 'string' ? sql.raw(key) : key(p as Slots<string>, ctx)}`.as(
                  `k${i}`,
                ),
              ),
            )
            .where('rp.store_id', '=', p.store_id)
            .where('rp.mode', '=', p.mode)
            .where('rp.region_id', '=', slot(p as Slots<string>, 'region_id'))
            .where('rp.product_id', '=', p.id) as never)
        : undefined,
  });
}

/** Product pages as whole aggregate documents. */
const list = productList(({ caps }, query) =>
  query.select([
    'products.id',
    sql<unknown>`${sql.raw(productDocumentSql(caps.dialect, 'products'))}`.as('doc'),
  ]),
);

/** Product ids only (a manual collection's matching members, `#inCollectionOrder`). */
const listIds = productList((_ctx, query) => query.select('products.id'));

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
    await this.#insertMemberships(scope, product.id, product.category_ids ?? []);
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
    page: PageRequest<'created_at' | 'name' | 'price' | 'updated_at' | 'relevance'>,
  ): Promise<Page<ProductAggregate>> {
    const c = this.q.caps;
    const { shape, args, count } = this.#listArgs(
      scope,
      filter,
      page.sort === 'price',
      page.order === 'desc',
    );
    if (filter.collection?.type === 'manual' && filter.collection.in_order) {
      return this.#inCollectionOrder(scope, filter.collection.id, shape, args, page);
    }
    if (page.sort === 'relevance' && (!shape.q || page.order !== 'desc')) {
      // Core refuses these first (catalog/schemas.ts); a direct caller gets the same answer.
      const param = shape.q ? 'order' : 'sort';
      throw new CommerceError('parameter_invalid', `sort=relevance needs q and order=desc`, { param });
    }
    // In a region, `sort=price` is the region's representative price (decisions §19).
    const request = shape.region === 'join' ? { ...page, sort: 'region_price' } : page;
    return runKeysetList(
      this.q,
      list,
      scope,
      shape,
      args,
      request,
      (rows) => rows.map((row) => decodeProductDocument(scope, row.id, parseDocument(row.doc), c)),
      { count },
    );
  }

  /**
   * A manual collection's products in its order (decisions §17), whatever the page's sort: its
   * members (at most 250, with their positions; one index range), the ids among them that match
   * the whole filter (one id-only statement, all of them on one page), ordered by position in
   * memory; the page continues after `starting_after`'s position (a member, else 400 as for an
   * unknown id), and only the page's documents are read (rendering every member's document before
   * sorting cost SQLite 0.7 s at 100k products).
   */
  async #inCollectionOrder(
    scope: Scope,
    collectionId: string,
    shape: ProductFilterShape,
    args: Record<string, unknown>,
    page: PageRequest,
  ): Promise<Page<ProductAggregate>> {
    const c = this.q.caps;
    const members = await this.q.rows(memberRows, scoped(scope, { id: collectionId }));
    const position = new Map(members.map((row) => [row.product_id, Number(row.position)]));
    let from = -1;
    if (page.starting_after !== undefined) {
      const after = page.starting_after;
      const at = position.get(after);
      if (at === undefined) {
        throw new CommerceError('parameter_invalid', `No such object for starting_after: '${after}'`, {
          param: 'starting_after',
        });
      }
      from = at;
    }
    // By id, with the status test beside the membership: the primary key serves the lookups.
    const idShape: ProductFilterShape = {
      ...shape,
      status: false,
      collection: { type: 'manual', status: shape.status },
    };
    const matching = await runKeysetList(
      this.q,
      listIds,
      scope,
      idShape,
      args,
      { limit: MAX_MEMBERS_READ, sort: 'member', order: 'asc' },
      (rows) => rows.map((row) => row.id),
    );
    const at = (id: string) => position.get(id) ?? Number.MAX_SAFE_INTEGER;
    const ordered = matching.data.filter((id) => position.has(id)).sort((x, y) => at(x) - at(y));
    const rest = ordered.filter((id) => at(id) > from);
    const ids = rest.slice(0, page.limit);
    const rows = ids.length > 0 ? await this.q.rows(documentsByIds, scoped(scope, { ids: c.list(ids) })) : [];
    const byId = new Map(
      rows.map((row) => [row.id, decodeProductDocument(scope, row.id, parseDocument(row.doc), c)]),
    );
    const hasMore = rest.length > page.limit;
    return {
      data: ids.flatMap((id) => byId.get(id) ?? []),
      total_count: ordered.length,
      has_more: hasMore,
      next_cursor: hasMore ? (ids[ids.length - 1] ?? null) : null,
    };
  }

  /** The filter shape, filter arguments and (when counters answer it) the count of a product list. */
  #listArgs(scope: Scope, filter: ProductListFilter, byPrice = false, desc = false) {
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
      category: filter.category_ids !== undefined,
      collection: collectionShapeOf(filter.collection),
      q_locale: filter.q !== undefined && filter.q !== '' && filter.q_locale !== undefined,
      region:
        filter.region_id === undefined
          ? null
          : byPrice
            ? 'join'
            : filter.price_min !== undefined || filter.price_max !== undefined
              ? 'exists'
              : null,
      region_desc: filter.region_id !== undefined && byPrice && desc,
    };
    const args: Record<string, unknown> = {
      status: filter.status,
      type: filter.type,
      q: shape.q ? containsPattern(filter.q as string) : undefined,
      tags: tags ? c.json(tags) : undefined,
      price_min: filter.price_min,
      price_max: filter.price_max,
      category_ids: filter.category_ids ? c.list(filter.category_ids) : undefined,
      q_locale: filter.q_locale,
      region_id: filter.region_id,
    };
    needles.forEach((needle, i) => {
      args[`tag_needle${i}`] = needle;
    });
    collectionArgs(filter.collection, c, args);
    if (shape.q) {
      // `sort=relevance`'s arguments (`relevanceRank`); bound only by the statements that use them.
      const rank = relevanceArgs(filter.q as string, c.dialect);
      args.rank_equal = rank.rank_equal;
      args.rank_prefix = rank.rank_prefix;
      args.rank_word = rank.rank_word;
    }
    // Counters answer a status and at most one tag; any other filter counts the rows.
    const counted =
      !shape.type &&
      !shape.q &&
      !shape.price_min &&
      !shape.price_max &&
      !shape.category &&
      !shape.collection &&
      (tags?.length ?? 0) <= 1;
    // A category (and a status at most): counted from the memberships (see `categoryCount`).
    const byCategory =
      shape.category &&
      !shape.type &&
      !shape.q &&
      !shape.tags &&
      !shape.price_min &&
      !shape.price_max &&
      !shape.collection;
    // Price bounds in a region (and a status at most): counted on the region's price index.
    const byRegion =
      shape.region !== null &&
      (shape.price_min || shape.price_max) &&
      !shape.type &&
      !shape.q &&
      !shape.tags &&
      !shape.category &&
      !shape.collection;
    const count = byRegion
      ? async () =>
          Number(
            (
              await this.q.first(
                regionBoundCount,
                scoped(scope, {
                  region_id: filter.region_id,
                  price_min: filter.price_min,
                  price_max: filter.price_max,
                  status: filter.status,
                }),
                {
                  min: shape.price_min,
                  max: shape.price_max,
                  status: shape.status,
                },
              )
            )?.count ?? 0,
          )
      : counted
        ? () => this.#liveCount(scope, filter.status, tags?.[0])
        : byCategory
          ? () => this.#categoryCount(scope, filter.status, args.category_ids)
          : undefined;
    return { shape, args, count };
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      ProductRecord,
      | 'name'
      | 'slug'
      | 'description'
      | 'type'
      | 'status'
      | 'tags'
      | 'attributes'
      | 'metadata'
      | 'price'
      | 'category_ids'
    >,
  ): Promise<ProductRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        name_lower: patch.name?.toLowerCase(),
        name_words: patch.name === undefined ? undefined : nameWordsText(patch.name),
        slug: patch.slug,
        description: patch.description,
        type: patch.type,
        status: patch.status,
        tags: patch.tags === undefined ? undefined : c.json(patch.tags),
        attributes: patch.attributes === undefined ? undefined : c.json(patch.attributes),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        price: patch.price,
        category_ids: patch.category_ids === undefined ? undefined : c.json(patch.category_ids),
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
    if (patch.category_ids !== undefined) {
      // The membership rows follow the product row's list, in this transaction.
      await this.q.affected(deleteMemberships, scoped(scope, { id }));
      await this.#insertMemberships(scope, id, patch.category_ids);
    }
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
    await this.q.affected(deleteMemberships, scoped(scope, { id }));
    await this.q.affected(leaveCollections, scoped(scope, { id }));
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

  async pricedVariants(
    scope: Scope,
    which: { product_ids: readonly string[] } | { after: string | null; limit: number },
  ): Promise<PricedProduct[]> {
    const c = this.q.caps;
    const idRows =
      'product_ids' in which
        ? which.product_ids.length === 0
          ? []
          : await this.q.rows(liveProductIds, scoped(scope, { ids: c.list([...which.product_ids]) }))
        : await this.q.rows(
            livePricedIds,
            scoped(scope, { after: which.after, limit: which.limit }),
            which.after !== null,
          );
    if (idRows.length === 0) return [];
    const byId = new Map<string, PricedProduct>();
    for (const row of idRows) byId.set(row.id, { product_id: row.id, variants: [] });
    const variants = await this.q.rows(
      pricedVariantRows,
      scoped(scope, { ids: c.list(idRows.map((row) => row.id)) }),
    );
    for (const row of variants) {
      byId.get(row.product_id)?.variants.push({
        id: row.id,
        price: Number(row.price),
        compare_at_price: row.compare_at_price === null ? null : Number(row.compare_at_price),
        is_active: c.toBool(row.is_active),
      });
    }
    return [...byId.values()];
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
    return rows.map((row) => decodePurchasable(scope, row.doc, c));
  }

  /**
   * One statement ({@link purchasableForCart}) up to {@link PURCHASABLE_ID_SLOTS} extra ids; more
   * (no cart write has that many), the cart's variants and `getPurchasable` of the ids, both sent
   * at once, each variant kept once.
   */
  async getPurchasableForCart(
    scope: Scope,
    cart_id: string,
    extra_variant_ids: readonly string[],
  ): Promise<PurchasableVariant[]> {
    const c = this.q.caps;
    const ids = [...new Set(extra_variant_ids)];
    if (ids.length > PURCHASABLE_ID_SLOTS) {
      const [ofCart, extra] = await Promise.all([
        this.getPurchasableForCart(scope, cart_id, []),
        this.getPurchasable(scope, ids),
      ]);
      const seen = new Set(ofCart.map((entry) => entry.variant.id));
      return [...ofCart, ...extra.filter((entry) => !seen.has(entry.variant.id))];
    }
    const args: Record<string, unknown> & Args<ScopeSlots | 'cart_id'> = scoped(scope, { cart_id });
    for (let i = 0; i < ids.length; i++) args[`id${i}`] = ids[i];
    const rows = await this.q.rows(purchasableForCart, args, ids.length);
    return rows.map((row) => decodePurchasable(scope, row.doc, c));
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

  /** One `product_categories` row per category of the product, `position` its index in the list. */
  async #insertMemberships(scope: Scope, productId: string, categoryIds: readonly string[]): Promise<void> {
    if (categoryIds.length === 0) return;
    await insertRows(
      this.q,
      insertMembershipRow,
      'product_categories',
      categoryIds.map((category_id, position) => ({
        ...scope,
        product_id: productId,
        category_id,
        position,
      })),
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

  /** Live products (of `status`, or any) in any of the categories `list` (`caps.list`), see `categoryCount`. */
  async #categoryCount(scope: Scope, status: string | undefined, list: unknown): Promise<number> {
    const byStatus = status !== undefined;
    const row = await this.q.first(
      categoryCount,
      scoped(scope, { status: status ?? '', category_ids: list }),
      byStatus,
    );
    return Number(row?.count ?? 0);
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

/** A purchasable document ({@link purchasable}, {@link purchasableForCart}) as the port's record. */
function decodePurchasable(scope: Scope, value: unknown, c: DialectCapabilities): PurchasableVariant {
  const doc = parseDocument(value);
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
