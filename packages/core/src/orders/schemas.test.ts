import { describe, expect, test } from 'vitest';
import { FulfillmentCreateSchema, FulfillmentUpdateSchema } from '../fulfillments/schemas';
import { AdminPaymentCreateSchema } from '../payments/schemas';
import { RefundCreateSchema } from '../refunds/schemas';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import {
  AdminOrderCreateSchema,
  AdminOrderListQuerySchema,
  AdminOrderUpdateSchema,
  OrderCancelSchema,
  OrderLookupQuerySchema,
  StorefrontOrderListQuerySchema,
} from './schemas';

describe('AdminOrderCreate (decisions §13)', () => {
  test('lines and email; status defaults to draft', () => {
    expect(
      parseInput(AdminOrderCreateSchema, { email: 'a@b.co', lines: [{ variant_id: 'var_1', quantity: 2 }] }),
    ).toEqual({
      email: 'a@b.co',
      lines: [{ variant_id: 'var_1', quantity: 2 }],
      status: 'draft',
      metadata: {},
    });
  });

  test('customer_id alone is enough; status pending accepted', () => {
    expect(
      parseInput(AdminOrderCreateSchema, {
        customer_id: 'cus_1',
        lines: [{ variant_id: 'v' }],
        status: 'pending',
      }),
    ).toMatchObject({ customer_id: 'cus_1', status: 'pending' });
  });

  test('neither email nor customer_id → parameter_missing email', () => {
    expectRejected(AdminOrderCreateSchema, { lines: [{ variant_id: 'v' }] }, 'parameter_missing', 'email');
  });

  test('lines missing → parameter_missing; empty → parameter_invalid', () => {
    expectRejected(AdminOrderCreateSchema, { email: 'a@b.co' }, 'parameter_missing', 'lines');
    const error = expectRejected(
      AdminOrderCreateSchema,
      { email: 'a@b.co', lines: [] },
      'parameter_invalid',
      'lines',
    );
    expect(error.message).toBe('lines must contain at least 1 item');
  });

  test('prices never come from the request', () => {
    expectRejected(
      AdminOrderCreateSchema,
      { email: 'a@b.co', lines: [{ variant_id: 'v', quantity: 1, unit_price: 1 }] },
      'parameter_unknown',
      'lines[0][unit_price]',
    );
  });
});

describe('AdminOrderUpdate', () => {
  test("status 'pending' finalises a draft; addresses, note, metadata", () => {
    expect(parseInput(AdminOrderUpdateSchema, { status: 'pending', note: 'rush', metadata: {} })).toEqual({
      status: 'pending',
      note: 'rush',
      metadata: {},
    });
  });

  test('any order status passes the schema (the service refuses moves other than pending with 409); not a status → parameter_invalid', () => {
    expect(AdminOrderUpdateSchema.parse({ status: 'confirmed' })).toEqual({ status: 'confirmed' });
    expectRejected(AdminOrderUpdateSchema, { status: 'shipped' }, 'parameter_invalid', 'status');
  });

  test('email and lines are not editable', () => {
    expectRejected(AdminOrderUpdateSchema, { email: 'x@y.co' }, 'parameter_unknown', 'email');
  });
});

