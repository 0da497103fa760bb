import type { PageRequest, Scope } from '../ports/storage';
import type { ApiLogRecord } from '../ports/storage/dashboard';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { money } from '../shared/money';
import { read } from '../shared/unit-of-work';
import { iso } from '../shared/wire-format';
import type { ApiLog, ApiLogListQuery, DashboardStats } from './schemas';
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

export function apiLogToWire(record: ApiLogRecord): ApiLog {
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    status_code: record.status_code,
    latency_ms: record.latency_ms,
    request_body: record.request_body,
    response_body: record.response_body,
    api_key_id: record.api_key_id,
    ip: record.ip,
    user_agent: record.user_agent,
    created_at: iso(record.created_at),
  };
}

/** How long API logs are kept (decisions §23): 30 days. */
export const API_LOG_RETENTION_MS = 30 * 86_400_000;

/** A request to log, as the HTTP layer hands it over (already redacted and cut). */
export type ApiLogEntry = Omit<ApiLogRecord, 'id'>;

/** API logs (decisions §23): written by the HTTP layer's buffer, read here. */
export function createApiLogService(ctx: ServiceContext) {
  return {
    /** Writes a batch in one multi-row insert (one transaction), each with a new `log_` id. */
    async record(entries: readonly ApiLogEntry[]): Promise<void> {
      if (entries.length === 0) return;
      const records = entries.map((entry): ApiLogRecord => ({ ...entry, id: ctx.ids.next('log') }));
      await ctx.storage.transaction((tx) => tx.apiLogs.insertMany(records));
    },
    /** Deletes the logs older than the retention (30 days), of every store and mode; answers how many. */
    prune(): Promise<number> {
      const before = ctx.clock.now() - API_LOG_RETENTION_MS;
      return ctx.storage.transaction((tx) => tx.apiLogs.prune(before));
    },
    async list(scope: Scope, query: ApiLogListQuery, page: PageRequest<'created_at'>) {
      const result = await read(ctx, (tx) =>
        tx.apiLogs.list(
          scope,
          { method: query.method, status_code: query.status_code, path: query.path },
          page,
        ),
      );
      return { ...result, data: result.data.map(apiLogToWire) };
    },
    async get(scope: Scope, id: string) {
      const record = await read(ctx, (tx) => tx.apiLogs.get(scope, id));
      if (record === null) throw errors.notFound('API log', id);
      return apiLogToWire(record);
    },
  };
}

export type ApiLogService = ReturnType<typeof createApiLogService>;
