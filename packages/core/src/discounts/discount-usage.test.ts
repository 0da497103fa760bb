import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DiscountUsageCounters } from '../ports/storage';
import { customerKeyOf, judgeDiscountUse } from './discount-usage';

const counters = (over: Partial<DiscountUsageCounters> = {}): DiscountUsageCounters => ({
  usage_count: 1,
  usage_limit: null,
  per_customer_limit: null,
  ...over,
});

describe('judgeDiscountUse (docs/contract.md#discounts)', () => {
  it('the capped counter refused → usage_limit_reached', () => {
    expect(judgeDiscountUse(null, undefined)).toBe('usage_limit_reached');
  });

  it('no per_customer_limit → the counted use stands, without reading the customer uses', () => {
    expect(judgeDiscountUse(counters({ usage_limit: 5, usage_count: 5 }), undefined)).toBeNull();
  });

  it('per_customer_limit 2: the 1st and 2nd use of a customer stand, the 3rd is refused', () => {
    const limited = counters({ per_customer_limit: 2 });
    expect(judgeDiscountUse(limited, 1)).toBeNull();
    expect(judgeDiscountUse(limited, 2)).toBeNull();
    expect(judgeDiscountUse(limited, 3)).toBe('per_customer_limit_reached');
  });

  it('a limited use judged without the customer uses is a caller bug', () => {
    expect(() => judgeDiscountUse(counters({ per_customer_limit: 1 }), undefined)).toThrow(RangeError);
  });

  it('property: uses one after another by customers never exceed either limit, and every refusal names the limit that held', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
        fc.array(fc.constantFrom('cus_a', 'cus_b', 'a@example.com'), { maxLength: 25 }),
        (usage_limit, per_customer_limit, customers) => {
          // The storage's side, sequentially (the discount's row lock serialises the uses).
          let usage_count = 0;
          const uses = new Map<string, number>();
          for (const customer of customers) {
            const capped = usage_limit !== null && usage_count >= usage_limit;
            const counted = capped ? null : { usage_count: usage_count + 1, usage_limit, per_customer_limit };
            const including = counted ? (uses.get(customer) ?? 0) + 1 : undefined;
            const refused = judgeDiscountUse(counted, per_customer_limit === null ? undefined : including);
            if (refused === 'usage_limit_reached' && !capped) return false;
            if (refused === 'per_customer_limit_reached') {
              if (per_customer_limit === null || (uses.get(customer) ?? 0) < per_customer_limit) return false;
            }
            if (refused === null) {
              usage_count++;
              uses.set(customer, (uses.get(customer) ?? 0) + 1);
            }
          }
          if (usage_limit !== null && usage_count > usage_limit) return false;
          for (const n of uses.values())
            if (per_customer_limit !== null && n > per_customer_limit) return false;
          // Nothing refused that either limit allowed: the total is as large as the limits let it be.
          const allowed = [...new Set(customers)].reduce((sum, customer) => {
            const wanted = customers.filter((c) => c === customer).length;
            return sum + (per_customer_limit === null ? wanted : Math.min(wanted, per_customer_limit));
          }, 0);
          return usage_count === (usage_limit === null ? allowed : Math.min(allowed, usage_limit));
        },
      ),
    );
  });
});

describe('customerKeyOf', () => {
  it('the customer id, else the trimmed lower-cased e-mail', () => {
    expect(customerKeyOf('cus_1', 'A@x.com')).toBe('cus_1');
    expect(customerKeyOf(null, ' A@Example.COM ')).toBe('a@example.com');
  });
});
