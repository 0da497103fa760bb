import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import { priceCart } from './price-cart';
import type { PricingInput } from './price-cart-types';
import { makeCondition as cond, makeCode, makeDiscount, makeInput, makeLine } from './pricing-fixtures';

const NOW = makeInput().now;

function invalidParam(input: PricingInput): string | undefined {
  try {
    priceCart(input);
  } catch (error) {
    if (CommerceError.is(error) && error.code === 'parameter_invalid') return error.param;
    throw error;
  }
  return undefined;
}

describe('priceCart: lines, tax and totals', () => {
  it('an empty cart prices to all zeros, even with a shipping method and an automatic discount', () => {
    const result = priceCart(
      makeInput({
        shipping: { price: 500, free_shipping_threshold: null },
        tax: { rate: 20, prices_include_tax: false },
        automatic_discounts: [makeDiscount({ value_type: 'fixed', value: 100 })],
      }),
    );
    expect(result).toEqual({
      currency: 'USD',
      lines: [],
      subtotal: 0,
      discount_total: 0,
      shipping_total: 0,
      shipping_discount: 0,
      shipping_tax: 0,
      tax_total: 0,
      total: 0,
      item_count: 0,
      total_quantity: 0,
      applied_discounts: [],
      rejected_codes: [],
    });
  });

  it('1999 × 2 + 500 at 8.875 % exclusive: line taxes 355 + 44, total 4897', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('shirt', 1999, 2), makeLine('mug', 500)],
        tax: { rate: 8.875, prices_include_tax: false },
      }),
    );
    expect(result.lines).toEqual([
      {
        key: 'shirt',
        unit_price: 1999,
        quantity: 2,
        subtotal: 3998,
        line_discount: 0,
        line_total: 3998,
        tax_amount: 355,
      },
      {
        key: 'mug',
        unit_price: 500,
        quantity: 1,
        subtotal: 500,
        line_discount: 0,
        line_total: 500,
        tax_amount: 44,
      },
    ]);
    expect(result).toMatchObject({
      subtotal: 4498,
      tax_total: 399,
      total: 4897,
      item_count: 2,
      total_quantity: 3,
    });
  });

  it('8.875 % on 1999 exclusive is 177', () => {
    const result = priceCart(
      makeInput({ lines: [makeLine('a', 1999)], tax: { rate: '8.875', prices_include_tax: false } }),
    );
    expect([result.tax_total, result.total]).toEqual([177, 2176]);
  });

  it('1999 × 2 + 500 at 8.875 % inclusive: contained taxes 326 + 41, total stays 4498', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('shirt', 1999, 2), makeLine('mug', 500)],
        tax: { rate: 8.875, prices_include_tax: true },
      }),
    );
    expect(result.lines.map((l) => l.tax_amount)).toEqual([326, 41]);
    expect(result).toMatchObject({ subtotal: 4498, tax_total: 367, total: 4498 });
  });

  it('a zero-quantity line counts as a line with subtotal 0', () => {
    const result = priceCart(makeInput({ lines: [makeLine('a', 1000, 0), makeLine('b', 10, 3)] }));
    expect(result).toMatchObject({ subtotal: 30, item_count: 2, total_quantity: 3, total: 30 });
  });
});

