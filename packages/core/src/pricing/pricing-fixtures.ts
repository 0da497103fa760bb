/**
 * Builders for tests of the pricing module (not exported from the package): a discount and a
 * pricing input with neutral defaults, so each test states only what it is about.
 */
import type { DiscountCondition, DiscountDefinition } from './discounts/discount-definition';
import type { PricingInput, PricingLineInput } from './price-cart-types';

export function makeDiscount(overrides: Partial<DiscountDefinition> = {}): DiscountDefinition {
  return {
    id: 'disc_1',
    name: 'Discount',
    code: null,
    type: 'automatic',
    value_type: 'percentage',
    value: 10,
    target: 'order',
    usage_limit: null,
    usage_count: 0,
    per_customer_limit: null,
    minimum_amount: null,
    maximum_discount: null,
    starts_at: null,
    ends_at: null,
    is_active: true,
    conditions: [],
    created_at: 0,
    ...overrides,
  };
}

/** A code discount `code` (id `disc_<code>`). */
export function makeCode(code: string, overrides: Partial<DiscountDefinition> = {}): DiscountDefinition {
  return makeDiscount({ id: `disc_${code}`, name: code, code, type: 'code', ...overrides });
}

export function makeCondition(
  type: DiscountCondition['type'],
  operator: DiscountCondition['operator'],
  values: string[],
): DiscountCondition {
  return { id: `cond_${type}_${operator}`, type, operator, values };
}

/** A line `key` of product `prod_<key>`, variant `var_<key>`. */
export function makeLine(
  key: string,
  unit_price: number,
  quantity = 1,
  product_tags: string[] = [],
): PricingLineInput {
  return { key, variant_id: `var_${key}`, product_id: `prod_${key}`, product_tags, unit_price, quantity };
}

export function makeInput(overrides: Partial<PricingInput> = {}): PricingInput {
  return {
    currency: 'USD',
    lines: [],
    shipping: null,
    tax: { rate: 0, prices_include_tax: false },
    customer: { id: null, email: null, tags: [] },
    automatic_discounts: [],
    code_discounts: [],
    now: 1_700_000_000_000,
    ...overrides,
  };
}
