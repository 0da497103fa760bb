import type { Page } from '../ports/storage';
import { CommerceError } from './errors';

/**
 * One page of rows an aggregate already holds (a product's variants, an order's refunds: one
 * load, no extra query), `sorted` in the requested order. Keyset semantics as in the storage
 * (docs/contract.md#lists): `starting_after` is the id of the previous page's last row and the page continues
 * after it. An id that is not one of the rows → 400 `parameter_invalid` on `starting_after`
 * (`owner` names what the rows belong to, e.g. "a variant of this product").
 */
export function pageOfSorted<T extends { id: string }>(
  sorted: readonly T[],
  page: { limit: number; starting_after?: string | undefined },
  owner: string,
): Page<T> {
  let start = 0;
  if (page.starting_after !== undefined) {
    const index = sorted.findIndex((row) => row.id === page.starting_after);
    if (index < 0) {
      throw new CommerceError(
        'parameter_invalid',
        `starting_after '${page.starting_after}' is not ${owner}`,
        {
          param: 'starting_after',
        },
      );
    }
    start = index + 1;
  }
  const data = sorted.slice(start, start + page.limit);
  const hasMore = start + page.limit < sorted.length;
  const last = data[data.length - 1];
  return {
    data,
    total_count: sorted.length,
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? last.id : null,
  };
}

/** Oldest first by `created_at`, then id (ids are time-sortable); reverse it for newest first. */
export function byCreatedAt(
  a: { id: string; created_at: number },
  b: { id: string; created_at: number },
): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
