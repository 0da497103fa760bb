/**
 * The Kysely `Database` interface: every table and column as the drivers hand them over, before
 * the dialect capabilities decode them. Column conventions (see docs/storage.md):
 * - times and money are BIGINT epoch milliseconds / minor units (JS numbers on both engines);
 * - JSON columns are jsonb on Postgres and TEXT holding JSON on SQLite (`JsonColumn`);
 * - booleans are `boolean` on Postgres and INTEGER 0/1 on SQLite (`BoolColumn`);
 * - `*_lower` / `search_text` columns are lower-cased copies kept for case-insensitive lookups.
 *
 * The tables of records derive their columns from the record types (`Stored`); `TABLE_COLUMNS`
 * (table-columns.ts) lists the same columns at run time and is checked against
 * this interface by the compiler; the migration test compares it with the migrated schema.
 */

import type * as Records from '@cartwright/core/storage';

/** Encoded JSON: a string on SQLite, a parsed value on Postgres. Decode with the capabilities. */
export type JsonColumn = unknown;
/** 0/1 on SQLite, boolean on Postgres. */
export type BoolColumn = number | boolean;

/**
 * A record field as its column holds it: booleans as `BoolColumn`, objects and arrays as
 * `JsonColumn`, string unions (statuses, modes) as `string`; numbers and strings as they are.
 */
export type StoredValue<T> = [NonNullable<T>] extends [boolean]
  ? BoolColumn | Extract<T, null>
  : [NonNullable<T>] extends [object]
    ? JsonColumn
    : T extends string
      ? string
      : T;

/**
 * The columns of a record (core's ports/storage/records.ts) as stored: the table interfaces
 * below extend it with only their table-only columns (lower-cased copies, soft-delete marks,
 * the scope of child rows), so that a record's column list is written once, in core.
 */
export type Stored<R> = { [K in keyof R]-?: StoredValue<R[K]> };

interface ScopedColumns {
  store_id: string;
  mode: string;
}

export interface OrganizationsTable extends Stored<Records.OrganizationRecord> {}

export interface StoresTable extends Stored<Records.StoreRecord> {}

/** Global (reference) table: looked up by hash before the scope is known. */
export interface ApiKeysTable extends Stored<Records.ApiKeyRecord> {}

export interface CustomerTokensTable extends Stored<Records.CustomerTokenRecord> {}

/** Password reset tokens (0015): single-use, SHA-256 of the token; at most one per customer. */
export interface PasswordResetsTable extends Stored<Records.PasswordResetRecord> {}

/** Organization members (0028): `email_lower` is the unique key's (case-insensitive e-mails). */
export interface MembersTable extends Stored<Records.MemberRecord> {
  email_lower: string;
}
export interface MemberTokensTable extends Stored<Records.MemberTokenRecord> {}
export interface StaffSessionsTable extends Stored<Records.StaffSessionRecord> {}

export interface ProductsTable extends Stored<Records.ProductRecord> {
  name_lower: string;
  deleted_at: number | null;
  /** The name's word-start text for `sort=relevance` (0024; core's `nameWordsText`). */
  name_words: string | null;
}

/**
 * Live (not deleted) products per status: `total_count` of unfiltered and status-only product
 * lists without a COUNT (0002_catalog_read_path). Maintained by the product repository in the
 * transaction of every insert, status change and delete.
 */
export interface ProductCountsTable extends ScopedColumns {
  status: string;
  n: number;
}

/** Live products per tag and status: `total_count` of one-tag product lists (like `ProductCountsTable`). */
export interface ProductTagCountsTable extends ScopedColumns {
  tag: string;
  status: string;
  n: number;
}

/**
 * The catalog-written children of a product as ready JSON (options, values, live variants
 * without inventory, images) and its live variant ids, rewritten with every write to them
 * (0002_catalog_read_path, storefront-read-model/catalog-documents.ts). JSON TEXT on SQLite, json on
 * Postgres (returned verbatim).
 */
export interface ProductDocumentsTable extends ScopedColumns {
  product_id: string;
  children: JsonColumn;
  variant_ids: JsonColumn;
  /**
   * The format of `children` / `variant_ids` as written (storefront-read-model/catalog-documents.ts
   * `CATALOG_DOCUMENT_VERSION`); `storage.migrate()` rebuilds rows of another format
   * (0017_storefront_read_model).
   */
  format_version: number;
}

