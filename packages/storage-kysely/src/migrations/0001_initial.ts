import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import {
  type ColumnSpec,
  columnDataType,
  mysqlKeyLength,
  parseColumnSpec,
  type SchemaDialect,
} from './column-types';

/**
 * The initial schema. Frozen once released: later changes are new migrations.
 *
 * Partitioning: every scoped table leads with `store_id, mode`, its primary key is
 * `(store_id, mode, id)` and every index starts with the same pair, so each store's data can
 * become one shard (distribution column `store_id`, docs/storage.md). Global tables:
 * organizations, stores and the api key hash lookup (api_keys, which still records its scope).
 * Foreign keys link each aggregate's children to their parent within the scope (composite keys,
 * so they stay valid on a distributed Postgres where co-located tables join on store_id).
 */

/**
 * The price sort keys of the expression indexes below, as released (schema/sort-keys.ts holds the
 * live copy the product repository's ORDER BY uses: the two must be written identically for the
 * engines to use the index, and changing them means a new migration). Frozen here.
 */
const PRICE_ASC_KEY = 'coalesce(price, 9007199254740991)';
const PRICE_DESC_KEY = 'coalesce(price, -1)';

type Columns = Record<string, ColumnSpec>;

interface ForeignKey {
  columns: [string, ...string[]];
  references: string;
}

interface TableDefinition {
  columns: Columns;
  primaryKey: [string, ...string[]];
  foreignKeys?: ForeignKey[];
}

const scoped = (columns: Columns): Columns => ({ store_id: 'text', mode: 'text', ...columns });
const scopedKey: [string, ...string[]] = ['store_id', 'mode', 'id'];
const parent = (column: string, table: string): ForeignKey => ({
  columns: ['store_id', 'mode', column],
  references: table,
});

