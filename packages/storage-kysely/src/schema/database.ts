/**
 * The Kysely `Database` interface: every table and column as the drivers hand them over, before
 * the dialect capabilities decode them. Column conventions (see docs/storage.md):
 * - times and money are BIGINT epoch milliseconds / minor units (JS numbers on both engines);
 * - JSON columns are jsonb on Postgres and TEXT holding JSON on SQLite (`JsonColumn`);
 * - booleans are `boolean` on Postgres and INTEGER 0/1 on SQLite (`BoolColumn`);
 * - `*_lower` / `search_text` columns are lower-cased copies kept for case-insensitive lookups.
 *
 * `TABLE_COLUMNS` (table-columns.ts) lists the same columns at run time and is checked against
 * this interface by the compiler; the migration test compares it with the migrated schema.
 */

/** Encoded JSON: a string on SQLite, a parsed value on Postgres. Decode with the capabilities. */
export type JsonColumn = unknown;
/** 0/1 on SQLite, boolean on Postgres. */
export type BoolColumn = number | boolean;

interface ScopedColumns {
  store_id: string;
  mode: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  plan: string;
  billing_email: string | null;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
}

export interface StoresTable {
  id: string;
  organization_id: string;
  name: string;
  currency: string;
  timezone: string;
  prices_include_tax: BoolColumn;
  tax_rate: number;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
}

