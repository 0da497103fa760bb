import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type {
  ImageRecord,
  InventoryRecord,
  ProductAggregate,
  ProductRecord,
  PurchasableVariant,
  ShippingMethodRecord,
  VariantRecord,
} from './records';
import type { Millis, Scope } from './scope';

// The catalog: products with their options, variants and images, and shipping methods.

export interface ProductListFilter {
  status?: ProductRecord['status'] | undefined;
  type?: ProductRecord['type'] | undefined;
  /** Case-insensitive partial name match. */
  q?: string | undefined;
  /**
   * With `q`: the name translated into this locale matches too (a product matches when its name
   * or its `product`/`name` translation in this locale contains `q`, ignoring case; decisions §21).
   */
  q_locale?: string | undefined;
  /** All of these tags (AND). */
  tags?: string[] | undefined;
  /** Inclusive bounds on the representative price; products without one never match a bound. */
  price_min?: number | undefined;
  price_max?: number | undefined;
  /** In at least one of these categories (`product_categories`); core passes a category and its descendants. */
  category_ids?: string[] | undefined;
  /**
   * Members of a collection (decisions §17): a manual one's member rows, or an automatic one's
   * rules as core compiled them. A manual one `in_order` pages in the collection's order (its
   * positions are the cursor) whatever the page's `sort`.
   */
  collection?: import('./collections').CollectionMembership | undefined;
  /**
   * In this region (decisions §19): `price_min`, `price_max` and `sort=price` read the products'
   * representative prices there (`RegionProductPriceRepository`) instead of `price`.
   */
  region_id?: string | undefined;
}

export interface ProductRepository {
  /**
   * Inserts a product with its options (and values), variants (each with its inventory) and
   * images; `price` is stored as given. Uniqueness: slug per scope → duplicate_slug; variant sku per
   * scope → duplicate_sku (param `variants[i][sku]`). Options and their values are written only
   * here: a variant added later refers to existing values (core's rule, `catalog/variant-options.ts`).
   */
  insert(product: ProductAggregate): Promise<void>;
  /**
   * The live product with its parts, by id or by `{ slug }`. `forUpdate` locks the product row
   * until the transaction ends (Postgres FOR UPDATE; SQLite's writer lock), so that checks against
   * its parts (variant option combinations, positions) hold until the write that follows.
   */
  get(
    scope: Scope,
    key: string | { slug: string },
    options?: { forUpdate?: boolean },
  ): Promise<ProductAggregate | null>;
  /**
   * `sort: 'relevance'` (needs `filter.q`; only `desc`): the matches ranked by
   * `relevanceTier(name, q)` ascending, then `created_at` and `id` descending, exactly as core's
   * `compareRelevance` (`@cartwright/core/storage-rules`); cursors continue across tiers.
   */
  list(
    scope: Scope,
    filter: ProductListFilter,
    page: PageRequest<'created_at' | 'name' | 'price' | 'updated_at' | 'relevance'>,
  ): Promise<Page<ProductAggregate>>;
  update(
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
  ): Promise<ProductRecord | null>;
  /**
   * Soft delete of the product and its variants; its category memberships (`product_categories`)
   * are removed. (`category_ids` given to `insert` / `update` replace its membership rows in the
   * same transaction.)
   */
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;

  /** Inserts a variant with its inventory (the product's `price` is the caller's to update). */
  insertVariant(variant: VariantRecord, inventory: InventoryRecord): Promise<void>;
  getVariant(scope: Scope, id: string): Promise<(VariantRecord & { inventory: InventoryRecord }) | null>;
  updateVariant(
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
  ): Promise<VariantRecord | null>;
  /** Soft delete (the product's `price` is the caller's to update). */
  deleteVariant(scope: Scope, id: string, at: Millis): Promise<boolean>;
  insertImage(scope: Scope, image: ImageRecord): Promise<void>;
  deleteImage(scope: Scope, product_id: string, image_id: string): Promise<boolean>;
  /**
   * Variants by id with their inventory and product fields, in one query; unknown or deleted
   * variants are absent from the result.
   */
  getPurchasable(scope: Scope, variant_ids: string[]): Promise<PurchasableVariant[]>;
  /**
   * {@link getPurchasable} of the variants of a cart's items, as this statement reads them, and
   * of `extra_variant_ids` (duplicates, and ids also in the cart, once), in one query: a cart
   * write sends it beside the cart's lock, before the cart's items are known (core:
   * `cart-service.ts`). A cart that does not exist (in the scope) has no items: only the extra ids
   * are read.
   */
  getPurchasableForCart(
    scope: Scope,
    cart_id: string,
    extra_variant_ids: readonly string[],
  ): Promise<PurchasableVariant[]>;
  /**
   * The live variants' prices of live products, for the representative price in a region
   * (decisions §19, `refreshRegionProductPrices`): the products `product_ids` (those not live are
   * absent), or a page of the scope's live products by id after `after` (at most `limit`); each
   * with its live variants in display order (position, then id).
   */
  pricedVariants(
    scope: Scope,
    which: { product_ids: readonly string[] } | { after: string | null; limit: number },
  ): Promise<PricedProduct[]>;
}

/** A live product's live variants as the representative price reads them (`pricedVariants`). */
export interface PricedProduct {
  product_id: string;
  variants: Pick<VariantRecord, 'id' | 'price' | 'compare_at_price' | 'is_active'>[];
}

export interface ShippingMethodRepository {
  insert(record: ShippingMethodRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<ShippingMethodRecord | null>;
  /**
   * {@link get} of the method a cart names (its `shipping_method_id` as this statement reads it),
   * in one query; null when the cart names none, or none that exists.
   */
  getForCart(scope: Scope, cart_id: string): Promise<ShippingMethodRecord | null>;
  /** Ordered by position, then created_at. */
  list(
    scope: Scope,
    filter: { is_active?: boolean | undefined },
    page: PageRequest<'created_at' | 'position'>,
  ): Promise<Page<ShippingMethodRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      ShippingMethodRecord,
      'name' | 'description' | 'price' | 'free_shipping_threshold' | 'is_active' | 'position' | 'metadata'
    >,
  ): Promise<ShippingMethodRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;
}
