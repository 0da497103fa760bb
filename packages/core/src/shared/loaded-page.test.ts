import { describe, expect, test } from 'vitest';
import { CommerceError } from './errors';
import { byCreatedAt, pageOfSorted } from './loaded-page';

const rows = [
  { id: 'ref_b', created_at: 2 },
  { id: 'ref_a', created_at: 2 },
  { id: 'ref_c', created_at: 1 },
  { id: 'ref_d', created_at: 3 },
];

describe('pageOfSorted', () => {
  test('4 rows newest first by 2: [d, b] has_more with cursor b, then [a, c] last page', () => {
    const sorted = [...rows].sort((a, b) => byCreatedAt(b, a));
    const first = pageOfSorted(sorted, { limit: 2 }, 'a refund of this order');
    expect(first).toEqual({ data: [rows[3], rows[0]], total_count: 4, has_more: true, next_cursor: 'ref_b' });
    const second = pageOfSorted(sorted, { limit: 2, starting_after: 'ref_b' }, 'a refund of this order');
    expect(second).toEqual({ data: [rows[1], rows[2]], total_count: 4, has_more: false, next_cursor: null });
  });

  test('oldest first breaks the created_at tie by id: c, a, b, d', () => {
    expect([...rows].sort(byCreatedAt).map((row) => row.id)).toEqual(['ref_c', 'ref_a', 'ref_b', 'ref_d']);
  });

  test('an empty list is one empty last page', () => {
    expect(pageOfSorted([], { limit: 20 }, 'x')).toEqual({
      data: [],
      total_count: 0,
      has_more: false,
      next_cursor: null,
    });
  });

  test('a cursor that is not one of the rows → parameter_invalid on starting_after', () => {
    try {
      pageOfSorted(rows, { limit: 2, starting_after: 'ref_zzz' }, 'a refund of this order');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CommerceError);
      expect(error).toMatchObject({ code: 'parameter_invalid', param: 'starting_after' });
      expect((error as Error).message).toContain('is not a refund of this order');
    }
  });
});
