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
  Scope,
  VariantRecord,
  VariantWithInventory,
} from '@cartwright/core';
import { CommerceError } from '@cartwright/core';
import { type Selectable, type SqlBool, sql } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { ProductsTable, ProductVariantsTable } from '../schema/database';
import { PRICE_ASC_KEY, PRICE_DESC_KEY } from '../schema/sort-keys';
import {
  containsPattern,
  decodeAliasedInventory,
  decodeImage,
  decodeProduct,
  decodeVariant,
  encodeImage,
  encodeInventory,
  encodeProduct,
  encodeVariant,
  INVENTORY_ALIASES,
  type InventoryAliasColumns,
  representativePrice,
} from './catalog-codecs';

type ScopeSlots = 'store_id' | 'mode';

const insertProduct = insertTemplate('products');
const insertOption = insertTemplate('product_options');
const insertOptionValue = insertTemplate('product_option_values');
const insertVariantRow = insertTemplate('product_variants');
const insertInventoryRow = insertTemplate('inventory_items');
const insertImageRow = insertTemplate('product_images');

const productById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('products')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);
const productBySlug = template(({ db }, p: Slots<ScopeSlots | 'slug'>) =>
  db
    .selectFrom('products')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('slug', '=', p.slug)
    .where('deleted_at', 'is', null),
);
const productsByIds = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('products')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('id'), p.ids))
    .where('deleted_at', 'is', null),
);

/** Options of many products with their values (one query), in display order. */
const optionsOfProducts = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('product_options as o')
    .leftJoin('product_option_values as v', (join) =>
      join
        .onRef('v.store_id', '=', 'o.store_id')
        .onRef('v.mode', '=', 'o.mode')
        .onRef('v.option_id', '=', 'o.id'),
    )
    .select([
      'o.id as option_id',
      'o.product_id',
      'o.name',
      'o.position as option_position',
      'v.id as value_id',
      'v.value',
      'v.position as value_position',
    ])
    .where('o.store_id', '=', p.store_id)
    .where('o.mode', '=', p.mode)
    .where(caps.inList(sql.ref('o.product_id'), p.ids))
    .orderBy('o.product_id')
    .orderBy('o.position')
    .orderBy('o.id')
    .orderBy('v.position')
    .orderBy('v.id'),
);

/** Variants (not deleted) with their inventory, by product or by variant id. */
const variantsWith = (by: 'product_id' | 'id') =>
  template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
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
      .where(caps.inList(sql.ref(`v.${by}`), p.ids))
      .where('v.deleted_at', 'is', null)
      .orderBy('v.product_id')
      .orderBy('v.position')
      .orderBy('v.id'),
  );
const variantsOfProducts = variantsWith('product_id');
const variantsById = variantsWith('id');

const imagesOfProducts = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('product_images')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('product_id'), p.ids))
    .orderBy('product_id')
    .orderBy('position')
    .orderBy('id'),
);

/** Variants with inventory and product fields; image_url prefers an image attached to the variant. */
const purchasable = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('product_variants as v')
    .innerJoin('inventory_items as i', (join) =>
      join
        .onRef('i.store_id', '=', 'v.store_id')
        .onRef('i.mode', '=', 'v.mode')
        .onRef('i.variant_id', '=', 'v.id'),
    )
    .innerJoin('products as p', (join) =>
      join
        .onRef('p.store_id', '=', 'v.store_id')
        .onRef('p.mode', '=', 'v.mode')
        .onRef('p.id', '=', 'v.product_id'),
    )
    .selectAll('v')
    .select(INVENTORY_ALIASES)
    .select([
      'p.name as product_name',
      'p.status as product_status',
      'p.type as product_type',
      'p.tags as product_tags',
      'p.deleted_at as product_deleted_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('product_images as im')
        .select('im.url')
        .whereRef('im.store_id', '=', 'v.store_id')
        .whereRef('im.mode', '=', 'v.mode')
        .whereRef('im.product_id', '=', 'v.product_id')
        .orderBy(
          sql`case when ${caps.jsonArrayContains(sql.ref('im.variant_ids'), sql.ref('v.id'))} then 0 else 1 end`,
        )
        .orderBy('im.position')
        .orderBy('im.id')
        .limit(1)
        .as('image_url'),
    )
    .where('v.store_id', '=', p.store_id)
    .where('v.mode', '=', p.mode)
    .where(caps.inList(sql.ref('v.id'), p.ids))
    .where('v.deleted_at', 'is', null),
);

