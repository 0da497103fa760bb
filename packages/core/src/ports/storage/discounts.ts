import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { DiscountRecord } from './records';
import type { Millis, Scope } from './scope';

// Discounts and their recorded uses.

export interface DiscountRepository {
  /** Code uniqueness per scope, case-insensitive → duplicate_code (param `code`). */
  insert(record: DiscountRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<DiscountRecord | null>;
  /**
   * What pricing reads, in one query: `automatic`, the active automatic discounts oldest first
   * (the application order of docs/contract.md#discounts), and `by_code`, the live discounts whose
   * code is one of `codes`, matched case-insensitively, active or not (absent codes are absent;
   * any order).
   */
  listForPricing(
    scope: Scope,
    codes: string[],
  ): Promise<{ automatic: DiscountRecord[]; by_code: DiscountRecord[] }>;
  list(
    scope: Scope,
    filter: { type?: 'code' | 'automatic' | undefined; is_active?: boolean | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<DiscountRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      DiscountRecord,
      | 'name'
      | 'description'
      | 'code'
      | 'value_type'
      | 'value'
      | 'target'
      | 'usage_limit'
      | 'per_customer_limit'
      | 'minimum_amount'
      | 'maximum_discount'
      | 'starts_at'
      | 'ends_at'
      | 'is_active'
      | 'conditions'
      | 'metadata'
    >,
  ): Promise<DiscountRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;
  /**
   * A capped counter and its log, in one guarded write: `usage_count + 1` only while
   * `usage_count < usage_limit` (no cap when `usage_limit` is null), and, when it counted, the use
   * (`order_id`, `customer_key`) recorded. Takes the discount's row lock until the transaction ends,
   * so the uses of one discount are serialised across processes: what this transaction reads of
   * the discount's uses afterwards (`countUsesByCustomer`) stays true until it commits. Returns the
   * row's counters as they stand under that lock, or null when the cap refused (or there is no such
   * live discount) — nothing changed then. `updated_at` is left alone (a use is not an edit).
   */
  recordUsage(
    scope: Scope,
    use: { id: string; discount_id: string; order_id: string; customer_key: string; at: Millis },
  ): Promise<DiscountUsageCounters | null>;
  /**
   * The guarded decrement that undoes `recordUsage`: deletes the uses recorded for this order of
   * this discount and lowers `usage_count` by as many (never below 0; deleted discounts included).
   * Returns how many it gave back: a second call, or a concurrent one, gives back none.
   */
  releaseUsage(scope: Scope, use: { discount_id: string; order_id: string }): Promise<number>;
  /**
   * The recorded uses of each of these discounts by one customer key (0 for none), in one
   * statement.
   */
  countUsesByCustomer(
    scope: Scope,
    discount_ids: string[],
    customer_key: string,
  ): Promise<Record<string, number>>;
}

/** A discount's usage counters as `recordUsage` leaves them (read under the discount's row lock). */
export interface DiscountUsageCounters {
  usage_count: number;
  usage_limit: number | null;
  per_customer_limit: number | null;
}