describe('priceCart: shipping', () => {
  const lines = [makeLine('a', 3000, 2)];

  it('charges the method price 500 below the threshold', () => {
    const result = priceCart(
      makeInput({ lines: [makeLine('a', 1000)], shipping: { price: 500, free_shipping_threshold: 5000 } }),
    );
    expect([result.shipping_total, result.total]).toEqual([500, 1500]);
  });

  it('ships free when the threshold 5000 ≤ subtotal 6000, and at exactly 5000', () => {
    expect(
      priceCart(makeInput({ lines, shipping: { price: 500, free_shipping_threshold: 5000 } })).shipping_total,
    ).toBe(0);
    const exact = priceCart(
      makeInput({ lines: [makeLine('a', 5000)], shipping: { price: 500, free_shipping_threshold: 5000 } }),
    );
    expect(exact.shipping_total).toBe(0);
  });

  it('compares the threshold with the discounted subtotal: 6000 − 1500 = 4500 < 5000 pays 500', () => {
    const result = priceCart(
      makeInput({
        lines,
        shipping: { price: 500, free_shipping_threshold: 5000 },
        code_discounts: [makeCode('SAVE', { value_type: 'fixed', value: 1500 })],
      }),
    );
    expect(result).toMatchObject({ shipping_total: 500, discount_total: 1500, total: 5000 });
  });

  it('no method and no threshold: shipping 0 without a method, the price when the threshold is null', () => {
    expect(priceCart(makeInput({ lines })).shipping_total).toBe(0);
    expect(
      priceCart(makeInput({ lines, shipping: { price: 700, free_shipping_threshold: null } })).shipping_total,
    ).toBe(700);
  });

  it('20 % exclusive: shipping 500 with 300 off is taxed on 200 (40); total 1000 − 300 + 500 + 240 = 1440', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        shipping: { price: 500, free_shipping_threshold: null },
        tax: { rate: 20, prices_include_tax: false },
        code_discounts: [makeCode('SHIP300', { target: 'shipping', value_type: 'fixed', value: 300 })],
      }),
    );
    expect(result).toMatchObject({
      shipping_total: 500,
      shipping_discount: 300,
      shipping_tax: 40,
      discount_total: 300,
      tax_total: 240,
      total: 1440,
    });
    expect(result.lines[0]).toMatchObject({ line_discount: 0, line_total: 1000, tax_amount: 200 });
    expect(result.applied_discounts[0]).toMatchObject({ saved: 300, shipping_saved: 300, allocations: [] });
  });

  it('20 % inclusive: 1200 line and 600 shipping contain 200 and 100 of tax; total 1800', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1200)],
        shipping: { price: 600, free_shipping_threshold: null },
        tax: { rate: 20, prices_include_tax: true },
      }),
    );
    expect(result).toMatchObject({ shipping_tax: 100, tax_total: 300, total: 1800 });
  });

  it('free_shipping takes the whole 500 and counts in discount_total; shipping_total stays 500', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        shipping: { price: 500, free_shipping_threshold: null },
        code_discounts: [makeCode('FREESHIP', { value_type: 'free_shipping', value: 0 })],
      }),
    );
    expect(result).toMatchObject({
      shipping_total: 500,
      shipping_discount: 500,
      discount_total: 500,
      total: 1000,
    });
  });

  it('free_shipping when shipping is already free by threshold saves 0 and is neither applied nor rejected', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 6000)],
        shipping: { price: 500, free_shipping_threshold: 5000 },
        code_discounts: [makeCode('FREESHIP', { value_type: 'free_shipping', value: 0 })],
      }),
    );
    expect(result).toMatchObject({
      shipping_total: 0,
      shipping_discount: 0,
      applied_discounts: [],
      rejected_codes: [],
    });
  });

  it('two shipping discounts never exceed the price: 300 then 300 off 500 saves 300 + 200', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        shipping: { price: 500, free_shipping_threshold: null },
        code_discounts: [
          makeCode('S1', { target: 'shipping', value_type: 'fixed', value: 300 }),
          makeCode('S2', { target: 'shipping', value_type: 'fixed', value: 300 }),
        ],
      }),
    );
    expect(result.applied_discounts.map((d) => d.shipping_saved)).toEqual([300, 200]);
    expect(result.shipping_discount).toBe(500);
  });
});

