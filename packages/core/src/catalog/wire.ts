import { inventoryToWire } from '../inventory/wire';
import type {
  ImageRecord,
  OptionRecord,
  OptionValueRecord,
  ProductAggregate,
  VariantWithInventory,
} from '../ports/storage';
import { iso, money, moneyOrNull } from '../shared/wire-format';
import { representativeVariant } from './representative-price';

/**
 * Who looks at the catalog. The storefront never sees `cost_price` (null) nor inventory
 * `on_hand`/`reserved`/`safety_stock` (null), and inactive variants are left out (docs/contract.md#storefront-visibility).
 * Product and variant `metadata` are shown on both (merchants put display data there); only the
 * inventory's metadata is admin-only (see `inventoryToWire`).
 */
export type CatalogView = 'admin' | 'storefront';

const byPosition = <T extends { position: number }>(a: T, b: T) => a.position - b.position;

/**
 * `list` in position order: `list` itself when it already is (the storage returns children in
 * display order, and a stable sort would leave them as they are), else a sorted copy.
 */
function inPositionOrder<T extends { position: number }>(list: readonly T[]): readonly T[] {
  for (let i = 1; i < list.length; i++) {
    if ((list[i - 1] as T).position > (list[i] as T).position) return [...list].sort(byPosition);
  }
  return list;
}

export function imageToWire(image: ImageRecord) {
  return {
    id: image.id,
    url: image.url,
    alt_text: image.alt_text,
    position: image.position,
    width: image.width,
    height: image.height,
  };
}

export type ImageWire = ReturnType<typeof imageToWire>;

export function optionValueToWire(value: OptionValueRecord) {
  return { id: value.id, value: value.value, position: value.position };
}

export type OptionValueWire = ReturnType<typeof optionValueToWire>;

export function optionToWire(option: OptionRecord) {
  return {
    id: option.id,
    name: option.name,
    position: option.position,
    values: inPositionOrder(option.values).map(optionValueToWire),
  };
}

/**
 * What a variant's wire form needs of its product, built once per product: option values by id
 * and the product's images (already ordered), so serialising N variants stays linear.
 */
export interface VariantWireContext {
  /** Option value id → its wire form and its option's position. */
  optionValues: ReadonlyMap<string, { wire: OptionValueWire; optionPosition: number }>;
  images: readonly ImageRecord[];
  /** Whether any image is attached to variants (else every variant's `images` is empty). */
  attachedImages: boolean;
}

/** The {@link VariantWireContext} of a product. */
export function variantContextOf(product: Pick<ProductAggregate, 'options' | 'images'>): VariantWireContext {
  const optionValues = new Map<string, { wire: OptionValueWire; optionPosition: number }>();
  for (const option of product.options) {
    for (const value of option.values) {
      optionValues.set(value.id, { wire: optionValueToWire(value), optionPosition: option.position });
    }
  }
  const images = inPositionOrder(product.images);
  return { optionValues, images, attachedImages: images.some((image) => image.variant_ids.length > 0) };
}

/** A variant's option values in its product's option order. */
function variantOptionValues(variant: VariantWithInventory, context: VariantWireContext): OptionValueWire[] {
  const ids = variant.option_value_ids;
  if (ids.length === 1) {
    const value = context.optionValues.get(ids[0] as string);
    return value === undefined ? [] : [value.wire];
  }
  const found: { wire: OptionValueWire; optionPosition: number }[] = [];
  for (const id of ids) {
    const value = context.optionValues.get(id);
    if (value !== undefined) found.push(value);
  }
  return found.sort((a, b) => a.optionPosition - b.optionPosition).map((value) => value.wire);
}

/** The product images attached to a variant, in position order. */
function variantImages(variant: VariantWithInventory, context: VariantWireContext): ImageWire[] {
  const images: ImageWire[] = [];
  if (!context.attachedImages) return images;
  for (const image of context.images) {
    if (image.variant_ids.includes(variant.id)) images.push(imageToWire(image));
  }
  return images;
}

/**
 * A variant's `stock` (decisions §22): its inventory's available units (`on_hand - reserved`,
 * as `inventory.available`) when the inventory is tracked, else null (an untracked variant has
 * no stock to count).
 */
export function variantStock(inventory: VariantWithInventory['inventory']): number | null {
  return inventory.track_inventory ? inventory.on_hand - inventory.reserved : null;
}

/**
 * The Variant resource. `option_values` follow the product's option order (so `variant_name`
 * reads them left to right); `images` are the product images attached to this variant; `stock`
 * is {@link variantStock} (shown on the storefront too, like `inventory.available`).
 */
export function variantToWire(
  variant: VariantWithInventory,
  context: VariantWireContext,
  view: CatalogView = 'admin',
) {
  return {
    id: variant.id,
    product_id: variant.product_id,
    sku: variant.sku,
    barcode: variant.barcode,
    price: money(variant.price, variant.currency),
    compare_at_price: moneyOrNull(variant.compare_at_price, variant.currency),
    cost_price: view === 'admin' ? moneyOrNull(variant.cost_price, variant.currency) : null,
    weight: variant.weight,
    width: variant.width,
    height: variant.height,
    depth: variant.depth,
    is_active: variant.is_active,
    position: variant.position,
    stock: variantStock(variant.inventory),
    option_values: variantOptionValues(variant, context),
    images: variantImages(variant, context),
    inventory: inventoryToWire(variant.inventory, view),
    metadata: variant.metadata,
    created_at: iso(variant.created_at),
    updated_at: iso(variant.updated_at),
  };
}

export type VariantWire = ReturnType<typeof variantToWire>;

/**
 * The Product resource, plus `price`: the representative (cheapest active) variant's price or
 * null (docs/contract.md#representative-price), as core wrote it to the product; and
 * `compare_at_price`: that variant's, or null (decisions §22). Variants are in position order
 * (ties: by id, the storage's order); the storefront view leaves out inactive ones.
 */
export function productToWire(product: ProductAggregate, view: CatalogView = 'admin') {
  const context = variantContextOf(product);
  const ordered = inPositionOrder(product.variants);
  const variants: VariantWire[] = [];
  for (const variant of ordered) {
    if (view === 'admin' || variant.is_active) variants.push(variantToWire(variant, context, view));
  }
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    description: product.description,
    type: product.type,
    status: product.status,
    tags: product.tags,
    category_ids: product.category_ids ?? [],
    attributes: product.attributes,
    images: context.images.map(imageToWire),
    options: inPositionOrder(product.options).map(optionToWire),
    variants,
    price: moneyOrNull(product.price, product.currency),
    compare_at_price: moneyOrNull(representativeVariant(ordered)?.compare_at_price ?? null, product.currency),
    metadata: product.metadata,
    created_at: iso(product.created_at),
    updated_at: iso(product.updated_at),
  };
}

export type ProductWire = ReturnType<typeof productToWire>;
