import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  DiscountRecord,
  PurchasableVariant,
  RegionRecord,
  Repositories,
  ShippingMethodRecord,
  StoreRecord,
} from '../ports/storage';
import { type PricingResult, priceCart } from '../pricing';
import { currencyExponent } from '../regions/currencies';
import { priceRecords } from './cart-pricing';

/**
 * Pricing a cart in a region (decisions §19), as property tests: in a currency of any exponent
 * (JPY 0, EUR 2, KWD 3) the tax and the discount allocation stay exact — integers of minor units,
 * line discounts summing to the item discount, totals adding up — and a cart priced in a region
 * through its rate is the cart priced directly on the converted amounts (unit prices, shipping,
 * fixed discount values and bounds), converted here independently: the exact rational
 * `amount × rate × 10^(e_to − e_from)` rounded half away from zero.
 *
 * `priceRecords` is given the rows pricing reads; its transaction is only used for per-customer
 * discount limits, which these carts (an anonymous buyer) never look up.
 */

const NOW = 1_700_000_000_000;
const STORE_CURRENCY = 'USD';
const NO_QUERIES = {} as Repositories;
const CURRENCIES = ['JPY', 'EUR', 'KWD', 'USD'] as const;

const store = {
  id: 'store_1',
  currency: STORE_CURRENCY,
  tax_rate: 10,
  prices_include_tax: false,
} as StoreRecord;

/** `amount × digits × 10^(shift − scale)` rounded half away from zero, on BigInt. */
function convertIndependently(amount: number, digits: bigint, scale: number, to: string): number {
  const shift = currencyExponent(to) - currencyExponent(STORE_CURRENCY) - scale;
  let numerator = BigInt(amount) * digits;
  let denominator = 1n;
  if (shift >= 0) numerator *= 10n ** BigInt(shift);
  else denominator = 10n ** BigInt(-shift);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return Number(remainder * 2n >= denominator ? quotient + 1n : quotient);
}

interface Scenario {
  currency: (typeof CURRENCIES)[number];
  rate: { digits: bigint; scale: number };
  tax_rate: number;
  prices_include_tax: boolean;
  lines: Array<{ price: number; quantity: number; own: number | null }>;
  shipping: { price: number; threshold: number | null } | null;
  discounts: Array<{
    code: boolean;
    value_type: 'fixed' | 'percentage' | 'free_shipping';
    target: 'order' | 'line_item' | 'shipping';
    value: number;
    minimum_amount: number | null;
    maximum_discount: number | null;
    region: 'in' | 'not_in' | null;
  }>;
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  rate: fc.record({
    digits: fc.bigInt({ min: 1n, max: 999_999_999_999n }),
    scale: fc.integer({ min: 4, max: 12 }),
  }),
  tax_rate: fc.integer({ min: 0, max: 30_000 }).map((v) => v / 1000),
  prices_include_tax: fc.boolean(),
  lines: fc.array(
    fc.record({
      price: fc.integer({ min: 0, max: 100_000 }),
      quantity: fc.integer({ min: 1, max: 5 }),
      own: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null, freq: 3 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  shipping: fc.option(
    fc.record({
      price: fc.integer({ min: 0, max: 5_000 }),
      threshold: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    }),
    { nil: null },
  ),
  discounts: fc.array(
    fc
      .record({
        code: fc.boolean(),
        value_type: fc.constantFrom('fixed' as const, 'percentage' as const, 'free_shipping' as const),
        target: fc.constantFrom('order' as const, 'line_item' as const, 'shipping' as const),
        fixed: fc.integer({ min: 0, max: 20_000 }),
        percent: fc.integer({ min: 1, max: 100_000 }).map((v) => v / 1000),
        minimum_amount: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null, freq: 2 }),
        maximum_discount: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null, freq: 2 }),
        region: fc.constantFrom('in' as const, 'not_in' as const, null, null),
      })
      .map((d) => ({
        code: d.code,
        value_type: d.value_type,
        target: d.value_type === 'free_shipping' ? ('shipping' as const) : d.target,
        value: d.value_type === 'fixed' ? d.fixed : d.value_type === 'percentage' ? d.percent : 0,
        minimum_amount: d.minimum_amount,
        maximum_discount: d.maximum_discount,
        region: d.region,
      })),
    { maxLength: 3 },
  ),
});

