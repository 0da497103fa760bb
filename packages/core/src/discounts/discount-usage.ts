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
 *
 * The uses are counted together (one round trip; each guarded update is sent in the order the
 * discounts applied, so their row locks are taken in that order as before), and the first
 * refusal in that order is the one thrown.
 */
export async function recordDiscountUsage(
  ctx: Pick<ServiceContext, 'ids'>,
  work: Work,
  scope: Scope,
  input: { order_id: string; customer_key: string; discounts: readonly AppliedDiscountValue[] },
): Promise<void> {
  const seen = new Set<string>();
  const counted: Array<{
    discount: AppliedDiscountValue;
    result: ReturnType<Work['tx']['discounts']['recordUsage']>;
  }> = [];
  for (const discount of input.discounts) {
    if (seen.has(discount.discount_id)) continue;
    seen.add(discount.discount_id);
    counted.push({
      discount,
      result: work.tx.discounts.recordUsage(scope, {
        id: ctx.ids.next('use'),
        discount_id: discount.discount_id,
        order_id: input.order_id,
        customer_key: input.customer_key,
        at: work.now,
      }),
    });
  }
  const results = await Promise.allSettled(counted.map((c) => c.result));
  results.forEach((settled, index) => {
    if (settled.status === 'rejected') throw settled.reason;
    const result = settled.value;
    if (!result.ok) {
      const { discount } = counted[index]!;
      const label = discount.code ?? discount.name;
      throw new CommerceError(
        'discount_usage_limit_reached',
        result.refused === 'per_customer_limit_reached'
          ? `Discount '${label}' has reached its limit for this customer`
          : `Discount '${label}' has reached its usage limit`,
        { data: { discount_id: discount.discount_id, code: discount.code, reason: result.refused } },
      );
    }
  });
}

/**
 * Gives back the uses an order counted (decisions §22: an order cancelled because its payment
 * never came — the customer did not use the code after all), in the caller's transaction. Each
 * discount's use is deleted and its `usage_count` lowered once; calling it again gives back
 * nothing. Returns how many uses were given back.
 */
export async function releaseDiscountUsage(
  work: Work,
  scope: Scope,
  input: { order_id: string; discounts: readonly AppliedDiscountValue[] },
): Promise<number> {
  const ids = [...new Set(input.discounts.map((d) => d.discount_id))];
  let released = 0;
  for (const discount_id of ids) {
    released += await work.tx.discounts.releaseUsage(scope, { discount_id, order_id: input.order_id });
  }
  return released;
}
