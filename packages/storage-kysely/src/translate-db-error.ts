import { CommerceError, type ErrorCode, idempotencyClaimTakenOver } from '@cartwright/core';

/**
 * The text a PostgreSQL statement casts to an integer to FAIL on purpose when an idempotency
 * claim was taken over (`idempotency.completeAtCommit`): its 22P02 error becomes 409
 * `idempotency_key_in_use`.
 */
export const CLAIM_TAKEN_OVER = 'cartwright: idempotency claim taken over #';

/**
 * The one place where driver errors become domain errors: a unique violation of one of the
 * indexes below → CommerceError 409 with `param`; a value Postgres cannot store
 * ({@link UNSTORABLE_VALUE_STATES}) → 400 `parameter_invalid`. Everything else passes through unchanged
 * (the HTTP layer turns it into a generic 500 without leaking SQL).
 *
 * SQLite (better-sqlite3) reports `UNIQUE constraint failed: <table>.<col>, …`; Postgres reports
 * SQLSTATE 23505 with the index name in `constraint` and the key in `detail`; MariaDB reports
 * errno 1062 with the entry and the index name in its message. When the detail
 * names the value, it is kept in `data.value` (used to point `param` at the right variant).
 */
interface UniqueIndex {
  code: ErrorCode;
  param: string;
  /** `table.column` of the index's last column, as SQLite names it. */
  sqliteColumn: string;
  message: string;
  /** False for a global index (no `store_id, mode` before the value). */
  scoped?: false;
}

export const UNIQUE_INDEXES: Record<string, UniqueIndex> = {
  products_slug_unique: {
    code: 'duplicate_slug',
    param: 'slug',
    sqliteColumn: 'products.slug',
    message: 'A product with this slug already exists',
  },
  categories_slug_unique: {
    code: 'duplicate_slug',
    param: 'slug',
    sqliteColumn: 'categories.slug',
    message: 'A category with this slug already exists',
  },
  product_variants_sku_unique: {
    code: 'duplicate_sku',
    param: 'sku',
    sqliteColumn: 'product_variants.sku',
    message: 'A variant with this SKU already exists',
  },
  discounts_code_unique: {
    code: 'duplicate_code',
    param: 'code',
    sqliteColumn: 'discounts.code_lower',
    message: 'A discount with this code already exists',
  },
  collections_slug_unique: {
    code: 'duplicate_slug',
    param: 'slug',
    sqliteColumn: 'collections.slug',
    message: 'A collection with this slug already exists',
  },
  stores_slug_unique: {
    code: 'duplicate_slug',
    param: 'slug',
    sqliteColumn: 'stores.slug',
    message: 'A store with this slug already exists',
    scoped: false,
  },
  store_locales_locale_unique: {
    code: 'duplicate_locale',
    param: 'locale',
    sqliteColumn: 'store_locales.locale',
    message: 'The store already has this locale',
  },
  members_email_unique: {
    code: 'duplicate_email',
    param: 'email',
    sqliteColumn: 'members.email_lower',
    message: 'A member with this email already exists',
  },
  members_user_id_unique: {
    code: 'duplicate_user_id',
    param: 'user_id',
    sqliteColumn: 'members.user_id',
    message: 'A member with this user_id already exists',
  },
  regions_code_unique: {
    code: 'duplicate_code',
    param: 'code',
    sqliteColumn: 'regions.code',
    message: 'A region with this code already exists',
  },
  customers_email_unique: {
    code: 'duplicate_email',
    param: 'email',
    sqliteColumn: 'customers.email_lower',
    message: 'A customer with this email already exists',
  },
};

const BY_SQLITE_COLUMN = new Map(Object.values(UNIQUE_INDEXES).map((index) => [index.sqliteColumn, index]));

