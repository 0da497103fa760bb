import type { Scope } from '@cartwright/core';
import type {
  ImageRecord,
  InventoryRecord,
  JsonObject,
  OptionRecord,
  ProductAggregate,
  ProductStatus,
  ProductType,
  VariantWithInventory,
} from '@cartwright/core/storage';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';

/**
 * Catalog aggregates read as JSON built by the database: one value per product (or per
 * purchasable variant) holding its columns and its children, instead of one statement per child
 * table and one JS object per child row (moving values from the driver to JS costs more than the
 * database's JSON aggregation). SQLite builds JSON with json_array/json_group_array, Postgres
 * with json_build_array/json_agg; children are ordered in the aggregate (`order by`) exactly as
 * the per-table queries ordered them. Documents are positional arrays (no key names to build
 * and parse); the decoders below name the positions.
 *
 * The parts of a product that only catalog writes change — options, option values, live
 * variants (without inventory) and images — are kept ready as JSON in `product_documents`
 * (0002_catalog_read_path), rewritten by the product repository in the transaction of every
 * write to them (`documentUpsertSql`). A read joins that text with the product's columns and the
 * live inventory of its variants (which checkouts change), so a page of 20 products reads 20
 * document rows and the variants' inventory instead of five child tables.
 *
 * Encodings: JSON columns nest as JSON (SQLite wraps TEXT in `json()`), booleans are 0/1
 * (SQLite) or true/false (Postgres), bigints are JSON numbers, an empty child list is `[]`
 * (SQLite) or null (Postgres `json_agg` of no rows).
 *
 * `P` in the fragments is replaced by the alias of the outer products row.
 */

type Dialect = DialectCapabilities['dialect'];

interface Fragments {
  array: string;
  agg: (element: string, orderBy: string) => string;
  json: (column: string) => string;
}

const SQLITE: Fragments = {
  array: 'json_array',
  agg: (element, orderBy) => `json_group_array(${element} order by ${orderBy})`,
  json: (column) => `json(${column})`,
};

const POSTGRES: Fragments = {
  array: 'json_build_array',
  agg: (element, orderBy) => `json_agg(${element} order by ${orderBy})`,
  json: (column) => column,
};

/** MariaDB: JSON columns are text, `json_extract(…, '$')` nests them as JSON. */
const MYSQL: Fragments = {
  array: 'json_array',
  agg: (element, orderBy) => `json_arrayagg(${element} order by ${orderBy})`,
  json: (column) => `json_extract(${column}, '$')`,
};

const fragmentsOf = (dialect: Dialect): Fragments =>
  dialect === 'sqlite' ? SQLITE : dialect === 'mysql' ? MYSQL : POSTGRES;

const withAlias = (sql: string, alias: string): string => sql.replaceAll('P.', `${alias}.`);

/** A variant's own columns (positions: see {@link decodeVariantElement}); alias `v`. */
function variantColumns(f: Fragments): string {
  return `v.id, v.sku, v.barcode, v.price, v.compare_at_price, v.cost_price, v.currency, v.weight, v.is_active, ${f.json('v.option_value_ids')}, v.position, ${f.json('v.metadata')}, v.created_at, v.updated_at, v.width, v.height, v.depth`;
}

/** An inventory row's columns (positions 17…26 of a variant element); alias `i`. */
function inventoryColumns(f: Fragments): string {
  return `i.id, i.product_id, i.track_inventory, i.allow_backorder, i.safety_stock, i.on_hand, i.reserved, ${f.json('i.metadata')}, i.created_at, i.updated_at`;
}

const LIVE_VARIANTS =
  'v.store_id = P.store_id and v.mode = P.mode and v.product_id = P.id and v.deleted_at is null';

/**
 * The catalog-written children of product `P` as one JSON array: options, option values,
 * live variants (own columns only) and images, each in display order.
 */
function childrenSql(f: Fragments): string {
  return `${f.array}(
  (select ${f.agg(`${f.array}(o.id, o.name, o.position)`, 'o.position, o.id')} from product_options o
    where o.store_id = P.store_id and o.mode = P.mode and o.product_id = P.id),
  (select ${f.agg(`${f.array}(ov.option_id, ov.id, ov.value, ov.position)`, 'ov.position, ov.id')} from product_option_values ov
    where ov.store_id = P.store_id and ov.mode = P.mode and ov.product_id = P.id),
  (select ${f.agg(`${f.array}(${variantColumns(f)})`, 'v.position, v.id')} from product_variants v where ${LIVE_VARIANTS}),
  (select ${f.agg(`${f.array}(im.id, im.url, im.alt_text, im.position, im.width, im.height, ${f.json('im.variant_ids')})`, 'im.position, im.id')} from product_images im
    where im.store_id = P.store_id and im.mode = P.mode and im.product_id = P.id))`;
}

