import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import type { CollectionRules } from '../vocabulary/collections';
import { type CategoryNode, compileRules, matchesRules, type RuleProduct, withDescendants } from './rules';
import { CreateCollectionInputSchema, rulesOf } from './schemas';

const tree: CategoryNode[] = [
  { id: 'cat_root', parent_id: null },
  { id: 'cat_a', parent_id: 'cat_root' },
  { id: 'cat_a1', parent_id: 'cat_a' },
  { id: 'cat_b', parent_id: 'cat_root' },
  { id: 'cat_other', parent_id: null },
];

const product = (fields: Partial<RuleProduct> = {}): RuleProduct => ({
  id: 'prod_1',
  type: 'physical',
  tags: [],
  price: 1000,
  category_ids: [],
  ...fields,
});

describe('withDescendants', () => {
  test('a category and every category below it, each once', () => {
    expect(withDescendants(tree, ['cat_root'])).toEqual(['cat_root', 'cat_a', 'cat_a1', 'cat_b']);
    expect(withDescendants(tree, ['cat_a', 'cat_a1'])).toEqual(['cat_a', 'cat_a1']);
    expect(withDescendants(tree, ['cat_unknown'])).toEqual(['cat_unknown']);
    expect(withDescendants(tree, [])).toEqual([]);
  });

  test('a cycle (which the tree rules forbid) does not loop', () => {
    const cyclic = [
      { id: 'x', parent_id: 'y' },
      { id: 'y', parent_id: 'x' },
    ];
    expect(withDescendants(cyclic, ['x'])).toEqual(['x', 'y']);
  });

  test('property: every result is a given id or has its parent in the result; every descendant is in it', () => {
    // Random forests: node i's parent is a node before it, or none.
    const forest = fc
      .array(fc.option(fc.nat(), { nil: null }), { maxLength: 40 })
      .map((parents) =>
        parents.map((p, i) => ({ id: `c${i}`, parent_id: p === null || i === 0 ? null : `c${p % i}` })),
      );
    fc.assert(
      fc.property(forest, fc.array(fc.nat(), { maxLength: 4 }), (nodes, picks) => {
        const given = nodes.length === 0 ? [] : picks.map((n) => `c${n % nodes.length}`);
        const out = withDescendants(nodes, given);
        const set = new Set(out);
        expect(set.size).toBe(out.length);
        for (const node of nodes) {
          const parentIn = node.parent_id !== null && set.has(node.parent_id);
          if (parentIn) expect(set.has(node.id)).toBe(true);
          if (set.has(node.id)) expect(given.includes(node.id) || parentIn).toBe(true);
        }
      }),
    );
  });
});

