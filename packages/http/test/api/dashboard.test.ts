import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import {
  adminOrder,
  createProduct,
  expectError,
  expectStatus,
  orderOf,
  payOrder,
  placeOrder,
} from './support/order-fixtures';

/**
 * `GET /v1/admin/dashboard/stats` over real HTTP on every engine (decisions §23): each aggregate
 * is SQL of its own per engine (sums per local day, counts per window and status, the newest
 * orders, the low-stock join), so every number is checked on SQLite, PostgreSQL and MariaDB. The
 * store's zone is Asia/Kathmandu (+05:45), whose days start at 18:15 UTC: a day boundary a
 * whole-hour bucketing would get wrong. Time is an engine clock the test sets.
 */

let now = Date.UTC(2025, 1, 10, 12, 0);
const clock = { now: () => now };
const at = (iso: string) => {
  now = Date.parse(iso);
};

const STATS = '/v1/admin/dashboard/stats';
const usd = (amount: number) => ({ amount, currency: 'USD' });

/** A pending order (manual checkout) placed at `when`, paid (its payment completed) at once when `paid`. */
async function orderAt(api: TestApi, when: string, variant_id: string, paid = true) {
  at(when);
  const order = await placeOrder(api, [{ variant_id }]);
  return paid ? payOrder(api, order) : order;
}

describeApi(
  'dashboard stats',
  (api) => {
    test('every number on this engine: revenue per local day, today vs yesterday, month to date, pending, chart, recent, low stock', async () => {
      at('2025-02-01T00:00:00Z');
      expectStatus(await api().patch('/v1/admin/store', { timezone: 'Asia/Kathmandu' }), 200);
      const p1000 = await createProduct(api(), { price: 1000, on_hand: 100 });
      const p2000 = await createProduct(api(), { price: 2000, on_hand: 100 });
      const p5000 = await createProduct(api(), { price: 5000, on_hand: 100 });
      const low = await createProduct(api(), { price: 100, on_hand: 2, safety_stock: 5 });
      const edge = await createProduct(api(), { price: 100, on_hand: 3, safety_stock: 3 });
      await createProduct(api(), { price: 100, on_hand: 0, safety_stock: 0, track_inventory: false });

      const feb = await orderAt(api(), '2025-02-10T06:00:00Z', p5000.variant_id); // Feb 10, previous month
      const a = await orderAt(api(), '2025-03-14T18:10:00Z', p1000.variant_id); // Mar 14, 23:55 local
      const b = await orderAt(api(), '2025-03-14T18:20:00Z', p2000.variant_id); // Mar 15, 00:05 local
      // A refund of 3.00 on A today comes off today.
      at('2025-03-15T08:00:00Z');
      expectStatus(await api().post(`/v1/admin/orders/${a.id}/refunds`, { amount: 300 }), 200);
      // An unpaid order, a cancelled one and a draft: no revenue.
      const c = await orderAt(api(), '2025-03-15T11:00:00Z', p5000.variant_id, false);
      const cancelled = await orderAt(api(), '2025-03-15T11:10:00Z', p5000.variant_id, false);
      expectStatus(await api().post(`/v1/admin/orders/${cancelled.id}/cancel`, {}), 200);
      at('2025-03-15T11:20:00Z');
      const draft = expectStatus(await adminOrder(api(), [{ variant_id: p1000.variant_id }]), 201).body;
      expect(draft.status).toBe('draft');
      // Live mode sees none of it.
      at('2025-03-15T12:00:00Z');

      const res = await api().get(STATS);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const s = res.body;
      expect(Object.keys(s).sort()).toEqual(['kpi', 'low_stock_alerts', 'recent_orders', 'revenue_chart']);
      expect(s.kpi).toEqual({
        today_revenue: { value: usd(1700), change_pct: 70 },
        today_orders: { value: 2, change_pct: 100 },
        // Mar 1–15: 1000 + 2000 − 300 = 2700 vs Feb 1–15: 5000.
        month_revenue: { value: usd(2700), change_pct: -46 },
        // Open: feb, a, b (confirmed) and c (pending); new in the last 24 h: a, b, c; the 24 h before: none.
        pending_orders: { value: 4, change_pct: 100 },
      });
      expect(s.revenue_chart).toHaveLength(7);
      expect(s.revenue_chart).toEqual([
        { date: '2025-03-09', revenue: usd(0) },
        { date: '2025-03-10', revenue: usd(0) },
        { date: '2025-03-11', revenue: usd(0) },
        { date: '2025-03-12', revenue: usd(0) },
        { date: '2025-03-13', revenue: usd(0) },
        { date: '2025-03-14', revenue: usd(1000) },
        { date: '2025-03-15', revenue: usd(1700) },
      ]);
      expect(s.recent_orders.map((o: { id: string }) => o.id)).toEqual([
        cancelled.id,
        c.id,
        b.id,
        a.id,
        feb.id,
      ]);
      const bNow = await orderOf(api(), b.id);
      expect(s.recent_orders[2]).toEqual({
        id: b.id,
        order_number: bNow.number,
        email: 'guest@example.com',
        total: usd(2000),
        status: 'confirmed',
        created_at: '2025-03-14T18:20:00.000Z',
      });
      expect(s.recent_orders[0].status).toBe('cancelled');
      expect(s.low_stock_alerts).toEqual([
        { variant_id: low.variant_id, sku: low.sku, product_name: low.name, available: 2, safety_stock: 5 },
        {
          variant_id: edge.variant_id,
          sku: edge.sku,
          product_name: edge.name,
          available: 3,
          safety_stock: 3,
        },
      ]);

      const month = (await api().get(`${STATS}?period=30`)).body;
      expect(month.revenue_chart).toHaveLength(30);
      expect(month.revenue_chart[0]).toEqual({ date: '2025-02-14', revenue: usd(0) });
      expect(month.revenue_chart.at(-1)).toEqual({ date: '2025-03-15', revenue: usd(1700) });
      expect(
        month.revenue_chart.reduce(
          (sum: number, p: { revenue: { amount: number } }) => sum + p.revenue.amount,
          0,
        ),
      ).toBe(2700);
      expect(month.kpi).toEqual(s.kpi);

      // The live mode has none of the test mode's orders.
      const live = (await api().get(STATS, { key: api().keys.liveSecret })).body;
      expect(live.kpi.month_revenue.value).toEqual(usd(0));
      expect(live.recent_orders).toEqual([]);
      expect(live.low_stock_alerts).toEqual([]);

      // Just before local midnight of Mar 16 it is still Mar 15; at 18:15 UTC it is Mar 16.
      at('2025-03-15T18:14:00Z');
      expect((await api().get(STATS)).body.kpi.today_revenue.value).toEqual(usd(1700));
      at('2025-03-15T18:15:00Z');
      const tomorrow = (await api().get(STATS)).body;
      expect(tomorrow.kpi.today_revenue).toEqual({ value: usd(0), change_pct: -100 });
      expect(tomorrow.revenue_chart.at(-1)).toEqual({ date: '2025-03-16', revenue: usd(0) });
    });

    test('period other than 7 or 30 → 400 parameter_invalid (period); a publishable key → 403', async () => {
      for (const period of ['14', '0', 'week', '7.0']) {
        expectError(await api().get(`${STATS}?period=${period}`), 400, 'parameter_invalid', 'period');
      }
      expectError(await api().storefront.get(STATS), 403, 'forbidden');
    });
  },
  { clock, rateLimits: false },
);
