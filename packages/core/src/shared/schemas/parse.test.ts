import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CartItemAddSchema, CheckoutSchema } from '../../carts/schemas';
import { AdminOrderCreateSchema } from '../../orders/schemas';
import { CommerceError } from '../errors';
import { AddressInputSchema, ListQuerySchema, moneyInput } from './common';
import { formatParam, parseInput } from './parse';
import { expectRejected, inputErrorOf } from './test-helpers';

const ItemSchema = z.strictObject({
  name: z.string().min(1),
  quantity: z.int().min(1),
  tags: z.array(z.string()).optional(),
});

describe('parseInput', () => {
  test('returns the typed output of a valid value (defaults applied)', () => {
    expect(parseInput(CartItemAddSchema, { variant_id: 'var_1' })).toEqual({
      variant_id: 'var_1',
      quantity: 1,
    });
  });

  test('throws a CommerceError, recognisable by its brand', () => {
    expect(() => parseInput(ItemSchema, {})).toThrow(CommerceError);
  });

  test('unknown key → parameter_unknown with the key as param', () => {
    const error = expectRejected(
      ItemSchema,
      { name: 'a', quantity: 1, colour: 'red' },
      'parameter_unknown',
      'colour',
    );
    expect(error.message).toBe('Received unknown parameter: colour');
    expect(error.type).toBe('invalid_request_error');
  });

  test('nested unknown key → param in wire notation (shipping_address[zip])', () => {
    const schema = z.strictObject({ shipping_address: AddressInputSchema });
    const value = {
      shipping_address: { name: 'A', line1: '1 St', city: 'X', postal_code: '1', country: 'US', zip: '1' },
    };
    expectRejected(schema, value, 'parameter_unknown', 'shipping_address[zip]');
  });

  test('missing required field → parameter_missing, "quantity is required"', () => {
    const error = expectRejected(ItemSchema, { name: 'a' }, 'parameter_missing', 'quantity');
    expect(error.message).toBe('quantity is required');
  });

  test('missing required enum field is missing, not invalid (event_type-like)', () => {
    const schema = z.strictObject({ status: z.enum(['a', 'b']) });
    expectRejected(schema, {}, 'parameter_missing', 'status');
  });

  test('null for a required field is invalid, not missing', () => {
    expectRejected(ItemSchema, { name: 'a', quantity: null }, 'parameter_invalid', 'quantity');
  });

  test('wrong type → parameter_invalid "quantity must be an integer"', () => {
    const error = expectRejected(
      CartItemAddSchema,
      { variant_id: 'v', quantity: 'two' },
      'parameter_invalid',
      'quantity',
    );
    expect(error.message).toBe('quantity must be an integer');
  });

  test('out of range → parameter_invalid "quantity must be at least 1"', () => {
    const error = expectRejected(
      CartItemAddSchema,
      { variant_id: 'v', quantity: 0 },
      'parameter_invalid',
      'quantity',
    );
    expect(error.message).toBe('quantity must be at least 1');
  });

  test('a fraction where an integer is expected → "must be an integer"', () => {
    const error = expectRejected(
      CartItemAddSchema,
      { variant_id: 'v', quantity: 1.5 },
      'parameter_invalid',
      'quantity',
    );
    expect(error.message).toBe('quantity must be an integer');
  });

  test('nested array path → lines[1][quantity]', () => {
    const error = expectRejected(
      AdminOrderCreateSchema,
      {
        email: 'a@b.co',
        lines: [
          { variant_id: 'v1', quantity: 1 },
          { variant_id: 'v2', quantity: 0 },
        ],
      },
      'parameter_invalid',
      'lines[1][quantity]',
    );
    expect(error.message).toBe('lines[1][quantity] must be at least 1');
  });

  test('missing nested field → parameter_missing lines[0][variant_id]', () => {
    expectRejected(
      AdminOrderCreateSchema,
      { email: 'a@b.co', lines: [{ quantity: 2 }] },
      'parameter_missing',
      'lines[0][variant_id]',
    );
  });

  test('invalid enum value lists the allowed values', () => {
    const error = expectRejected(
      AdminOrderCreateSchema,
      { email: 'a@b.co', lines: [{ variant_id: 'v' }], status: 'confirmed' },
      'parameter_invalid',
      'status',
    );
    expect(error.message).toBe('status must be one of: draft, pending');
  });

  test('details list every issue; unknown keys take precedence as the primary error', () => {
    const error = inputErrorOf(ItemSchema, { quantiy: 2, name: 5 });
    expect(error.code).toBe('parameter_unknown');
    expect(error.param).toBe('quantiy');
    expect(error.details).toEqual([
      { param: 'name', message: 'name must be a string' },
      { param: 'quantity', message: 'quantity is required' },
      { param: 'quantiy', message: 'Received unknown parameter: quantiy' },
    ]);
  });

  test('missing takes precedence over invalid', () => {
    const error = inputErrorOf(ItemSchema, { name: '', tags: 'x' });
    expect([error.code, error.param]).toEqual(['parameter_missing', 'quantity']);
    expect(error.details).toHaveLength(3);
  });

  test('a schema-written message is prefixed with the param', () => {
    const error = expectRejected(
      CheckoutSchema,
      { payment_provider: 'stripe', payment_method: 'manual' },
      'parameter_invalid',
      'payment_method',
    );
    expect(error.message).toBe(
      'payment_method is the older name of payment_provider and must not differ from it',
    );
  });

  test('a non-object body → parameter_invalid without param', () => {
    const error = inputErrorOf(ItemSchema, [1, 2]);
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBeUndefined();
    expect(error.message).toBe('The request body must be a JSON object');
  });

  test('query location wording: booleans are "true or false"', () => {
    const schema = z.object({ flag: z.boolean() });
    expect(inputErrorOf(schema, { flag: 'yes' }, 'query').message).toBe('flag must be true or false');
  });

  test('query limit errors read naturally', () => {
    expect(inputErrorOf(ListQuerySchema, { limit: 'abc' }, 'query').message).toBe('limit must be an integer');
    expect(inputErrorOf(ListQuerySchema, { limit: '101' }, 'query').message).toBe(
      'limit must be at most 100',
    );
  });

  test('union: reports inside the alternative whose type matched (price[amount])', () => {
    const schema = z.strictObject({ price: moneyInput });
    const error = expectRejected(
      schema,
      { price: { amount: 'x', currency: 'USD' } },
      'parameter_invalid',
      'price[amount]',
    );
    expect(error.message).toBe('price[amount] must be an integer');
  });

  test('union: an integer below the minimum is reported on the integer form', () => {
    const schema = z.strictObject({ price: moneyInput });
    expect(inputErrorOf(schema, { price: -5 }).message).toBe('price must be at least 0');
  });

  test('union: no alternative matched → the union message', () => {
    const schema = z.strictObject({ price: moneyInput });
    const error = expectRejected(schema, { price: '12.00' }, 'parameter_invalid', 'price');
    expect(error.message).toMatch(/^price must be an integer amount in minor units .* or a Money object/);
  });

  test('union: absent → parameter_missing', () => {
    const schema = z.strictObject({ price: moneyInput });
    expectRejected(schema, {}, 'parameter_missing', 'price');
  });

  test('the same schema parses many values (built once, no state kept between calls)', () => {
    for (let i = 1; i <= 50; i++) {
      expect(parseInput(CartItemAddSchema, { variant_id: `v${i}`, quantity: i }).quantity).toBe(i);
    }
    expect(() => parseInput(CartItemAddSchema, { variant_id: 'v', quantity: 0 })).toThrow();
  });

  test('details list at most 20 issues and the message says how many more; 90,000 unknown keys answer small and fast', () => {
    const body: Record<string, unknown> = { name: 'x', quantity: 1 };
    for (let i = 0; i < 90_000; i++) body[`k${i}`] = i;
    const started = performance.now();
    const error = expectRejected(ItemSchema, body, 'parameter_unknown', 'k0');
    const elapsed = performance.now() - started;
    expect(error.details).toHaveLength(20);
    expect(error.details?.[19]).toEqual({ param: 'k19', message: 'Received unknown parameter: k19' });
    expect(error.message).toBe('Received unknown parameter: k0 (and 89980 more problems not listed)');
    expect(JSON.stringify({ message: error.message, details: error.details }).length).toBeLessThan(4_000);
    expect(elapsed).toBeLessThan(250);
  });

  test('many issues of every kind: 20 details, the primary one among them, the count of the rest', () => {
    const Lines = z.strictObject({ lines: z.array(z.strictObject({ quantity: z.int().min(1) })) });
    const lines = Array.from({ length: 30 }, () => ({ quantity: 0 }));
    const error = expectRejected(Lines, { lines, extra: 1 }, 'parameter_unknown', 'extra');
    expect(error.details).toHaveLength(20);
    expect(error.details).toContainEqual({ param: 'extra', message: 'Received unknown parameter: extra' });
    expect(error.message).toBe('Received unknown parameter: extra (and 11 more problems not listed)');
    const few = expectRejected(
      Lines,
      { lines: lines.slice(0, 3) },
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expect(few.details).toHaveLength(3);
    expect(few.message).toBe('lines[0][quantity] must be at least 1');
  });
});

describe('formatParam', () => {
  test("['lines', 0, 'quantity'] → lines[0][quantity]", () => {
    expect(formatParam(['lines', 0, 'quantity'])).toBe('lines[0][quantity]');
  });
  test("['variants', 2, 'options', 'Color'] → variants[2][options][Color]", () => {
    expect(formatParam(['variants', 2, 'options', 'Color'])).toBe('variants[2][options][Color]');
  });
  test('empty path → empty string', () => {
    expect(formatParam([])).toBe('');
  });
  test('a top-level name stays bare; nested objects are bracketed at every level', () => {
    expect(formatParam(['quantity'])).toBe('quantity');
    expect(formatParam(['shipping_address', 'country'])).toBe('shipping_address[country]');
    expect(formatParam(['metadata', 'note'])).toBe('metadata[note]');
    expect(formatParam(['metadata', 'deep', 'list', 1, 'x'])).toBe('metadata[deep][list][1][x]');
  });
  test('arrays in arrays: every index is bracketed, at the top too', () => {
    expect(formatParam(['options', 0, 'values', 1])).toBe('options[0][values][1]');
    expect(formatParam(['grid', 2, 0])).toBe('grid[2][0]');
    expect(formatParam(['grid', 2, 0, 'cell'])).toBe('grid[2][0][cell]');
    expect(formatParam([0, 'quantity'])).toBe('[0][quantity]');
  });
  test('keys with odd characters are written as they are inside the brackets, as Stripe does', () => {
    expect(formatParam(['metadata', 'a.b'])).toBe('metadata[a.b]');
    expect(formatParam(['metadata', 'x[y]'])).toBe('metadata[x[y]]');
    expect(formatParam(['metadata', 'x]y'])).toBe('metadata[x]y]');
    expect(formatParam(['metadata', 'two words'])).toBe('metadata[two words]');
    expect(formatParam(['metadata', ''])).toBe('metadata[]');
    // A numeric-looking object key reads like an index, as it does at Stripe.
    expect(formatParam(['metadata', '0'])).toBe('metadata[0]');
  });
  test('parseInput names a metadata key with a dot or brackets in the bracket form', () => {
    const schema = z.strictObject({ metadata: z.record(z.string(), z.string()) });
    expectRejected(schema, { metadata: { 'a.b': 1 } }, 'parameter_invalid', 'metadata[a.b]');
    expectRejected(schema, { metadata: { 'x[y]': 1 } }, 'parameter_invalid', 'metadata[x[y]]');
  });
  test('details[].param uses the same bracket form as param', () => {
    const schema = z.strictObject({
      lines: z.array(z.strictObject({ quantity: z.int().min(1) })),
      shipping_address: z.strictObject({ country: z.string().length(2) }),
    });
    const error = inputErrorOf(schema, {
      lines: [{ quantity: 1 }, { quantity: 0, colour: 'red' }],
      shipping_address: { country: 'USA' },
    });
    expect(error.param).toBe('lines[1][colour]');
    expect(error.details?.map((detail) => detail.param).sort()).toEqual([
      'lines[1][colour]',
      'lines[1][quantity]',
      'shipping_address[country]',
    ]);
    expect(error.details?.find((detail) => detail.param === 'lines[1][quantity]')?.message).toBe(
      'lines[1][quantity] must be at least 1',
    );
  });
});
