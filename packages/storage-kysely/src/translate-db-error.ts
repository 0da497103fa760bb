import { CommerceError, type ErrorCode } from '@cartwright/core';

/**
 * The one place where driver errors become domain errors: a unique violation of one of the
 * indexes below → CommerceError 409 with `param`. Everything else passes through unchanged
 * (the HTTP layer turns it into a generic 500 without leaking SQL).
 *
 * SQLite (better-sqlite3) reports `UNIQUE constraint failed: <table>.<col>, …`; Postgres reports
 * SQLSTATE 23505 with the index name in `constraint` and the key in `detail`. When the detail
 * names the value, it is kept in `data.value` (used to point `param` at the right variant).
 */
interface UniqueIndex {
  code: ErrorCode;
  param: string;
  /** `table.column` of the index's last column, as SQLite names it. */
  sqliteColumn: string;
  message: string;
}

export const UNIQUE_INDEXES: Record<string, UniqueIndex> = {
  products_slug_unique: {
    code: 'duplicate_slug',
    param: 'slug',
    sqliteColumn: 'products.slug',
    message: 'A product with this slug already exists',
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
    // detail: Key (store_id, mode, sku)=(store_1, test, SKU-1) already exists.
    const detail = typeof error.detail === 'string' ? error.detail : '';
    const match = /\)=\((.*)\) already exists/.exec(detail);
    const value = match?.[1]?.split(', ').slice(2).join(', ');
    return value === undefined ? { index } : { index, value };
  }
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

/** Returns the domain error for a known unique violation, else the error itself. */
export function translateDbError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || CommerceError.is(error)) return error;
  const found = uniqueIndexOf(error as Record<string, unknown>);
  if (!found) return error;
  return new CommerceError(found.index.code, found.index.message, {
    param: found.index.param,
    ...(found.value === undefined ? {} : { data: { value: found.value } }),
    cause: error,
  });
}
