import type { AppliedDiscountValue, DiscountUsageCounters, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';
import type { DiscountUsageRefusal } from './vocabulary';

/**
 * The key per-customer limits count by (docs/contract.md#discounts): the customer id, else the lower-cased
 * e-mail.
 */
export function customerKeyOf(customer_id: string | null, email: string): string {
  return customer_id ?? email.trim().toLowerCase();
}

/**
 * The decision on one use of a discount (docs/contract.md#discounts), from what the storage
 * answered: `counted`, the discount's counters after its capped counter took the use (null: the
 * `usage_limit` cap refused it), and `customer_uses`, the customer key's recorded uses of the
 * discount with this one included, read under the discount's row lock (needed only when
 * `per_customer_limit` is set). A use over `per_customer_limit` is refused
 * (`per_customer_limit_reached`) and must be given back.
 */
export function judgeDiscountUse(
  counted: DiscountUsageCounters | null,
  customer_uses: number | undefined,
): DiscountUsageRefusal | null {
  if (counted === null) return 'usage_limit_reached';
  const limit = counted.per_customer_limit;
  if (limit === null) return null;
  if (customer_uses === undefined) throw new RangeError('judgeDiscountUse: the customer uses were not read');
  return customer_uses > limit ? 'per_customer_limit_reached' : null;
}

/**
 * Counts one use of every discount an order applied, atomically (docs/contract.md#discounts): each
 * use goes through the storage's capped counter (`recordUsage`: the `usage_limit` guard, the use
 * recorded, the discount's row locked until commit), then, for the discounts with a
 * `per_customer_limit`, the customer key's uses are read under those locks and judged
 * ({@link judgeDiscountUse}); so N concurrent checkouts never use a discount beyond its
 * `usage_limit` or a customer beyond `per_customer_limit`. A refusal gives that use back (the
 * guarded decrement, `releaseUsage`) and throws 422 `discount_usage_limit_reached`
 * (`data: { discount_id, code, reason }`); the caller's transaction rolls back every use already
 * counted.
 *
 * The uses are counted together (one round trip; each guarded update is sent in the order the
 * discounts applied, so their row locks are taken in that order as before), the customer's uses
 * of every limited discount are read in one statement, and the first refusal in that order is the
 * one thrown.
 */
export async function recordDiscountUsage(
  ctx: Pick<ServiceContext, 'ids'>,
  work: Work,
  scope: Scope,
  input: { order_id: string; customer_key: string; discounts: readonly AppliedDiscountValue[] },
): Promise<void> {
  const { tx } = work;
  const applied = new Map<string, AppliedDiscountValue>();
  for (const discount of input.discounts) {
    if (!applied.has(discount.discount_id)) applied.set(discount.discount_id, discount);
  }
  const ids = [...applied.keys()];
  const results = await Promise.allSettled(
    ids.map((discount_id) =>
      tx.discounts.recordUsage(scope, {
        id: ctx.ids.next('use'),
        discount_id,
        order_id: input.order_id,
        customer_key: input.customer_key,
        at: work.now,
      }),
    ),
  );
  const counted = results.map((settled) => {
    if (settled.status === 'rejected') throw settled.reason;
    return settled.value;
  });
  const limited = ids.filter((_, index) => (counted[index]?.per_customer_limit ?? null) !== null);
  const uses =
    limited.length > 0 ? await tx.discounts.countUsesByCustomer(scope, limited, input.customer_key) : {};
  for (const [index, discount_id] of ids.entries()) {
    const refused = judgeDiscountUse(counted[index] ?? null, uses[discount_id]);
    if (refused === null) continue;
    if (refused === 'per_customer_limit_reached') {
      // The undo of this use: the guarded decrement (the transaction rolls back the others).
      await tx.discounts.releaseUsage(scope, { discount_id, order_id: input.order_id });
    }
    const discount = applied.get(discount_id)!;
    const label = discount.code ?? discount.name;
    throw new CommerceError(
      'discount_usage_limit_reached',
      refused === 'per_customer_limit_reached'
        ? `Discount '${label}' has reached its limit for this customer`
        : `Discount '${label}' has reached its usage limit`,
      { data: { discount_id, code: discount.code, reason: refused } },
    );
  }
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
