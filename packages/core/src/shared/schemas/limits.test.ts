import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CartCreateSchema, CartItemAddSchema, CheckoutSchema } from '../../carts/schemas';
import { ProductCreateSchema, VariantCreateSchema } from '../../catalog/schemas';
import { ShippingMethodCreateSchema } from '../../catalog/shipping-schemas';
import { CustomerCreateSchema } from '../../customers/schemas';
import { DiscountCreateSchema } from '../../discounts/schemas';
import { InventoryAdjustSchema, InventoryUpdateSchema } from '../../inventory/schemas';
import { AdminOrderCreateSchema } from '../../orders/schemas';
import { priceCart } from '../../pricing';
import { RefundCreateSchema } from '../../refunds/schemas';
import { StoreUpdateSchema } from '../../store/schemas';
import { IdPathSchema, MetadataInputSchema } from './common';
import {
  assertCartLimits,
  findUnstorableText,
  INT4_MAX,
  isStorableText,
  MAX_AMOUNT,
  MAX_CART_LINES,
  MAX_IDENTIFIER_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_NAME_LENGTH,
  MAX_QUANTITY,
  MAX_TAX_RATE,
  MAX_TEXT_LENGTH,
  printable,
  unstorableReason,
  WORST_CASE_TOTAL,
} from './limits';
import { parseInput } from './parse';
import { expectRejected } from './test-helpers';

