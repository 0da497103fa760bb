import type { DiscountRecord, Page } from '../ports/storage';
import { iso, isoOrNull, moneyOrNull } from '../shared/wire-format';

/**
 * The Discount resource (spec "Discount"): money bounds as Money objects in the discount's
 * currency, the validity window as ISO date-times, `null` for what is unset.
 */
export function discountToWire(record: DiscountRecord) {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    code: record.code,
    type: record.type,
    value_type: record.value_type,
    value: record.value,
    target: record.target,
    usage_limit: record.usage_limit,
    usage_count: record.usage_count,
    per_customer_limit: record.per_customer_limit,
    minimum_amount: moneyOrNull(record.minimum_amount, record.currency),
    maximum_discount: moneyOrNull(record.maximum_discount, record.currency),
    starts_at: isoOrNull(record.starts_at),
    ends_at: isoOrNull(record.ends_at),
    is_active: record.is_active,
    conditions: record.conditions.map((condition) => ({
      id: condition.id,
      type: condition.type,
      operator: condition.operator,
      values: condition.values,
    })),
    metadata: record.metadata,
    created_at: iso(record.created_at),
  };
}

export type DiscountWire = ReturnType<typeof discountToWire>;

/** A storage page of discounts as the list envelope. */
export function discountPageToWire(page: Page<DiscountRecord>) {
  return {
    data: page.data.map(discountToWire),
    total_count: page.total_count,
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
