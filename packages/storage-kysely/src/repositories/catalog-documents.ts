import type {
  ImageRecord,
  InventoryRecord,
  JsonObject,
  OptionRecord,
  ProductAggregate,
  ProductStatus,
  ProductType,
  Scope,
  VariantWithInventory,
} from '@cartwright/core';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';

/**
 * Catalog aggregates read as JSON documents built by the database: one value per product (or
 * per purchasable variant) holding its columns and its children, instead of one statement per
 * child table and one JS object per child row (moving values from the driver to JS costs more
 * than the database's JSON aggregation). SQLite builds them with json_array/json_group_array,
 * Postgres with json_build_array/json_agg; children are ordered in the aggregate (`order by`),
 * exactly as the per-table queries ordered them. Documents are positional arrays (no key names
 * to build and parse); the decoders below name the positions.
 *
 * Encodings inside a document: JSON columns nest as JSON (SQLite wraps TEXT in `json()`),
 * booleans are 0/1 (SQLite) or true/false (Postgres), bigints are JSON numbers, an empty child
 * list is `[]` (SQLite) or null (Postgres `json_agg` of no rows).
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

const fragmentsOf = (dialect: Dialect): Fragments => (dialect === 'sqlite' ? SQLITE : POSTGRES);

/** A variant with its inventory (positions: see {@link decodeVariantElement}); `v` and `i` aliases. */
function variantElement(f: Fragments): string {
  return `${f.array}(v.id, v.sku, v.barcode, v.price, v.compare_at_price, v.cost_price, v.currency, v.weight, v.is_active, ${f.json('v.option_value_ids')}, v.position, ${f.json('v.metadata')}, v.created_at, v.updated_at, i.id, i.product_id, i.track_inventory, i.allow_backorder, i.safety_stock, i.on_hand, i.reserved, ${f.json('i.metadata')}, i.created_at, i.updated_at)`;
}

const INVENTORY_JOIN =
  'inner join inventory_items i on i.store_id = v.store_id and i.mode = v.mode and i.variant_id = v.id';

/**
 * The document of the products row aliased `alias`: its columns, then its options, their
 * values, its live variants with inventory and its images, each in display order.
 */
export function productDocumentSql(dialect: Dialect, alias: string): string {
  const f = fragmentsOf(dialect);
  const sql = `${f.array}(P.name, P.slug, P.description, P.type, P.status, ${f.json('P.tags')}, ${f.json('P.attributes')}, ${f.json('P.metadata')}, P.price, P.currency, P.created_at, P.updated_at,
  (select ${f.agg(`${f.array}(o.id, o.name, o.position)`, 'o.position, o.id')} from product_options o
    where o.store_id = P.store_id and o.mode = P.mode and o.product_id = P.id),
  (select ${f.agg(`${f.array}(ov.option_id, ov.id, ov.value, ov.position)`, 'ov.position, ov.id')} from product_option_values ov
    where ov.store_id = P.store_id and ov.mode = P.mode and ov.product_id = P.id),
  (select ${f.agg(variantElement(f), 'v.position, v.id')} from product_variants v ${INVENTORY_JOIN}
    where v.store_id = P.store_id and v.mode = P.mode and v.product_id = P.id and v.deleted_at is null),
  (select ${f.agg(`${f.array}(im.id, im.url, im.alt_text, im.position, im.width, im.height, ${f.json('im.variant_ids')})`, 'im.position, im.id')} from product_images im
    where im.store_id = P.store_id and im.mode = P.mode and im.product_id = P.id))`;
  return sql.replaceAll('P.', `${alias}.`);
}

/**
 * The document of a purchasable variant (`v`, its inventory `i`, its product `p`): the variant
 * element (nested), then its product's id, name, status, type, tags and deleted flag, the names of the
 * variant's option values in `option_value_ids` order (unknown ids skipped), and the image url
 * (the first image attached to the variant, else the product's first image, by position, id).
 */
