import { CommerceError } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { translateDbError } from './translate-db-error';

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
});
