import { describe, expect, test } from 'vitest';
import { MAX_METADATA_VALUE_LENGTH } from '../shared/schemas/limits';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import {
  CartCreateSchema,
  CartDiscountApplySchema,
  CartItemAddSchema,
  CartItemUpdateSchema,
  CartMergeSchema,
  CartUpdateSchema,
  CheckoutSchema,
  MAX_CART_METADATA_BYTES,
  MAX_LINE_METADATA_BYTES,
} from './schemas';

const address = { name: 'Ada', line1: '1 Main', city: 'Austin', postal_code: '78701', country: 'US' };

describe('CartCreate', () => {
  test('everything optional; items default to quantity 1', () => {
    expect(parseInput(CartCreateSchema, {})).toEqual({ items: [], metadata: {} });
    expect(parseInput(CartCreateSchema, { session_id: 'sess_1', items: [{ variant_id: 'var_1' }] })).toEqual({
      session_id: 'sess_1',
      items: [{ variant_id: 'var_1', quantity: 1 }],
      metadata: {},
    });
  });

  test('an item with quantity 0 → items[0][quantity]', () => {
    expectRejected(
      CartCreateSchema,
      { items: [{ variant_id: 'v', quantity: 0 }] },
      'parameter_invalid',
      'items[0][quantity]',
    );
  });
});

describe('CartUpdate (spec)', () => {
  test('customer_id, addresses, shipping_method_id, metadata; null clears', () => {
    const body = {
      customer_id: 'cus_1',
      shipping_address: address,
      billing_address: null,
      shipping_method_id: 'ship_1',
      metadata: { gift: true },
    };
    expect(parseInput(CartUpdateSchema, body)).toEqual(body);
  });

  test('a bad country in the shipping address → shipping_address[country]', () => {
    expectRejected(
      CartUpdateSchema,
      { shipping_address: { ...address, country: 'ZZ' } },
      'parameter_invalid',
      'shipping_address[country]',
    );
  });

  test('items are not patched here', () => {
    expectRejected(CartUpdateSchema, { items: [] }, 'parameter_unknown', 'items');
  });
});

