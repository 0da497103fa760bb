import type { CreatedPosition } from '../../ports/storage';

/**
 * Rows listed oldest first by `(created_at, id)`, walked page by page with a keyset position,
 * so that a caller can pass over rows it has nothing to do for without their number hiding the
 * rows after them. The position is taken from each page's last row, so rows that leave the list
 * while it is walked (settled) or join it behind the position are neither repeated nor skipped.
 * Stops when a page comes back short, or when the caller stops iterating.
 *
 * @example for await (const refund of walkOldestFirst((after, n) => list('pending', before, n, after), 100)) …
 */
export async function* walkOldestFirst<T extends CreatedPosition>(
  list: (after: CreatedPosition | undefined, limit: number) => Promise<readonly T[]>,
  pageSize: number,
): AsyncGenerator<T> {
  let after: CreatedPosition | undefined;
  for (;;) {
    const page = await list(after, pageSize);
    yield* page;
    const last = page[page.length - 1];
    if (page.length < pageSize || last === undefined) return;
    after = { created_at: last.created_at, id: last.id };
  }
}
