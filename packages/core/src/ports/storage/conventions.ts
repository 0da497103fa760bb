import type { Millis } from './scope';

/**
 * Repository conventions:
 * - Scoped methods never see another scope's rows: a foreign id is "not found" (null / false).
 * - `insert*` take complete records (ids and timestamps come from the service's IdGenerator and
 *   Clock); `update*` take a patch of mutable columns plus `updated_at` and return the new record,
 *   or null when no row matched (including a failed guard).
 * - Uniqueness violations surface as CommerceError (`duplicate_slug`, `duplicate_sku`,
 *   `duplicate_email`, `duplicate_code`) with `param`, translated in one place by the adapter.
 * - Aggregates are loaded in a fixed number of queries whatever the page size (no N+1).
 * - Soft-deleted rows (products, variants, discounts, shipping methods, webhooks, customers) are
 *   invisible to every read except where stated.
 */
export type Patch<T, K extends keyof T> = Partial<Pick<T, K>> & { updated_at: Millis };

/**
 * A row's place in a list ordered by `(created_at, id)`, ascending: a list read `after` it starts
 * with the next row (keyset pages over rows that may change while they are walked).
 */
export interface CreatedPosition {
  created_at: Millis;
  id: string;
}
