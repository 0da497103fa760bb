import type { Mode } from '@cartwright/core';
import type {
  ImageRecord,
  InventoryRecord,
  JsonObject,
  ProductRecord,
  ProductStatus,
  ProductType,
  VariantRecord,
} from '@cartwright/core/storage';
import { nameWordsText } from '@cartwright/core/storage-rules';
import type { Selectable } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import type { EncodedRow } from '../query/insert-template';
import type { InventoryItemsTable, ProductsTable, ProductVariantsTable } from '../schema/database';

/** Row ⇄ record conversions of the catalog tables. */

export function decodeProduct(row: Selectable<ProductsTable>, c: DialectCapabilities): ProductRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    name: row.name,
    slug: row.slug,
    description: row.description,
    type: row.type as ProductType,
    status: row.status as ProductStatus,
    tags: c.parseJson<string[]>(row.tags),
    attributes: c.parseJson<JsonObject>(row.attributes),
    metadata: c.parseJson<JsonObject>(row.metadata),
    price: row.price,
    currency: row.currency,
    created_at: row.created_at,
    updated_at: row.updated_at,
    category_ids: c.parseJson<string[]>(row.category_ids),
  };
}

export function encodeProduct(product: ProductRecord, c: DialectCapabilities): EncodedRow<'products'> {
  return {
    store_id: product.store_id,
    mode: product.mode,
    id: product.id,
    name: product.name,
    name_lower: product.name.toLowerCase(),
    name_words: nameWordsText(product.name),
    slug: product.slug,
    description: product.description,
    type: product.type,
    status: product.status,
    tags: c.json(product.tags),
    attributes: c.json(product.attributes),
    metadata: c.json(product.metadata),
    price: product.price,
    currency: product.currency,
    created_at: product.created_at,
    updated_at: product.updated_at,
    deleted_at: null,
    category_ids: c.json(product.category_ids ?? []),
  };
}

export function decodeVariant(row: Selectable<ProductVariantsTable>, c: DialectCapabilities): VariantRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    product_id: row.product_id,
    sku: row.sku,
    barcode: row.barcode,
    price: row.price,
    compare_at_price: row.compare_at_price,
    cost_price: row.cost_price,
    currency: row.currency,
    weight: row.weight,
    is_active: c.toBool(row.is_active),
    option_value_ids: c.parseJson<string[]>(row.option_value_ids),
    position: row.position,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
    width: row.width,
    height: row.height,
    depth: row.depth,
  };
}

export function encodeVariant(
  variant: VariantRecord,
  c: DialectCapabilities,
): EncodedRow<'product_variants'> {
  return {
    store_id: variant.store_id,
    mode: variant.mode,
    id: variant.id,
    product_id: variant.product_id,
    sku: variant.sku,
    barcode: variant.barcode,
    price: variant.price,
    compare_at_price: variant.compare_at_price,
    cost_price: variant.cost_price,
    currency: variant.currency,
    weight: variant.weight,
    width: variant.width,
    height: variant.height,
    depth: variant.depth,
    is_active: c.bool(variant.is_active),
    option_value_ids: c.json(variant.option_value_ids),
    position: variant.position,
    metadata: c.json(variant.metadata),
    created_at: variant.created_at,
    updated_at: variant.updated_at,
    deleted_at: null,
    // Written by the product repository right after (`variantPurchaseUpdateSql`).
    option_value_names: null,
    image_url: null,
  };
}

export function decodeInventory(
  row: Selectable<InventoryItemsTable>,
  c: DialectCapabilities,
): InventoryRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    variant_id: row.variant_id,
    product_id: row.product_id,
    track_inventory: c.toBool(row.track_inventory),
    allow_backorder: c.toBool(row.allow_backorder),
    safety_stock: row.safety_stock,
    on_hand: row.on_hand,
    reserved: row.reserved,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function encodeInventory(
  inventory: InventoryRecord,
  c: DialectCapabilities,
): EncodedRow<'inventory_items'> {
  return {
    ...inventory,
    track_inventory: c.bool(inventory.track_inventory),
    allow_backorder: c.bool(inventory.allow_backorder),
    metadata: c.json(inventory.metadata),
    // A new row's stock level starts at version 0 (0020_inventory_level_version).
    version: 0,
  };
}

export function encodeImage(
  scope: { store_id: string; mode: string },
  image: ImageRecord,
  c: DialectCapabilities,
): EncodedRow<'product_images'> {
  return {
    store_id: scope.store_id,
    mode: scope.mode,
    id: image.id,
    product_id: image.product_id,
    url: image.url,
    alt_text: image.alt_text,
    position: image.position,
    width: image.width,
    height: image.height,
    variant_ids: c.json(image.variant_ids),
  };
}

/** Inventory columns selected next to a variant's, prefixed `inv_`. */
export const INVENTORY_ALIASES = [
  'i.id as inv_id',
  'i.variant_id as inv_variant_id',
  'i.product_id as inv_product_id',
  'i.track_inventory as inv_track_inventory',
  'i.allow_backorder as inv_allow_backorder',
  'i.safety_stock as inv_safety_stock',
  'i.on_hand as inv_on_hand',
  'i.reserved as inv_reserved',
  'i.metadata as inv_metadata',
  'i.created_at as inv_created_at',
  'i.updated_at as inv_updated_at',
] as const;

export interface InventoryAliasColumns {
  inv_id: string;
  inv_variant_id: string;
  inv_product_id: string;
  inv_track_inventory: unknown;
  inv_allow_backorder: unknown;
  inv_safety_stock: number;
  inv_on_hand: number;
  inv_reserved: number;
  inv_metadata: unknown;
  inv_created_at: number;
  inv_updated_at: number;
}

export function decodeAliasedInventory(
  row: InventoryAliasColumns & { store_id: string; mode: string },
  c: DialectCapabilities,
): InventoryRecord {
  return {
    id: row.inv_id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    variant_id: row.inv_variant_id,
    product_id: row.inv_product_id,
    track_inventory: c.toBool(row.inv_track_inventory),
    allow_backorder: c.toBool(row.inv_allow_backorder),
    safety_stock: row.inv_safety_stock,
    on_hand: row.inv_on_hand,
    reserved: row.inv_reserved,
    metadata: c.parseJson<JsonObject>(row.inv_metadata),
    created_at: row.inv_created_at,
    updated_at: row.inv_updated_at,
  };
}

/** `%…%` LIKE pattern of a lower-cased substring, with `\` escaping the wildcards. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
