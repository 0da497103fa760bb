import { describe, expect, test } from 'vitest';
import { CommerceError } from '../shared/errors';
import { INT4_MAX } from '../shared/schemas/limits';
import { nextPosition, pageOfVariants } from './variant-page';

// Three variants created together (same created_at) and one later.
const variants = [
  { id: 'var_b', created_at: 1000, position: 1 },
  { id: 'var_a', created_at: 1000, position: 0 },
  { id: 'var_c', created_at: 1000, position: 2 },
  { id: 'var_d', created_at: 2000, position: 3 },
];

describe('pageOfVariants', () => {
  test('created_at desc (default): newest first, ties in reverse position order → d, c, b, a', () => {
    const page = pageOfVariants(variants, { limit: 10, sort: 'created_at', order: 'desc' });
    expect(page.data.map((v) => v.id)).toEqual(['var_d', 'var_c', 'var_b', 'var_a']);
    expect(page).toMatchObject({ total_count: 4, has_more: false, next_cursor: null });
  });

  test('position asc → a, b, c, d', () => {
    const page = pageOfVariants(variants, { limit: 10, sort: 'position', order: 'asc' });
    expect(page.data.map((v) => v.id)).toEqual(['var_a', 'var_b', 'var_c', 'var_d']);
  });

  test('position ties (positions are given by the merchant, decisions §22) go by id, in both orders and across pages', () => {
    const tied = [
      { id: 'var_z', created_at: 1000, position: 1 },
      { id: 'var_y', created_at: 3000, position: 0 },
      { id: 'var_x', created_at: 2000, position: 1 },
      { id: 'var_w', created_at: 4000, position: 1 },
    ];
    const asc = pageOfVariants(tied, { limit: 10, sort: 'position', order: 'asc' });
    expect(asc.data.map((v) => v.id)).toEqual(['var_y', 'var_w', 'var_x', 'var_z']);
    const desc = pageOfVariants(tied, { limit: 10, sort: 'position', order: 'desc' });
    expect(desc.data.map((v) => v.id)).toEqual(['var_z', 'var_x', 'var_w', 'var_y']);
    const first = pageOfVariants(tied, { limit: 2, sort: 'position', order: 'asc' });
    const rest = pageOfVariants(tied, {
      limit: 2,
      sort: 'position',
      order: 'asc',
      starting_after: first.next_cursor ?? undefined,
    });
    expect([...first.data, ...rest.data].map((v) => v.id)).toEqual(['var_y', 'var_w', 'var_x', 'var_z']);
  });

  test('walking with limit 3 and starting_after visits every variant once', () => {
    const first = pageOfVariants(variants, { limit: 3, sort: 'position', order: 'asc' });
    expect(first.data.map((v) => v.id)).toEqual(['var_a', 'var_b', 'var_c']);
    expect(first).toMatchObject({ has_more: true, next_cursor: 'var_c', total_count: 4 });
    const second = pageOfVariants(variants, {
      limit: 3,
      sort: 'position',
      order: 'asc',
      starting_after: first.next_cursor ?? undefined,
    });
    expect(second.data.map((v) => v.id)).toEqual(['var_d']);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
  });

  test('a limit equal to the remaining count ends the walk (has_more false)', () => {
    const page = pageOfVariants(variants, { limit: 4, sort: 'position', order: 'asc' });
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
  });

  test('unknown starting_after → parameter_invalid on starting_after', () => {
    try {
      pageOfVariants(variants, { limit: 2, sort: 'position', order: 'asc', starting_after: 'var_zzz' });
      expect.unreachable();
    } catch (error) {
      expect(CommerceError.is(error) && error.param).toBe('starting_after');
    }
  });
});

describe('nextPosition', () => {
  test('one past the highest position (gaps and order do not matter), 0 for none, capped at int4', () => {
    expect(nextPosition([])).toBe(0);
    expect(nextPosition([{ position: 0 }, { position: 1 }])).toBe(2);
    expect(nextPosition([{ position: 7 }, { position: 2 }])).toBe(8);
    expect(nextPosition([{ position: INT4_MAX }])).toBe(INT4_MAX);
  });
});
