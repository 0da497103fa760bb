import type { Scope } from '@cartwright/core';
import type { AuthContext } from '../engine-port';

/** The store + mode partition of the caller's key (docs/contract.md#keys-and-modes). */
export function scopeOf(auth: AuthContext): Scope {
  return { store_id: auth.store_id, mode: auth.mode };
}

/** The `PageRequest` of a parsed list query (`limit`, `starting_after`, `sort`, `order`). */
export function pageOf<S extends string>(
  query: {
    limit: number;
    starting_after?: string | undefined;
    sort?: S | undefined;
    order?: 'asc' | 'desc' | undefined;
  },
  defaultSort: S = 'created_at' as S,
) {
  const sort = (query.sort ?? defaultSort) as S;
  return {
    limit: query.limit,
    starting_after: query.starting_after,
    sort,
    order: query.order ?? (sort === 'created_at' ? 'desc' : 'asc'),
  } as const;
}