describe('unstorable text (decisions §15)', () => {
  test('NUL and unpaired surrogates are unstorable; pairs, other controls and astral text are fine', () => {
    expect(unstorableReason('a\u0000b')).toBe('nul');
    expect(unstorableReason('\ud800')).toBe('unpaired_surrogate');
    expect(unstorableReason('x\udc00')).toBe('unpaired_surrogate');
    expect(unstorableReason('\udc00\ud800')).toBe('unpaired_surrogate');
    expect(unstorableReason('\ud83d\ude00 ok')).toBeNull();
    expect(unstorableReason('tab\tnewline\n\u0001\u007f')).toBeNull();
    expect(isStorableText('plain')).toBe(true);
  });

  test('a property: any string of well-formed code points is storable; one lone surrogate in it is not', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000')),
        fc.integer({ min: 0xd800, max: 0xdfff }),
        fc.nat(),
        (text, surrogate, at) => {
          expect(isStorableText(text)).toBe(true);
          // Inserting a lone surrogate between code points (never inside a pair) breaks it.
          const points = [...text];
          const index = points.length === 0 ? 0 : at % (points.length + 1);
          const broken = [...points.slice(0, index), String.fromCharCode(surrogate), ...points.slice(index)];
          const joined = broken.join('');
          // A high surrogate followed by a text starting with a low one would pair: skip that case.
          if ((joined as { isWellFormed?: () => boolean }).isWellFormed?.() === true) return;
          expect(unstorableReason(joined)).toBe('unpaired_surrogate');
        },
      ),
    );
  });

  test('findUnstorableText walks values and keys at any depth, __proto__ included', () => {
    expect(findUnstorableText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual({
      path: ['a', 1, 'c'],
      inKey: false,
      reason: 'nul',
    });
    const proto = JSON.parse('{"__proto__": {"k\\ud800": 1}}');
    expect(findUnstorableText(proto)).toEqual({
      path: ['__proto__', 'k\ud800'],
      inKey: true,
      reason: 'unpaired_surrogate',
    });
    expect(findUnstorableText({ fine: ['a', 1, null, true, { x: 'y' }] })).toBeNull();
  });

  test('printable replaces what cannot be echoed and shortens long text', () => {
    expect(printable('a\u0000b\ud800')).toBe('a\ufffdb\ufffd');
    expect(printable('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`);
  });

  test('parseInput refuses them before the schema: param names the field, or the object holding the key', () => {
    const schema = z.strictObject({ name: z.string(), metadata: MetadataInputSchema.optional() });
    const nul = expectRejected(schema, { name: 'a\u0000' }, 'parameter_invalid', 'name');
    expect(nul.message).toBe('name must not contain a NUL character (U+0000)');
    const value = expectRejected(
      schema,
      JSON.parse('{"name":"a","metadata":{"k":["\\udc00"]}}'),
      'parameter_invalid',
      'metadata[k][0]',
    );
    expect(value.message).toContain('unpaired UTF-16 surrogate');
    const key = expectRejected(
      schema,
      JSON.parse('{"name":"a","metadata":{"k\\ud800":1}}'),
      'parameter_invalid',
      'metadata',
    );
    expect(key.message).toBe('metadata must not have a key containing an unpaired UTF-16 surrogate');
    // even an unknown field holding NUL is refused for the NUL (no 5xx, no query)
    expectRejected(schema, { name: 'a', other: '\u0000' }, 'parameter_invalid', 'other');
    expectRejected(z.object({ q: z.string() }), { q: 'x\u0000' }, 'parameter_invalid', 'q', 'query');
  });
});

describe('sizes (decisions §15)', () => {
  const metadataOf = (metadata: unknown) => ({ name: 'Shirt', metadata });

  test('metadata: 50 keys of 40 characters with 500-character strings pass; one more of each fails', () => {
    const full = Object.fromEntries(
      Array.from({ length: MAX_METADATA_KEYS }, (_, i) => [
        `${i}`.padEnd(MAX_METADATA_KEY_LENGTH, 'k'),
        'v'.repeat(MAX_METADATA_VALUE_LENGTH),
      ]),
    );
    expect(parseInput(ProductCreateSchema, metadataOf(full)).metadata).toEqual(full);
    const many = expectRejected(
      ProductCreateSchema,
      metadataOf({ ...full, extra: 1 }),
      'parameter_invalid',
      'metadata',
    );
    expect(many.message).toContain('at most 50 keys');
    const longKey = 'k'.repeat(MAX_METADATA_KEY_LENGTH + 1);
    expectRejected(
      ProductCreateSchema,
      metadataOf({ [longKey]: 1 }),
      'parameter_invalid',
      `metadata[${longKey}]`,
    );
    expectRejected(
      ProductCreateSchema,
      metadataOf({ note: 'v'.repeat(MAX_METADATA_VALUE_LENGTH + 1) }),
      'parameter_invalid',
      'metadata[note]',
    );
    expectRejected(
      ProductCreateSchema,
      metadataOf({ deep: { list: ['ok', 'v'.repeat(MAX_METADATA_VALUE_LENGTH + 1)] } }),
      'parameter_invalid',
      'metadata[deep][list][1]',
    );
    expectRejected(ProductCreateSchema, metadataOf(['not', 'an', 'object']), 'parameter_invalid', 'metadata');
    expectRejected(
      ProductCreateSchema,
      { name: 'Shirt', attributes: { ...full, extra: 1 } },
      'parameter_invalid',
      'attributes',
    );
  });

  test('metadata keys such as __proto__ and constructor are kept as own keys', () => {
    const body = JSON.parse('{"name":"A","metadata":{"__proto__":{"x":1},"constructor":"c","a":1}}');
    const parsed = parseInput(ProductCreateSchema, body);
    expect(Object.keys(parsed.metadata)).toEqual(['__proto__', 'constructor', 'a']);
    expect(JSON.stringify(parsed.metadata)).toBe('{"__proto__":{"x":1},"constructor":"c","a":1}');
    expect(Object.getPrototypeOf(parsed.metadata)).toBe(Object.prototype);
  });

  test('identifiers and names: 255 characters pass, 256 fail; long text 10,000', () => {
    const at = (n: number) => 'a'.repeat(n);
    expect(parseInput(CartCreateSchema, { session_id: at(MAX_IDENTIFIER_LENGTH) }).session_id).toHaveLength(
      255,
    );
    expectRejected(CartCreateSchema, { session_id: at(256) }, 'parameter_invalid', 'session_id');
    expectRejected(ProductCreateSchema, { name: at(MAX_NAME_LENGTH + 1) }, 'parameter_invalid', 'name');
    expectRejected(ProductCreateSchema, { name: 'A', slug: at(256) }, 'parameter_invalid', 'slug');
    expectRejected(ProductCreateSchema, { name: 'A', tags: [at(256)] }, 'parameter_invalid', 'tags[0]');
    expectRejected(VariantCreateSchema, { price: 1, sku: at(256) }, 'parameter_invalid', 'sku');
    expectRejected(VariantCreateSchema, { price: 1, barcode: at(256) }, 'parameter_invalid', 'barcode');
    expectRejected(CustomerCreateSchema, { email: `${at(250)}@example.com` }, 'parameter_invalid', 'email');
    expectRejected(
      DiscountCreateSchema,
      { name: 'D', code: at(256), value_type: 'fixed', value: 1 },
      'parameter_invalid',
      'code',
    );
    expectRejected(CheckoutSchema, { note: at(MAX_TEXT_LENGTH + 1) }, 'parameter_invalid', 'note');
    expect(
      parseInput(ProductCreateSchema, { name: 'A', description: at(MAX_TEXT_LENGTH) }).description,
    ).toHaveLength(MAX_TEXT_LENGTH);
  });

  test('integers stay within int4 where stored as int4; quantities and amounts within their limits', () => {
    expectRejected(
      InventoryUpdateSchema,
      { safety_stock: INT4_MAX + 1 },
      'parameter_invalid',
      'safety_stock',
    );
    expect(parseInput(InventoryUpdateSchema, { on_hand: INT4_MAX }).on_hand).toBe(INT4_MAX);
    expectRejected(InventoryAdjustSchema, { quantity: -INT4_MAX - 2 }, 'parameter_invalid', 'quantity');
    expectRejected(
      CartItemAddSchema,
      { variant_id: 'var_1', quantity: MAX_QUANTITY + 1 },
      'parameter_invalid',
      'quantity',
    );
    expectRejected(
      AdminOrderCreateSchema,
      { email: 'a@example.com', lines: [{ variant_id: 'var_1', quantity: MAX_QUANTITY + 1 }] },
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectRejected(
      RefundCreateSchema,
      { lines: [{ order_line_id: 'line_1', quantity: MAX_QUANTITY + 1 }] },
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectRejected(VariantCreateSchema, { price: MAX_AMOUNT + 1 }, 'parameter_invalid', 'price');
    expectRejected(
      VariantCreateSchema,
      { price: { amount: MAX_AMOUNT + 1 } },
      'parameter_invalid',
      'price[amount]',
    );
    expect(parseInput(VariantCreateSchema, { price: MAX_AMOUNT }).price).toEqual({ amount: MAX_AMOUNT });
    expectRejected(
      ShippingMethodCreateSchema,
      { name: 'S', price: MAX_AMOUNT + 1 },
      'parameter_invalid',
      'price',
    );
    expectRejected(
      ShippingMethodCreateSchema,
      { name: 'S', price: 1, position: INT4_MAX + 1 },
      'parameter_invalid',
      'position',
    );
    expectRejected(
      DiscountCreateSchema,
      { name: 'D', code: 'BIG', value_type: 'fixed', value: MAX_AMOUNT + 1 },
      'parameter_invalid',
      'value',
    );
    expectRejected(
      DiscountCreateSchema,
      { name: 'D', code: 'BIG', value_type: 'fixed', value: 1, usage_limit: INT4_MAX + 1 },
      'parameter_invalid',
      'usage_limit',
    );
    expectRejected(StoreUpdateSchema, { tax_rate: MAX_TAX_RATE + 1 }, 'parameter_invalid', 'tax_rate');
  });

  test('a cart holds at most 250 lines; items of one variant sum to at most MAX_QUANTITY', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ variant_id: `var_${i}` }));
    expect(parseInput(CartCreateSchema, { items: items(MAX_CART_LINES) }).items).toHaveLength(MAX_CART_LINES);
    expectRejected(CartCreateSchema, { items: items(MAX_CART_LINES + 1) }, 'parameter_invalid', 'items');
    expectRejected(
      CartCreateSchema,
      {
        items: [
          { variant_id: 'var_1', quantity: 6000 },
          { variant_id: 'var_1', quantity: 6000 },
        ],
      },
      'parameter_invalid',
      'items[1][quantity]',
    );
    expect(() =>
      assertCartLimits(items(MAX_CART_LINES).map(() => ({ quantity: MAX_QUANTITY }))),
    ).not.toThrow();
    expect(() => assertCartLimits(items(MAX_CART_LINES + 1).map(() => ({ quantity: 1 })))).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'items' }),
    );
    expect(() => assertCartLimits([{ quantity: MAX_QUANTITY + 1 }])).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'quantity' }),
    );
  });

  test('path ids: a wrong shape fails IdPathSchema (the HTTP layer answers 404)', () => {
    expect(parseInput(IdPathSchema, { id: 'prod_01J9ABCDEF' }, { location: 'path' })).toEqual({
      id: 'prod_01J9ABCDEF',
    });
    // an injected IdGenerator may write UUIDs
    const uuid = 'prod_550e8400-e29b-41d4-a716-446655440000';
    expect(parseInput(IdPathSchema, { id: uuid }, { location: 'path' })).toEqual({ id: uuid });
    for (const id of [
      'nope',
      'prod_',
      '_x',
      'PROD_1',
      'prod-1',
      'prod_a.b',
      'prod_1 ',
      `prod_${'1'.repeat(300)}`,
    ]) {
      expect(() => parseInput(IdPathSchema, { id }, { location: 'path' }), id).toThrow();
    }
  });
});

