import type { AppliedDiscountValue, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';

/**
 * The key per-customer limits count by (docs/contract.md#discounts): the customer id, else the lower-cased
 * e-mail.
 */
export function customerKeyOf(customer_id: string | null, email: string): string {
  return customer_id ?? email.trim().toLowerCase();
}

/**
 * Counts one use of every discount an order applied, atomically (docs/contract.md#discounts): the storage's
 * conditional update is the guard, so N concurrent checkouts never use a discount beyond its
 * `usage_limit` or a customer beyond `per_customer_limit`. A refusal throws 422
 * `discount_usage_limit_reached` (`data: { discount_id, code, reason }`) and the caller's
 * transaction rolls back every use already counted.
 */
export async function recordDiscountUsage(
  ctx: Pick<ServiceContext, 'ids'>,
  work: Work,
  scope: Scope,
  input: { order_id: string; customer_key: string; discounts: readonly AppliedDiscountValue[] },
): Promise<void> {
  const seen = new Set<string>();
  for (const discount of input.discounts) {
    if (seen.has(discount.discount_id)) continue;
    seen.add(discount.discount_id);
    const result = await work.tx.discounts.recordUsage(scope, {
      id: ctx.ids.next('use'),
      discount_id: discount.discount_id,
      order_id: input.order_id,
      customer_key: input.customer_key,
      at: work.now,
    });
    if (!result.ok) {
      const label = discount.code ?? discount.name;
      throw new CommerceError(
        'discount_usage_limit_reached',
        result.refused === 'per_customer_limit_reached'
          ? `Discount '${label}' has reached its limit for this customer`
          : `Discount '${label}' has reached its usage limit`,
        { data: { discount_id: discount.discount_id, code: discount.code, reason: result.refused } },
      );
    }
  }
}
