import { describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The dashboard (decisions §23 `GET /v1/admin/dashboard/stats`) through the engine, on the
 * in-memory SQLite of createTestEngine with its fake clock: revenue = completed payments −
 * completed refunds, exchange credit excluded, by day in the store's time zone; today vs
 * yesterday; month to date vs the same days of the previous month; pending orders; the chart;
 * the recent orders and the low-stock alerts.
 */

async function withEngine(
  options: Parameters<typeof createTestEngine>[0],
  fn: (t: TestEngine) => Promise<void>,
): Promise<void> {
  const t = await createTestEngine(options);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

/** A paid order (fake card, completed payment) of `price` placed at `at`. */
async function paidOrder(t: TestEngine, at: string, price: number) {
  t.clock.set(at);
  const { variant } = await t.fixtures.product({ price, on_hand: 100 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
  return t.checkout(cart.id);
}

const stats = (t: TestEngine, period?: '7' | '30') =>
  t.store.dashboard.stats(period === undefined ? {} : { period });

describe('dashboard stats (engine API)', () => {
  test('revenue by day in the store time zone: completed payments − completed refunds; today vs yesterday', async () => {
    await withEngine({ store: { timezone: 'America/New_York' } }, async (t) => {
      // 2025-02-10T03:00Z is Feb 9, 22:00 in New York; 06:00Z is Feb 10, 01:00.
      const a = await paidOrder(t, '2025-02-10T03:00:00Z', 1000);
      await paidOrder(t, '2025-02-10T06:00:00Z', 2500);
      // A failed checkout attempt and a pending manual payment are no revenue.
      t.clock.set('2025-02-10T07:00:00Z');
      const { variant } = await t.fixtures.product({ price: 9000 });
      const manualCart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
      const manual = await t.checkout(manualCart.id, { payment_provider: 'manual' });
      expect(manual.payments.map((p) => p.status)).toEqual(['pending']);
      // A refund of A today (local Feb 10) comes off today's revenue, not the day of the payment.
      t.clock.set('2025-02-10T12:00:00Z');
      await t.store.orders.refunds.create(a.id, { amount: 400 });
      t.clock.set('2025-02-10T20:00:00Z');

      const s = await stats(t);
      expect(s.kpi.today_revenue).toEqual({ value: { amount: 2100, currency: 'USD' }, change_pct: 110 });
      // Orders created on each local day, whatever their payment: B and the manual one today, A yesterday.
      expect(s.kpi.today_orders).toEqual({ value: 2, change_pct: 100 });
      expect(s.revenue_chart.slice(-2)).toEqual([
        { date: '2025-02-09', revenue: { amount: 1000, currency: 'USD' } },
        { date: '2025-02-10', revenue: { amount: 2100, currency: 'USD' } },
      ]);
      // In UTC both orders would be on Feb 10: the day is the store's.
      t.clock.set('2025-02-11T04:59:00Z'); // still Feb 10 in New York
      expect((await stats(t)).kpi.today_revenue.value).toEqual({ amount: 2100, currency: 'USD' });
      t.clock.set('2025-02-11T05:00:00Z'); // Feb 11 00:00 in New York
      const next = await stats(t);
      expect(next.kpi.today_revenue).toEqual({ value: { amount: 0, currency: 'USD' }, change_pct: -100 });
      expect(next.kpi.today_orders).toEqual({ value: 0, change_pct: -100 });

      // Completing the manual payment counts it (on the day of its payment record).
      await t.store.orders.payments.complete(manual.payments[0]!.id);
      const after = await stats(t);
      expect(after.revenue_chart.find((p) => p.date === '2025-02-10')?.revenue.amount).toBe(11100);
    });
  });

  test('exchange credit is no revenue; the surplus refund of an exchange is', async () => {
    await withEngine({ store: { tax_rate: 20 } }, async (t) => {
      t.clock.set('2025-03-05T10:00:00Z');
      const mug = (await t.fixtures.product({ price: 2500, on_hand: 10 })).variant;
      const other = (await t.fixtures.product({ price: 2000, on_hand: 10 })).variant;
      const customer = await t.fixtures.customer();
      const cart = await t.fixtures.cart([{ variant_id: mug.id, quantity: 2 }], { customer_id: customer.id });
      const order = await t.checkout(cart.id);
      expect(order.total.amount).toBe(6000);
      const f = await t.store.orders.fulfillments.create(order.id, {
        lines: order.lines.map((l) => ({ order_line_id: l.id, quantity: l.quantity })),
      });
      await t.store.orders.fulfillments.ship(f.id);
      const ret = await t.store.returns.create(order.id, {
        return_type: 'exchange',
        lines: [
          {
            order_line_id: order.lines[0]!.id,
            quantity: 1,
            condition: 'unopened',
            exchange_variant_id: other.id,
          },
        ],
      });
      await t.store.returns.receive(ret.id, {});
      const done = await t.store.returns.complete(ret.id);
      const exchange = await t.store.orders.get(done.exchange_order_id!);
      expect(exchange.payments.map((p) => [p.provider, p.amount.amount, p.status])).toEqual([
        ['exchange_credit', 2400, 'completed'],
      ]);
      // 6000 paid − 600 surplus refunded; the 2400 of exchange credit is not counted again.
      const s = await stats(t);
      expect(s.kpi.today_revenue.value).toEqual({ amount: 5400, currency: 'USD' });
      expect(s.kpi.month_revenue.value).toEqual({ amount: 5400, currency: 'USD' });
      // Both orders were placed today.
      expect(s.kpi.today_orders.value).toBe(2);
    });
  });

  test('month to date vs the same days of the previous month (clamped to its length); change_pct one decimal', async () => {
    await withEngine({}, async (t) => {
      await paidOrder(t, '2025-01-31T12:00:00Z', 7000); // two months back: not counted
      await paidOrder(t, '2025-02-03T12:00:00Z', 3000); // previous month, day 3
      await paidOrder(t, '2025-02-20T12:00:00Z', 5000); // previous month, after day 15: not counted
      await paidOrder(t, '2025-03-02T12:00:00Z', 1000);
      t.clock.set('2025-03-15T23:59:00Z');
      const s = await stats(t);
      expect(s.kpi.month_revenue).toEqual({ value: { amount: 1000, currency: 'USD' }, change_pct: -66.7 });
      expect(s.kpi.today_revenue).toEqual({ value: { amount: 0, currency: 'USD' }, change_pct: 0 });

      // On March 31 the previous month's same days are all of February (28 days).
      await paidOrder(t, '2025-03-31T08:00:00Z', 1000);
      const end = await stats(t);
      expect(end.kpi.month_revenue).toEqual({ value: { amount: 2000, currency: 'USD' }, change_pct: -75 });
      expect(end.kpi.today_revenue).toEqual({ value: { amount: 1000, currency: 'USD' }, change_pct: 100 });
    });
  });

  test('revenue_chart: period 7 (default) or 30 days ending today, oldest first, zero-filled; another period → 400', async () => {
    await withEngine({}, async (t) => {
      await paidOrder(t, '2025-04-28T09:00:00Z', 1500);
      t.clock.set('2025-05-02T10:00:00Z');
      const week = await stats(t);
      expect(week.revenue_chart.map((p) => p.date)).toEqual([
        '2025-04-26',
        '2025-04-27',
        '2025-04-28',
        '2025-04-29',
        '2025-04-30',
        '2025-05-01',
        '2025-05-02',
      ]);
      expect(week.revenue_chart.map((p) => p.revenue.amount)).toEqual([0, 0, 1500, 0, 0, 0, 0]);
      expect(week.revenue_chart.every((p) => p.revenue.currency === 'USD')).toBe(true);
      expect((await stats(t, '7')).revenue_chart).toEqual(week.revenue_chart);
      const month = await stats(t, '30');
      expect(month.revenue_chart).toHaveLength(30);
      expect(month.revenue_chart[0]?.date).toBe('2025-04-03');
      expect(month.revenue_chart.at(-1)?.date).toBe('2025-05-02');
      expect(month.revenue_chart.reduce((sum, p) => sum + p.revenue.amount, 0)).toBe(1500);
      await expectCode(t.store.dashboard.stats({ period: '14' as never }), 'parameter_invalid', 'period');
    });
  });

  test('pending_orders: pending, confirmed or processing now; change = new ones of the last 24 h vs the 24 h before', async () => {
    await withEngine({}, async (t) => {
      await paidOrder(t, '2025-06-01T00:00:00Z', 1000); // 60 h before "now"
      await paidOrder(t, '2025-06-02T06:00:00Z', 1000); // 30 h before
      const completed = await paidOrder(t, '2025-06-02T07:00:00Z', 1000); // 29 h before: completed below
      const recent1 = await paidOrder(t, '2025-06-03T08:00:00Z', 1000); // 4 h before
      await paidOrder(t, '2025-06-03T10:00:00Z', 1000); // 2 h before
      const cancelled = await paidOrder(t, '2025-06-03T11:00:00Z', 1000);
      await t.store.orders.cancel(cancelled.id, {});
      const f = await t.store.orders.fulfillments.create(completed.id, {
        lines: completed.lines.map((l) => ({ order_line_id: l.id, quantity: l.quantity })),
      });
      await t.store.orders.fulfillments.ship(f.id);
      await t.store.orders.fulfillments.deliver(f.id);
      expect((await t.store.orders.get(completed.id)).status).toBe('completed');
      // A draft order is no pending order.
      const { variant } = await t.fixtures.product({ price: 100 });
      await t.store.orders.create({
        email: 'draft@example.com',
        lines: [{ variant_id: variant.id, quantity: 1 }],
      });
      t.clock.set('2025-06-03T12:00:00Z');
      const s = await stats(t);
      // Open now: the 60 h, 30 h, 4 h and 2 h ones; new in the last 24 h: 2, in the 24 h before: 1.
      expect(s.kpi.pending_orders).toEqual({ value: 4, change_pct: 100 });
      expect((await t.store.orders.get(recent1.id)).status).toBe('confirmed');
      // Today's orders (4 h and 2 h ago): the cancelled and the draft ones excluded.
      expect(s.kpi.today_orders.value).toBe(2);
    });
  });

  test('recent_orders: the 10 newest orders that are not drafts, newest first', async () => {
    await withEngine({}, async (t) => {
      const placed = [];
      for (let i = 0; i < 12; i++)
        placed.push(await paidOrder(t, `2025-07-01T${String(i + 1).padStart(2, '0')}:00:00Z`, 100 * (i + 1)));
      t.clock.set('2025-07-01T20:00:00Z');
      const { variant } = await t.fixtures.product({ price: 100 });
      const draft = await t.store.orders.create({
        email: 'draft@example.com',
        lines: [{ variant_id: variant.id, quantity: 1 }],
      });
      expect(draft.status).toBe('draft');
      const s = await stats(t);
      const expected = placed.slice(-10).reverse();
      expect(s.recent_orders.map((o) => o.id)).toEqual(expected.map((o) => o.id));
      expect(s.recent_orders[0]).toEqual({
        id: expected[0]!.id,
        order_number: expected[0]!.number,
        email: expected[0]!.email,
        total: { amount: 1200, currency: 'USD' },
        status: 'confirmed',
        created_at: '2025-07-01T12:00:00.000Z',
      });
    });
  });

  test('low_stock_alerts: tracked variants with available ≤ safety_stock, lowest available first, at most 20', async () => {
    await withEngine({}, async (t) => {
      const low = await t.fixtures.product({ price: 100, on_hand: 5, safety_stock: 5, sku: 'AT-LIMIT' });
      const lower = await t.fixtures.product({ price: 100, on_hand: 2, safety_stock: 10, sku: 'LOWER' });
      await t.fixtures.product({ price: 100, on_hand: 20, safety_stock: 5, sku: 'PLENTY' });
      await t.fixtures.product({ price: 100, on_hand: 0, track_inventory: false, sku: 'UNTRACKED' });
      // Reserved units are not available: 8 on hand, 4 reserved by a pending order, safety 4.
      const reserved = await t.fixtures.product({ price: 100, on_hand: 8, safety_stock: 4, sku: 'RESERVED' });
      await t.store.orders.create({
        email: 'r@example.com',
        status: 'pending',
        lines: [{ variant_id: reserved.variant.id, quantity: 4 }],
      });
      const gone = await t.fixtures.product({ price: 100, on_hand: 0, safety_stock: 3, sku: 'DELETED' });
      await t.store.products.delete(gone.product.id);

      const s = await stats(t);
      expect(s.low_stock_alerts).toEqual([
        {
          variant_id: lower.variant.id,
          sku: 'LOWER',
          product_name: lower.product.name,
          available: 2,
          safety_stock: 10,
        },
        {
          variant_id: reserved.variant.id,
          sku: 'RESERVED',
          product_name: reserved.product.name,
          available: 4,
          safety_stock: 4,
        },
        {
          variant_id: low.variant.id,
          sku: 'AT-LIMIT',
          product_name: low.product.name,
          available: 5,
          safety_stock: 5,
        },
      ]);

      for (let i = 0; i < 20; i++) await t.fixtures.product({ price: 100, on_hand: 1, safety_stock: 1 });
      const many = await stats(t);
      expect(many.low_stock_alerts).toHaveLength(20);
      // The 20 new ones (1 available) come before every earlier alert.
      expect(many.low_stock_alerts.every((a) => a.available === 1 && a.safety_stock === 1)).toBe(true);
      expect(many.low_stock_alerts.map((a) => a.variant_id)).not.toContain(lower.variant.id);
    });
  });
});
