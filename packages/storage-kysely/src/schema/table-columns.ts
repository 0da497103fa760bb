import type { Database, TableName } from './database';

type ColumnList<T> = ReadonlyArray<keyof T & string>;

/** The space-separated words of `S` as a tuple of string literals. */
type Words<S extends string, Found extends string[] = []> = S extends `${infer Head} ${infer Tail}`
  ? Words<Tail, [...Found, Head]>
  : readonly [...Found, S];

/** A table's columns, written as one line: `columns('id name')` is `['id', 'name']`, typed so. */
function columns<S extends string>(list: S): Words<S> {
  return Object.freeze(list.split(' ')) as unknown as Words<S>;
}

/**
 * Every table and its columns at run time (insert statements list them in this order). The
 * column types live once, in the records of core
 * (ports/storage/records.ts) that `Database` derives its tables from; these lists only name them
 * for run time. `satisfies` checks each name against the `Database` interface, and
 * `MissingColumns` below fails to compile when the interface gains a column a list lacks; the
 * schema contract test compares the lists with the schema the migrations produce.
 */
export const TABLE_COLUMNS = {
  organizations: columns('id name plan billing_email metadata created_at updated_at'),
  stores: columns(
    'id organization_id name currency timezone prices_include_tax tax_rate metadata created_at updated_at slug return_window_days',
  ),
  api_keys: columns(
    'store_id mode id name key_type key_hash key_prefix last_used_at expires_at revoked_at created_at',
  ),
  customer_tokens: columns('store_id mode id customer_id token_hash expires_at created_at'),
  password_resets: columns('store_id mode id customer_id token_hash expires_at created_at'),
  members: columns(
    'id organization_id user_id email email_lower role password_hash invited_at accepted_at created_at updated_at',
  ),
  member_tokens: columns('id organization_id member_id token_hash expires_at created_at'),
  staff_sessions: columns('id organization_id member_id token_hash expires_at created_at'),
  products: columns(
    'store_id mode id name name_lower slug description type status tags attributes metadata price currency created_at updated_at deleted_at name_words category_ids',
  ),
  product_counts: columns('store_id mode status n'),
  product_tag_counts: columns('store_id mode tag status n'),
  product_documents: columns('store_id mode product_id children variant_ids format_version'),
  product_options: columns('store_id mode id product_id name position'),
  product_option_values: columns('store_id mode id option_id product_id value position'),
  product_variants: columns(
    'store_id mode id product_id sku barcode price compare_at_price cost_price currency weight is_active option_value_ids position metadata created_at updated_at deleted_at option_value_names image_url width height depth',
  ),
  inventory_items: columns(
    'store_id mode id variant_id product_id track_inventory allow_backorder safety_stock on_hand reserved metadata created_at updated_at version',
  ),
  product_images: columns('store_id mode id product_id url alt_text position width height variant_ids'),
  categories: columns(
    'store_id mode id parent_id name slug description position metadata created_at updated_at',
  ),
  category_trees: columns('store_id mode version doc'),
  product_categories: columns('store_id mode product_id category_id position'),
  collections: columns(
    'store_id mode id name slug description type rules position metadata created_at updated_at',
  ),
  collection_products: columns('store_id mode collection_id product_id position'),
  shipping_methods: columns(
    'store_id mode id name description price free_shipping_threshold currency is_active position metadata created_at updated_at deleted_at',
  ),
  discounts: columns(
    'store_id mode id name description code code_lower type value_type value target usage_limit usage_count per_customer_limit minimum_amount maximum_discount currency starts_at ends_at is_active conditions metadata created_at updated_at deleted_at',
  ),
  discount_usages: columns('store_id mode id discount_id order_id customer_key created_at'),
  customers: columns(
    'store_id mode id email email_lower search_text first_name last_name phone external_id status tags metadata created_at updated_at deleted_at password_hash',
  ),
  customer_addresses: columns(
    'store_id mode id customer_id name company line1 line2 city state postal_code country phone type is_default created_at updated_at first_name last_name label receiver_name',
  ),
  carts: columns(
    'store_id mode id status session_id customer_id email shipping_address billing_address shipping_method_id discount_codes currency metadata created_at updated_at completed_at locale region_id',
  ),
  store_locales: columns('store_id mode id locale name is_default is_active created_at'),
  translations: columns(
    'store_id mode id entity_type entity_id owner_id locale field value value_lower created_at updated_at',
  ),
  cart_items: columns('store_id mode id cart_id variant_id quantity metadata created_at updated_at'),
  orders: columns(
    'store_id mode id number status payment_status fulfillment_status customer_id email email_lower shipping_address billing_address currency subtotal discount_total shipping_total tax_total total paid_total refunded_total prices_include_tax tax_rate shipping_method_id shipping_method_name shipping_discount shipping_tax applied_discounts note metadata cart_id inventory_reserved cancel_reason created_at updated_at cancelled_at completed_at confirmed_at region_id',
  ),
  order_lines: columns(
    'store_id mode id order_id variant_id product_id product_name variant_name sku image_url quantity fulfilled_quantity shipped_quantity refunded_quantity restocked_quantity reserved_quantity unit_price line_discount line_total tax_amount position option_values returned_quantity returning_quantity',
  ),
  payments: columns(
    'store_id mode id order_id provider provider_id amount currency status idempotency_key cart_id client_secret failure_reason note metadata checkout_snapshot created_at updated_at',
  ),
  fulfillments: columns(
    'store_id mode id order_id status tracking_number tracking_url carrier lines metadata created_at updated_at shipped_at delivered_at carrier_code estimated_delivery',
  ),
  fulfillment_tracking_events: columns(
    'store_id mode fulfillment_id sequence status description location occurred_at created_at',
  ),
  refunds: columns(
    'store_id mode id order_id amount currency reason restock status lines provider_refund_id metadata restock_movements provider_calls failure_message created_at updated_at',
  ),
  returns: columns(
    'store_id mode id order_id customer_id status return_type reason reason_category refund_id exchange_order_id admin_notes customer_notes metadata created_at updated_at approved_at received_at completed_at rejected_at cancelled_at',
  ),
  return_lines: columns(
    'store_id mode id return_id order_line_id quantity reason condition exchange_variant_id product_name position',
  ),
  order_counters: columns('store_id mode last_number'),
  catalog_versions: columns('store_id mode version bumped_xid'),
  idempotency_keys: columns(
    'store_id mode key caller claim_token operation request_hash state response_status response_body locked_until created_at expires_at',
  ),
  events: columns('store_id mode id type data created_at dispatched_at'),
  webhooks: columns(
    'store_id mode id url events events_since secret previous_secret previous_secret_expires_at is_active consecutive_failures metadata created_at updated_at deleted_at',
  ),
  webhook_deliveries: columns(
    'store_id mode id webhook_id event_id event_type payload status attempt_count next_attempt_at lease_until leased_by last_status_code last_error last_duration_ms created_at updated_at',
  ),
  webhook_attempts: columns(
    'store_id mode id delivery_id attempt status_code duration_ms error succeeded created_at',
  ),
  notifications: columns('store_id mode id type message data created_at'),
  rate_limit_counters: columns('bucket window_start hits'),
  api_logs: columns(
    'store_id mode id method path status_code latency_ms request_body response_body api_key_id ip user_agent created_at',
  ),
  revenue_buckets: columns('store_id mode currency bucket amount'),
  regions: columns(
    'store_id mode id name code currency tax_rate prices_include_tax is_default is_active metadata created_at updated_at',
  ),
  region_prices: columns(
    'store_id mode id region_id variant_id product_id price compare_at_price created_at updated_at',
  ),
  currency_rates: columns('store_id mode id from_currency to_currency rate created_at updated_at'),
  region_product_prices: columns('store_id mode region_id product_id price compare_at_price'),
} as const satisfies { [K in TableName]: ColumnList<Database[K]> };

/** Columns of the `Database` interface missing from `TABLE_COLUMNS` (must be `never`). */
export type MissingColumns = {
  [K in TableName]: Exclude<keyof Database[K], (typeof TABLE_COLUMNS)[K][number]>;
}[TableName];

/** Compile-time proof that `TABLE_COLUMNS` is complete. */
export const TABLE_COLUMNS_COMPLETE: [MissingColumns] extends [never] ? true : MissingColumns = true;
