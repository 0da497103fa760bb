import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderRecord, OrderSums } from '../ports/storage';
import { customerTotals } from './customer-totals';

const STATUSES: OrderRecord['status'][] = [
  'draft',
  'pending',
  'confirmed',
  'processing',
  'completed',
  'cancelled',
];

const sum = (
  customer_id: string,
  status: OrderRecord['status'],
  count: number,
  paid: number,
  refunded = 0,
): OrderSums => ({
  customer_id,
  status,
  count,
  paid_total: paid,
  refunded_total: refunded,
});

describe('customerTotals (docs/contract.md#customer-totals)', () => {
  it('counts every order but drafts and cancelled ones; total_spent is paid − refunded over all orders', () => {
    const totals = customerTotals(
      ['cus_a'],
      [
        sum('cus_a', 'confirmed', 2, 5000, 500),
        sum('cus_a', 'completed', 1, 1200),
        sum('cus_a', 'draft', 3, 0),
        sum('cus_a', 'cancelled', 1, 800, 800),
        sum('cus_a', 'pending', 1, 0),
      ],
    );
    expect(totals).toEqual({ cus_a: { total_orders: 4, total_spent: 5700 } });
  });

  it('customers without orders get zeros; sums of customers not asked for are ignored', () => {
    expect(customerTotals(['cus_a', 'cus_b'], [sum('cus_x', 'completed', 1, 100)])).toEqual({
      cus_a: { total_orders: 0, total_spent: 0 },
      cus_b: { total_orders: 0, total_spent: 0 },
    });
    expect(customerTotals([], [])).toEqual({});
  });

  it('property: equals the rule applied order by order', () => {
    const order = fc.record({
      customer_id: fc.constantFrom('cus_a', 'cus_b', 'cus_c'),
      status: fc.constantFrom(...STATUSES),
      paid: fc.integer({ min: 0, max: 100_000 }),
      refunded: fc.integer({ min: 0, max: 100_000 }),
    });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 40 }), (orders) => {
        // What the storage answers: the orders grouped by customer and status.
        const grouped = new Map<string, OrderSums>();
        for (const o of orders) {
          const key = `${o.customer_id} ${o.status}`;
          const g = grouped.get(key) ?? sum(o.customer_id, o.status, 0, 0, 0);
          g.count++;
          g.paid_total += o.paid;
          g.refunded_total += o.refunded;
          grouped.set(key, g);
        }
        const ids = ['cus_a', 'cus_b', 'cus_c'];
        const totals = customerTotals(ids, [...grouped.values()]);
        for (const id of ids) {
          const mine = orders.filter((o) => o.customer_id === id);
          expect(totals[id]).toEqual({
            total_orders: mine.filter((o) => o.status !== 'draft' && o.status !== 'cancelled').length,
            total_spent: mine.reduce((total, o) => total + o.paid - o.refunded, 0),
          });
        }
      }),
    );
  });
});