/** The ids of product `P`'s live variants as a JSON array (never null). */
function variantIdsSql(dialect: Dialect): string {
  if (dialect === 'mysql')
    return `coalesce((select json_arrayagg(v.id) from product_variants v where ${LIVE_VARIANTS}), json_array())`;
  return dialect === 'sqlite'
    ? `(select json_group_array(v.id) from product_variants v where ${LIVE_VARIANTS})`
    : `coalesce((select json_agg(v.id) from product_variants v where ${LIVE_VARIANTS}), '[]'::json)`;
}

/**
 * The format of the documents this module writes, stored per row in
 * `product_documents.format_version` (0017_storefront_read_model). Change it with any change to
 * what {@link documentUpsertSql} writes: `storage.migrate()` then rebuilds every live product's
 * document whose row carries another value, or none (rebuild-documents.ts) — derived data is
 * rebuilt by the application, never by a migration.
 */
export const CATALOG_DOCUMENT_VERSION = 2;

/**
 * `INSERT … SELECT` (re)writing the `product_documents` row of every products row (alias `p`)
 * matching `where`: an upsert, so that it both creates and refreshes. `formatVersion`: the value
 * stored in `format_version` ({@link CATALOG_DOCUMENT_VERSION} for the repository and
 * the rebuild).
 */
export function documentUpsertSql(dialect: Dialect, where: string, formatVersion: number): string {
  const f = fragmentsOf(dialect);
  return `insert into product_documents (store_id, mode, product_id, children, variant_ids, format_version)
select p.store_id, p.mode, p.id, ${withAlias(childrenSql(f), 'p')}, ${withAlias(variantIdsSql(dialect), 'p')}, ${Math.trunc(formatVersion)}
from products p where ${where}
${
  dialect === 'mysql'
    ? 'on duplicate key update children = values(children), variant_ids = values(variant_ids), format_version = values(format_version)'
    : 'on conflict (store_id, mode, product_id) do update set children = excluded.children, variant_ids = excluded.variant_ids, format_version = excluded.format_version'
}`;
}

/**
 * The document of the products row aliased `alias`, as JSON text: `[columns, children,
 * inventory]` — the product's own columns, its `product_documents.children`, and the inventory
 * rows of its live variants (variant id first). Null when the product has no document row.
 */
export function productDocumentSql(dialect: Dialect, alias: string): string {
  const f = fragmentsOf(dialect);
  const columns = `${f.array}(P.name, P.slug, P.description, P.type, P.status, ${f.json('P.tags')}, ${f.json('P.attributes')}, ${f.json('P.metadata')}, P.price, P.currency, P.created_at, P.updated_at, ${f.json('P.category_ids')})`;
  const inventory = `${f.array}(i.variant_id, ${inventoryColumns(f)})`;
  const sql =
    dialect === 'mysql'
      ? `(select '[' || ${columns} || ',' || d.children || ',' || coalesce((select json_arrayagg(${inventory})
          from json_table(d.variant_ids, '$[*]' columns (id varchar(191) path '$')) e inner join inventory_items i
          on i.store_id = d.store_id and i.mode = d.mode and i.variant_id = e.id), '[]') || ']'
        from product_documents d where d.store_id = P.store_id and d.mode = P.mode and d.product_id = P.id)`
      : dialect === 'sqlite'
        ? // CROSS JOIN keeps json_each outermost (SQLite does not reorder it): one key lookup per id.
          `(select '[' || ${columns} || ',' || d.children || ',' || (select json_group_array(${inventory})
          from json_each(d.variant_ids) e cross join inventory_items i
          where i.store_id = d.store_id and i.mode = d.mode and i.variant_id = e.value) || ']'
        from product_documents d where d.store_id = P.store_id and d.mode = P.mode and d.product_id = P.id)`
        : // A LATERAL lookup per id (LIMIT 1 keeps the planner from flattening it into a join, which
          // it may hash over the whole scope's inventory when the tables have no statistics yet).
          `(select '[' || ${columns}::text || ',' || d.children::text || ',' || coalesce((select json_agg(${inventory})
          from json_array_elements_text(d.variant_ids) as e(id) cross join lateral (select * from inventory_items i
            where i.store_id = d.store_id and i.mode = d.mode and i.variant_id = e.id limit 1) as i)::text, '[]') || ']'
        from product_documents d where d.store_id = P.store_id and d.mode = P.mode and d.product_id = P.id)`;
  return withAlias(sql, alias);
}