describe('matchesRules (the reference evaluation)', () => {
  const rules = (conditions: CollectionRules['conditions'], match: 'all' | 'any' = 'all') =>
    compileRules({ match, conditions }, tree);

  test('product_tag: in = at least one of the tags; not_in = none of them', () => {
    const inSale = rules([{ type: 'product_tag', operator: 'in', values: ['sale', 'new'] }]);
    expect(matchesRules(inSale, product({ tags: ['new'] }))).toBe(true);
    expect(matchesRules(inSale, product({ tags: ['old'] }))).toBe(false);
    const notSale = rules([{ type: 'product_tag', operator: 'not_in', values: ['sale'] }]);
    expect(matchesRules(notSale, product({ tags: [] }))).toBe(true);
    expect(matchesRules(notSale, product({ tags: ['x', 'sale'] }))).toBe(false);
  });

  test('product_type and product compare the type and the id', () => {
    expect(
      matchesRules(rules([{ type: 'product_type', operator: 'in', values: ['digital'] }]), product()),
    ).toBe(false);
    expect(
      matchesRules(rules([{ type: 'product_type', operator: 'not_in', values: ['digital'] }]), product()),
    ).toBe(true);
    expect(matchesRules(rules([{ type: 'product', operator: 'in', values: ['prod_1'] }]), product())).toBe(
      true,
    );
    expect(
      matchesRules(rules([{ type: 'product', operator: 'not_in', values: ['prod_1'] }]), product()),
    ).toBe(false);
  });

  test('category includes descendants', () => {
    const inRoot = rules([{ type: 'category', operator: 'in', values: ['cat_root'] }]);
    expect(matchesRules(inRoot, product({ category_ids: ['cat_a1'] }))).toBe(true);
    expect(matchesRules(inRoot, product({ category_ids: ['cat_other'] }))).toBe(false);
    expect(matchesRules(inRoot, product({ category_ids: undefined }))).toBe(false);
    const notInA = rules([{ type: 'category', operator: 'not_in', values: ['cat_a'] }]);
    expect(matchesRules(notInA, product({ category_ids: ['cat_a1'] }))).toBe(false);
    expect(matchesRules(notInA, product({ category_ids: ['cat_b'] }))).toBe(true);
  });

  test('price bounds are inclusive; a product without a price never matches one', () => {
    const gte = rules([{ type: 'price', operator: 'gte', value: 1000 }]);
    const lte = rules([{ type: 'price', operator: 'lte', value: 1000 }]);
    expect(matchesRules(gte, product({ price: 1000 }))).toBe(true);
    expect(matchesRules(gte, product({ price: 999 }))).toBe(false);
    expect(matchesRules(lte, product({ price: 1000 }))).toBe(true);
    expect(matchesRules(lte, product({ price: 1001 }))).toBe(false);
    expect(matchesRules(gte, product({ price: null }))).toBe(false);
    expect(matchesRules(lte, product({ price: null }))).toBe(false);
  });

  test('all needs every condition, any at least one', () => {
    const conditions: CollectionRules['conditions'] = [
      { type: 'product_tag', operator: 'in', values: ['sale'] },
      { type: 'price', operator: 'lte', value: 500 },
    ];
    const cheapSale = product({ tags: ['sale'], price: 400 });
    const dearSale = product({ tags: ['sale'], price: 900 });
    const cheap = product({ price: 100 });
    expect([cheapSale, dearSale, cheap].map((p) => matchesRules(rules(conditions), p))).toEqual([
      true,
      false,
      false,
    ]);
    expect([cheapSale, dearSale, cheap].map((p) => matchesRules(rules(conditions, 'any'), p))).toEqual([
      true,
      true,
      true,
    ]);
  });

  test('property: any = not all of the negations (De Morgan) over list conditions', () => {
    const flip = { in: 'not_in', not_in: 'in' } as const;
    const listCondition = fc.record({
      type: fc.constantFrom(
        'product_tag' as const,
        'product_type' as const,
        'category' as const,
        'product' as const,
      ),
      operator: fc.constantFrom('in' as const, 'not_in' as const),
      values: fc.subarray(['sale', 'new', 'digital', 'physical', 'cat_a', 'cat_root', 'prod_1'], {
        minLength: 1,
      }),
    });
    const productArb = fc.record({
      id: fc.constantFrom('prod_1', 'prod_2'),
      type: fc.constantFrom('physical', 'digital'),
      tags: fc.subarray(['sale', 'new']),
      price: fc.option(fc.nat(2000), { nil: null }),
      category_ids: fc.subarray(['cat_a1', 'cat_b', 'cat_other']),
    });
    fc.assert(
      fc.property(fc.array(listCondition, { minLength: 1, maxLength: 5 }), productArb, (conditions, p) => {
        const negated = conditions.map((c) => ({ ...c, operator: flip[c.operator] }));
        expect(matchesRules(rules(conditions, 'any'), p)).toBe(!matchesRules(rules(negated, 'all'), p));
      }),
    );
  });
});

describe('input rules (decisions §17)', () => {
  test('validated rules are stored with only their own fields, match defaulting to all', () => {
    const input = parseInput(CreateCollectionInputSchema, {
      name: 'X',
      type: 'auto',
      rules: {
        conditions: [
          { type: 'price', operator: 'gte', value: 100 },
          { type: 'product_tag', operator: 'not_in', values: ['a'] },
        ],
      },
    });
    expect(rulesOf(input.rules as NonNullable<typeof input.rules>)).toEqual({
      match: 'all',
      conditions: [
        { type: 'price', operator: 'gte', value: 100 },
        { type: 'product_tag', operator: 'not_in', values: ['a'] },
      ],
    });
  });

  test.each([
    [{ name: 'X', type: 'auto' }, 'parameter_missing', 'rules'],
    [{ name: 'X', type: 'auto', rules: { conditions: [] } }, 'parameter_invalid', 'rules[conditions]'],
    [
      { name: 'X', type: 'auto', rules: { conditions: [{ type: 'price', operator: 'in', value: 1 }] } },
      'parameter_invalid',
      'rules[conditions][0][operator]',
    ],
    [
      { name: 'X', type: 'auto', rules: { conditions: [{ type: 'price', operator: 'gte' }] } },
      'parameter_missing',
      'rules[conditions][0][value]',
    ],
    [{ name: 'X', product_ids: ['prod_a', 'prod_a'] }, 'parameter_invalid', 'product_ids[1]'],
    [
      { name: 'X', rules: { conditions: [{ type: 'product', operator: 'in', values: ['p'] }] } },
      'parameter_invalid',
      'rules',
    ],
    [
      {
        name: 'X',
        type: 'auto',
        rules: { conditions: [{ type: 'product', operator: 'in', values: ['p'] }] },
        product_ids: [],
      },
      'parameter_invalid',
      'product_ids',
    ],
  ])('%j → %s %s', (input, code, param) => {
    expect(() => parseInput(CreateCollectionInputSchema, input)).toThrowError(
      expect.objectContaining({ code, param }),
    );
  });
});
