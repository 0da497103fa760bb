import type { OrderRecord, OrderSums } from '../ports/storage';

/** Derived on read from orders (docs/contract.md#customer-totals), so it can never drift. */
export interface CustomerTotals {
  /** Non-draft, non-cancelled orders. */
  total_orders: number;
  /**
   * Sum over the customer's orders (all of them, in the store currency: decisions §19) of
   * paid_total − refunded_total.
   */
  total_spent: number;
}

/** The order statuses that do not count as an order of the customer (`total_orders`). */
const NOT_COUNTED: ReadonlySet<OrderRecord['status']> = new Set(['draft', 'cancelled']);

/**
 * A customer's totals from their orders summed per status (`orders.sumByCustomer`): every order
 * but drafts and cancelled ones counts towards `total_orders`; `total_spent` is what every order
 * kept, paid minus refunded. Customers without orders get zeros.
 */
export function customerTotals(
  customer_ids: readonly string[],
  sums: readonly OrderSums[],
): Record<string, CustomerTotals> {
  const totals: Record<string, CustomerTotals> = {};
  for (const id of customer_ids) totals[id] = { total_orders: 0, total_spent: 0 };
  for (const sum of sums) {
    const customer = totals[sum.customer_id];
    if (!customer) continue;
    if (!NOT_COUNTED.has(sum.status)) customer.total_orders += sum.count;
    customer.total_spent += sum.paid_total - sum.refunded_total;
  }
  return totals;
}
