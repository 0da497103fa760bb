import type { Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { money } from '../shared/money';
import { read } from '../shared/unit-of-work';
import { iso } from '../shared/wire-format';
import type { DashboardStats } from './schemas';
import { type DashboardPeriod, orderWindows, planDashboard, summarize } from './stats';

/** Orders a merchant still has to act on (decisions §23 `pending_orders`). */
const OPEN_STATUSES = ['pending', 'confirmed', 'processing'] as const;
/** Orders that count as placed: every status but `draft` and `cancelled`. */
const PLACED_STATUSES = ['pending', 'confirmed', 'processing', 'completed'] as const;
export const RECENT_ORDERS = 10;
export const LOW_STOCK_ALERTS = 20;

/** `GET /v1/admin/dashboard/stats` (decisions §23): every number from a handful of indexed reads. */
export function createDashboardService(ctx: ServiceContext) {
  return {
    async stats(scope: Scope, period: DashboardPeriod): Promise<DashboardStats> {
      const now = ctx.clock.now();
      return read(ctx, async (tx) => {
        const store = await tx.stores.get(scope.store_id);
        if (store === null) throw new CommerceError('not_found', 'No such store');
        const plan = planDashboard(now, store.timezone, period);
        const windows = orderWindows(plan);
        const [daily, placed, open, newOpen, recent, lowStock] = await Promise.all([
          tx.dashboard.revenueBetween(scope, store.currency, plan.bounds),
          tx.dashboard.countOrdersCreated(scope, PLACED_STATUSES, [windows.today, windows.yesterday]),
          tx.dashboard.countOrdersWithStatus(scope, OPEN_STATUSES),
          tx.dashboard.countOrdersCreated(scope, OPEN_STATUSES, [windows.last24h, windows.previous24h]),
          tx.dashboard.recentOrders(scope, RECENT_ORDERS),
          tx.dashboard.lowStock(scope, LOW_STOCK_ALERTS),
        ]);
        const numbers = summarize(plan, {
          daily_revenue: daily,
          today_orders: placed[0] ?? 0,
          yesterday_orders: placed[1] ?? 0,
          pending_orders: open,
          pending_new_last_24h: newOpen[0] ?? 0,
          pending_new_previous_24h: newOpen[1] ?? 0,
        });
        const currency = store.currency;
        return {
          kpi: {
            today_revenue: {
              value: money(numbers.today_revenue.value, currency),
              change_pct: numbers.today_revenue.change_pct,
            },
            today_orders: numbers.today_orders,
            month_revenue: {
              value: money(numbers.month_revenue.value, currency),
              change_pct: numbers.month_revenue.change_pct,
            },
            pending_orders: numbers.pending_orders,
          },
          revenue_chart: numbers.revenue_chart.map((p) => ({
            date: p.date,
            revenue: money(p.revenue, currency),
          })),
          recent_orders: recent.map((o) => ({
            id: o.id,
            order_number: o.number,
            email: o.email,
            total: money(o.total, o.currency),
            status: o.status,
            created_at: iso(o.created_at),
          })),
          low_stock_alerts: lowStock,
        };
      });
    },
  };
}
