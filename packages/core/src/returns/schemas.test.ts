import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import {
  AdminReturnCreateSchema,
  AdminReturnListQuerySchema,
  ReturnActionSchema,
  ReturnReceiveSchema,
  StorefrontReturnCreateSchema,
} from './schemas';

const line = { order_line_id: 'line_1', quantity: 1 };

describe('CreateReturnInput (decisions §18)', () => {
  test('return_type defaults to refund; the storefront body takes the SDK’s fields', () => {
    expect(
      parseInput(StorefrontReturnCreateSchema, {
        reason: 'Too small',
        reason_category: 'changed_mind',
        customer_notes: 'Thanks',
        lines: [{ ...line, reason: 'size', condition: 'unopened' }],
      }),
    ).toEqual({
      return_type: 'refund',
      reason: 'Too small',
      reason_category: 'changed_mind',
      customer_notes: 'Thanks',
      lines: [{ ...line, reason: 'size', condition: 'unopened' }],
    });
  });

  test('1..250 lines; quantity ≥ 1; each order line once', () => {
    expectRejected(StorefrontReturnCreateSchema, { lines: [] }, 'parameter_invalid', 'lines');
    expectRejected(StorefrontReturnCreateSchema, {}, 'parameter_missing', 'lines');
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: Array.from({ length: 251 }, (_, i) => ({ order_line_id: `line_${i}`, quantity: 1 })) },
      'parameter_invalid',
      'lines',
    );
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [{ ...line, quantity: 0 }] },
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [line, line] },
      'parameter_invalid',
      'lines[1][order_line_id]',
    );
  });

  test('admin_notes and metadata are the merchant’s: unknown on the storefront, accepted on the admin', () => {
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [line], admin_notes: 'x' },
      'parameter_unknown',
      'admin_notes',
    );
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [line], metadata: {} },
      'parameter_unknown',
      'metadata',
    );
    expect(
      parseInput(AdminReturnCreateSchema, { lines: [line], admin_notes: 'ok', metadata: { a: 1 } }),
    ).toMatchObject({
      admin_notes: 'ok',
      metadata: { a: 1 },
    });
  });

  test('the SDK doc-comment names (`type`, `note`) are unknown fields', () => {
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [line], type: 'exchange' },
      'parameter_unknown',
      'type',
    );
    expectRejected(ReturnActionSchema, { note: 'x' }, 'parameter_unknown', 'note');
  });

  test('exchange: exchange_variant_id required on every line (parameter_missing); refund: refused (400)', () => {
    expectRejected(
      StorefrontReturnCreateSchema,
      {
        return_type: 'exchange',
        lines: [
          { ...line, exchange_variant_id: 'var_2' },
          { order_line_id: 'line_2', quantity: 1 },
        ],
      },
      'parameter_missing',
      'lines[1][exchange_variant_id]',
    );
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [{ ...line, exchange_variant_id: 'var_2' }] },
      'parameter_invalid',
      'lines[0][exchange_variant_id]',
    );
    expect(
      parseInput(StorefrontReturnCreateSchema, {
        return_type: 'exchange',
        lines: [{ ...line, exchange_variant_id: 'var_2' }],
      }),
    ).toMatchObject({ return_type: 'exchange' });
  });

  test('unknown enum values → parameter_invalid', () => {
    expectRejected(
      StorefrontReturnCreateSchema,
      { return_type: 'swap', lines: [line] },
      'parameter_invalid',
      'return_type',
    );
    expectRejected(
      StorefrontReturnCreateSchema,
      { reason_category: 'meh', lines: [line] },
      'parameter_invalid',
      'reason_category',
    );
    expectRejected(
      StorefrontReturnCreateSchema,
      { lines: [{ ...line, condition: 'used' }] },
      'parameter_invalid',
      'lines[0][condition]',
    );
  });
});

describe('return actions and lists', () => {
  test('approve/reject take admin_notes or nothing; receive takes lines [{ id, condition }] once each', () => {
    expect(parseInput(ReturnActionSchema, {})).toEqual({});
    expect(parseInput(ReturnActionSchema, { admin_notes: 'fine' })).toEqual({ admin_notes: 'fine' });
    expect(parseInput(ReturnReceiveSchema, { lines: [{ id: 'retl_1', condition: 'damaged' }] })).toEqual({
      lines: [{ id: 'retl_1', condition: 'damaged' }],
    });
    expectRejected(
      ReturnReceiveSchema,
      {
        lines: [
          { id: 'retl_1', condition: 'damaged' },
          { id: 'retl_1', condition: 'opened' },
        ],
      },
      'parameter_invalid',
      'lines[1][id]',
    );
  });

  test('admin list filters; an unknown status → 400', () => {
    expect(parseInput(AdminReturnListQuerySchema, { status: 'requested', order_id: 'ord_1' })).toMatchObject({
      status: 'requested',
      order_id: 'ord_1',
      limit: 20,
      sort: 'created_at',
      order: 'desc',
    });
    expectRejected(AdminReturnListQuerySchema, { status: 'pending' }, 'parameter_invalid', 'status');
  });
});