export interface ProductOptionsTable extends ScopedColumns, Stored<Omit<Records.OptionRecord, 'values'>> {}

export interface ProductOptionValuesTable extends ScopedColumns, Stored<Records.OptionValueRecord> {
  product_id: string;
}

export interface ProductVariantsTable extends Stored<Records.VariantRecord> {
  deleted_at: number | null;
  /**
   * Kept for purchases (getPurchasable), rewritten with every catalog write to the product
   * (0003_storefront_documents): the names of the variant's option values in `option_value_ids`
   * order (JSON array; null on Postgres when it has none) and the image url a cart line shows.
   */
  option_value_names: JsonColumn | null;
  image_url: string | null;
}

export interface InventoryItemsTable extends Stored<Records.InventoryRecord> {
  /**
   * The version of the row's stock level (0020_inventory_level_version): 0 when inserted, + 1 by
   * every compare-and-set write of `on_hand` / `reserved` (`apply`). Read by the admin inventory
   * reads (`InventoryItemRecord`), not part of `InventoryRecord`.
   */
  version: number;
}

export interface ProductImagesTable extends ScopedColumns, Stored<Records.ImageRecord> {}

export interface ShippingMethodsTable extends Stored<Records.ShippingMethodRecord> {
  deleted_at: number | null;
}

export interface DiscountsTable extends Stored<Records.DiscountRecord> {
  code_lower: string | null;
  deleted_at: number | null;
}

export interface DiscountUsagesTable extends ScopedColumns {
  id: string;
  discount_id: string;
  order_id: string;
  customer_key: string;
  created_at: number;
}

export interface CustomersTable extends Stored<Records.CustomerRecord> {
  email_lower: string;
  search_text: string;
  deleted_at: number | null;
}

export interface CustomerAddressesTable extends Stored<Records.CustomerAddressRecord> {}

export interface CartsTable extends Stored<Records.CartRecord> {}

/** Store locales (0025_locales_translations, decisions §21). */
export interface StoreLocalesTable extends Stored<Records.StoreLocaleRecord> {}

/** Translations (0025); `value_lower` is the lower-cased value product lists' `q` matches. */
export interface TranslationsTable extends Stored<Records.TranslationRecord> {
  value_lower: string;
}

export interface CartItemsTable extends ScopedColumns, Stored<Records.CartItemRecord> {}

export interface OrdersTable extends Stored<Records.OrderRecord> {
  email_lower: string;
}

export interface OrderLinesTable extends ScopedColumns, Stored<Records.OrderLineRecord> {}

export interface PaymentsTable extends Stored<Records.PaymentRecord> {}

export interface FulfillmentsTable extends Stored<Records.FulfillmentRecord> {}

/** Carrier tracking events of fulfillments (0027_fulfillment_tracking, decisions §20). */
export interface FulfillmentTrackingEventsTable extends Stored<Records.FulfillmentTrackingEventRecord> {}

export interface RefundsTable extends Stored<Records.RefundRecord> {}

/** API logs (0029_dashboard_api_logs, decisions §23). */
export interface ApiLogsTable extends Stored<Records.ApiLogRecord> {}

/** Net revenue per UTC quarter hour (0032_revenue_buckets, decisions §23), kept by triggers. */
export interface RevenueBucketsTable {
  store_id: string;
  mode: string;
  currency: string;
  /** `created_at div 900000`. */
  bucket: number;
  amount: number;
}

/** Regions (0030_regions, decisions §19). */
export interface RegionsTable extends Stored<Records.RegionRecord> {}

/** A variant's own price in a region (0030). */
export interface RegionPricesTable extends Stored<Records.RegionPriceRecord> {}

/** Currency rates (0030): `rate` is exact decimal text. */
export interface CurrencyRatesTable extends Stored<Records.CurrencyRateRecord> {}

/** Each product's representative price in each region (0031_region_product_prices). */
export interface RegionProductPricesTable extends ScopedColumns, Stored<Records.RegionProductPrice> {
  region_id: string;
}

/** Returns (0026_returns, decisions §18); their lines live in `return_lines`. */
export interface ReturnsTable extends Stored<Omit<Records.ReturnRecord, 'lines'>> {}