describe('cart items', () => {
  test('add: variant_id required, quantity default 1 and ≥ 1', () => {
    expect(
      parseInput(CartItemAddSchema, { variant_id: 'var_1', quantity: 3, metadata: { engraving: 'A' } }),
    ).toEqual({
      variant_id: 'var_1',
      quantity: 3,
      metadata: { engraving: 'A' },
    });
    expectRejected(CartItemAddSchema, { quantity: 1 }, 'parameter_missing', 'variant_id');
    expectRejected(CartItemAddSchema, { variant_id: 'v', quantity: -2 }, 'parameter_invalid', 'quantity');
  });

  test('line metadata: at most 2 KB serialised (decisions §15), on add, update and create; the cart’s own 32 KB', () => {
    const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
    const full = 'x'.repeat(MAX_METADATA_VALUE_LENGTH);
    const base = { a: full, b: full, c: full, d: full, e: '' };
    const fits = { ...base, e: 'e'.repeat(MAX_LINE_METADATA_BYTES - bytes(base)) };
    expect(bytes(fits)).toBe(MAX_LINE_METADATA_BYTES);
    expect(parseInput(CartItemAddSchema, { variant_id: 'var_1', metadata: fits }).metadata).toEqual(fits);
    const over = { ...fits, e: `${fits.e}x` };
    const error = expectRejected(
      CartItemAddSchema,
      { variant_id: 'var_1', metadata: over },
      'parameter_invalid',
      'metadata',
    );
    expect(error.message).toContain('2048 bytes');
    // Multi-byte characters count as their UTF-8 bytes: 3 × 500 × 'é' (2 bytes each) is over.
    const wide = { a: 'é'.repeat(500), b: 'é'.repeat(500), c: 'é'.repeat(500) };
    expectRejected(CartItemUpdateSchema, { quantity: 1, metadata: wide }, 'parameter_invalid', 'metadata');
    expectRejected(
      CartCreateSchema,
      { items: [{ variant_id: 'var_1' }, { variant_id: 'var_2', metadata: over }] },
      'parameter_invalid',
      'items[1][metadata]',
    );
    // The cart's own metadata may take 32 KB serialised (create, update, checkout): every plain-text
    // metadata of the general limits fits; values JSON escapes six bytes a character are capped.
    expect(parseInput(CartUpdateSchema, { metadata: over }).metadata).toEqual(over);
    const plain = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(39, '0')}`, full]),
    );
    expect(bytes(plain)).toBeLessThan(MAX_CART_METADATA_BYTES);
    expect(parseInput(CartCreateSchema, { metadata: plain }).metadata).toEqual(plain);
    const escaped = '\u0001'.repeat(MAX_METADATA_VALUE_LENGTH);
    const cart: Record<string, string> = {};
    for (let i = 0; bytes({ ...cart, [`k${i}`]: escaped }) <= MAX_CART_METADATA_BYTES; i += 1)
      cart[`k${i}`] = escaped;
    expect(parseInput(CartCreateSchema, { metadata: cart }).metadata).toEqual(cart);
    const cartOver = { ...cart, zz: escaped };
    expect(Object.keys(cartOver).length).toBeLessThanOrEqual(50);
    expectRejected(CartCreateSchema, { metadata: cartOver }, 'parameter_invalid', 'metadata');
    expectRejected(CartUpdateSchema, { metadata: cartOver }, 'parameter_invalid', 'metadata');
    expectRejected(CheckoutSchema, { metadata: cartOver }, 'parameter_invalid', 'metadata');
  });

  test('update: quantity required and ≥ 1', () => {
    expect(parseInput(CartItemUpdateSchema, { quantity: 2 })).toEqual({ quantity: 2 });
    expectRejected(CartItemUpdateSchema, {}, 'parameter_missing', 'quantity');
    const error = expectRejected(CartItemUpdateSchema, { quantity: 0 }, 'parameter_invalid', 'quantity');
    expect(error.message).toBe('quantity must be at least 1');
  });

  test('discount apply: code required, non-blank', () => {
    expect(parseInput(CartDiscountApplySchema, { code: 'SAVE10' })).toEqual({ code: 'SAVE10' });
    expectRejected(CartDiscountApplySchema, {}, 'parameter_missing', 'code');
    expectRejected(CartDiscountApplySchema, { code: '' }, 'parameter_invalid', 'code');
  });

  test('merge (decisions §22): no body or {} → the merge of §12; source_cart_id a non-empty id; nothing else', () => {
    expect(parseInput(CartMergeSchema, {})).toEqual({});
    expect(parseInput(CartMergeSchema, { source_cart_id: 'cart_1' })).toEqual({ source_cart_id: 'cart_1' });
    expectRejected(CartMergeSchema, { source_cart_id: '' }, 'parameter_invalid', 'source_cart_id');
    expectRejected(CartMergeSchema, { source_cart_id: null }, 'parameter_invalid', 'source_cart_id');
    expectRejected(CartMergeSchema, { source_cart_id: 7 }, 'parameter_invalid', 'source_cart_id');
    expectRejected(CartMergeSchema, { ignored: true }, 'parameter_unknown', 'ignored');
  });
});

describe('Checkout (decisions §12)', () => {
  test('empty body → manual provider (e-mail checked later, guests only)', () => {
    expect(parseInput(CheckoutSchema, {})).toEqual({ payment_provider: 'manual' });
  });

  test('payment_method is accepted as the older name and comes out as payment_provider', () => {
    expect(
      parseInput(CheckoutSchema, { payment_method: 'stripe', payment_method_id: 'pm_card_visa' }),
    ).toEqual({
      payment_provider: 'stripe',
      // kept (the same name) so that checkout can refuse an unregistered provider on this field
      payment_method: 'stripe',
      payment_method_id: 'pm_card_visa',
    });
    expect(parseInput(CheckoutSchema, { payment_provider: 'manual', payment_method: 'manual' })).toEqual({
      payment_provider: 'manual',
    });
  });

  test('both names with different values are refused', () => {
    expectRejected(
      CheckoutSchema,
      { payment_provider: 'manual', payment_method: 'stripe', payment_method_id: 'pm_1' },
      'parameter_invalid',
      'payment_method',
    );
  });

  test('stripe without payment_method_id passes (the storefront confirms the payment in the browser, decisions §22)', () => {
    expect(parseInput(CheckoutSchema, { payment_provider: 'stripe' })).toEqual({
      payment_provider: 'stripe',
    });
    expect(parseInput(CheckoutSchema, { payment_method: 'stripe' })).toEqual({
      payment_provider: 'stripe',
      payment_method: 'stripe',
    });
  });

  test('any well-formed provider name passes (checkout checks it is registered); others are refused on the field that named them', () => {
    expect(parseInput(CheckoutSchema, { payment_provider: 'gift_card' })).toEqual({
      payment_provider: 'gift_card',
    });
    for (const name of ['Gift', 'gift-card', '9lives', '', 'a'.repeat(65), 42]) {
      expectRejected(CheckoutSchema, { payment_provider: name }, 'parameter_invalid', 'payment_provider');
      expectRejected(CheckoutSchema, { payment_method: name }, 'parameter_invalid', 'payment_method');
    }
    expect(parseInput(CheckoutSchema, { payment_provider: 'a'.repeat(64) }).payment_provider).toHaveLength(
      64,
    );
  });

  test('email format; addresses, note and metadata accepted', () => {
    expectRejected(CheckoutSchema, { email: 'not-an-email' }, 'parameter_invalid', 'email');
    const body = {
      email: 'a@b.co',
      shipping_address: address,
      billing_address: address,
      note: 'Leave at door',
      metadata: { x: 1 },
    };
    expect(parseInput(CheckoutSchema, body)).toEqual({ ...body, payment_provider: 'manual' });
  });

  test('unknown fields are refused', () => {
    expectRejected(CheckoutSchema, { coupon: 'X' }, 'parameter_unknown', 'coupon');
  });
});
