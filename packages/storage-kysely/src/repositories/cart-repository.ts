import type { Mode, Scope } from '@cartwright/core';
import type {
  AddressValue,
  CartAggregate,
  CartItemRecord,
  CartPatch,
  CartRecord,
  CartRepository,
  JsonObject,
  LockedCart,
  Patch,
} from '@cartwright/core/storage';
import { type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { type EncodedRow, insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { rowFromValues, type Slots, shapedTemplate, slot, sqliteJsonRow, template } from '../query/template';
import { type UpdateShape, updateArgs, updateTemplate } from '../query/update-template';
import type { CartItemsTable, CartsTable, Database } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';
import { insertTree, insertTreeTemplate, TREE_MAX_ROWS } from './insert-tree';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insert = insertTemplate('carts');
const insertItemRow = insertTemplate('cart_items');
const CART_TREE = ['carts', 'cart_items'] as const;
const insertCartTree = insertTreeTemplate(CART_TREE);

/**
 * A cart's items as ONE JSON array column of the cart's own row (so a cart is one statement):
 * `[id, variant_id, quantity, metadata, created_at, updated_at]` per item, in the order they
 * were added (`created_at`, then id); `[]` without items. SQLite aggregates an ordered subquery
 * with `json_group_array` (metadata is TEXT, nested through `json()`); Postgres uses `json_agg
 * … order by` (jsonb nests as is; bigint comes back as a JSON number).
 */
function itemsColumn(caps: DialectCapabilities) {
  if (caps.dialect === 'postgres') {
    return sql<unknown>`(select coalesce(json_agg(json_build_array(ci.id, ci.variant_id, ci.quantity, ci.metadata, ci.created_at, ci.updated_at) order by ci.created_at, ci.id), '[]'::json) from cart_items ci where ci.store_id = carts.store_id and ci.mode = carts.mode and ci.cart_id = carts.id)`;
  }
  if (caps.dialect === 'mysql') {
    return sql<unknown>`(select coalesce(json_arrayagg(json_array(ci.id, ci.variant_id, ci.quantity, json_extract(ci.metadata, '$'), ci.created_at, ci.updated_at) order by ci.created_at, ci.id), '[]') from cart_items ci where ci.store_id = carts.store_id and ci.mode = carts.mode and ci.cart_id = carts.id)`;
  }
  return sql<unknown>`(select json_group_array(json_array(id, variant_id, quantity, json(metadata), created_at, updated_at)) from (select id, variant_id, quantity, metadata, created_at, updated_at from cart_items ci where ci.store_id = carts.store_id and ci.mode = carts.mode and ci.cart_id = carts.id order by created_at, id))`;
}

/**
 * The cart's open checkout attempt (`LockedCart.open_checkout_payment_id`): a payment of the
 * cart still `pending` without an order — `isOpenAttempt` in core — found through the partial
 * index `payments_open_checkout_idx` (migration 0011), whose predicate the literals repeat.
 */
const openCheckoutColumn = sql<
  string | null
>`(select p.id from payments p where p.store_id = carts.store_id and p.mode = carts.mode and p.cart_id = carts.id and p.status = 'pending' and p.order_id is null limit 1)`;

const CART_COLUMNS = TABLE_COLUMNS.carts;

/**
 * A cart row with its items: the row and `items_json` (Postgres), or ONE JSON array `r` (SQLite);
 * a locked read adds the open checkout attempt (`open_checkout`, or the array's last element).
 */
type CartReadRow =
  | (Selectable<CartsTable> & { items_json: unknown; open_checkout?: string | null })
  | { r: string };

/**
 * The columns of a cart read: Postgres `carts.*` and `items_json`; SQLite ONE value `r`, the
 * cart's columns (in {@link CART_COLUMNS} order) followed by the items array — one string for
 * better-sqlite3 to hand over instead of a 17-column row object (see `sqliteJsonRow`; the
 * items aggregate is nested through `json()`: SQLite does not promise that a subquery's result
 * keeps its JSON subtype). `locked`: the read of a write, which also looks up the cart's open
 * checkout attempt ({@link openCheckoutColumn}).
 */
function selectCart(
  query: SelectQueryBuilder<Database, 'carts', object>,
  caps: DialectCapabilities,
  locked = false,
): SelectQueryBuilder<Database, 'carts', CartReadRow> {
  if (caps.dialect === 'sqlite') {
    const items = sql`json(${itemsColumn(caps)})`;
    return query.select(
      sqliteJsonRow(CART_COLUMNS, {
        table: 'carts',
        extra: locked ? [items, openCheckoutColumn] : [items],
      }).as('r'),
    ) as unknown as SelectQueryBuilder<Database, 'carts', CartReadRow>;
  }
  const read = query.selectAll('carts').select(itemsColumn(caps).as('items_json'));
  return (locked
    ? read.select(openCheckoutColumn.as('open_checkout'))
    : read) as unknown as SelectQueryBuilder<Database, 'carts', CartReadRow>;
}

const byId = (locked: boolean) =>
  template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) =>
    selectCart(db.selectFrom('carts'), caps, locked)
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('id', '=', p.id),
  );