export interface ReturnLinesTable extends ScopedColumns, Stored<Records.ReturnLineRecord> {}

/** One row per scope; `last_number` is incremented under the row lock (gap-free numbers). */
export interface OrderCountersTable extends ScopedColumns {
  last_number: number;
}

/**
 * One row per scope (table: 0008_catalog_versions), bumped by the storefront read model's
 * triggers on every change a storefront response shows (storefront-read-model/catalog-versions.ts);
 * `bumped_xid`: the Postgres transaction that last bumped it (0 on SQLite).
 */
export interface CatalogVersionsTable extends ScopedColumns {
  version: number;
  bumped_xid: number;
}

export interface IdempotencyKeysTable extends ScopedColumns {
  key: string;
  caller: string;
  claim_token: string;
  operation: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  locked_until: number;
  created_at: number;
  expires_at: number;
}

export interface EventsTable extends Stored<Records.EventRecord> {
  /** Null until `events.dispatch` fanned the event out to webhook deliveries. */
  dispatched_at: number | null;
}

export interface WebhooksTable extends Stored<Records.WebhookRecord> {
  deleted_at: number | null;
}

export interface WebhookDeliveriesTable extends Stored<Records.WebhookDeliveryRecord> {}

export interface WebhookAttemptsTable extends ScopedColumns, Stored<Records.WebhookAttemptRecord> {}

export interface NotificationsTable extends Stored<Records.NotificationRecord> {}

/** Categories (0022): the tree of a store and mode (decisions §17). */
export interface CategoriesTable extends Stored<Records.CategoryRecord> {}

/** One row per store and mode whose row lock serialises the tree's writers (0022). */
export interface CategoryTreesTable extends ScopedColumns {
  version: number;
  /** The storefront tree's prepared JSON (base text), null until a category write builds it. */
  doc: string | null;
}

/** Collections (0023, decisions §17); `rules` is JSON (null on a manual one). */
export interface CollectionsTable extends Stored<Records.CollectionRecord> {}

/** A manual collection's members (0023), `position` 0, 1, … in display order. */
export interface CollectionProductsTable extends ScopedColumns {
  collection_id: string;
  product_id: string;
  position: number;
}

/** A product's category memberships (0022), written with `products.category_ids`. */
export interface ProductCategoriesTable extends ScopedColumns {
  product_id: string;
  category_id: string;
  position: number;
}

export interface Database {
  organizations: OrganizationsTable;
  stores: StoresTable;
  api_keys: ApiKeysTable;
  customer_tokens: CustomerTokensTable;
  password_resets: PasswordResetsTable;
  members: MembersTable;
  member_tokens: MemberTokensTable;
  staff_sessions: StaffSessionsTable;
  products: ProductsTable;
  product_counts: ProductCountsTable;
  product_tag_counts: ProductTagCountsTable;
  product_documents: ProductDocumentsTable;
  product_options: ProductOptionsTable;
  product_option_values: ProductOptionValuesTable;
  product_variants: ProductVariantsTable;
  inventory_items: InventoryItemsTable;
  product_images: ProductImagesTable;
  shipping_methods: ShippingMethodsTable;
  categories: CategoriesTable;
  category_trees: CategoryTreesTable;
  product_categories: ProductCategoriesTable;
  collections: CollectionsTable;
  collection_products: CollectionProductsTable;
  discounts: DiscountsTable;
  discount_usages: DiscountUsagesTable;
  customers: CustomersTable;
  customer_addresses: CustomerAddressesTable;
  carts: CartsTable;
  store_locales: StoreLocalesTable;
  translations: TranslationsTable;
  cart_items: CartItemsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  payments: PaymentsTable;
  fulfillments: FulfillmentsTable;
  fulfillment_tracking_events: FulfillmentTrackingEventsTable;
  refunds: RefundsTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  order_counters: OrderCountersTable;
  catalog_versions: CatalogVersionsTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  notifications: NotificationsTable;
  rate_limit_counters: RateLimitCountersTable;
  api_logs: ApiLogsTable;
  revenue_buckets: RevenueBucketsTable;
  regions: RegionsTable;
  region_prices: RegionPricesTable;
  currency_rates: CurrencyRatesTable;
  region_product_prices: RegionProductPricesTable;
}

/** Shared rate-limit counters (0014): one fixed window per bucket. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export type TableName = keyof Database;