export function purchasableDocumentSql(dialect: Dialect): string {
  const f = fragmentsOf(dialect);
  const names =
    dialect === 'sqlite'
      ? // CROSS JOIN keeps json_each outermost (SQLite does not reorder it): one key lookup per id.
        `(select json_group_array(ov.value order by e.key) from json_each(v.option_value_ids) e
          cross join product_option_values ov where ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.value)`
      : `(select json_agg(ov.value order by e.ord) from jsonb_array_elements_text(v.option_value_ids) with ordinality as e(id, ord)
          inner join product_option_values ov on ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.id)`;
  const images = 'im.store_id = v.store_id and im.mode = v.mode and im.product_id = v.product_id';
  // SQLite: `instr` on the JSON text (which always holds `"<id>"` when the id is an element) skips
  // most images before the exact json_each test; Postgres tests containment directly.
  const attached =
    dialect === 'sqlite'
      ? `instr(im.variant_ids, '"' || v.id || '"') > 0 and exists (select 1 from json_each(im.variant_ids) e where e.value = v.id)`
      : 'im.variant_ids @> jsonb_build_array(v.id)';
  const imageUrl = `coalesce(
    (select im.url from product_images im where ${images} and ${attached} order by im.position, im.id limit 1),
    (select im.url from product_images im where ${images} order by im.position, im.id limit 1))`;
  const deleted = dialect === 'sqlite' ? '(p.deleted_at is not null)' : 'p.deleted_at is not null';
  return `${f.array}(${variantElement(f)}, v.product_id, p.name, p.status, p.type, ${f.json('p.tags')}, ${deleted}, ${names}, ${imageUrl})`;
}

/** Joins of {@link purchasableDocumentSql} after `from product_variants v`. */
export const PURCHASABLE_JOINS = `${INVENTORY_JOIN}
  inner join products p on p.store_id = v.store_id and p.mode = v.mode and p.id = v.product_id`;

// ---------------------------------------------------------------- decoding

type Element = readonly unknown[];

/** A document as the driver returns it (JSON text on SQLite, parsed on Postgres). */
export function parseDocument(value: unknown, c: DialectCapabilities): Element {
  return c.parseJson<Element>(value);
}

const list = (value: unknown): readonly Element[] => (value as Element[] | null) ?? [];

/** Decodes a variant element (see `variantElement`). */
export function decodeVariantElement(
  scope: Scope,
  productId: string,
  e: Element,
  c: DialectCapabilities,
): VariantWithInventory {
  const mode = scope.mode;
  const id = e[0] as string;
  const inventory: InventoryRecord = {
    id: e[14] as string,
    store_id: scope.store_id,
    mode,
    variant_id: id,
    product_id: e[15] as string,
    track_inventory: c.toBool(e[16]),
    allow_backorder: c.toBool(e[17]),
    safety_stock: e[18] as number,
    on_hand: e[19] as number,
    reserved: e[20] as number,
    metadata: e[21] as JsonObject,
    created_at: e[22] as number,
    updated_at: e[23] as number,
  };
  return {
    id,
    store_id: scope.store_id,
    mode,
    product_id: productId,
    sku: e[1] as string | null,
    barcode: e[2] as string | null,
    price: e[3] as number,
    compare_at_price: e[4] as number | null,
    cost_price: e[5] as number | null,
    currency: e[6] as string,
    weight: e[7] as number | null,
    is_active: c.toBool(e[8]),
    option_value_ids: e[9] as string[],
    position: e[10] as number,
    metadata: e[11] as JsonObject,
    created_at: e[12] as number,
    updated_at: e[13] as number,
    inventory,
  };
}

/** Decodes a product document (see {@link productDocumentSql}) of the product `id`. */
export function decodeProductDocument(
  scope: Scope,
  id: string,
  doc: Element,
  c: DialectCapabilities,
): ProductAggregate {
  const options: OptionRecord[] = [];
  const optionById = new Map<string, OptionRecord>();
  for (const o of list(doc[12])) {
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
  for (const v of list(doc[13])) {
    const option = optionById.get(v[0] as string);
    option?.values.push({
      id: v[1] as string,
      option_id: option.id,
      value: v[2] as string,
      position: v[3] as number,
    });
  }
  const variants = list(doc[14]).map((e) => decodeVariantElement(scope, id, e, c));
  const images = list(doc[15]).map(
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
    name: doc[0] as string,
    slug: doc[1] as string,
    description: doc[2] as string | null,
    type: doc[3] as ProductType,
    status: doc[4] as ProductStatus,
    tags: doc[5] as string[],
    attributes: doc[6] as JsonObject,
    metadata: doc[7] as JsonObject,
    price: doc[8] as number | null,
    currency: doc[9] as string,
    created_at: doc[10] as number,
    updated_at: doc[11] as number,
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
} as const;