const get = byId(false);
const getLocked = byId(true);
/**
 * Postgres: the cart's row lock, taken in a statement of its own BEFORE the cart is read. Under
 * READ COMMITTED a statement that waits for a row lock re-reads only the locked row once it is
 * granted; its subqueries (the items, the open attempt) keep the statement's first snapshot and
 * would miss what the previous holder committed — items added, an attempt recorded. The read
 * that follows the lock is a new statement with a new snapshot, so it sees all of it.
 */
const lockCart = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('carts')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .forUpdate(),
);
/** Postgres: a customer's row lock (`lockCustomer`); NO KEY, so rows referencing it are not blocked. */
const lockCustomerRow = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('customers')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .forNoKeyUpdate(),
);

const activeBySession = template(({ db, caps }, p: Slots<ScopeSlots | 'session_id'>) =>
  selectCart(db.selectFrom('carts'), caps)
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('session_id', '=', p.session_id)
    // A literal, so the partial index of active carts (migration 0004) is provably usable.
    .where(sql<SqlBool>`status = 'active'`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);
const activeByCustomer = template(({ db, caps }, p: Slots<ScopeSlots | 'customer_id' | 'except_id'>) =>
  selectCart(db.selectFrom('carts'), caps)
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('customer_id', '=', p.customer_id)
    .where(sql<SqlBool>`status = 'active'`)
    .where('id', '!=', p.except_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);
const update = updateTemplate('carts');
/** The columns a cart patch may set, sorted (the order `updateArgs` lists them in). */
const CART_PATCH_COLUMNS = [
  'billing_address',
  'currency',
  'customer_id',
  'discount_codes',
  'email',
  'locale',
  'metadata',
  'region_id',
  'session_id',
  'shipping_address',
  'shipping_method_id',
  'updated_at',
] as const;
/** {@link update} without `RETURNING *` (`set`: the caller holds the row and needs nothing back). */
const setColumns = shapedTemplate(
  (shape: UpdateShape) => shape.columns.join(','),
  // Slots by any name, as `updateArgs` binds them (`store_id`, `mode`, `id`, `set_<column>`).
  ({ db }, p: Slots<string>, shape) =>
    db
      .updateTable('carts')
      .set(Object.fromEntries(shape.columns.map((column) => [column, slot(p, `set_${column}`)])) as never)
      .where('store_id', '=', slot(p, 'store_id'))
      .where('mode', '=', slot(p, 'mode'))
      .where('id', '=', slot(p, 'id')),
);
/** Compare-and-set of the status: the WHERE is the guard (one checkout wins). */
const transition = template(({ db }, p: Slots<ScopeSlots | 'id' | 'from' | 'to' | 'at' | 'completed_at'>) =>
  db
    .updateTable('carts')
    .set({ status: p.to, updated_at: p.at, completed_at: sql`coalesce(${p.completed_at}, completed_at)` })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('status', '=', p.from),
);
const updateItemRow = updateTemplate<'cart_items', 'cart_id'>('cart_items', {
  guard: (p) => sql<SqlBool>`cart_id = ${p.cart_id}`,
});
const deleteItemRow = template(({ db }, p: Slots<ScopeSlots | 'cart_id' | 'id'>) =>
  db
    .deleteFrom('cart_items')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('cart_id', '=', p.cart_id)
    .where('id', '=', p.id),
);

function decodeCart(row: Selectable<CartsTable>, c: DialectCapabilities): CartRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    status: row.status as CartRecord['status'],
    session_id: row.session_id,
    customer_id: row.customer_id,
    email: row.email,
    shipping_address: c.parseJson<AddressValue | null>(row.shipping_address) ?? null,
    billing_address: c.parseJson<AddressValue | null>(row.billing_address) ?? null,
    shipping_method_id: row.shipping_method_id,
    discount_codes: c.parseJson<string[]>(row.discount_codes),
    currency: row.currency,
    region_id: row.region_id ?? null,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    locale: row.locale ?? null,
  };
}