/** A variant element with its inventory (positions: see {@link decodeVariantElement}); `v` and `i` aliases. */
function variantElement(f: Fragments): string {
  return `${f.array}(${variantColumns(f)}, ${inventoryColumns(f)})`;
}

const INVENTORY_JOIN =
  'inner join inventory_items i on i.store_id = v.store_id and i.mode = v.mode and i.variant_id = v.id';

/**
 * `UPDATE product_variants AS v SET option_value_names, image_url` of the live variants matching
 * `where` (over `v`): the names of each variant's option values in `option_value_ids` order
 * (unknown ids skipped) and its image url (the first image attached to the variant, else the
 * product's first image, by position, id). The product repository runs it in the transaction of
 * every catalog write to a product (they depend on its option values, variants and images), so
 * that a purchase reads them with the variant row instead of computing them.
 */
export function variantPurchaseUpdateSql(dialect: Dialect, where: string): string {
  const names =
    dialect === 'mysql'
      ? `(select json_arrayagg(ov.value order by e.ord) from json_table(v.option_value_ids, '$[*]' columns (ord for ordinality, id varchar(191) path '$')) e
          inner join product_option_values ov on ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.id)`
      : dialect === 'sqlite'
        ? // CROSS JOIN keeps json_each outermost (SQLite does not reorder it): one key lookup per id.
          `(select json_group_array(ov.value order by e.key) from json_each(v.option_value_ids) e
          cross join product_option_values ov where ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.value)`
        : `(select jsonb_agg(ov.value order by e.ord) from jsonb_array_elements_text(v.option_value_ids) with ordinality as e(id, ord)
          inner join product_option_values ov on ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.id)`;
  const images = 'im.store_id = v.store_id and im.mode = v.mode and im.product_id = v.product_id';
  // SQLite: `instr` on the JSON text (which always holds `"<id>"` when the id is an element) skips
  // most images before the exact json_each test; Postgres tests containment directly.
  const attached =
    dialect === 'mysql'
      ? 'json_contains(im.variant_ids, json_quote(v.id))'
      : dialect === 'sqlite'
        ? `instr(im.variant_ids, '"' || v.id || '"') > 0 and exists (select 1 from json_each(im.variant_ids) e where e.value = v.id)`
        : 'im.variant_ids @> jsonb_build_array(v.id)';
  const imageUrl = `coalesce(
    (select im.url from product_images im where ${images} and ${attached} order by im.position, im.id limit 1),
    (select im.url from product_images im where ${images} order by im.position, im.id limit 1))`;
  return `update product_variants as v set option_value_names = ${names}, image_url = ${imageUrl}
where v.deleted_at is null and ${where}`;
}

/**
 * The document of a purchasable variant (`v`, its inventory `i`, its product `p`): the variant
 * element (nested), then its product's id, name, status, type, tags and deleted flag, the
 * variant's kept option value names and image url (see {@link variantPurchaseUpdateSql}), and
 * its product's option names in position order (an index range of `product_options_product_idx`
 * per variant; null or `[]` without options), which pair with the value names (decisions §22:
 * cart items' and order lines' `option_values`).
 */
export function purchasableDocumentSql(dialect: Dialect): string {
  const f = fragmentsOf(dialect);
  const deleted = dialect === 'sqlite' ? '(p.deleted_at is not null)' : 'p.deleted_at is not null';
  const optionNames = `(select ${f.agg('o.name', 'o.position, o.id')} from product_options o
    where o.store_id = v.store_id and o.mode = v.mode and o.product_id = v.product_id)`;
  return `${f.array}(${variantElement(f)}, v.product_id, p.name, p.status, p.type, ${f.json('p.tags')}, ${deleted}, ${f.json('v.option_value_names')}, v.image_url, ${f.json(optionNames)})`;
}

/** Joins of {@link purchasableDocumentSql} after `from product_variants v`. */
export const PURCHASABLE_JOINS = `${INVENTORY_JOIN}
  inner join products p on p.store_id = v.store_id and p.mode = v.mode and p.id = v.product_id`;

// ---------------------------------------------------------------- decoding

type Element = readonly unknown[];

/** A document as the driver returns it: JSON text (product documents on both engines, SQLite's
 * purchasable documents) or already parsed (Postgres json). */
export function parseDocument(value: unknown): Element {
  if (typeof value === 'string') return JSON.parse(value) as Element;
  if (Array.isArray(value)) return value;
  throw new Error('Catalog document missing (product_documents out of date?)');
}

