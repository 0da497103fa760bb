import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { ReturnLineRecord, ReturnRecord } from './records';
import type { Millis, Scope } from './scope';

// Returns (RMA) with their lines (decisions §18).

export interface ReturnListFilter {
  status?: ReturnRecord['status'] | undefined;
  order_id?: string | undefined;
  customer_id?: string | undefined;
  /** Inclusive bounds. */
  created_after?: Millis | undefined;
  created_before?: Millis | undefined;
}

export interface ReturnRepository {
  /** Inserts the return with its lines. */
  insert(record: ReturnRecord): Promise<void>;
  /** The return with its lines (in position order), or null (unknown, or another scope's). */
  get(scope: Scope, id: string): Promise<ReturnRecord | null>;
  /** Newest first by default; each page's lines in one statement. */
  list(scope: Scope, filter: ReturnListFilter, page: PageRequest<'created_at'>): Promise<Page<ReturnRecord>>;
  /**
   * Updates return columns. With `expect_status`, a compare-and-set: no row changes unless the
   * return is still in that status (returns null then). Answers the return with its lines.
   */
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      ReturnRecord,
      | 'status'
      | 'admin_notes'
      | 'refund_id'
      | 'exchange_order_id'
      | 'approved_at'
      | 'received_at'
      | 'completed_at'
      | 'rejected_at'
      | 'cancelled_at'
    >,
    options?: { expect_status?: ReturnRecord['status'] },
  ): Promise<ReturnRecord | null>;
  /** Sets the `condition` of lines of one return (lines of other returns are left alone). */
  updateLines(
    scope: Scope,
    return_id: string,
    lines: ReadonlyArray<Pick<ReturnLineRecord, 'id' | 'condition'>>,
  ): Promise<void>;
}
