import type { PaymentRecord, RefundRecord, Scope } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeOrder, makePayment, makeRefund, newScope } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const HOUR = 3_600_000;
/** A UTC midnight (2023-11-15), so hourly bounds from it are whole quarter hours. */
const DAY0 = 1_700_006_400_000;

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What decisions §23 counts, from the rows themselves (the reference the storage is held to). */
function expectedSums(
  payments: readonly PaymentRecord[],
  refunds: readonly RefundRecord[],
  currency: string,
  bounds: readonly number[],
): number[] {
  const sums = new Array<number>(bounds.length - 1).fill(0);
  const add = (at: number, amount: number) => {
    for (let i = 0; i < bounds.length - 1; i++) {
      if (at >= (bounds[i] as number) && at < (bounds[i + 1] as number)) sums[i] = (sums[i] ?? 0) + amount;
    }
  };
  for (const p of payments) {
    if (
      p.currency === currency &&
      (p.status === 'completed' || p.status === 'refunded') &&
      p.provider !== 'exchange_credit'
    ) {
      add(p.created_at, p.amount);
    }
  }
  for (const r of refunds)
    if (r.currency === currency && r.status === 'completed') add(r.created_at, -r.amount);
  return sums;
}

/**
 * The dashboard's revenue sums (decisions §23): quarter-hour-aligned windows are answered from the
 * pre-aggregate the storage keeps with every payment and refund write (0032_revenue_buckets), other
 * windows from the rows; both must equal the rows' own sums after any sequence of writes.
 */
export function dashboardSuite(ctx: SuiteContext): void {
  describe('dashboard revenue', () => {
    async function orderIn(scope: Scope) {
      const order = makeOrder(scope, 1001);
      await ctx.tx((tx) => tx.orders.insert(order));
      return order;
    }

    it('equals the sums of the payments and refunds themselves after inserts, status changes and a rollback', async () => {
      const scope = newScope();
      const order = await orderIn(scope);
      const next = random(41);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
      const at = () => DAY0 + Math.floor(next() * 3 * 24 * HOUR);
      const payments: PaymentRecord[] = [];
      const refunds: RefundRecord[] = [];
      for (let i = 0; i < 40; i++) {
        const payment = makePayment(scope, null, {
          amount: 1 + Math.floor(next() * 50_000),
          currency: pick(['USD', 'USD', 'EUR']),
          provider: pick(['manual', 'stripe', 'exchange_credit']),
          status: pick(['pending', 'completed', 'failed', 'refunded']),
          created_at: at(),
        });
        await ctx.tx((tx) => tx.orders.insertPayment(payment));
        payments.push(payment);
      }
      // Status changes, some in the transaction of the insert, some later.
      for (const payment of payments.filter((_, i) => i % 3 === 0)) {
        const status = pick(['completed', 'refunded', 'failed', 'pending'] as const);
        await ctx.tx((tx) =>
          tx.orders.updatePayment(scope, payment.id, { status, updated_at: payment.created_at }),
        );
        payment.status = status;
      }
      for (let i = 0; i < 5; i++) {
        const payment = makePayment(scope, null, { amount: 700 + i, created_at: at() });
        await ctx.tx(async (tx) => {
          await tx.orders.insertPayment(payment);
          await tx.orders.updatePayment(scope, payment.id, {
            status: 'completed',
            updated_at: payment.created_at,
          });
        });
        payments.push({ ...payment, status: 'completed' });
      }
      for (let i = 0; i < 15; i++) {
        const refund = makeRefund(scope, order.id, {
          amount: 1 + Math.floor(next() * 5_000),
          currency: pick(['USD', 'EUR']),
          status: pick(['pending', 'completed', 'failed']),
          created_at: at(),
        });
        await ctx.tx((tx) => tx.orders.insertRefund(refund));
        if (refund.status === 'pending' && next() < 0.7) {
          const status = pick(['completed', 'failed'] as const);
          await ctx.tx((tx) =>
            tx.orders.updateRefund(scope, refund.id, { status, updated_at: refund.created_at }),
          );
          refund.status = status;
        }
        refunds.push(refund);
      }
      // A rolled-back transaction counts nothing.
      await expect(
        ctx.tx(async (tx) => {
          await tx.orders.insertPayment(
            makePayment(scope, null, { status: 'completed', amount: 99_999, created_at: DAY0 + HOUR }),
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');

      const hourly = Array.from({ length: 3 * 24 + 1 }, (_, i) => DAY0 + i * HOUR);
      const daily = [DAY0, DAY0 + 24 * HOUR, DAY0 + 48 * HOUR, DAY0 + 72 * HOUR];
      const unaligned = daily.map((bound) => bound + 7);
      for (const currency of ['USD', 'EUR']) {
        for (const bounds of [hourly, daily, unaligned]) {
          const sums = await ctx.read((r) => r.dashboard.revenueBetween(scope, currency, bounds));
          expect(sums, `${currency} over ${bounds.length - 1} spans`).toEqual(
            expectedSums(payments, refunds, currency, bounds),
          );
        }
      }
      expect(expectedSums(payments, refunds, 'USD', daily).some((sum) => sum !== 0)).toBe(true);
    });

    it('concurrent payments in one quarter hour are all counted', async () => {
      const scope = newScope();
      const payments = Array.from({ length: 12 }, (_, i) =>
        makePayment(scope, null, {
          amount: 100 + i,
          status: 'completed',
          provider: 'stripe',
          created_at: DAY0 + 60_000 + i,
        }),
      );
      await Promise.all(payments.map((payment) => ctx.tx((tx) => tx.orders.insertPayment(payment))));
      const [sum] = await ctx.read((r) => r.dashboard.revenueBetween(scope, 'USD', [DAY0, DAY0 + HOUR]));
      expect(sum).toBe(payments.reduce((total, payment) => total + payment.amount, 0));
    });
  });
}