const TABLES: Record<string, TableDefinition> = {
  organizations: {
    columns: {
      id: 'text',
      name: 'text',
      plan: 'text',
      billing_email: 'text?',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
    },
    primaryKey: ['id'],
  },
  stores: {
    columns: {
      id: 'text',
      organization_id: 'text',
      name: 'text',
      currency: 'text',
      timezone: 'text',
      prices_include_tax: 'bool',
      tax_rate: 'double',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
    },
    primaryKey: ['id'],
  },
  api_keys: {
    columns: scoped({
      id: 'text',
      name: 'text?',
      key_type: 'text',
      key_hash: 'text',
      key_prefix: 'text',
      last_used_at: 'bigint?',
      expires_at: 'bigint?',
      revoked_at: 'bigint?',
      created_at: 'bigint',
    }),
    primaryKey: ['id'],
  },
  customers: {
    columns: scoped({
      id: 'text',
      email: 'text',
      email_lower: 'text',
      search_text: 'text',
      first_name: 'text?',
      last_name: 'text?',
      phone: 'text?',
      external_id: 'text?',
      status: 'text',
      tags: 'json',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      deleted_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  customer_tokens: {
    columns: scoped({
      id: 'text',
      customer_id: 'text',
      token_hash: 'text',
      expires_at: 'bigint',
      created_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('customer_id', 'customers')],
  },
  customer_addresses: {
    columns: scoped({
      id: 'text',
      customer_id: 'text',
      name: 'text',
      company: 'text?',
      line1: 'text',
      line2: 'text?',
      city: 'text',
      state: 'text?',
      postal_code: 'text',
      country: 'text',
      phone: 'text?',
      type: 'text',
      is_default: 'bool',
      created_at: 'bigint',
      updated_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('customer_id', 'customers')],
  },
  products: {
    columns: scoped({
      id: 'text',
      name: 'text',
      name_lower: 'text',
      slug: 'text',
      description: 'text?',
      type: 'text',
      status: 'text',
      tags: 'json',
      attributes: 'json',
      metadata: 'json',
      price: 'bigint?',
      currency: 'text',
      created_at: 'bigint',
      updated_at: 'bigint',
      deleted_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  product_options: {
    columns: scoped({ id: 'text', product_id: 'text', name: 'text', position: 'int' }),
    primaryKey: scopedKey,
    foreignKeys: [parent('product_id', 'products')],
  },
  product_option_values: {
    columns: scoped({ id: 'text', option_id: 'text', product_id: 'text', value: 'text', position: 'int' }),
    primaryKey: scopedKey,
    foreignKeys: [parent('option_id', 'product_options')],
  },
  product_variants: {
    columns: scoped({
      id: 'text',
      product_id: 'text',
      sku: 'text?',
      barcode: 'text?',
      price: 'bigint',
      compare_at_price: 'bigint?',
      cost_price: 'bigint?',
      currency: 'text',
      weight: 'double?',
      is_active: 'bool',
      option_value_ids: 'json',
      position: 'int',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      deleted_at: 'bigint?',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('product_id', 'products')],
  },
  inventory_items: {
    columns: scoped({
      id: 'text',
      variant_id: 'text',
      product_id: 'text',
      track_inventory: 'bool',
      allow_backorder: 'bool',
      safety_stock: 'int',
      on_hand: 'int',
      reserved: 'int',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('variant_id', 'product_variants')],
  },
  product_images: {
    columns: scoped({
      id: 'text',
      product_id: 'text',
      url: 'text',
      alt_text: 'text?',
      position: 'int',
      width: 'int?',
      height: 'int?',
      variant_ids: 'json',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('product_id', 'products')],
  },
  shipping_methods: {
    columns: scoped({
      id: 'text',
      name: 'text',
      description: 'text?',
      price: 'bigint',
      free_shipping_threshold: 'bigint?',
      currency: 'text',
      is_active: 'bool',
      position: 'int',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      deleted_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  discounts: {
    columns: scoped({
      id: 'text',
      name: 'text',
      description: 'text?',
      code: 'text?',
      code_lower: 'text?',
      type: 'text',
      value_type: 'text',
      value: 'double',
      target: 'text',
      usage_limit: 'int?',
      usage_count: 'int',
      per_customer_limit: 'int?',
      minimum_amount: 'bigint?',
      maximum_discount: 'bigint?',
      currency: 'text',
      starts_at: 'bigint?',
      ends_at: 'bigint?',
      is_active: 'bool',
      conditions: 'json',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      deleted_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  discount_usages: {
    columns: scoped({
      id: 'text',
      discount_id: 'text',
      order_id: 'text',
      customer_key: 'text',
      created_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('discount_id', 'discounts')],
  },
  carts: {
    columns: scoped({
      id: 'text',
      status: 'text',
      session_id: 'text?',
      customer_id: 'text?',
      email: 'text?',
      shipping_address: 'json?',
      billing_address: 'json?',
      shipping_method_id: 'text?',
      discount_codes: 'json',
      currency: 'text',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      completed_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  cart_items: {
    columns: scoped({
      id: 'text',
      cart_id: 'text',
      variant_id: 'text',
      quantity: 'int',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('cart_id', 'carts')],
  },
  orders: {
    columns: scoped({
      id: 'text',
      number: 'bigint',
      status: 'text',
      payment_status: 'text',
      fulfillment_status: 'text',
      customer_id: 'text?',
      email: 'text',
      email_lower: 'text',
      shipping_address: 'json?',
      billing_address: 'json?',
      currency: 'text',
      subtotal: 'bigint',
      discount_total: 'bigint',
      shipping_total: 'bigint',
      tax_total: 'bigint',
      total: 'bigint',
      paid_total: 'bigint',
      refunded_total: 'bigint',
      prices_include_tax: 'bool',
      tax_rate: 'double',
      shipping_method_id: 'text?',
      shipping_method_name: 'text?',
      shipping_discount: 'bigint',
      shipping_tax: 'bigint',
      applied_discounts: 'json',
      note: 'text?',
      metadata: 'json',
      cart_id: 'text?',
      inventory_reserved: 'bool',
      cancel_reason: 'text?',
      created_at: 'bigint',
      updated_at: 'bigint',
      cancelled_at: 'bigint?',
      completed_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  order_lines: {
    columns: scoped({
      id: 'text',
      order_id: 'text',
      variant_id: 'text',
      product_id: 'text',
      product_name: 'text',
      variant_name: 'text',
      sku: 'text?',
      image_url: 'text?',
      quantity: 'int',
      fulfilled_quantity: 'int',
      shipped_quantity: 'int',
      refunded_quantity: 'int',
      restocked_quantity: 'int',
      unit_price: 'bigint',
      line_discount: 'bigint',
      line_total: 'bigint',
      tax_amount: 'bigint',
      position: 'int',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('order_id', 'orders')],
  },
  payments: {
    columns: scoped({
      id: 'text',
      order_id: 'text?',
      provider: 'text',
      provider_id: 'text?',
      amount: 'bigint',
      currency: 'text',
      status: 'text',
      idempotency_key: 'text?',
      cart_id: 'text?',
      client_secret: 'text?',
      failure_reason: 'text?',
      note: 'text?',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('order_id', 'orders')],
  },
  fulfillments: {
    columns: scoped({
      id: 'text',
      order_id: 'text',
      status: 'text',
      tracking_number: 'text?',
      tracking_url: 'text?',
      carrier: 'text?',
      lines: 'json',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      shipped_at: 'bigint?',
      delivered_at: 'bigint?',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('order_id', 'orders')],
  },
  refunds: {
    columns: scoped({
      id: 'text',
      order_id: 'text',
      amount: 'bigint',
      currency: 'text',
      reason: 'text?',
      restock: 'bool',
      status: 'text',
      lines: 'json',
      provider_refund_id: 'text?',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('order_id', 'orders')],
  },
  order_counters: {
    columns: scoped({ last_number: 'bigint' }),
    primaryKey: ['store_id', 'mode'],
  },
  idempotency_keys: {
    columns: scoped({
      key: 'text',
      operation: 'text',
      request_hash: 'text',
      state: 'text',
      response_status: 'int?',
      response_body: 'text?',
      locked_until: 'bigint',
      created_at: 'bigint',
      expires_at: 'bigint',
    }),
    primaryKey: ['store_id', 'mode', 'key'],
  },
  events: {
    columns: scoped({
      id: 'text',
      type: 'text',
      data: 'json',
      created_at: 'bigint',
      dispatched_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  webhooks: {
    columns: scoped({
      id: 'text',
      url: 'text',
      events: 'json',
      secret: 'text',
      is_active: 'bool',
      consecutive_failures: 'int',
      metadata: 'json',
      created_at: 'bigint',
      updated_at: 'bigint',
      deleted_at: 'bigint?',
    }),
    primaryKey: scopedKey,
  },
  webhook_deliveries: {
    columns: scoped({
      id: 'text',
      webhook_id: 'text',
      event_id: 'text',
      event_type: 'text',
      payload: 'text',
      status: 'text',
      attempt_count: 'int',
      next_attempt_at: 'bigint?',
      lease_until: 'bigint?',
      leased_by: 'text?',
      last_status_code: 'int?',
      last_error: 'text?',
      last_duration_ms: 'int?',
      created_at: 'bigint',
      updated_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('webhook_id', 'webhooks')],
  },
  webhook_attempts: {
    columns: scoped({
      id: 'text',
      delivery_id: 'text',
      attempt: 'int',
      status_code: 'int?',
      duration_ms: 'int',
      error: 'text?',
      succeeded: 'bool',
      created_at: 'bigint',
    }),
    primaryKey: scopedKey,
    foreignKeys: [parent('delivery_id', 'webhook_deliveries')],
  },
  notifications: {
    columns: scoped({ id: 'text', type: 'text', message: 'text', data: 'json', created_at: 'bigint' }),
    primaryKey: scopedKey,
  },
};

interface IndexDefinition {
  name: string;
  table: string;
  /** Column names, or raw index expressions in parentheses. */
  columns: string[];
  unique?: boolean;
  /** Partial index predicate (constant SQL, no parameters). */
  where?: string;
  /** Postgres only (SQLite cannot index inside JSON arrays). */
  postgresUsing?: 'gin';
}

const sm = (...columns: string[]) => ['store_id', 'mode', ...columns];

/**
 * Every lookup, list filter and sort of the repositories (docs/contract.md#list-filters) has an index; keyset
 * pagination needs `(store_id, mode, <sort column>, id)`. Substring searches (`q`) are filtered
 * scans over the scope's sort index; tag filters use a GIN index on Postgres.
 */
const INDEXES: IndexDefinition[] = [
  { name: 'organizations_created_idx', table: 'organizations', columns: ['created_at', 'id'] },
  { name: 'stores_created_idx', table: 'stores', columns: ['created_at', 'id'] },
  // keys and tokens
  { name: 'api_keys_key_hash_unique', table: 'api_keys', columns: ['key_hash'], unique: true },
  { name: 'api_keys_list_idx', table: 'api_keys', columns: sm('created_at', 'id') },
  {
    name: 'customer_tokens_token_hash_unique',
    table: 'customer_tokens',
    columns: sm('token_hash'),
    unique: true,
  },
  { name: 'customer_tokens_customer_idx', table: 'customer_tokens', columns: sm('customer_id') },
  // catalog
  {
    name: 'products_slug_unique',
    table: 'products',
    columns: sm('slug'),
    unique: true,
    where: 'deleted_at is null',
  },
  { name: 'products_created_idx', table: 'products', columns: sm('created_at', 'id') },
  { name: 'products_name_idx', table: 'products', columns: sm('name_lower', 'id') },
  { name: 'products_price_asc_idx', table: 'products', columns: sm(`(${PRICE_ASC_KEY})`, 'id') },
  { name: 'products_price_desc_idx', table: 'products', columns: sm(`(${PRICE_DESC_KEY})`, 'id') },
  { name: 'products_status_idx', table: 'products', columns: sm('status', 'created_at', 'id') },
  { name: 'products_type_idx', table: 'products', columns: sm('type', 'created_at', 'id') },
  { name: 'products_tags_gin', table: 'products', columns: ['tags'], postgresUsing: 'gin' },
  { name: 'product_options_product_idx', table: 'product_options', columns: sm('product_id', 'position') },
  {
    name: 'product_option_values_option_idx',
    table: 'product_option_values',
    columns: sm('option_id', 'position'),
  },
  {
    name: 'product_option_values_product_idx',
    table: 'product_option_values',
    columns: sm('product_id'),
  },
  {
    name: 'product_variants_sku_unique',
    table: 'product_variants',
    columns: sm('sku'),
    unique: true,
    where: 'sku is not null and deleted_at is null',
  },
  { name: 'product_variants_product_idx', table: 'product_variants', columns: sm('product_id', 'position') },
  {
    name: 'inventory_items_variant_unique',
    table: 'inventory_items',
    columns: sm('variant_id'),
    unique: true,
  },
  { name: 'inventory_items_created_idx', table: 'inventory_items', columns: sm('created_at', 'id') },
  { name: 'product_images_product_idx', table: 'product_images', columns: sm('product_id', 'position') },
  { name: 'shipping_methods_created_idx', table: 'shipping_methods', columns: sm('created_at', 'id') },
  {
    name: 'shipping_methods_position_idx',
    table: 'shipping_methods',
    columns: sm('position', 'created_at', 'id'),
  },
  // discounts
  {
    name: 'discounts_code_unique',
    table: 'discounts',
    columns: sm('code_lower'),
    unique: true,
    where: 'code_lower is not null and deleted_at is null',
  },
  { name: 'discounts_created_idx', table: 'discounts', columns: sm('created_at', 'id') },
  { name: 'discounts_type_idx', table: 'discounts', columns: sm('type', 'created_at', 'id') },
  {
    name: 'discount_usages_customer_idx',
    table: 'discount_usages',
    columns: sm('discount_id', 'customer_key'),
  },
  // customers
  {
    name: 'customers_email_unique',
    table: 'customers',
    columns: sm('email_lower'),
    unique: true,
    where: 'deleted_at is null',
  },
  { name: 'customers_created_idx', table: 'customers', columns: sm('created_at', 'id') },
  { name: 'customers_status_idx', table: 'customers', columns: sm('status', 'created_at', 'id') },
  { name: 'customers_tags_gin', table: 'customers', columns: ['tags'], postgresUsing: 'gin' },
  {
    name: 'customer_addresses_customer_idx',
    table: 'customer_addresses',
    columns: sm('customer_id', 'created_at', 'id'),
  },
  // carts
  { name: 'carts_session_idx', table: 'carts', columns: sm('session_id', 'status', 'created_at') },
  { name: 'carts_customer_idx', table: 'carts', columns: sm('customer_id', 'status', 'created_at') },
  { name: 'cart_items_cart_idx', table: 'cart_items', columns: sm('cart_id', 'created_at', 'id') },
  // orders
  { name: 'orders_number_unique', table: 'orders', columns: sm('number'), unique: true },
  { name: 'orders_created_idx', table: 'orders', columns: sm('created_at', 'id') },
  { name: 'orders_total_idx', table: 'orders', columns: sm('total', 'id') },
  { name: 'orders_status_idx', table: 'orders', columns: sm('status', 'created_at', 'id') },
  { name: 'orders_payment_status_idx', table: 'orders', columns: sm('payment_status', 'created_at', 'id') },
  {
    name: 'orders_fulfillment_status_idx',
    table: 'orders',
    columns: sm('fulfillment_status', 'created_at', 'id'),
  },
  { name: 'orders_customer_idx', table: 'orders', columns: sm('customer_id', 'created_at', 'id') },
  { name: 'orders_email_idx', table: 'orders', columns: sm('email_lower', 'created_at', 'id') },
  { name: 'order_lines_order_idx', table: 'order_lines', columns: sm('order_id', 'position') },
  { name: 'payments_order_idx', table: 'payments', columns: sm('order_id', 'created_at') },
  { name: 'payments_idempotency_idx', table: 'payments', columns: sm('idempotency_key') },
  { name: 'payments_status_idx', table: 'payments', columns: ['status', 'created_at'] },
  { name: 'fulfillments_order_idx', table: 'fulfillments', columns: sm('order_id', 'created_at') },
  { name: 'refunds_order_idx', table: 'refunds', columns: sm('order_id', 'created_at') },
  // idempotency, outbox, webhooks
  { name: 'idempotency_keys_expires_idx', table: 'idempotency_keys', columns: ['expires_at'] },
  {
    name: 'events_undispatched_idx',
    table: 'events',
    columns: ['created_at', 'id'],
    where: 'dispatched_at is null',
  },
  { name: 'events_id_idx', table: 'events', columns: ['id'] },
  { name: 'webhooks_created_idx', table: 'webhooks', columns: sm('created_at', 'id') },
  {
    name: 'webhook_deliveries_webhook_idx',
    table: 'webhook_deliveries',
    columns: sm('webhook_id', 'created_at', 'id'),
  },
  {
    name: 'webhook_deliveries_due_idx',
    table: 'webhook_deliveries',
    columns: ['next_attempt_at', 'id'],
    where: "status = 'pending'",
  },
  { name: 'webhook_deliveries_id_idx', table: 'webhook_deliveries', columns: ['id'] },
  {
    name: 'webhook_attempts_delivery_idx',
    table: 'webhook_attempts',
    columns: sm('delivery_id', 'attempt'),
  },
  { name: 'notifications_created_idx', table: 'notifications', columns: sm('created_at', 'id') },
];

async function createTable(
  db: Kysely<unknown>,
  dialect: SchemaDialect,
  name: string,
  table: TableDefinition,
): Promise<void> {
  let builder = db.schema.createTable(name) as CreateTableBuilder<string, string>;
  const keyed = keyedColumns(name, table);
  for (const [column, spec] of Object.entries(table.columns)) {
    const { kind, nullable } = parseColumnSpec(spec);
    builder = builder.addColumn(
      column,
      columnDataType(dialect, kind, keyed.has(column) ? column : undefined),
      (col) => (nullable ? col : col.notNull()),
    );
  }
  builder = builder.addPrimaryKeyConstraint(`${name}_pkey`, table.primaryKey);
  for (const fk of table.foreignKeys ?? []) {
    builder = builder.addForeignKeyConstraint(
      `${name}_${fk.columns[fk.columns.length - 1]}_fkey`,
      fk.columns,
      fk.references,
      ['store_id', 'mode', 'id'],
      (constraint) => constraint.onDelete('cascade'),
    );
  }
  if (dialect === 'sqlite') builder = builder.modifyEnd(sql`strict`);
  await builder.execute();
}

async function createIndex(
  db: Kysely<unknown>,
  dialect: SchemaDialect,
  index: IndexDefinition,
): Promise<void> {
  if (index.postgresUsing && dialect !== 'postgres') return;
  if (dialect === 'mysql') return createMysqlIndex(db, index);
  const using = index.postgresUsing ? sql` using ${sql.raw(index.postgresUsing)}` : sql``;
  const where = index.where ? sql` where ${sql.raw(index.where)}` : sql``;
  // Raw DDL: index expressions must be written exactly as the queries write them.
  await sql`create ${sql.raw(index.unique ? 'unique ' : '')}index ${sql.id(index.name)} on ${sql.id(
    index.table,
  )}${using} (${sql.raw(index.columns.join(', '))})${where}`.execute(db);
}

/** Columns of a table that are in its keys or indexes (MySQL types them varchar, not text). */
function keyedColumns(name: string, table: TableDefinition): Set<string> {
  const keyed = new Set<string>(table.primaryKey);
  for (const fk of table.foreignKeys ?? []) for (const column of fk.columns) keyed.add(column);
  for (const index of INDEXES)
    if (index.table === name) for (const column of index.columns) keyed.add(column);
  // Indexed by later migrations (0003, 0006, 0011): ids and statuses.
  for (const column of Object.keys(table.columns)) {
    if (column.endsWith('_id') || column === 'status') keyed.add(column);
  }
  return keyed;
}

/**
 * MariaDB has no partial and no expression indexes. A partial unique index becomes a unique
 * index on an invisible generated column holding the last column's value where the predicate
 * holds and NULL elsewhere (NULLs never collide): the same rule. A partial plain index indexes
 * every row; the price expression indexes are left out (those sorts read the scope's rows).
 */
async function createMysqlIndex(db: Kysely<unknown>, index: IndexDefinition): Promise<void> {
  if (index.columns.some((column) => column.startsWith('('))) return;
  let columns = index.columns;
  if (index.where && index.unique) {
    const last = columns[columns.length - 1]!;
    const key = `${index.name}_key`;
    const length = sql.raw(String(mysqlKeyLength(last)));
    await sql`alter table ${sql.id(index.table)} add column ${sql.id(key)} varchar(${length}) character set utf8mb4 collate utf8mb4_bin
      as (case when ${sql.raw(index.where)} then ${sql.ref(last)} end) persistent invisible`.execute(db);
    columns = [...columns.slice(0, -1), key];
  }
  await sql`create ${sql.raw(index.unique ? 'unique ' : '')}index ${sql.id(index.name)} on ${sql.id(
    index.table,
  )} (${sql.join(columns.map((column) => sql.ref(column)))})`.execute(db);
}

/** Builds the migration for one engine (column types differ, the shape does not). */
export function initialMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      for (const [name, table] of Object.entries(TABLES)) await createTable(db, dialect, name, table);
      for (const index of INDEXES) await createIndex(db, dialect, index);
    },
    async down(db) {
      for (const name of Object.keys(TABLES).reverse()) await db.schema.dropTable(name).ifExists().execute();
    },
  };
}