describe('no reachable cart total overflows (limits.ts WORST_CASE_TOTAL)', () => {
  test('the worst case is a safe integer, with margin', () => {
    expect(Number.isSafeInteger(WORST_CASE_TOTAL)).toBe(true);
    expect(WORST_CASE_TOTAL).toBe(5_000_001_994_999_998);
    expect(WORST_CASE_TOTAL * 1.8).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });

  const cart = (
    lines: { unit_price: number; quantity: number }[],
    shipping: number,
    rate: number,
    include: boolean,
  ) =>
    priceCart({
      currency: 'USD',
      lines: lines.map((line, index) => ({
        key: `l${index}`,
        variant_id: `var_${index}`,
        product_id: `prod_${index}`,
        product_tags: [],
        unit_price: line.unit_price,
        quantity: line.quantity,
      })),
      shipping: { price: shipping, free_shipping_threshold: null },
      tax: { rate, prices_include_tax: include },
      automatic_discounts: [],
      code_discounts: [],
      customer: { id: null, email: null, tags: [] },
      now: 0,
    });

  test('the extreme cart (250 lines × MAX_QUANTITY × MAX_AMOUNT, max shipping, 100 % tax) prices', () => {
    const lines = Array.from({ length: MAX_CART_LINES }, () => ({
      unit_price: MAX_AMOUNT,
      quantity: MAX_QUANTITY,
    }));
    const result = cart(lines, MAX_AMOUNT, MAX_TAX_RATE, false);
    expect(result.total).toBe(WORST_CASE_TOTAL);
    expect(Number.isSafeInteger(result.total)).toBe(true);
  });

  test('property: any cart within the limits prices to safe integers under any tax rate', () => {
    const line = fc.record({
      unit_price: fc.integer({ min: 0, max: MAX_AMOUNT }),
      quantity: fc.integer({ min: 1, max: MAX_QUANTITY }),
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: MAX_CART_LINES }),
        fc.integer({ min: 0, max: MAX_AMOUNT }),
        fc.integer({ min: 0, max: MAX_TAX_RATE * 1000 }).map((n) => n / 1000),
        fc.boolean(),
        (lines, shipping, rate, include) => {
          const result = cart(lines, shipping, rate, include);
          for (const amount of [result.subtotal, result.tax_total, result.total, result.total_quantity]) {
            expect(Number.isSafeInteger(amount)).toBe(true);
          }
          expect(result.total).toBeLessThanOrEqual(WORST_CASE_TOTAL);
        },
      ),
      { numRuns: 200 },
    );
  });
});
