import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import { reduceFulfillments, unitsTakenByLine } from './restock-fulfillments';
import type { FulfillmentTake, RestockMovement } from './restock-split';

function movement(order_line_id: string, from_fulfillments: FulfillmentTake[]): RestockMovement {
  const units = from_fulfillments.reduce((sum, t) => sum + t.quantity, 0);
  return { order_line_id, from_reserved: units, to_on_hand: 0, returned_quantity: 0, from_fulfillments };
}

const ful = (id: string, lines: Array<[string, number]>, status = 'pending') => ({
  id,
  status,
  lines: lines.map(([order_line_id, quantity]) => ({ order_line_id, quantity })),
});

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (CommerceError.is(error)) return error.code;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

describe('reduceFulfillments', () => {
  it('3 units in ful_1, restock takes 2 → ful_1 keeps 1 unit, stays pending', () => {
    expect(
      reduceFulfillments(
        [ful('ful_1', [['l', 3]])],
        [movement('l', [{ fulfillment_id: 'ful_1', quantity: 2 }])],
      ),
    ).toEqual([{ fulfillment_id: 'ful_1', lines: [{ order_line_id: 'l', quantity: 1 }], cancelled: false }]);
  });

  it('fulfillment emptied: ful_1 with 2 units of a and 1 of b, restock takes all 3 → no lines, cancelled', () => {
    expect(
      reduceFulfillments(
        [
          ful('ful_1', [
            ['a', 2],
            ['b', 1],
          ]),
        ],
        [
          movement('a', [{ fulfillment_id: 'ful_1', quantity: 2 }]),
          movement('b', [{ fulfillment_id: 'ful_1', quantity: 1 }]),
        ],
      ),
    ).toEqual([{ fulfillment_id: 'ful_1', lines: [], cancelled: true }]);
  });

  it('a line that reaches 0 is removed, the others stay: ful_1 (a 2, b 1) loses a 2 → lines [b 1]', () => {
    expect(
      reduceFulfillments(
        [
          ful('ful_1', [
            ['a', 2],
            ['b', 1],
          ]),
        ],
        [movement('a', [{ fulfillment_id: 'ful_1', quantity: 2 }])],
      ),
    ).toEqual([{ fulfillment_id: 'ful_1', lines: [{ order_line_id: 'b', quantity: 1 }], cancelled: false }]);
  });

  it('only fulfillments that change are returned, in the fulfillments’ order', () => {
    const result = reduceFulfillments(
      [ful('ful_1', [['l', 1]]), ful('ful_2', [['l', 2]]), ful('ful_3', [['l', 2]])],
      [
        movement('l', [
          { fulfillment_id: 'ful_3', quantity: 2 },
          { fulfillment_id: 'ful_2', quantity: 1 },
        ]),
      ],
    );
    expect(result).toEqual([
      { fulfillment_id: 'ful_2', lines: [{ order_line_id: 'l', quantity: 1 }], cancelled: false },
      { fulfillment_id: 'ful_3', lines: [], cancelled: true },
    ]);
  });

  it('no takes → nothing changes', () => {
    expect(reduceFulfillments([ful('ful_1', [['l', 1]])], [movement('l', [])])).toEqual([]);
  });

  it('a take from a shipped, unknown or too small fulfillment is a bug → internal_error', () => {
    const take = [movement('l', [{ fulfillment_id: 'ful_1', quantity: 2 }])];
    expect(codeOf(() => reduceFulfillments([ful('ful_1', [['l', 2]], 'shipped')], take))).toBe(
      'internal_error',
    );
    expect(codeOf(() => reduceFulfillments([], take))).toBe('internal_error');
    expect(codeOf(() => reduceFulfillments([ful('ful_1', [['l', 1]])], take))).toBe('internal_error');
    expect(codeOf(() => reduceFulfillments([ful('ful_1', [['other', 2]])], take))).toBe('internal_error');
  });
});

describe('unitsTakenByLine', () => {
  it('sums the takes per line: a 2 + 1 across two fulfillments → 3, b none', () => {
    const taken = unitsTakenByLine([
      movement('a', [
        { fulfillment_id: 'ful_2', quantity: 2 },
        { fulfillment_id: 'ful_1', quantity: 1 },
      ]),
      movement('b', []),
    ]);
    expect([...taken]).toEqual([['a', 3]]);
  });
});
