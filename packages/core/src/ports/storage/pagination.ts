/**
 * Keyset pagination (docs/contract.md#lists). `starting_after` is the id of the last item of the previous
 * page; it works with every offered sort because the storage looks up that row's sort value and
 * continues after `(sort_value, id)` in the requested order (id is the tie-breaker in the same
 * direction). Pages never repeat or skip rows while other rows are inserted concurrently.
 * An unknown `starting_after` (or one of another scope) → CommerceError `parameter_invalid`,
 * param `starting_after`.
 */
export interface PageRequest<S extends string = string> {
  limit: number;
  starting_after?: string | undefined;
  sort: S;
  order: 'asc' | 'desc';
}

/** The list envelope of the spec, before the service maps records to the wire. */
export interface Page<T> {
  data: T[];
  /** All rows matching the filter, regardless of the page. */
  total_count: number;
  has_more: boolean;
  /** Id of the last item of `data` when `has_more`, else null. */
  next_cursor: string | null;
}