describe('priceCart: discounts', () => {
  it('region conditions (decisions §19) are decided on the input region: a code for reg_eu is rejected elsewhere, applies there', () => {
    const input = makeInput({
      lines: [makeLine('a', 1000)],
      automatic_discounts: [
        makeDiscount({ id: 'disc_home', value: 50, conditions: [cond('region', 'not_in', ['reg_eu'])] }),
      ],
      code_discounts: [makeCode('EU', { value: 10, conditions: [cond('region', 'in', ['reg_eu'])] })],
    });
    const home = priceCart(input);
    expect(home.applied_discounts.map((d) => d.discount_id)).toEqual(['disc_home']);
    expect(home.rejected_codes).toEqual([
      { discount_id: 'disc_EU', code: 'EU', reason: 'discount_not_applicable' },
    ]);
    const eu = priceCart({ ...input, currency: 'EUR', region_id: 'reg_eu' });
    expect(eu).toMatchObject({ currency: 'EUR', discount_total: 100, rejected_codes: [] });
    expect(eu.applied_discounts.map((d) => d.discount_id)).toEqual(['disc_EU']);
  });

  it('applies automatic by created_at then codes in order, each on what remains: 100, 90, 405 off 1000', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        automatic_discounts: [
          makeDiscount({ id: 'disc_pct', value: 10, created_at: 2 }),
          makeDiscount({ id: 'disc_fixed', value_type: 'fixed', value: 100, created_at: 1 }),
        ],
        code_discounts: [makeCode('HALF', { value: 50 })],
      }),
    );
    expect(result.applied_discounts.map((d) => [d.discount_id, d.saved])).toEqual([
      ['disc_fixed', 100],
      ['disc_pct', 90],
      ['disc_HALF', 405],
    ]);
    expect(result).toMatchObject({ discount_total: 595, total: 405 });
  });

  it('describes an applied discount with its per-line allocations', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000), makeLine('b', 1000), makeLine('c', 1000)],
        code_discounts: [makeCode('TEN', { name: 'Ten off', value_type: 'fixed', value: 100 })],
      }),
    );
    expect(result.applied_discounts).toEqual([
      {
        discount_id: 'disc_TEN',
        code: 'TEN',
        name: 'Ten off',
        value_type: 'fixed',
        value: 100,
        target: 'order',
        saved: 100,
        allocations: [
          { key: 'a', amount: 34 },
          { key: 'b', amount: 33 },
          { key: 'c', amount: 33 },
        ],
        shipping_saved: 0,
      },
    ]);
    expect(result.lines.map((l) => l.line_discount)).toEqual([34, 33, 33]);
  });

  it('combines shares per line: 100/unit on 1000 × 2, then fixed 300 over 1800 and 500 → line discounts 435 and 65', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000, 2), makeLine('b', 500)],
        automatic_discounts: [
          makeDiscount({
            target: 'line_item',
            value_type: 'fixed',
            value: 100,
            conditions: [cond('product', 'in', ['prod_a'])],
          }),
        ],
        code_discounts: [makeCode('F300', { value_type: 'fixed', value: 300 })],
      }),
    );
    expect(result.lines.map((l) => [l.line_discount, l.line_total])).toEqual([
      [435, 1565],
      [65, 435],
    ]);
    expect(result.discount_total).toBe(500);
  });

  it('never discounts more than the subtotal: two 800 codes on 1000 save 800 and 200', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        tax: { rate: 20, prices_include_tax: false },
        code_discounts: [
          makeCode('A', { value_type: 'fixed', value: 800 }),
          makeCode('B', { value_type: 'fixed', value: 800 }),
        ],
      }),
    );
    expect(result.applied_discounts.map((d) => d.saved)).toEqual([800, 200]);
    expect(result).toMatchObject({ discount_total: 1000, tax_total: 0, total: 0 });
    expect(result.lines[0]).toMatchObject({ line_total: 0, tax_amount: 0 });
  });

  it('a code left nothing by earlier discounts saves 0 and is listed nowhere', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        code_discounts: [makeCode('ALL', { value: 100 }), makeCode('MORE', { value: 10 })],
      }),
    );
    expect(result.applied_discounts.map((d) => d.code)).toEqual(['ALL']);
    expect(result.rejected_codes).toEqual([]);
  });

  it('50 % of 1000 with maximum_discount 300 saves 300', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        code_discounts: [makeCode('HALF', { value: 50, maximum_discount: 300 })],
      }),
    );
    expect(result.discount_total).toBe(300);
  });

  it('minimum_amount 5000 compares with the subtotal before discounts: an automatic 1000 off does not unqualify it', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 5000)],
        automatic_discounts: [makeDiscount({ value_type: 'fixed', value: 1000 })],
        code_discounts: [makeCode('MIN', { value_type: 'fixed', value: 500, minimum_amount: 5000 })],
      }),
    );
    expect(result.discount_total).toBe(1500);
    expect(result.rejected_codes).toEqual([]);
  });

  it('lists codes that do not qualify in rejected_codes with their reason, and they save nothing', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        customer: { id: 'cus_1', email: 'a@example.com', tags: [] },
        usage: { per_customer: { disc_ONCE: 1 } },
        code_discounts: [
          makeCode('OLD', { ends_at: NOW - 1 }),
          makeCode('USED', { usage_limit: 10, usage_count: 10 }),
          makeCode('ONCE', { per_customer_limit: 1 }),
          makeCode('MIN', { minimum_amount: 1001 }),
          makeCode('OK', { value_type: 'fixed', value: 100 }),
        ],
      }),
    );
    expect(result.rejected_codes).toEqual([
      { discount_id: 'disc_OLD', code: 'OLD', reason: 'discount_expired' },
      { discount_id: 'disc_USED', code: 'USED', reason: 'discount_usage_limit_reached' },
      { discount_id: 'disc_ONCE', code: 'ONCE', reason: 'discount_usage_limit_reached' },
      { discount_id: 'disc_MIN', code: 'MIN', reason: 'discount_not_applicable' },
    ]);
    expect(result.applied_discounts.map((d) => d.code)).toEqual(['OK']);
    expect(result.discount_total).toBe(100);
  });

  it('skips automatic discounts that do not qualify, silently', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        automatic_discounts: [
          makeDiscount({ id: 'disc_off', is_active: false }),
          makeDiscount({ id: 'disc_later', starts_at: NOW + 1 }),
          makeDiscount({ id: 'disc_vip', conditions: [cond('customer_tag', 'in', ['vip'])] }),
        ],
      }),
    );
    expect(result).toMatchObject({ discount_total: 0, applied_discounts: [], rejected_codes: [] });
  });

  it('applies a customer_tag vip automatic discount to a vip customer: 10 % of 1000 is 100', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 1000)],
        customer: { id: 'cus_1', email: null, tags: ['vip'] },
        automatic_discounts: [makeDiscount({ conditions: [cond('customer_tag', 'in', ['vip'])] })],
      }),
    );
    expect(result.discount_total).toBe(100);
  });

  it('product_tag in [summer] 50 % takes 500 off the summer shirt only, and its tax follows', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('shirt', 1000, 1, ['summer']), makeLine('mug', 500, 1, ['kitchen'])],
        tax: { rate: 10, prices_include_tax: false },
        code_discounts: [
          makeCode('SUMMER', { value: 50, conditions: [cond('product_tag', 'in', ['summer'])] }),
        ],
      }),
    );
    expect(result.lines.map((l) => [l.line_discount, l.tax_amount])).toEqual([
      [500, 50],
      [0, 50],
    ]);
    expect(result.applied_discounts[0]?.allocations).toEqual([{ key: 'shirt', amount: 500 }]);
    expect(result.total).toBe(1000 + 100);
  });

  it('a code whose product condition matches no line is rejected as discount_not_applicable', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('mug', 500)],
        code_discounts: [makeCode('SHIRTS', { conditions: [cond('product', 'in', ['prod_shirt'])] })],
      }),
    );
    expect(result.rejected_codes).toEqual([
      { discount_id: 'disc_SHIRTS', code: 'SHIRTS', reason: 'discount_not_applicable' },
    ]);
  });

  it('line_item fixed 500 per unit never takes a 300 unit below zero: 300 × 2 + 1000 saves 1100', () => {
    const result = priceCart(
      makeInput({
        lines: [makeLine('a', 300, 2), makeLine('b', 1000)],
        code_discounts: [makeCode('U500', { target: 'line_item', value_type: 'fixed', value: 500 })],
      }),
    );
    expect(result.lines.map((l) => l.line_total)).toEqual([0, 500]);
    expect(result.discount_total).toBe(1100);
  });
});

