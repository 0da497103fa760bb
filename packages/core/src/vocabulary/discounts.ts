/**
 * The words of discounts: the values core's rules decide on. They sit below the storage port,
 * whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export type DiscountValueType = 'fixed' | 'percentage' | 'free_shipping';

export type DiscountTarget = 'order' | 'line_item' | 'shipping';

export type DiscountConditionType =
  | 'product'
  | 'variant'
  | 'product_tag'
  | 'customer'
  | 'customer_tag'
  | 'region';

/** Why an atomic usage count was refused. */
export type DiscountUsageRefusal = 'usage_limit_reached' | 'per_customer_limit_reached';
