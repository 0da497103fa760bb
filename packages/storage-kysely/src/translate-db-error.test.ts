import { randomBytes } from 'node:crypto';
import { CommerceError } from '@cartwright/core';
import { makeCustomer, makeProduct, newScope } from '@cartwright/storage-conformance';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from './kysely-storage';
import { onEveryEngine } from './migrations/migration-test-engines';
import { translateDbError, UNSTORABLE_VALUE_STATES } from './translate-db-error';

describe('translateDbError', () => {
  it('SQLite "UNIQUE constraint failed: products.store_id, products.mode, products.slug" → duplicate_slug (param slug)', () => {
    const error = Object.assign(
      new Error('UNIQUE constraint failed: products.store_id, products.mode, products.slug'),
      {
        code: 'SQLITE_CONSTRAINT_UNIQUE',
      },
    );
    const translated = translateDbError(error);
    expect(CommerceError.is(translated)).toBe(true);
    expect(translated).toMatchObject({ code: 'duplicate_slug', param: 'slug', type: 'conflict_error' });
    expect((translated as CommerceError).cause).toBe(error);
  });

  it('SQLite lower-cased columns map back to the wire field: discounts.code_lower → duplicate_code (code)', () => {
    const code = translateDbError(
      Object.assign(
        new Error('UNIQUE constraint failed: discounts.store_id, discounts.mode, discounts.code_lower'),
        {
          code: 'SQLITE_CONSTRAINT_UNIQUE',
        },
      ),
    );
    expect(code).toMatchObject({ code: 'duplicate_code', param: 'code' });
    const email = translateDbError(
      Object.assign(
        new Error('UNIQUE constraint failed: customers.store_id, customers.mode, customers.email_lower'),
        {
          code: 'SQLITE_CONSTRAINT_UNIQUE',
        },
      ),
    );
    expect(email).toMatchObject({ code: 'duplicate_email', param: 'email' });
  });

  it('Postgres 23505 on product_variants_sku_unique → duplicate_sku with the value from the detail', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      constraint: 'product_variants_sku_unique',
      detail: 'Key (store_id, mode, sku)=(store_1, test, SKU, with comma) already exists.',
    });
    expect(translateDbError(error)).toMatchObject({
      code: 'duplicate_sku',
      param: 'sku',
      data: { value: 'SKU, with comma' },
    });
  });

  it('stores_slug_unique (decisions §22) → duplicate_slug (param slug) on every engine, the whole key as the value', () => {
    const postgres = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      constraint: 'stores_slug_unique',
      detail: 'Key (slug)=(my-shop) already exists.',
    });
    expect(translateDbError(postgres)).toMatchObject({
      code: 'duplicate_slug',
      param: 'slug',
      message: 'A store with this slug already exists',
      data: { value: 'my-shop' },
    });
    const sqlite = Object.assign(new Error('UNIQUE constraint failed: stores.slug'), {
      code: 'SQLITE_CONSTRAINT_UNIQUE',
    });
    expect(translateDbError(sqlite)).toMatchObject({ code: 'duplicate_slug', param: 'slug' });
  });

  it("MariaDB 1062 \"Duplicate entry … for key '<index>'\" → the index's domain error, the value when the entry is whole", () => {
    const mariadb = (entry: string, key: string) =>
      Object.assign(new Error(`Duplicate entry '${entry}' for key '${key}'`), {
        code: 'ER_DUP_ENTRY',
        errno: 1062,
        sqlState: '23000',
        sqlMessage: `Duplicate entry '${entry}' for key '${key}'`,
      });
    const sku = mariadb("store_1-test-SKU-1, it's", 'product_variants_sku_unique');
    const translated = translateDbError(sku);
    expect(translated).toMatchObject({
      code: 'duplicate_sku',
      param: 'sku',
      type: 'conflict_error',
      data: { value: "SKU-1, it's" },
    });
    expect((translated as CommerceError).cause).toBe(sku);
    expect(translateDbError(mariadb('store_1-live-save10', 'discounts_code_unique'))).toMatchObject({
      code: 'duplicate_code',
      param: 'code',
    });
    // MySQL 8 names the table too
    expect(translateDbError(mariadb('store_1-test-a@b.c', 'customers.customers_email_unique'))).toMatchObject(
      {
        code: 'duplicate_email',
        param: 'email',
        data: { value: 'a@b.c' },
      },
    );
    // an entry cut at 64 characters ('...') keeps no value
    const cut = translateDbError(mariadb(`store_1-test-${'x'.repeat(48)}...`, 'products_slug_unique'));
    expect(cut).toMatchObject({ code: 'duplicate_slug', param: 'slug' });
    expect((cut as CommerceError).data).toBeUndefined();
    // a store's slug is unique across the database: the entry is the whole value
    expect(translateDbError(mariadb('main-test-shop', 'stores_slug_unique'))).toMatchObject({
      code: 'duplicate_slug',
      param: 'slug',
      data: { value: 'main-test-shop' },
    });
    const primary = mariadb('ord_1', 'PRIMARY');
    expect(translateDbError(primary)).toBe(primary);
  });

  it('anything else passes through unchanged (other constraints, other errors, CommerceErrors)', () => {
    const pk = Object.assign(new Error('dup'), { code: '23505', constraint: 'orders_pkey' });
    expect(translateDbError(pk)).toBe(pk);
    const fk = Object.assign(new Error('FOREIGN KEY constraint failed'), {
      code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    });
    expect(translateDbError(fk)).toBe(fk);
    const domain = new CommerceError('not_found', 'nope');
    expect(translateDbError(domain)).toBe(domain);
    expect(translateDbError('text')).toBe('text');
  });

  it('Postgres (and MariaDB) refusals of a value it cannot store (22P05, 22021, 22003, 54000, 22001) → 400 parameter_invalid, no SQL echoed', () => {
    for (const code of Object.keys(UNSTORABLE_VALUE_STATES)) {
      const error = Object.assign(
        new Error('invalid byte sequence for encoding "UTF8": 0x00 in "select …"'),
        {
          code,
          severity: 'ERROR',
          routine: 'report_invalid_encoding',
        },
      );
      const translated = translateDbError(error);
      expect(CommerceError.is(translated), code).toBe(true);
      expect(translated).toMatchObject({ code: 'parameter_invalid', type: 'invalid_request_error' });
      expect((translated as CommerceError).message).not.toContain('select');
      expect((translated as CommerceError).cause).toBe(error);
    }
    // MariaDB (mysql2): the SQLSTATE is in sqlState (1406 data too long, 1264 out of range)
    for (const [errno, sqlState] of [
      [1406, '22001'],
      [1264, '22003'],
    ] as const) {
      const error = Object.assign(new Error("Data too long for column 'name_lower' at row 1"), {
        code: errno === 1406 ? 'ER_DATA_TOO_LONG' : 'ER_WARN_DATA_OUT_OF_RANGE',
        errno,
        sqlState,
        sqlMessage: "Data too long for column 'name_lower' at row 1",
      });
      const translated = translateDbError(error);
      expect(translated, String(errno)).toMatchObject({ code: 'parameter_invalid' });
      expect((translated as CommerceError).message).not.toContain('name_lower');
    }
    // the same SQLSTATE-like code on something that is not a Postgres error passes through
    const other = Object.assign(new Error('x'), { code: '22003' });
    expect(translateDbError(other)).toBe(other);
  });
});

