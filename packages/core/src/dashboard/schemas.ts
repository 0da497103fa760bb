import { z } from 'zod';
import {
  DateTimeSchema,
  IdSchema,
  IntegerSchema,
  listOf,
  listQuery,
  MoneySchema,
  type Named,
  queryInt,
} from '../shared/schemas/common';

// ---------------------------------------------------------------- dashboard (decisions §23)

/** `GET /v1/admin/dashboard/stats`: `period` is `7` (default) or `30` days. */
export interface DashboardStatsQuerySchema extends Named<typeof dashboardStatsQuerySchema> {}
const dashboardStatsQuerySchema = z.object({
  period: z.enum(['7', '30']).default('7').describe('The revenue chart covers this many days, ending today.'),
});
export const DashboardStatsQuerySchema: DashboardStatsQuerySchema = dashboardStatsQuerySchema;
export type DashboardStatsQuery = z.infer<typeof DashboardStatsQuerySchema>;

const ChangePctSchema = z
  .number()
  .describe(
    '(current − previous) / previous × 100, one decimal; 0 when previous is 0 (100 when current is above 0).',
  );

export interface DashboardMoneyKpiSchema extends Named<typeof dashboardMoneyKpiSchema> {}
const dashboardMoneyKpiSchema = z
  .object({ value: MoneySchema, change_pct: ChangePctSchema })
  .meta({ id: 'DashboardMoneyKpi' });
export const DashboardMoneyKpiSchema: DashboardMoneyKpiSchema = dashboardMoneyKpiSchema;

export interface DashboardCountKpiSchema extends Named<typeof dashboardCountKpiSchema> {}
const dashboardCountKpiSchema = z
  .object({ value: z.int().min(0), change_pct: ChangePctSchema })
  .meta({ id: 'DashboardCountKpi' });
export const DashboardCountKpiSchema: DashboardCountKpiSchema = dashboardCountKpiSchema;

export interface DashboardStatsSchema extends Named<typeof dashboardStatsSchema> {}
const dashboardStatsSchema = z
  .object({
    kpi: z.object({
      today_revenue: DashboardMoneyKpiSchema.describe('Net revenue of today (store time zone) vs yesterday.'),
      today_orders: DashboardCountKpiSchema.describe(
        'Orders created today (no drafts, no cancelled) vs yesterday.',
      ),
      month_revenue: DashboardMoneyKpiSchema.describe(
        'Month to date vs the same days of the previous month.',
      ),
      pending_orders: DashboardCountKpiSchema.describe(
        'Orders pending, confirmed or processing now; change: new ones of the last 24 h vs the 24 h before.',
      ),
    }),
    revenue_chart: z
      .array(
        z
          .object({ date: z.string().describe('YYYY-MM-DD in the store time zone.'), revenue: MoneySchema })
          .meta({ id: 'DashboardRevenuePoint' }),
      )
      .describe('One point per day ending today, oldest first, zero-filled.'),
    recent_orders: z
      .array(
        z
          .object({
            id: IdSchema,
            order_number: z.int(),
            email: z.string(),
            total: MoneySchema,
            status: z.string(),
            created_at: DateTimeSchema,
          })
          .meta({ id: 'DashboardRecentOrder' }),
      )
      .describe('The 10 newest orders that are not drafts.'),
    low_stock_alerts: z
      .array(
        z
          .object({
            variant_id: IdSchema,
            sku: z.string().nullable(),
            product_name: z.string(),
            available: z.int(),
            safety_stock: z.int(),
          })
          .meta({ id: 'DashboardLowStockAlert' }),
      )
      .describe('Tracked variants with available ≤ safety_stock, lowest available first, at most 20.'),
  })
  .meta({
    id: 'DashboardStats',
    description:
      'Revenue = completed payments − completed refunds in the store currency (exchange credit excluded), by day in the store time zone.',
  });
export const DashboardStatsSchema: DashboardStatsSchema = dashboardStatsSchema;
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

// ---------------------------------------------------------------- API logs (decisions §23)

const LoggedBodySchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe('The JSON body with secrets redacted; over 8 KB it is cut (`{ "_truncated": true, … }`).');

export interface ApiLogSchema extends Named<typeof apiLogSchema> {}
const apiLogSchema = z
  .object({
    id: IdSchema,
    method: z.string(),
    path: z.string(),
    status_code: z.int(),
    latency_ms: z.int().min(0),
    request_body: LoggedBodySchema,
    response_body: LoggedBodySchema,
    api_key_id: z.string().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'ApiLog' });
export const ApiLogSchema: ApiLogSchema = apiLogSchema;
export type ApiLog = z.infer<typeof ApiLogSchema>;

export interface ApiLogListSchema extends Named<typeof apiLogListSchema> {}
const apiLogListSchema = listOf(ApiLogSchema);
export const ApiLogListSchema: ApiLogListSchema = apiLogListSchema;

/** `GET /v1/admin/logs`: newest first; filters `method`, `status_code`, `path` (a prefix). */
export interface ApiLogListQuerySchema extends Named<typeof apiLogListQuerySchema> {}
const apiLogListQuerySchema = listQuery(['created_at'], {
  method: z
    .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])
    .optional()
    .describe('An HTTP method, upper case.'),
  status_code: queryInt(IntegerSchema.min(100).max(599)).optional(),
  path: z
    .string()
    .min(1)
    .max(2048)
    .startsWith('/')
    .optional()
    .describe('A path prefix, e.g. `/v1/admin/orders`.'),
});
export const ApiLogListQuerySchema: ApiLogListQuerySchema = apiLogListQuerySchema;
export type ApiLogListQuery = z.infer<typeof ApiLogListQuerySchema>;
