import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { DiscountRecord, DiscountUsageRefusal } from './records';
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
   * Counts one use atomically: `usage_count += 1 WHERE usage_count < usage_limit` (the WHERE is
   * the guard, and the row lock it takes serialises uses of one discount), then, under that
   * lock, checks `per_customer_limit` against recorded uses of `customer_key` (customer id, else
   * lower-cased e-mail) and records the use. On refusal nothing is changed.
   */
  recordUsage(
    scope: Scope,
    use: { id: string; discount_id: string; order_id: string; customer_key: string; at: Millis },
  ): Promise<{ ok: true } | { ok: false; refused: DiscountUsageRefusal }>;
  /**
   * Gives back the use an order made of a discount (an order cancelled because its payment never
   * came, decisions §22): deletes the order's recorded use of it and lowers `usage_count` by as
   * many as were deleted. Returns how many uses were given back; a second call gives back none.
   */
  releaseUsage(scope: Scope, use: { discount_id: string; order_id: string }): Promise<number>;
  /** Prior uses per discount by one customer key, for pricing previews. */
  countUsesByCustomer(
    scope: Scope,
    discount_ids: string[],
    customer_key: string,
  ): Promise<Record<string, number>>;
}