const optionValuesById = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('product_option_values')
    .select(['id', 'value'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('id'), p.ids)),
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

/** Maintains `products.price`: the cheapest active, non-deleted variant (decisions §7). */
const recomputePrice = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .updateTable('products')
    .set((eb) => ({
      price: eb
        .selectFrom('product_variants as v')
        .select((inner) => inner.fn.min('v.price').as('price'))
        .whereRef('v.store_id', '=', 'products.store_id')
        .whereRef('v.mode', '=', 'products.mode')
        .whereRef('v.product_id', '=', 'products.id')
        .where(sql<SqlBool>`v.is_active = true`)
        .where('v.deleted_at', 'is', null),
    }))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
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
    .where('deleted_at', 'is', null),
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
  price_min: boolean;
  price_max: boolean;
}

const list = keysetList({
  table: 'products',
  sorts: {
    created_at: ['created_at'],
    name: ['name_lower'],
    price: { asc: [PRICE_ASC_KEY], desc: [PRICE_DESC_KEY] },
  },
  filterKey: (f: ProductFilterShape) =>
    [f.status, f.type, f.q, f.tags, f.price_min, f.price_max].map((flag) => (flag ? 1 : 0)).join(''),
  base: ({ db, caps }, p: Slots<'store_id' | 'mode' | keyof ProductFilterShape>, f) => {
    let query = db
      .selectFrom('products')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('deleted_at', 'is', null);
    if (f.status) query = query.where('status', '=', p.status);
    if (f.type) query = query.where('type', '=', p.type);
    if (f.q) query = query.where(sql<SqlBool>`name_lower like ${p.q} escape '\\'`);
    if (f.tags) query = query.where(caps.jsonArrayContainsAll(sql.ref('tags'), p.tags));
    if (f.price_min) query = query.where('price', '>=', p.price_min);
    if (f.price_max) query = query.where('price', '<=', p.price_max);
    return query;
  },
});

type VariantJoinRow = Selectable<ProductVariantsTable> & InventoryAliasColumns;

/**
 * Products with options, variants (with inventory) and images. Aggregates load in four
 * queries whatever their number (products, options+values, variants+inventory, images).
 * SKU uniqueness is checked before writing so that `param` names the offending variant
 * (`variants[i].sku`); the unique index remains the final guard under concurrency.
 */
