import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import {
  CategoryTree,
  checkCreate,
  checkDelete,
  checkMove,
  compareSiblings,
  MAX_CATEGORIES,
  MAX_CATEGORY_DEPTH,
  nest,
  type OrderedNode,
  type TreeNode,
} from './tree';

/** A chain root → … of `n` categories named c0…c(n-1). */
function chain(n: number, prefix = 'c'): TreeNode[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    parent_id: i === 0 ? null : `${prefix}${i - 1}`,
  }));
}

function codeOf(fn: () => void): { code: string; param: string | undefined } | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (!CommerceError.is(error)) throw error;
    return { code: error.code, param: error.param };
  }
}

describe('category tree rules (decisions §17)', () => {
  it('depth: a root is level 1; height: a leaf is 1', () => {
    const tree = new CategoryTree(chain(3));
    expect(tree.depthOf('c0')).toBe(1);
    expect(tree.depthOf('c2')).toBe(3);
    expect(tree.heightOf('c0')).toBe(3);
    expect(tree.heightOf('c2')).toBe(1);
    expect(tree.subtreeIds('c1').sort()).toEqual(['c1', 'c2']);
  });

  it('create: a child at level 8 is allowed, at level 9 → 422 invalid_parent (param parent_id)', () => {
    const tree = new CategoryTree(chain(MAX_CATEGORY_DEPTH));
    expect(codeOf(() => checkCreate(tree, `c${MAX_CATEGORY_DEPTH - 2}`))).toBeNull();
    expect(codeOf(() => checkCreate(tree, `c${MAX_CATEGORY_DEPTH - 1}`))).toEqual({
      code: 'invalid_parent',
      param: 'parent_id',
    });
  });

  it('create: an unknown parent → 404 not_found (param parent_id); the 2,001st → 400 parameter_invalid', () => {
    expect(codeOf(() => checkCreate(new CategoryTree(chain(2)), 'cat_nope'))).toEqual({
      code: 'not_found',
      param: 'parent_id',
    });
    const full = new CategoryTree(
      Array.from({ length: MAX_CATEGORIES }, (_, i) => ({ id: `r${i}`, parent_id: null })),
    );
    expect(codeOf(() => checkCreate(full, null))?.code).toBe('parameter_invalid');
    const almost = new CategoryTree(
      Array.from({ length: MAX_CATEGORIES - 1 }, (_, i) => ({ id: `r${i}`, parent_id: null })),
    );
    expect(codeOf(() => checkCreate(almost, null))).toBeNull();
  });

  it('move: under itself or a descendant → 422 invalid_parent; to the root or a sibling is fine', () => {
    const tree = new CategoryTree([...chain(4), { id: 'x', parent_id: null }]);
    expect(codeOf(() => checkMove(tree, 'c1', 'c1'))?.code).toBe('invalid_parent');
    expect(codeOf(() => checkMove(tree, 'c1', 'c3'))?.code).toBe('invalid_parent');
    expect(codeOf(() => checkMove(tree, 'c1', 'c2'))?.code).toBe('invalid_parent');
    expect(codeOf(() => checkMove(tree, 'c1', null))).toBeNull();
    expect(codeOf(() => checkMove(tree, 'c1', 'x'))).toBeNull();
    expect(codeOf(() => checkMove(tree, 'c1', 'cat_nope'))).toEqual({
      code: 'not_found',
      param: 'parent_id',
    });
  });

  it('move: the subtree’s deepest category must stay within 8 levels', () => {
    // a0…a4 (5 levels) and b0…b3 (4 levels): b0 under a3 puts b3 at level 4 + 4 = 8; under a4, 9.
    const tree = new CategoryTree([...chain(5, 'a'), ...chain(4, 'b')]);
    expect(codeOf(() => checkMove(tree, 'b0', 'a3'))).toBeNull();
    expect(codeOf(() => checkMove(tree, 'b0', 'a4'))?.code).toBe('invalid_parent');
    // Moving a deep leaf's parent keeps the leaf in mind; moving b3 alone under a4 is fine (level 6).
    expect(codeOf(() => checkMove(tree, 'b3', 'a4'))).toBeNull();
  });

  it('delete: refused while it has children (409 category_has_children); a leaf goes', () => {
    const tree = new CategoryTree(chain(2));
    expect(codeOf(() => checkDelete(tree, 'c0'))?.code).toBe('category_has_children');
    expect(codeOf(() => checkDelete(tree, 'c1'))).toBeNull();
  });

  it('siblings are ordered by position, then name, then id', () => {
    const nodes: OrderedNode[] = [
      { id: 'b', parent_id: null, name: 'Shoes', position: 1 },
      { id: 'a', parent_id: null, name: 'Shoes', position: 1 },
      { id: 'c', parent_id: null, name: 'Bags', position: 1 },
      { id: 'd', parent_id: null, name: 'Zebra', position: 0 },
    ];
    expect([...nodes].sort(compareSiblings).map((n) => n.id)).toEqual(['d', 'c', 'a', 'b']);
  });

  it('nest: roots with their subtrees, ordered at every level; one category alone with rootId', () => {
    const node = (id: string, parent_id: string | null, position: number): OrderedNode => ({
      id,
      parent_id,
      name: id,
      position,
    });
    const tree = new CategoryTree([
      node('r2', null, 1),
      node('r1', null, 0),
      node('k2', 'r1', 5),
      node('k1', 'r1', 2),
      node('g', 'k2', 0),
    ]);
    type W = { id: string; children: W[] };
    const wire = (n: OrderedNode, children: W[]): W => ({ id: n.id, children });
    expect(nest(tree, wire)).toEqual([
      {
        id: 'r1',
        children: [
          { id: 'k1', children: [] },
          { id: 'k2', children: [{ id: 'g', children: [] }] },
        ],
      },
      { id: 'r2', children: [] },
    ]);
    expect(nest(tree, wire, 'k2')).toEqual([{ id: 'k2', children: [{ id: 'g', children: [] }] }]);
    expect(nest(tree, wire, 'nope')).toEqual([]);
  });

  it('property: any sequence of creates and moves, each applied only when the rules allow it, leaves an acyclic tree at most 8 deep', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), parent: fc.nat({ max: 40 }), root: fc.boolean() }),
      fc.record({
        kind: fc.constant('move' as const),
        id: fc.nat({ max: 40 }),
        parent: fc.nat({ max: 40 }),
        root: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const nodes = new Map<string, TreeNode>();
        const ids = () => [...nodes.keys()];
        for (const o of ops) {
          const tree = new CategoryTree(nodes.values());
          const existing = ids();
          if (o.kind === 'create') {
            const parent =
              o.root || existing.length === 0 ? null : (existing[o.parent % existing.length] as string);
            if (codeOf(() => checkCreate(tree, parent)) === null) {
              const id = `n${nodes.size}`;
              nodes.set(id, { id, parent_id: parent });
            }
          } else if (existing.length > 0) {
            const id = existing[o.id % existing.length] as string;
            const parent = o.root ? null : (existing[o.parent % existing.length] as string);
            if (codeOf(() => checkMove(tree, id, parent)) === null) nodes.set(id, { id, parent_id: parent });
          }
        }
        // Every category reaches a root within 8 steps, without meeting itself.
        for (const node of nodes.values()) {
          const seen = new Set<string>();
          let at: TreeNode | undefined = node;
          let depth = 0;
          while (at) {
            expect(seen.has(at.id)).toBe(false);
            seen.add(at.id);
            depth++;
            at = at.parent_id === null ? undefined : nodes.get(at.parent_id);
          }
          expect(depth).toBeLessThanOrEqual(MAX_CATEGORY_DEPTH);
        }
      }),
      { numRuns: 300 },
    );
  });
});