/** The rows of a scenario, and the input of `priceRecords`. */
function rowsOf(s: Scenario, rate: boolean) {
  const region = {
    id: 'reg_1',
    currency: s.currency,
    tax_rate: s.tax_rate,
    prices_include_tax: s.prices_include_tax,
    is_active: true,
  } as RegionRecord;
  const purchasable = s.lines.map(
    (line, i) =>
      ({
        variant: { id: `var_${i}`, price: line.price, compare_at_price: null, is_active: true },
        product: { id: `prod_${i}`, name: 'P', status: 'active', type: 'physical', tags: [], deleted: false },
        inventory: { track_inventory: false },
        variant_name: 'P',
        option_values: {},
        image_url: null,
      }) as unknown as PurchasableVariant,
  );
  const discounts = s.discounts.map(
    (d, i) =>
      ({
        id: `disc_${i}`,
        name: `D${i}`,
        code: d.code ? `CODE${i}` : null,
        type: d.code ? 'code' : 'automatic',
        value_type: d.value_type,
        value: d.value,
        target: d.target,
        usage_limit: null,
        usage_count: 0,
        per_customer_limit: null,
        minimum_amount: d.minimum_amount,
        maximum_discount: d.maximum_discount,
        starts_at: null,
        ends_at: null,
        is_active: true,
        conditions:
          d.region === null
            ? []
            : [{ id: `cond_${i}`, type: 'region', operator: d.region, values: ['reg_1'] }],
        created_at: i,
      }) as unknown as DiscountRecord,
  );
  const method =
    s.shipping === null
      ? null
      : ({
          id: 'ship_1',
          name: 'Standard',
          price: s.shipping.price,
          free_shipping_threshold: s.shipping.threshold,
          is_active: true,
        } as ShippingMethodRecord);
  const records = {
    purchasable,
    method,
    automatic: discounts.filter((d) => d.type === 'automatic'),
    by_code: discounts.filter((d) => d.type === 'code'),
    region: {
      region,
      rates: rate
        ? [{ from_currency: STORE_CURRENCY, to_currency: s.currency, rate: plainDecimal(s.rate) }]
        : [],
      prices: s.lines.flatMap((line, i) =>
        line.own === null ? [] : [{ variant_id: `var_${i}`, price: line.own, compare_at_price: null }],
      ),
    },
  } as unknown as Parameters<typeof priceRecords>[2];
  const input = {
    scope: { store_id: 'store_1', mode: 'test' as const },
    store,
    items: s.lines.map((line, i) => ({ key: `item_${i}`, variant_id: `var_${i}`, quantity: line.quantity })),
    shipping_method_id: method?.id ?? null,
    discount_codes: discounts.flatMap((d) => (d.code === null ? [] : [d.code])),
    customer: { id: null, email: null, tags: [] },
    now: NOW,
    region_id: 'reg_1',
  };
  return { records, input, discounts };
}