describe('order actions', () => {
  test('cancel: optional reason', () => {
    expect(parseInput(OrderCancelSchema, {})).toEqual({});
    expect(parseInput(OrderCancelSchema, { reason: 'fraud' })).toEqual({ reason: 'fraud' });
    expectRejected(OrderCancelSchema, { reason: 5 }, 'parameter_invalid', 'reason');
  });

  test('admin payment: amount ≥ 1 (integer or Money), provider label required', () => {
    expect(parseInput(AdminPaymentCreateSchema, { amount: 5000, provider: 'cash' })).toEqual({
      amount: { amount: 5000 },
      provider: 'cash',
      metadata: {},
    });
    expectRejected(AdminPaymentCreateSchema, { amount: 0, provider: 'cash' }, 'parameter_invalid', 'amount');
    expectRejected(AdminPaymentCreateSchema, { amount: 100 }, 'parameter_missing', 'provider');
  });

  test('fulfillment: lines required, quantity ≥ 1, tracking_url absolute', () => {
    const body = {
      lines: [{ order_line_id: 'line_1', quantity: 1 }],
      tracking_number: '1Z',
      tracking_url: 'https://ups.example/1Z',
      carrier: 'UPS',
    };
    expect(parseInput(FulfillmentCreateSchema, body)).toEqual({ ...body, metadata: {} });
    expectRejected(FulfillmentCreateSchema, {}, 'parameter_missing', 'lines');
    expectRejected(
      FulfillmentCreateSchema,
      { lines: [{ order_line_id: 'l', quantity: 0 }] },
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectRejected(
      FulfillmentCreateSchema,
      { lines: [{ order_line_id: 'l', quantity: 1 }], tracking_url: 'ups' },
      'parameter_invalid',
      'tracking_url',
    );
    expect(parseInput(FulfillmentUpdateSchema, { tracking_number: null })).toEqual({ tracking_number: null });
  });
});

describe('RefundCreate (spec)', () => {
  test('reason, amount, restock, lines; restock defaults to false', () => {
    expect(parseInput(RefundCreateSchema, { amount: 500 })).toEqual({
      amount: { amount: 500 },
      restock: false,
    });
    expect(
      parseInput(RefundCreateSchema, {
        reason: 'damaged',
        restock: true,
        lines: [{ order_line_id: 'line_1', quantity: 1 }],
      }),
    ).toEqual({ reason: 'damaged', restock: true, lines: [{ order_line_id: 'line_1', quantity: 1 }] });
  });

  test('amount ≥ 1; line quantity ≥ 1; a line given twice is refused', () => {
    expectRejected(RefundCreateSchema, { amount: 0 }, 'parameter_invalid', 'amount');
    expectRejected(
      RefundCreateSchema,
      { lines: [{ order_line_id: 'l', quantity: 0 }] },
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectRejected(
      RefundCreateSchema,
      {
        lines: [
          { order_line_id: 'l', quantity: 1 },
          { order_line_id: 'l', quantity: 1 },
        ],
      },
      'parameter_invalid',
      'lines[1][order_line_id]',
    );
  });

  test('restock must be a boolean', () => {
    expectRejected(RefundCreateSchema, { restock: 'yes' }, 'parameter_invalid', 'restock');
  });
});

describe('order list queries (decisions §7)', () => {
  test('storefront: status (no drafts), created_after / created_before → epoch ms', () => {
    const query = parseInput(
      StorefrontOrderListQuerySchema,
      { status: 'completed', created_after: '2024-01-01', created_before: '2024-01-31T23:59:59Z' },
      { location: 'query' },
    );
    expect(query).toMatchObject({
      status: 'completed',
      created_after: Date.UTC(2024, 0, 1),
      created_before: Date.UTC(2024, 0, 31, 23, 59, 59),
      sort: 'created_at',
      order: 'desc',
    });
    expectRejected(
      StorefrontOrderListQuerySchema,
      { status: 'draft' },
      'parameter_invalid',
      'status',
      'query',
    );
    expectRejected(
      StorefrontOrderListQuerySchema,
      { created_after: 'last week' },
      'parameter_invalid',
      'created_after',
      'query',
    );
  });

  test('admin: every filter of decisions §7; sort by number defaults to asc', () => {
    const query = parseInput(
      AdminOrderListQuerySchema,
      {
        status: 'draft',
        payment_status: 'partially_refunded',
        fulfillment_status: 'returned',
        customer_id: 'cus_1',
        email: 'a@b.co',
        q: '1001',
        sort: 'number',
      },
      { location: 'query' },
    );
    expect(query).toMatchObject({
      status: 'draft',
      payment_status: 'partially_refunded',
      fulfillment_status: 'returned',
      order: 'asc',
    });
    expectRejected(
      AdminOrderListQuerySchema,
      { payment_status: 'free' },
      'parameter_invalid',
      'payment_status',
      'query',
    );
    expectRejected(
      AdminOrderListQuerySchema,
      { fulfillment_status: 'lost' },
      'parameter_invalid',
      'fulfillment_status',
      'query',
    );
  });

  test('guest lookup: number and email both required; number an integer', () => {
    expect(
      parseInput(OrderLookupQuerySchema, { number: '1001', email: 'A@B.co' }, { location: 'query' }),
    ).toEqual({
      number: 1001,
      email: 'A@B.co',
    });
    expectRejected(OrderLookupQuerySchema, { email: 'a@b.co' }, 'parameter_missing', 'number', 'query');
    expectRejected(OrderLookupQuerySchema, { number: '1001' }, 'parameter_missing', 'email', 'query');
    expectRejected(
      OrderLookupQuerySchema,
      { number: 'abc', email: 'a@b.co' },
      'parameter_invalid',
      'number',
      'query',
    );
  });
});
