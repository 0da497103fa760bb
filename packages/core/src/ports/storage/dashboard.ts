import type { Page, PageRequest } from './pagination';
import type { OrderRecord } from './records';
import type { JsonObject, Millis, Scope } from './scope';

// The back office's reads (decisions §23): dashboard sums and API logs.

/** `[from, to)` in epoch milliseconds. */
export interface TimeWindow {
  from: Millis;
  to: Millis;
}

/** A tracked variant at or below its safety stock (decisions §23). */
export interface LowStockRow {
  variant_id: string;
  sku: string | null;
  product_name: string;
  /** on_hand − reserved. */
  available: number;
  safety_stock: number;
}

export interface DashboardRepository {
  /**
   * Net revenue in `currency` per span `[bounds[i], bounds[i + 1])` (`bounds` ascending; answers
   * `bounds.length − 1` sums): the amounts of payments `completed` or since `refunded`, not of
   * provider `exchange_credit`, by their `created_at`, minus the amounts of `completed` refunds by
   * their `created_at`.
   */
  revenueBetween(scope: Scope, currency: string, bounds: readonly Millis[]): Promise<number[]>;
  /** Orders created within each window whose status is one of `statuses`, one count per window. */
  countOrdersCreated(
    scope: Scope,
    statuses: readonly OrderRecord['status'][],
    windows: readonly TimeWindow[],
  ): Promise<number[]>;
  /** Orders whose status is one of `statuses` now. */
  countOrdersWithStatus(scope: Scope, statuses: readonly OrderRecord['status'][]): Promise<number>;
  /** The newest orders (created_at desc, id desc) not in status `draft`, at most `limit`. */
  recentOrders(
    scope: Scope,
    limit: number,
  ): Promise<Pick<OrderRecord, 'id' | 'number' | 'email' | 'total' | 'currency' | 'status' | 'created_at'>[]>;
  /**
   * Tracked inventory (`track_inventory`) of variants with `on_hand − reserved ≤ safety_stock`,
   * lowest available first (then variant id), at most `limit`.
   */
  lowStock(scope: Scope, limit: number): Promise<LowStockRow[]>;
}

/** One logged API request (decisions §23), as stored. Bodies are already redacted and cut. */
export interface ApiLogRecord {
  store_id: string;
  mode: Scope['mode'];
  id: string;
  method: string;
  path: string;
  status_code: number;
  latency_ms: number;
  /** JSON text of the redacted body (an object), or null. */
  request_body: JsonObject | null;
  response_body: JsonObject | null;
  api_key_id: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: Millis;
}

/** An API log as written: its bodies as JSON text of an object (already redacted and cut), or null. */
export type ApiLogWrite = Omit<ApiLogRecord, 'request_body' | 'response_body'> & {
  request_body: string | null;
  response_body: string | null;
};

export interface ApiLogListFilter {
  method?: string | undefined;
  status_code?: number | undefined;
  /** A path prefix (`/v1/admin/orders` matches `/v1/admin/orders/ord_…`). */
  path?: string | undefined;
}

export interface ApiLogRepository {
  /** Inserts many rows in one statement (a buffered flush); the bodies' JSON text is written as it is. */
  insertMany(records: readonly ApiLogWrite[]): Promise<void>;
  get(scope: Scope, id: string): Promise<ApiLogRecord | null>;
  /** Newest first (created_at desc, id desc); `total_count` counts all matches. */
  list(scope: Scope, filter: ApiLogListFilter, page: PageRequest<'created_at'>): Promise<Page<ApiLogRecord>>;
  /** Deletes the logs (of every scope) created before `before`; answers how many. */
  prune(before: Millis): Promise<number>;
}
