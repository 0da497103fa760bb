import { describe, expect, it } from 'vitest';
import { categoryAndDescendants } from './category-membership';

describe('categoryAndDescendants (the product lists’ category_id, decisions §17)', () => {
  const tree = [
    { id: 'a', parent_id: null },
    { id: 'b', parent_id: 'a' },
    { id: 'c', parent_id: 'b' },
    { id: 'd', parent_id: null },
  ];

  it('is the category and every category below it', () => {
    expect(categoryAndDescendants(tree, 'a')?.sort()).toEqual(['a', 'b', 'c']);
    expect(categoryAndDescendants(tree, 'b')?.sort()).toEqual(['b', 'c']);
    expect(categoryAndDescendants(tree, 'd')).toEqual(['d']);
  });

  it('is null for an id that names no category (the list is then empty)', () => {
    expect(categoryAndDescendants(tree, 'cat_nope')).toBeNull();
    expect(categoryAndDescendants([], 'a')).toBeNull();
  });
});
