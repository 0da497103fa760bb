import {
  customerMatchesConditions,
  eligibleLines,
  hasLineConditions,
  regionMatchesConditions,
} from './discount-conditions';
import type {
  DiscountCustomer,
  DiscountDefinition,
  DiscountLine,
  DiscountRejectionCode,
} from './discount-definition';

/** What `checkDiscount` needs to know about the cart and the buyer. */
export interface DiscountContext {
  /** Epoch ms, for `starts_at` / `ends_at`. */
  now: number;
  /** The cart subtotal before any discount, compared with `minimum_amount`. */
  subtotal: number;
  lines: readonly DiscountLine[];
  customer: DiscountCustomer;
  /** How many times this customer already used the discount, when known; omitted → not checked. */
  customer_usage_count?: number | undefined;
  /** The cart's region (decisions §19), for `region` conditions; omitted or null → no region. */
  region_id?: string | null | undefined;
}

/** The verdict of `checkDiscount`: a reason, never an exception (expected outcomes carry data). */
export type DiscountCheck = { ok: true } | { ok: false; code: DiscountRejectionCode; message: string };

/**
 * Decides whether a discount applies to a cart (docs/contract.md#discounts).
 *
 * Checked in this order, the first failure wins — the discount's own state first, then the cart:
 * 1. `discount_expired`: not `is_active`, or `now` outside `[starts_at, ends_at]` (bounds inclusive, null = open);
 * 2. `discount_usage_limit_reached`: `usage_count ≥ usage_limit`, or the customer's own count
 *    (`customer_usage_count`, when given) `≥ per_customer_limit`;
 * 3. `discount_not_applicable`: `customer` / `customer_tag` conditions unmet, `region` conditions
 *    unmet (decisions §19), `subtotal < minimum_amount`,
 *    or, for a discount with `product` / `variant` / `product_tag` conditions, no eligible line.
 *
 * A discount without line conditions qualifies on an empty cart (it then saves nothing).
 */
export function checkDiscount(discount: DiscountDefinition, context: DiscountContext): DiscountCheck {
  if (!discount.is_active) return reject('discount_expired', 'This discount is not active');
  if (discount.starts_at !== null && context.now < discount.starts_at) {
    return reject('discount_expired', 'This discount has not started yet');
  }
  if (discount.ends_at !== null && context.now > discount.ends_at) {
    return reject('discount_expired', 'This discount has expired');
  }
  if (discount.usage_limit !== null && discount.usage_count >= discount.usage_limit) {
    return reject('discount_usage_limit_reached', 'This discount has reached its usage limit');
  }
  if (
    discount.per_customer_limit !== null &&
    context.customer_usage_count !== undefined &&
    context.customer_usage_count >= discount.per_customer_limit
  ) {
    return reject(
      'discount_usage_limit_reached',
      'This customer has reached the usage limit of this discount',
    );
  }
  if (!customerMatchesConditions(context.customer, discount.conditions)) {
    return reject('discount_not_applicable', 'This discount does not apply to this customer');
  }
  if (!regionMatchesConditions(context.region_id ?? null, discount.conditions)) {
    return reject('discount_not_applicable', 'This discount does not apply in this region');
  }
  if (discount.minimum_amount !== null && context.subtotal < discount.minimum_amount) {
    return reject(
      'discount_not_applicable',
      `This discount needs a subtotal of at least ${discount.minimum_amount}`,
    );
  }
  if (
    hasLineConditions(discount.conditions) &&
    eligibleLines(context.lines, discount.conditions).length === 0
  ) {
    return reject('discount_not_applicable', 'This discount does not apply to any item in the cart');
  }
  return { ok: true };
}

function reject(code: DiscountRejectionCode, message: string): DiscountCheck {
  return { ok: false, code, message };
}
