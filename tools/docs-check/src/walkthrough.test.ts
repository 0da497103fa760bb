import { describe, expect, it } from 'vitest';
import { extractCodeBlocks } from './code-blocks';
import { abridgedMismatches, valueAt, walkthroughSteps } from './walkthrough';

describe('walkthroughSteps', () => {
  it('reads the start, the keys, the copied ids, the requests and their answers', () => {
    const page = [
      '```sh',
      'DATABASE_URL=./.data/x.db pnpm start',
      '```',
      '```sh',
      'export SK=sk_test_…   # the secret key',
      '# a comment',
      '',
      'curl -X POST http://127.0.0.1:3000/v1/admin/products \\',
      '  -H "Authorization: Bearer $SK"',
      '```',
      '```json',
      '{ "id": "prod_…" }',
      '```',
      '```sh',
      "export PRODUCT=prod_…   # the answer's variants[0].id",
      '```',
    ].join('\n');
    expect(walkthroughSteps(extractCodeBlocks('p.md', page))).toEqual([
      { kind: 'start', line: 2, env: { DATABASE_URL: './.data/x.db' } },
      { kind: 'key', line: 5, name: 'SK', prefix: 'sk_test_' },
      {
        kind: 'request',
        line: 8,
        command: 'curl -X POST http://127.0.0.1:3000/v1/admin/products \\\n  -H "Authorization: Bearer $SK"',
      },
      { kind: 'answer', line: 11, json: { id: 'prod_…' } },
      { kind: 'capture', line: 15, name: 'PRODUCT', prefix: 'prod_', path: 'variants[0].id' },
    ]);
  });

  it('refuses a command it does not know, and an export that does not say what to copy', () => {
    expect(() => walkthroughSteps(extractCodeBlocks('p.md', '```sh\nrm -rf .data\n```\n'))).toThrow(
      'p.md:2: not a walkthrough command: rm -rf .data',
    );
    expect(() => walkthroughSteps(extractCodeBlocks('p.md', '```sh\nexport CART=cart_…\n```\n'))).toThrow(
      'not a walkthrough command',
    );
  });
});

describe('valueAt', () => {
  it('follows a JavaScript-style path', () => {
    const value = { variants: [{ id: 'var_1' }], payment: { id: 'pay_1' } };
    expect(valueAt(value, 'variants[0].id')).toBe('var_1');
    expect(valueAt(value, 'payment.id')).toBe('pay_1');
    expect(valueAt(value, 'variants[1].id')).toBeUndefined();
    expect(valueAt(null, 'id')).toBeUndefined();
  });
});

describe('abridgedMismatches', () => {
  const actual = {
    id: 'ord_01ABC',
    number: 1001,
    lines: [{ id: 'line_1', quantity: 2, sku: 'TEE-M' }],
    total: { amount: 5000, currency: 'USD' },
    note: null,
  };

  it('accepts the answer with fields left out and ids abridged', () => {
    expect(abridgedMismatches(actual, { id: 'ord_…', lines: [{ quantity: 2 }], note: null })).toEqual([]);
  });

  it('names each difference with its path', () => {
    expect(
      abridgedMismatches(actual, {
        id: 'cart_…',
        number: 1002,
        lines: [],
        total: { amount: '5000' },
        status: 'pending',
      }),
    ).toEqual([
      '$.id: "ord_01ABC" does not start with "cart_"',
      '$.number: 1001, the page shows 1002',
      '$.lines: 1 items, the page shows 0',
      '$.total.amount: 5000, the page shows "5000"',
      '$.status: missing',
    ]);
    expect(abridgedMismatches([1], { a: 1 })).toEqual(['$: [1] is not an object']);
    expect(abridgedMismatches({}, [1])).toEqual(['$: {} is not an array']);
  });
});