function uniqueIndexOf(error: Record<string, unknown>): { index: UniqueIndex; value?: string } | undefined {
  if (error.code === '23505' && typeof error.constraint === 'string') {
    const index = UNIQUE_INDEXES[error.constraint];
    if (!index) return undefined;
    // detail: Key (store_id, mode, sku)=(store_1, test, SKU-1) already exists. The value is the
    // last column's (the scope's values come first; a store's slug is the whole key).
    const detail = typeof error.detail === 'string' ? error.detail : '';
    const match = /^Key \((.*?)\)=\((.*)\) already exists/.exec(detail);
    const scopeColumns = (match?.[1]?.split(', ').length ?? 1) - 1;
    const value = match?.[2]?.split(', ').slice(scopeColumns).join(', ');
    return value === undefined ? { index } : { index, value };
  }
  if (error.errno === 1062 && typeof error.sqlMessage === 'string') return mariadbDuplicate(error.sqlMessage);
  if (
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE_CONSTRAINT') &&
    typeof error.message === 'string'
  ) {
    const match = /^UNIQUE constraint failed: (.*)$/.exec(error.message);
    const columns = match?.[1]?.split(', ') ?? [];
    const last = columns[columns.length - 1];
    const index = last === undefined ? undefined : BY_SQLITE_COLUMN.get(last);
    return index ? { index } : undefined;
  }
  return undefined;
}

/**
 * MariaDB/MySQL (mysql2) ER_DUP_ENTRY 1062: `Duplicate entry 'store_1-test-SKU-1' for key
 * 'product_variants_sku_unique'` (MySQL 8 writes `'<table>.<index>'`). The entry is the key's
 * columns joined by `-`: (store_id, mode, value); the value is kept when the entry is whole
 * (MariaDB cuts it at 64 characters).
 */
function mariadbDuplicate(message: string): { index: UniqueIndex; value?: string } | undefined {
  const match = /^Duplicate entry '([\s\S]*)' for key '(?:[^']*\.)?([^'.]+)'$/.exec(message);
  const index = match ? UNIQUE_INDEXES[match[2]!] : undefined;
  if (!match || !index) return undefined;
  const value = index.scoped === false ? match[1] : /^[^-]*-(?:test|live)-([\s\S]*)$/.exec(match[1]!)?.[1];
  return value === undefined || match[1]!.length >= 64 ? { index } : { index, value };
}

/**
 * Postgres (and MariaDB) refusals of a value it cannot store (SQLSTATE → what the value was). The input layer
 * (core's `parseInput` and the limits of docs/contract.md#input-limits) refuses all of these before any query
 * runs; this is the last line of defence, so that a value that slipped through is the caller's
 * 400 rather than a 500.
 */
export const UNSTORABLE_VALUE_STATES: Record<string, string> = {
  '22P05': 'contains a character the database cannot store (NUL or an unpaired surrogate)',
  '22021': 'contains a character the database cannot store (invalid byte sequence)',
  '22003': 'is out of the range the database can store',
  '54000': 'is too long to be indexed',
  '22001': 'is too long',
};

function unstorableValue(error: Record<string, unknown>): CommerceError | undefined {
  // MariaDB (mysql2) errors carry a numeric `errno` and the SQLSTATE in `sqlState` (1406 data too
  // long → 22001, 1264 out of range → 22003); Postgres errors carry `severity` and the SQLSTATE
  // in `code`. Never echo the message.
  const mariadb = typeof error.errno === 'number' && typeof error.sqlState === 'string';
  const code = mariadb ? error.sqlState : error.code;
  if (typeof code !== 'string' || !Object.hasOwn(UNSTORABLE_VALUE_STATES, code)) return undefined;
  if (!mariadb && typeof error.severity !== 'string' && typeof error.routine !== 'string') return undefined;
  return new CommerceError('parameter_invalid', `A value in the request ${UNSTORABLE_VALUE_STATES[code]}.`, {
    cause: error,
  });
}

/**
 * Returns the domain error for a known unique violation (409) or for a value Postgres cannot
 * store (400 `parameter_invalid`), else the error itself.
 */
export function translateDbError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || CommerceError.is(error)) return error;
  const record = error as Record<string, unknown>;
  if (
    record.code === '22P02' &&
    typeof record.message === 'string' &&
    record.message.includes(CLAIM_TAKEN_OVER)
  )
    return idempotencyClaimTakenOver(error);
  const unstorable = unstorableValue(error as Record<string, unknown>);
  if (unstorable) return unstorable;
  const found = uniqueIndexOf(error as Record<string, unknown>);
  if (!found) return error;
  return new CommerceError(found.index.code, found.index.message, {
    param: found.index.param,
    ...(found.value === undefined ? {} : { data: { value: found.value } }),
    cause: error,
  });
}
