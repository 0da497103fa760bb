/**
 * Live-product counters (0002_catalog_read_path): `product_counts` per (store, mode, status) and
 * `product_tag_counts` per (store, mode, tag, status) count the products that are not deleted.
 * The product repository applies a product's change as signed deltas in the transaction that
 * writes the product: an insert adds its status and each distinct tag, a delete removes them, a
 * status or tags change moves them. Deltas are `n = n + delta` upserts (exact under concurrent
 * writers on Postgres) with their rows in key order, so two writers lock counter rows in the same
 * order and cannot deadlock on them.
 */

/** What the counters count of one product. */
export interface CountedState {
  status: string;
  tags: readonly string[];
}

/** A product's state before and after a write (null: absent or deleted). */
export interface CountChange {
  before: CountedState | null;
  after: CountedState | null;
}

export interface CountDeltas {
  /** `[status, delta]`, ordered by status; no zero deltas. */
  statuses: [string, number][];
  /** `[tag, status, delta]`, ordered by tag then status; no zero deltas. */
  tags: [string, string, number][];
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The counter deltas of a change (a tag listed twice on a product counts once). */
export function countDeltas(change: CountChange): CountDeltas {
  const statuses = new Map<string, number>();
  const tags = new Map<string, Map<string, number>>();
  const add = (state: CountedState | null, delta: number) => {
    if (!state) return;
    statuses.set(state.status, (statuses.get(state.status) ?? 0) + delta);
    for (const tag of new Set(state.tags)) {
      let byStatus = tags.get(tag);
      if (!byStatus) {
        byStatus = new Map();
        tags.set(tag, byStatus);
      }
      byStatus.set(state.status, (byStatus.get(state.status) ?? 0) + delta);
    }
  };
  add(change.before, -1);
  add(change.after, 1);
  const statusRows: [string, number][] = [...statuses]
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => byCodeUnits(a, b));
  const tagRows: [string, string, number][] = [];
  for (const tag of [...tags.keys()].sort(byCodeUnits)) {
    const byStatus = tags.get(tag) as Map<string, number>;
    for (const status of [...byStatus.keys()].sort(byCodeUnits)) {
      const n = byStatus.get(status) as number;
      if (n !== 0) tagRows.push([tag, status, n]);
    }
  }
  return { statuses: statusRows, tags: tagRows };
}

/** At most this many prefilters per list statement (bounds the statement shapes). */
const MAX_NEEDLES = 4;

/**
 * SQLite tag filters: substrings that the `tags` JSON text must contain for the product to carry
 * every wanted tag, tested with `instr` before the exact `json_each` test (which alone reads
 * every row's array and costs ~20 ms per 10,000 products). Exact as a prefilter because the
 * repository always writes `tags` as `JSON.stringify(array)`, in which an element `t` always
 * appears as the text `JSON.stringify(t)`; the exact test still decides.
 */
export function tagPrefilterNeedles(tags: readonly string[]): string[] {
  return [...new Set(tags)].slice(0, MAX_NEEDLES).map((tag) => JSON.stringify(tag));
}