export class KyselyProductRepository implements ProductRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(product: ProductAggregate): Promise<void> {
    const c = this.q.caps;
    const scope = { store_id: product.store_id, mode: product.mode };
    await this.#assertSkusFree(
      scope,
      product.variants.map((variant) => variant.sku),
      (i) => `variants[${i}].sku`,
    );
    const price = representativePrice(product.variants);
    await insertRows(this.q, insertProduct, 'products', [encodeProduct(product, price, c)]);
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
      throw index >= 0 ? duplicateSku(`variants[${index}].sku`) : error;
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
  }

  async get(scope: Scope, id: string): Promise<ProductAggregate | null> {
    const row = await this.q.first(productById, { ...scope, id });
    return row ? ((await this.#load(scope, [row]))[0] ?? null) : null;
  }

  async getBySlug(scope: Scope, slug: string): Promise<ProductAggregate | null> {
    const row = await this.q.first(productBySlug, { ...scope, slug });
    return row ? ((await this.#load(scope, [row]))[0] ?? null) : null;
  }

  async getMany(scope: Scope, ids: string[]): Promise<ProductAggregate[]> {
    if (ids.length === 0) return [];
    const rows = await this.q.rows(productsByIds, { ...scope, ids: this.q.caps.list(ids) });
    const byId = new Map((await this.#load(scope, rows)).map((product) => [product.id, product]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  list(
    scope: Scope,
    filter: ProductListFilter,
    page: PageRequest<'created_at' | 'name' | 'price'>,
  ): Promise<Page<ProductAggregate>> {
    const c = this.q.caps;
    const tags = filter.tags?.length ? filter.tags : undefined;
    const shape: ProductFilterShape = {
      status: filter.status !== undefined,
      type: filter.type !== undefined,
      q: filter.q !== undefined && filter.q !== '',
      tags: tags !== undefined,
      price_min: filter.price_min !== undefined,
      price_max: filter.price_max !== undefined,
    };
    const args = {
      status: filter.status,
      type: filter.type,
      q: shape.q ? containsPattern(filter.q as string) : undefined,
      tags: tags ? c.json(tags) : undefined,
      price_min: filter.price_min,
      price_max: filter.price_max,
    };
    return runKeysetList(this.q, list, scope, shape, args, page, (rows) => this.#load(scope, rows));
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      ProductRecord,
      'name' | 'slug' | 'description' | 'type' | 'status' | 'tags' | 'attributes' | 'metadata'
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
        updated_at: patch.updated_at,
      },
      { ...scope, id },
    );
    const row = await this.q.first(updateProduct, args, shape);
    return row ? decodeProduct(row, c) : null;
  }

  async delete(scope: Scope, id: string, at: number): Promise<boolean> {
    const deleted = await this.q.affected(softDeleteProduct, { ...scope, id, at });
    if (deleted === 0) return false;
    await this.q.affected(softDeleteVariantsOfProduct, { ...scope, id, at });
    return true;
  }

  async insertOptions(scope: Scope, options: OptionRecord[]): Promise<void> {
    const byProduct = new Map<string, OptionRecord[]>();
    for (const option of options) push(byProduct, option.product_id, option);
    for (const [productId, productOptions] of byProduct)
      await this.#insertOptions(scope, productId, productOptions);
  }

  async insertVariant(variant: VariantRecord, inventory: InventoryRecord): Promise<void> {
    const c = this.q.caps;
    const scope = { store_id: variant.store_id, mode: variant.mode };
    await this.#assertSkusFree(scope, [variant.sku], () => 'sku');
    await insertRows(this.q, insertVariantRow, 'product_variants', [encodeVariant(variant, c)]);
    await insertRows(this.q, insertInventoryRow, 'inventory_items', [encodeInventory(inventory, c)]);
    await this.q.affected(recomputePrice, { ...scope, id: variant.product_id });
  }

  async getVariant(scope: Scope, id: string): Promise<VariantWithInventory | null> {
    const rows = (await this.q.rows(variantsById, {
      ...scope,
      ids: this.q.caps.list([id]),
    })) as VariantJoinRow[];
    const row = rows[0];
    return row ? this.#decodeVariantRow(row) : null;
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
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
        option_value_ids: patch.option_value_ids === undefined ? undefined : c.json(patch.option_value_ids),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      { ...scope, id },
    );
    const row = await this.q.first(updateVariantRow, args, shape);
    if (!row) return null;
    await this.q.affected(recomputePrice, { ...scope, id: row.product_id });
    return decodeVariant(row, c);
  }

  async deleteVariant(scope: Scope, id: string, at: number): Promise<boolean> {
    const row = await this.q.first(softDeleteVariant, { ...scope, id, at });
    if (!row) return false;
    await this.q.affected(recomputePrice, { ...scope, id: row.product_id });
    return true;
  }

  async insertImage(scope: Scope, image: ImageRecord): Promise<void> {
    await insertRows(this.q, insertImageRow, 'product_images', [encodeImage(scope, image, this.q.caps)]);
  }

  async deleteImage(scope: Scope, product_id: string, image_id: string): Promise<boolean> {
    return (await this.q.affected(deleteImageRow, { ...scope, product_id, id: image_id })) > 0;
  }

  async getPurchasable(scope: Scope, variant_ids: string[]): Promise<PurchasableVariant[]> {
    if (variant_ids.length === 0) return [];
    const c = this.q.caps;
    const rows = await this.q.rows(purchasable, { ...scope, ids: c.list([...new Set(variant_ids)]) });
    const variants = rows.map((row) => ({ row, variant: decodeVariant(row, c) }));
    const valueIds = [...new Set(variants.flatMap(({ variant }) => variant.option_value_ids))];
    const values = new Map<string, string>();
    if (valueIds.length > 0) {
      for (const value of await this.q.rows(optionValuesById, { ...scope, ids: c.list(valueIds) })) {
        values.set(value.id, value.value);
      }
    }
    return variants.map(({ row, variant }) => {
      const names = variant.option_value_ids.flatMap((valueId) => values.get(valueId) ?? []);
      return {
        variant,
        inventory: decodeAliasedInventory(row, c),
        product: {
          id: variant.product_id,
          name: row.product_name,
          status: row.product_status as ProductRecord['status'],
          type: row.product_type as ProductRecord['type'],
          tags: c.parseJson<string[]>(row.product_tags),
          deleted: row.product_deleted_at !== null,
        },
        variant_name: names.length > 0 ? names.join(' / ') : row.product_name,
        image_url: (row.image_url as string | null | undefined) ?? null,
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
      (await this.q.rows(takenSkus, { ...scope, skus: this.q.caps.list(present), except_id: exceptId })).map(
        (row) => row.sku,
      ),
    );
    const index = skus.findIndex((sku) => sku !== null && taken.has(sku));
    if (index >= 0) throw duplicateSku(paramOf(index));
  }

  #decodeVariantRow(row: VariantJoinRow): VariantWithInventory {
    const c = this.q.caps;
    return { ...decodeVariant(row, c), inventory: decodeAliasedInventory(row, c) };
  }

  /** Loads the aggregates of product rows in three more queries, preserving row order. */
  async #load(scope: Scope, rows: readonly Selectable<ProductsTable>[]): Promise<ProductAggregate[]> {
    if (rows.length === 0) return [];
    const c = this.q.caps;
    const ids = c.list(rows.map((row) => row.id));
    const options = new Map<string, OptionRecord[]>();
    const optionById = new Map<string, OptionRecord>();
    for (const row of await this.q.rows(optionsOfProducts, { ...scope, ids })) {
      let option = optionById.get(row.option_id);
      if (!option) {
        option = {
          id: row.option_id,
          product_id: row.product_id,
          name: row.name,
          position: row.option_position,
          values: [],
        };
        optionById.set(option.id, option);
        push(options, row.product_id, option);
      }
      if (row.value_id !== null && row.value !== null && row.value_position !== null) {
        option.values.push({
          id: row.value_id,
          option_id: option.id,
          value: row.value,
          position: row.value_position,
        });
      }
    }
    const variants = new Map<string, VariantWithInventory[]>();
    for (const row of (await this.q.rows(variantsOfProducts, { ...scope, ids })) as VariantJoinRow[]) {
      const variant = this.#decodeVariantRow(row);
      push(variants, variant.product_id, variant);
    }
    const images = new Map<string, ImageRecord[]>();
    for (const row of await this.q.rows(imagesOfProducts, { ...scope, ids })) {
      push(images, row.product_id, decodeImage(row, c));
    }
    return rows.map((row) => ({
      ...decodeProduct(row, c),
      options: options.get(row.id) ?? [],
      variants: variants.get(row.id) ?? [],
      images: images.get(row.id) ?? [],
    }));
  }
}

function duplicateSku(param: string): CommerceError {
  return new CommerceError('duplicate_sku', 'A variant with this SKU already exists', { param });
}

/** Appends `value` to the list under `key`. */
function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}