describe('priceCart: invalid input', () => {
  it('refuses duplicate keys, negative quantities, fractional prices and negative shipping', () => {
    expect(invalidParam(makeInput({ lines: [makeLine('a', 1), makeLine('a', 2)] }))).toBe('lines[1][key]');
    expect(invalidParam(makeInput({ lines: [makeLine('a', 100, -1)] }))).toBe('lines[0][quantity]');
    expect(invalidParam(makeInput({ lines: [makeLine('a', 19.99)] }))).toBe('lines[0][unit_price]');
    expect(
      invalidParam(
        makeInput({ lines: [makeLine('a', 1)], shipping: { price: -5, free_shipping_threshold: null } }),
      ),
    ).toBe('shipping[price]');
  });

  it('refuses a line subtotal beyond 2^53 and a bad tax rate', () => {
    expect(invalidParam(makeInput({ lines: [makeLine('a', 2 ** 40, 2 ** 20)] }))).toBe('lines[0]');
    expect(invalidParam(makeInput({ tax: { rate: 'abc', prices_include_tax: false } }))).toBe('tax_rate');
    expect(invalidParam(makeInput({ lines: [makeLine('a', 2 ** 52), makeLine('b', 2 ** 52)] }))).toBe(
      'subtotal',
    );
  });
});
