/** How a discount is applied: by entering its `code`, or by itself when its conditions hold. */
export type DiscountType = 'code' | 'automatic';

/** `fixed` = minor units off; `percentage` = 0 < value ≤ 100; `free_shipping` = the whole shipping price. */
import type { DiscountConditionType, DiscountTarget, DiscountValueType } from '../../vocabulary/discounts';

export type { DiscountConditionType, DiscountTarget, DiscountValueType };

/** What a discount comes off (docs/contract.md#discounts; default `order`). */

export type DiscountConditionOperator = 'in' | 'not_in';

/**
 * One condition of a discount. `product`, `variant` and `product_tag` conditions choose the
 * eligible lines; `customer` and `customer_tag` conditions decide whether the discount applies at all.
 */
export interface DiscountCondition {
  id: string;
  type: DiscountConditionType;
  operator: DiscountConditionOperator;
  values: string[];
}

/**
 * A discount as the pricing core sees it: the wire Discount's fields, with money as plain integer
 * minor units and times as epoch milliseconds. `null` limits and bounds mean "none".
 */
export interface DiscountDefinition {
  id: string;
  name: string;
  code: string | null;
  type: DiscountType;
  value_type: DiscountValueType;
  /** Minor units for `fixed`, a percentage for `percentage`; ignored for `free_shipping`. */
  value: number;
  target: DiscountTarget;
  usage_limit: number | null;
  usage_count: number;
  per_customer_limit: number | null;
  minimum_amount: number | null;
  maximum_discount: number | null;
  starts_at: number | null;
  ends_at: number | null;
  is_active: boolean;
  conditions: DiscountCondition[];
  created_at: number;
}

/** The codes `checkDiscount` refuses a discount with (docs/contract.md#errors, #discounts). */
export type DiscountRejectionCode =
  | 'discount_expired'
  | 'discount_not_applicable'
  | 'discount_usage_limit_reached';

/** The slice of a cart line that discount conditions look at. */
export interface DiscountLine {
  key: string;
  variant_id: string;
  product_id: string;
  product_tags: string[];
}

/** Who is buying, for `customer` / `customer_tag` conditions. */
export interface DiscountCustomer {
  id: string | null;
  email: string | null;
  tags: string[];
}

/** A discount comes off shipping when it targets shipping or gives free shipping. */
export function isShippingDiscount(discount: Pick<DiscountDefinition, 'target' | 'value_type'>): boolean {
  return discount.target === 'shipping' || discount.value_type === 'free_shipping';
}