function decodeItem(row: Selectable<CartItemsTable>, c: DialectCapabilities): CartItemRecord {
  return {
    id: row.id,
    cart_id: row.cart_id,
    variant_id: row.variant_id,
    quantity: row.quantity,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** One element of `items_json`: `[id, variant_id, quantity, metadata, created_at, updated_at]`. */
type ItemTuple = [string, string, number, JsonObject | string, number | string, number | string];

function decodeItemTuple(cart_id: string, tuple: ItemTuple, c: DialectCapabilities): CartItemRecord {
  return {
    id: tuple[0],
    cart_id,
    variant_id: tuple[1],
    quantity: Number(tuple[2]),
    metadata: c.parseJson<JsonObject>(tuple[3]),
    created_at: Number(tuple[4]),
    updated_at: Number(tuple[5]),
  };
}

/**
 * A cart row read with its `items_json` column: {@link decodeCart} with `items` set on the new
 * object rather than `{ ...decodeCart(row, c), items }` — V8 (Node 20) builds a spread followed
 * by a key the source lacks on a slow path (~1 µs), on every cart read; adding a key to a fresh
 * object is a plain map transition.
 */
function decodeAggregate(read: CartReadRow, c: DialectCapabilities): CartAggregate;
function decodeAggregate(read: CartReadRow, c: DialectCapabilities, locked: true): LockedCart;
function decodeAggregate(read: CartReadRow, c: DialectCapabilities, locked = false): CartAggregate {
  let row: Selectable<CartsTable>;
  let items: unknown;
  let openCheckout: unknown = null;
  if ('r' in read) {
    const values = JSON.parse(read.r) as unknown[];
    row = rowFromValues(CART_COLUMNS, values);
    items = values[CART_COLUMNS.length];
    if (locked) openCheckout = values[CART_COLUMNS.length + 1];
  } else {
    row = read;
    items = read.items_json;
    if (locked) openCheckout = read.open_checkout;
  }
  const tuples = c.parseJson<ItemTuple[] | null>(items) ?? [];
  const cart = decodeCart(row, c) as LockedCart;
  cart.items = tuples.map((tuple) => decodeItemTuple(row.id, tuple, c));
  if (locked) cart.open_checkout_payment_id = typeof openCheckout === 'string' ? openCheckout : null;
  return cart;
}

function encodeItem(scope: Scope, item: CartItemRecord, c: DialectCapabilities): EncodedRow<'cart_items'> {
  return {
    store_id: scope.store_id,
    mode: scope.mode,
    id: item.id,
    cart_id: item.cart_id,
    variant_id: item.variant_id,
    quantity: item.quantity,
    metadata: c.json(item.metadata),
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

/** Carts with their items (one query per cart); items in the order they were added. */
export class KyselyCartRepository implements CartRepository {
  constructor(private readonly q: QueryRunner) {}

  /** SQLite: the cart, then its items. Postgres: both in ONE statement ({@link insertTree}). */
  async insert(cart: CartAggregate): Promise<void> {
    const c = this.q.caps;
    const row: EncodedRow<'carts'> = {
      store_id: cart.store_id,
      mode: cart.mode,
      id: cart.id,
      status: cart.status,
      session_id: cart.session_id,
      customer_id: cart.customer_id,
      email: cart.email,
      shipping_address: c.jsonOrNull(cart.shipping_address),
      billing_address: c.jsonOrNull(cart.billing_address),
      shipping_method_id: cart.shipping_method_id,
      discount_codes: c.json(cart.discount_codes),
      currency: cart.currency,
      region_id: cart.region_id,
      metadata: c.json(cart.metadata),
      created_at: cart.created_at,
      updated_at: cart.updated_at,
      completed_at: cart.completed_at,
      locale: cart.locale,
    };
    const items = cart.items.map((item) => encodeItem(cart, item, c));
    if (c.dialect === 'postgres' && items.length <= TREE_MAX_ROWS) {
      await insertTree(this.q, insertCartTree, CART_TREE, [[row], items]);
      return;
    }
    // Both started at once, the cart first (see insertRows).
    await Promise.all([
      insertRows(this.q, insert, 'carts', [row]),
      insertRows(this.q, insertItemRow, 'cart_items', items),
    ]);
  }

  get(scope: Scope, id: string, options: { forUpdate: true }): Promise<LockedCart | null>;
  get(scope: Scope, id: string, options?: { forUpdate?: false }): Promise<CartAggregate | null>;
  /**
   * `forUpdate`: lock, then read (two statements on Postgres, see {@link lockCart}; SQLite's
   * writer lock is held already), with the cart's open checkout attempt.
   */
  async get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<CartAggregate | null> {
    const args = scoped(scope, { id });
    if (!options?.forUpdate) {
      const row = await this.q.first(get, args);
      return row ? decodeAggregate(row, this.q.caps) : null;
    }
    if (!this.q.caps.forUpdate) {
      const row = await this.q.first(getLocked, args);
      return row ? decodeAggregate(row, this.q.caps, true) : null;
    }
    // Lock, then read in a statement of its own (its snapshot is taken once the lock is held),
    // both sent at once: one round trip where the transaction is pipelined (PostgreSQL).
    const [locked, row] = await Promise.all([this.q.first(lockCart, args), this.q.first(getLocked, args)]);
    return locked && row ? decodeAggregate(row, this.q.caps, true) : null;
  }

  async lockCustomer(scope: Scope, customer_id: string): Promise<void> {
    if (this.q.caps.forUpdate) await this.q.first(lockCustomerRow, scoped(scope, { id: customer_id }));
  }

  async getActive(
    scope: Scope,
    owner: { session_id: string } | { customer_id: string; except_cart_id?: string | undefined },
  ): Promise<CartAggregate | null> {
    const row =
      'session_id' in owner
        ? await this.q.first(activeBySession, scoped(scope, { session_id: owner.session_id }))
        : await this.q.first(
            activeByCustomer,
            scoped(scope, { customer_id: owner.customer_id, except_id: owner.except_cart_id ?? '' }),
          );
    return row ? decodeAggregate(row, this.q.caps) : null;
  }

  update(
    scope: Scope,
    id: string,
    patch: CartPatch,
    options?: { returning?: true },
  ): Promise<CartRecord | null>;
  update(scope: Scope, id: string, patch: CartPatch, options: { returning: false }): Promise<boolean>;
  async update(
    scope: Scope,
    id: string,
    patch: CartPatch,
    options?: { returning?: boolean },
  ): Promise<CartRecord | boolean | null> {
    const { shape, args } = this.#patchArgs(scope, id, patch);
    if (options?.returning === false) return (await this.q.affected(setColumns, args, shape)) > 0;
    const row = await this.q.first(update, args, shape);
    return row ? decodeCart(row, this.q.caps) : null;
  }

  /**
   * Shape and arguments of a cart patch, as `updateArgs` makes them (present columns sorted, bound
   * as `set_<column>`), but into an object literal that starts with the key: `updateArgs` adds
   * the columns to a spread copy of its key, which V8 (Node 20) does on a slow path.
   */
  #patchArgs(
    scope: Scope,
    id: string,
    patch: CartPatch,
  ): { shape: UpdateShape; args: Record<string, unknown> } {
    const c = this.q.caps;
    const values: Record<string, unknown> = {
      customer_id: patch.customer_id,
      session_id: patch.session_id,
      email: patch.email,
      shipping_address:
        patch.shipping_address === undefined ? undefined : c.jsonOrNull(patch.shipping_address),
      billing_address: patch.billing_address === undefined ? undefined : c.jsonOrNull(patch.billing_address),
      shipping_method_id: patch.shipping_method_id,
      discount_codes: patch.discount_codes === undefined ? undefined : c.json(patch.discount_codes),
      metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
      locale: patch.locale,
      region_id: patch.region_id,
      currency: patch.currency,
      updated_at: patch.updated_at,
    };
    const columns: string[] = [];
    const args: Record<string, unknown> = { store_id: scope.store_id, mode: scope.mode, id };
    for (const column of CART_PATCH_COLUMNS) {
      const value = values[column];
      if (value === undefined) continue;
      columns.push(column);
      args[`set_${column}`] = value;
    }
    return { shape: { columns, guard: false }, args };
  }

  async transition(
    scope: Scope,
    id: string,
    from: CartRecord['status'],
    to: CartRecord['status'],
    at: number,
  ): Promise<boolean> {
    const completed_at = to === 'completed' ? at : null;
    return (await this.q.affected(transition, scoped(scope, { id, from, to, at, completed_at }))) > 0;
  }

  async insertItem(scope: Scope, item: CartItemRecord): Promise<void> {
    await insertRows(this.q, insertItemRow, 'cart_items', [encodeItem(scope, item, this.q.caps)]);
  }

  async updateItem(
    scope: Scope,
    cart_id: string,
    item_id: string,
    patch: Patch<CartItemRecord, 'quantity' | 'metadata'>,
  ): Promise<CartItemRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        quantity: patch.quantity,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id: item_id }),
      { cart_id },
    );
    const row = await this.q.first(updateItemRow, args, shape);
    return row ? decodeItem(row, c) : null;
  }

  async deleteItem(scope: Scope, cart_id: string, item_id: string): Promise<boolean> {
    return (await this.q.affected(deleteItemRow, scoped(scope, { cart_id, id: item_id }))) > 0;
  }
}