const list = (value: unknown): readonly Element[] => (value as Element[] | null) ?? [];

/**
 * A variant from its own columns `v` (positions 0…16 of {@link variantColumns}) and its
 * inventory columns found in `inv` from position `at` (see `inventoryColumns`).
 */
function decodeVariant(
  scope: Scope,
  productId: string,
  v: Element,
  inv: Element,
  at: number,
  c: DialectCapabilities,
): VariantWithInventory {
  const id = v[0] as string;
  const inventory: InventoryRecord = {
    id: inv[at] as string,
    store_id: scope.store_id,
    mode: scope.mode,
    variant_id: id,
    product_id: inv[at + 1] as string,
    track_inventory: c.toBool(inv[at + 2]),
    allow_backorder: c.toBool(inv[at + 3]),
    safety_stock: inv[at + 4] as number,
    on_hand: inv[at + 5] as number,
    reserved: inv[at + 6] as number,
    metadata: inv[at + 7] as JsonObject,
    created_at: inv[at + 8] as number,
    updated_at: inv[at + 9] as number,
  };
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    product_id: productId,
    sku: v[1] as string | null,
    barcode: v[2] as string | null,
    price: v[3] as number,
    compare_at_price: v[4] as number | null,
    cost_price: v[5] as number | null,
    currency: v[6] as string,
    weight: v[7] as number | null,
    is_active: c.toBool(v[8]),
    option_value_ids: v[9] as string[],
    position: v[10] as number,
    metadata: v[11] as JsonObject,
    created_at: v[12] as number,
    updated_at: v[13] as number,
    width: (v[14] as number | null | undefined) ?? null,
    height: (v[15] as number | null | undefined) ?? null,
    depth: (v[16] as number | null | undefined) ?? null,
    inventory,
  };
}

/** Decodes a variant element with its inventory (see `variantElement`). */
export function decodeVariantElement(
  scope: Scope,
  productId: string,
  e: Element,
  c: DialectCapabilities,
): VariantWithInventory {
  return decodeVariant(scope, productId, e, e, 17, c);
}

/** Decodes a product document (see {@link productDocumentSql}) of the product `id`. */
export function decodeProductDocument(
  scope: Scope,
  id: string,
  doc: Element,
  c: DialectCapabilities,
): ProductAggregate {
  const columns = doc[0] as Element;
  const children = doc[1] as Element;
  const stock = new Map<string, Element>();
  for (const row of list(doc[2])) stock.set(row[0] as string, row);
  const options: OptionRecord[] = [];
  const optionById = new Map<string, OptionRecord>();
  for (const o of list(children[0])) {
    const option: OptionRecord = {
      id: o[0] as string,
      product_id: id,
      name: o[1] as string,
      position: o[2] as number,
      values: [],
    };
    options.push(option);
    optionById.set(option.id, option);
  }
  for (const v of list(children[1])) {
    const option = optionById.get(v[0] as string);
    option?.values.push({
      id: v[1] as string,
      option_id: option.id,
      value: v[2] as string,
      position: v[3] as number,
    });
  }
  // Variants without an inventory row are left out, as the inner join of variants and
  // inventory always did.
  const variants: VariantWithInventory[] = [];
  for (const v of list(children[2])) {
    const inventory = stock.get(v[0] as string);
    if (inventory) variants.push(decodeVariant(scope, id, v, inventory, 1, c));
  }
  const images = list(children[3]).map(
    (im): ImageRecord => ({
      id: im[0] as string,
      product_id: id,
      url: im[1] as string,
      alt_text: im[2] as string | null,
      position: im[3] as number,
      width: im[4] as number | null,
      height: im[5] as number | null,
      variant_ids: im[6] as string[],
    }),
  );
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    name: columns[0] as string,
    slug: columns[1] as string,
    description: columns[2] as string | null,
    type: columns[3] as ProductType,
    status: columns[4] as ProductStatus,
    tags: columns[5] as string[],
    attributes: columns[6] as JsonObject,
    metadata: columns[7] as JsonObject,
    price: columns[8] as number | null,
    currency: columns[9] as string,
    created_at: columns[10] as number,
    updated_at: columns[11] as number,
    category_ids: (columns[12] as string[] | undefined) ?? [],
    options,
    variants,
    images,
  };
}

/** Purchasable document positions (see {@link purchasableDocumentSql}). */
export const PURCHASABLE = {
  variant: 0,
  productId: 1,
  productName: 2,
  productStatus: 3,
  productType: 4,
  productTags: 5,
  productDeleted: 6,
  valueNames: 7,
  imageUrl: 8,
  optionNames: 9,
} as const;
