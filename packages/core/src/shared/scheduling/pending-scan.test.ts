import { describe, expect, test } from 'vitest';
import type { CreatedPosition } from '../../ports/storage';
import { walkOldestFirst } from './pending-scan';

/** A list over `rows` as the storage answers it: after a position, oldest first, `limit` rows. */
function listOf(rows: CreatedPosition[], calls: (CreatedPosition | undefined)[]) {
  const sorted = [...rows].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  return async (after: CreatedPosition | undefined, limit: number) => {
    calls.push(after);
    return sorted
      .filter(
        (r) =>
          after === undefined ||
          r.created_at > after.created_at ||
          (r.created_at === after.created_at && r.id > after.id),
      )
      .slice(0, limit);
  };
}

async function collect<T>(iterable: AsyncIterable<T>, stopAfter = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= stopAfter) break;
  }
  return out;
}

describe('walkOldestFirst', () => {
  const rows = [
    { created_at: 2, id: 'b' },
    { created_at: 1, id: 'z' },
    { created_at: 2, id: 'a' },
    { created_at: 3, id: 'c' },
    { created_at: 1, id: 'y' },
  ];

  test('5 rows in pages of 2 → all 5 in (created_at, id) order, 3 reads, each after the last row read', async () => {
    const calls: (CreatedPosition | undefined)[] = [];
    const seen = await collect(walkOldestFirst(listOf(rows, calls), 2));
    expect(seen.map((r) => r.id)).toEqual(['y', 'z', 'a', 'b', 'c']);
    expect(calls).toEqual([undefined, { created_at: 1, id: 'z' }, { created_at: 2, id: 'b' }]);
  });

  test('4 rows in pages of 2 → a last, empty read ends the walk; no rows → one read', async () => {
    const calls: (CreatedPosition | undefined)[] = [];
    expect(await collect(walkOldestFirst(listOf(rows.slice(0, 4), calls), 2))).toHaveLength(4);
    expect(calls).toHaveLength(3);
    const none: (CreatedPosition | undefined)[] = [];
    expect(await collect(walkOldestFirst(listOf([], none), 2))).toEqual([]);
    expect(none).toEqual([undefined]);
  });

  test('the caller stops after 3 rows → no page beyond the one that held the third', async () => {
    const calls: (CreatedPosition | undefined)[] = [];
    expect((await collect(walkOldestFirst(listOf(rows, calls), 2), 3)).map((r) => r.id)).toEqual([
      'y',
      'z',
      'a',
    ]);
    expect(calls).toHaveLength(2);
  });

  test('rows leaving the list while it is walked (settled) do not make it repeat or skip the others', async () => {
    const live = [...rows];
    const calls: (CreatedPosition | undefined)[] = [];
    const list = listOf(live, calls);
    const seen: string[] = [];
    const all: string[] = [];
    for await (const row of walkOldestFirst(async (after, limit) => {
      // Every row read so far is settled: it leaves the list before the next read.
      for (const id of seen)
        live.splice(
          live.findIndex((r) => r.id === id),
          1,
        );
      seen.length = 0;
      return list(after, limit);
    }, 2)) {
      seen.push(row.id);
      all.push(row.id);
    }
    expect(all).toEqual(['y', 'z', 'a', 'b', 'c']);
    expect(live).toHaveLength(1); // 'c', read last, was never settled
    expect(calls).toHaveLength(3);
  });
});