/** Global (reference) table: looked up by hash before the scope is known. */
export interface ApiKeysTable extends ScopedColumns {
  id: string;
  name: string | null;
  key_type: string;
  key_hash: string;
  key_prefix: string;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export interface CustomerTokensTable extends ScopedColumns {
  id: string;
  customer_id: string;
  token_hash: string;
  expires_at: number;
  created_at: number;
}

/** Password reset tokens (0015): single-use, SHA-256 of the token; at most one per customer. */
export interface PasswordResetsTable extends ScopedColumns {
  id: string;
  customer_id: string;
  token_hash: string;
  expires_at: number;
  created_at: number;
}

export interface ProductsTable extends ScopedColumns {
  id: string;
  name: string;
  name_lower: string;
  slug: string;
  description: string | null;
  type: string;
  status: string;
  tags: JsonColumn;
  attributes: JsonColumn;
  metadata: JsonColumn;
  price: number | null;
  currency: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
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
 * (0002_catalog_read_path, repositories/catalog-documents.ts). JSON TEXT on SQLite, json on
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

export interface ProductOptionsTable extends ScopedColumns {
  id: string;
  product_id: string;
  name: string;
  position: number;
}

export interface ProductOptionValuesTable extends ScopedColumns {
  id: string;
  option_id: string;
  product_id: string;
  value: string;
  position: number;
}

export interface ProductVariantsTable extends ScopedColumns {
  id: string;
  product_id: string;
  sku: string | null;
  barcode: string | null;
  price: number;
  compare_at_price: number | null;
  cost_price: number | null;
  currency: string;
  weight: number | null;
  is_active: BoolColumn;
  option_value_ids: JsonColumn;
  position: number;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /**
   * Kept for purchases (getPurchasable), rewritten with every catalog write to the product
   * (0003_storefront_documents): the names of the variant's option values in `option_value_ids`
   * order (JSON array; null on Postgres when it has none) and the image url a cart line shows.
   */
  option_value_names: JsonColumn | null;
  image_url: string | null;
}

export interface InventoryItemsTable extends ScopedColumns {
  id: string;
  variant_id: string;
  product_id: string;
  track_inventory: BoolColumn;
  allow_backorder: BoolColumn;
  safety_stock: number;
  on_hand: number;
  reserved: number;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
}

export interface ProductImagesTable extends ScopedColumns {
  id: string;
  product_id: string;
  url: string;
  alt_text: string | null;
  position: number;
  width: number | null;
  height: number | null;
  variant_ids: JsonColumn;
}

export interface ShippingMethodsTable extends ScopedColumns {
  id: string;
  name: string;
  description: string | null;
  price: number;
  free_shipping_threshold: number | null;
  currency: string;
  is_active: BoolColumn;
  position: number;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface DiscountsTable extends ScopedColumns {
  id: string;
  name: string;
  description: string | null;
  code: string | null;
  code_lower: string | null;
  type: string;
  value_type: string;
  value: number;
  target: string;
  usage_limit: number | null;
  usage_count: number;
  per_customer_limit: number | null;
  minimum_amount: number | null;
  maximum_discount: number | null;
  currency: string;
  starts_at: number | null;
  ends_at: number | null;
  is_active: BoolColumn;
  conditions: JsonColumn;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface DiscountUsagesTable extends ScopedColumns {
  id: string;
  discount_id: string;
  order_id: string;
  customer_key: string;
  created_at: number;
}

export interface CustomersTable extends ScopedColumns {
  id: string;
  email: string;
  email_lower: string;
  search_text: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  external_id: string | null;
  status: string;
  tags: JsonColumn;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** 0015: the encoded password hash, or null (no password). */
  password_hash: string | null;
}

export interface CustomerAddressesTable extends ScopedColumns {
  id: string;
  customer_id: string;
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string;
  country: string;
  phone: string | null;
  type: string;
  is_default: BoolColumn;
  created_at: number;
  updated_at: number;
}

export interface CartsTable extends ScopedColumns {
  id: string;
  status: string;
  session_id: string | null;
  customer_id: string | null;
  email: string | null;
  shipping_address: JsonColumn;
  billing_address: JsonColumn;
  shipping_method_id: string | null;
  discount_codes: JsonColumn;
  currency: string;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export interface CartItemsTable extends ScopedColumns {
  id: string;
  cart_id: string;
  variant_id: string;
  quantity: number;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
}

export interface OrdersTable extends ScopedColumns {
  id: string;
  number: number;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  customer_id: string | null;
  email: string;
  email_lower: string;
  shipping_address: JsonColumn;
  billing_address: JsonColumn;
  currency: string;
  subtotal: number;
  discount_total: number;
  shipping_total: number;
  tax_total: number;
  total: number;
  paid_total: number;
  refunded_total: number;
  prices_include_tax: BoolColumn;
  tax_rate: number;
  shipping_method_id: string | null;
  shipping_method_name: string | null;
  shipping_discount: number;
  shipping_tax: number;
  applied_discounts: JsonColumn;
  note: string | null;
  metadata: JsonColumn;
  cart_id: string | null;
  inventory_reserved: BoolColumn;
  cancel_reason: string | null;
  created_at: number;
  updated_at: number;
  cancelled_at: number | null;
  completed_at: number | null;
}

export interface OrderLinesTable extends ScopedColumns {
  id: string;
  order_id: string;
  variant_id: string;
  product_id: string;
  product_name: string;
  variant_name: string;
  sku: string | null;
  image_url: string | null;
  quantity: number;
  fulfilled_quantity: number;
  shipped_quantity: number;
  refunded_quantity: number;
  restocked_quantity: number;
  /** Units the order reserved for this line (0: none; 0012_order_key_webhook_fixes). */
  reserved_quantity: number;
  unit_price: number;
  line_discount: number;
  line_total: number;
  tax_amount: number;
  position: number;
}

export interface PaymentsTable extends ScopedColumns {
  id: string;
  order_id: string | null;
  provider: string;
  provider_id: string | null;
  amount: number;
  currency: string;
  status: string;
  idempotency_key: string | null;
  cart_id: string | null;
  client_secret: string | null;
  failure_reason: string | null;
  note: string | null;
  metadata: JsonColumn;
  /** A checkout attempt's snapshot until it is settled (0016_refund_payment_columns). */
  checkout_snapshot: JsonColumn | null;
  created_at: number;
  updated_at: number;
}

export interface FulfillmentsTable extends ScopedColumns {
  id: string;
  order_id: string;
  status: string;
  tracking_number: string | null;
  tracking_url: string | null;
  carrier: string | null;
  lines: JsonColumn;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  shipped_at: number | null;
  delivered_at: number | null;
}

export interface RefundsTable extends ScopedColumns {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  restock: BoolColumn;
  status: string;
  lines: JsonColumn;
  provider_refund_id: string | null;
  metadata: JsonColumn;
  /** 0016_refund_payment_columns: restock movements (`[]` when none), provider calls in flight, failure reason. */
  restock_movements: JsonColumn;
  provider_calls: JsonColumn | null;
  failure_message: string | null;
  created_at: number;
  updated_at: number;
}

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

export interface EventsTable extends ScopedColumns {
  id: string;
  type: string;
  data: JsonColumn;
  created_at: number;
  /** Null until `events.dispatch` fanned the event out to webhook deliveries. */
  dispatched_at: number | null;
}

export interface WebhooksTable extends ScopedColumns {
  id: string;
  url: string;
  events: JsonColumn;
  /** Per event type, since when it is received (0012_order_key_webhook_fixes). */
  events_since: JsonColumn;
  secret: string;
  /** The secret before the latest rotation, signing until its expiry (0013_webhook_secret_rotation). */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  is_active: BoolColumn;
  consecutive_failures: number;
  metadata: JsonColumn;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface WebhookDeliveriesTable extends ScopedColumns {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempt_count: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  leased_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable extends ScopedColumns {
  id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: BoolColumn;
  created_at: number;
}

export interface NotificationsTable extends ScopedColumns {
  id: string;
  type: string;
  message: string;
  data: JsonColumn;
  created_at: number;
}

export interface Database {
  organizations: OrganizationsTable;
  stores: StoresTable;
  api_keys: ApiKeysTable;
  customer_tokens: CustomerTokensTable;
  password_resets: PasswordResetsTable;
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
  discounts: DiscountsTable;
  discount_usages: DiscountUsagesTable;
  customers: CustomersTable;
  customer_addresses: CustomerAddressesTable;
  carts: CartsTable;
  cart_items: CartItemsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  payments: PaymentsTable;
  fulfillments: FulfillmentsTable;
  refunds: RefundsTable;
  order_counters: OrderCountersTable;
  catalog_versions: CatalogVersionsTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  notifications: NotificationsTable;
  rate_limit_counters: RateLimitCountersTable;
}

/** Shared rate-limit counters (0014): one fixed window per bucket. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export type TableName = keyof Database;