function plainDecimal({ digits, scale }: { digits: bigint; scale: number }): string {
  const text = digits.toString().padStart(scale + 1, '0');
  return `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function expectExact(r: PricingResult, includeTax: boolean): void {
  const amounts = [
    r.subtotal,
    r.discount_total,
    r.shipping_total,
    r.shipping_discount,
    r.shipping_tax,
    r.tax_total,
    r.total,
    ...r.lines.flatMap((l) => [l.unit_price, l.subtotal, l.line_discount, l.line_total, l.tax_amount]),
    ...r.applied_discounts.flatMap((d) => [d.saved, d.shipping_saved, ...d.allocations.map((a) => a.amount)]),
  ];
  for (const amount of amounts) {
    expect(Number.isSafeInteger(amount)).toBe(true);
    expect(amount).toBeGreaterThanOrEqual(0);
  }
  for (const line of r.lines) expect(line.line_total).toBe(line.subtotal - line.line_discount);
  expect(r.subtotal).toBe(sum(r.lines.map((l) => l.subtotal)));
  expect(sum(r.lines.map((l) => l.line_discount))).toBe(r.discount_total - r.shipping_discount);
  expect(sum(r.applied_discounts.map((d) => d.saved))).toBe(r.discount_total);
  for (const line of r.lines) {
    const shares = r.applied_discounts.flatMap((d) => d.allocations.filter((a) => a.key === line.key));
    expect(sum(shares.map((a) => a.amount))).toBe(line.line_discount);
  }
  expect(r.tax_total).toBe(sum(r.lines.map((l) => l.tax_amount)) + r.shipping_tax);
  const beforeTax = r.subtotal - r.discount_total + r.shipping_total;
  expect(r.total).toBe(includeTax ? beforeTax : beforeTax + r.tax_total);
}

const RUNS = { numRuns: 300 };

describe('a cart priced in a region (property)', () => {
  it('in any currency exponent (0, 2, 3) tax and discount allocation stay exact and the totals add up', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.boolean(), async (s, withRate) => {
        const { records, input } = rowsOf(s, withRate);
        const priced = await priceRecords(NO_QUERIES, input, records);
        expect(priced.pricing.currency).toBe(s.currency);
        expect(priced.tax).toEqual({ rate: s.tax_rate, prices_include_tax: s.prices_include_tax });
        expectExact(priced.pricing, s.prices_include_tax);
      }),
      RUNS,
    );
  });

  it('with a rate, it equals priceCart on the amounts converted independently; without one only own prices sell', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.boolean(), async (s, withRate) => {
        const { records, input, discounts } = rowsOf(s, withRate);
        const priced = await priceRecords(NO_QUERIES, input, records);
        const same = s.currency === STORE_CURRENCY;
        const canConvert = withRate || same;
        const convert = (amount: number) =>
          same ? amount : convertIndependently(amount, s.rate.digits, s.rate.scale, s.currency);
        const lines = s.lines.flatMap((line, i) => {
          const unit_price = line.own ?? (canConvert ? convert(line.price) : null);
          return unit_price === null
            ? []
            : [
                {
                  key: `item_${i}`,
                  variant_id: `var_${i}`,
                  product_id: `prod_${i}`,
                  product_tags: [],
                  unit_price,
                  quantity: line.quantity,
                },
              ];
        });
        const needsRate = (d: DiscountRecord) =>
          d.value_type === 'fixed' || d.minimum_amount !== null || d.maximum_discount !== null;
        const usable = discounts
          .filter((d) => canConvert || !needsRate(d))
          .map((d) => ({
            ...d,
            value: d.value_type === 'fixed' ? convert(d.value) : d.value,
            minimum_amount: d.minimum_amount === null ? null : convert(d.minimum_amount),
            maximum_discount: d.maximum_discount === null ? null : convert(d.maximum_discount),
          }));
        const direct = priceCart({
          currency: s.currency,
          lines,
          shipping:
            s.shipping === null || !canConvert
              ? null
              : {
                  price: convert(s.shipping.price),
                  free_shipping_threshold:
                    s.shipping.threshold === null ? null : convert(s.shipping.threshold),
                },
          tax: { rate: s.tax_rate, prices_include_tax: s.prices_include_tax },
          customer: { id: null, email: null, tags: [] },
          automatic_discounts: usable.filter((d) => d.type === 'automatic'),
          code_discounts: usable.filter((d) => d.type === 'code'),
          now: NOW,
          region_id: 'reg_1',
        });
        const refused = discounts
          .filter((d) => d.type === 'code' && !canConvert && needsRate(d))
          .map((d) => ({ discount_id: d.id, code: d.code, reason: 'discount_not_applicable' }));
        expect(priced.pricing).toEqual({ ...direct, rejected_codes: [...direct.rejected_codes, ...refused] });
        expect([...priced.unpriced].sort()).toEqual(
          s.lines.flatMap((line, i) => (line.own === null && !canConvert ? [`var_${i}`] : [])).sort(),
        );
        expect(priced.shipping_method === null).toBe(s.shipping === null || !canConvert);
      }),
      RUNS,
    );
  });

  it('the generated carts exercise conversion: rounding happens, codes are refused, lines go unsold', async () => {
    const samples = fc.sample(fc.tuple(scenarioArb, fc.boolean()), { numRuns: 300, seed: 7 });
    let refused = 0;
    let unsold = 0;
    let regionDiscounts = 0;
    for (const [s, withRate] of samples) {
      const { records, input } = rowsOf(s, withRate);
      const priced = await priceRecords(NO_QUERIES, input, records);
      if (priced.pricing.rejected_codes.length > 0) refused += 1;
      if (priced.unpriced.size > 0) unsold += 1;
      if (s.discounts.some((d) => d.region === 'in') && priced.pricing.applied_discounts.length > 0) {
        regionDiscounts += 1;
      }
    }
    expect(refused).toBeGreaterThan(20);
    expect(unsold).toBeGreaterThan(20);
    expect(regionDiscounts).toBeGreaterThan(10);
  });
});