/**
 * The last line of defence on the real engines: values the input layer would have refused, sent
 * straight to the storage port. PostgreSQL's refusals become 400 `parameter_invalid` (not a 500);
 * SQLite stores or finds nothing, without an error.
 */
onEveryEngine((name, open) => {
  describe(`translateDbError on ${name}: values the database cannot store`, () => {
    it('a NUL in a lookup, a NUL in an insert, an index entry too large, an int4 overflow', async () => {
      const storage: KyselyStorage = await open();
      try {
        await storage.migrate();
        const scope = newScope();
        const refused = async (run: () => Promise<unknown>) => {
          try {
            await run();
            return null;
          } catch (error) {
            return error;
          }
        };
        const lookup = await refused(() => storage.read((r) => r.products.get(scope, 'prod_\u0000')));
        const nulInsert = await refused(() =>
          storage.transaction((tx) => tx.customers.insert(makeCustomer(scope, { first_name: 'A\u0000' }))),
        );
        const huge = makeProduct(scope);
        const tooLong = await refused(() =>
          // random text: PostgreSQL compresses index entries, so a repeated character would fit
          storage.transaction((tx) =>
            tx.products.insert({ ...huge, slug: randomBytes(6_000).toString('hex') }),
          ),
        );
        const stock = makeProduct(scope);
        const variant = stock.variants[0];
        const overflow =
          variant === undefined
            ? null
            : await refused(() =>
                storage.transaction((tx) =>
                  tx.products.insert({
                    ...stock,
                    variants: [{ ...variant, inventory: { ...variant.inventory, safety_stock: 2 ** 31 } }],
                  }),
                ),
              );
        if (name === 'postgres') {
          for (const [what, error] of Object.entries({ lookup, nulInsert, tooLong, overflow })) {
            expect(error, what).toMatchObject({ code: 'parameter_invalid', type: 'invalid_request_error' });
          }
        } else {
          // SQLite stores text and 64-bit integers as they are: the input layer is what refuses them.
          expect(lookup).toBeNull();
          expect(nulInsert).toBeNull();
          expect(tooLong).toBeNull();
        }
      } finally {
        await storage.close();
      }
    });
  });
});
