import {
  ApiLogListQuerySchema,
  ApiLogListSchema,
  ApiLogSchema,
  DashboardStatsQuerySchema,
  DashboardStatsSchema,
} from '../dashboard/schemas';
import { IdPathSchema } from '../schemas';
import { pageOf } from './call';
import { defineOperation } from './operation';

/** The back office's reads (decisions §23): dashboard stats and API logs. Secret keys only. */
export const dashboardOperations = [
  defineOperation({
    name: 'dashboard.stats',
    http: { method: 'GET', path: '/v1/admin/dashboard/stats' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: DashboardStatsQuerySchema,
    response: DashboardStatsSchema,
    summary: 'Dashboard statistics',
    description:
      'KPIs (today’s revenue and orders vs yesterday, month to date vs the same days of the previous month, ' +
      'open orders), the revenue chart of the last `period` days (7 or 30; in the store’s `timezone`), ' +
      'the 10 newest orders and up to 20 low-stock variants. Revenue = completed payments − completed ' +
      'refunds in the store currency, exchange credit excluded.',
    tags: ['Dashboard'],
    run: async (s, c) => s.dashboard.stats(c.scope, Number(c.input.period) as 7 | 30),
  }),
  defineOperation({
    name: 'logs.list',
    http: { method: 'GET', path: '/v1/admin/logs' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: ApiLogListQuerySchema,
    response: ApiLogListSchema,
    summary: 'List API logs',
    description:
      'The requests this store and mode received (as `COMMERCE_API_LOGS` says: by default every non-GET ' +
      'request and every 4xx/5xx), newest first, kept 30 days; bodies redacted and cut at 8 KB. ' +
      'Filters: `method`, `status_code`, `path` (a prefix).',
    tags: ['API logs'],
    run: async (s, c) => s.apiLogs.list(c.scope, c.input, pageOf(c.input)),
  }),
  defineOperation({
    name: 'logs.get',
    http: { method: 'GET', path: '/v1/admin/logs/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: ApiLogSchema,
    summary: 'Retrieve an API log',
    tags: ['API logs'],
    errors: ['not_found'],
    run: async (s, c) => s.apiLogs.get(c.scope, c.params.id),
  }),
] as const;
