import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import {
  type ComputeRefundInput,
  computeRefund,
  type RefundableLine,
  type RefundRequest,
} from './compute-refund';

const lineA: RefundableLine = {
  id: 'line_a',
  quantity: 3,
  refunded_quantity: 0,
  cancelled_quantity: 0,
  fulfilled_quantity: 0,
  line_total: 3000,
  tax_amount: 600,
};
const lineB: RefundableLine = {
  id: 'line_b',
  quantity: 1,
  refunded_quantity: 0,
  cancelled_quantity: 0,
  fulfilled_quantity: 1,
  line_total: 999,
  tax_amount: 200,
};

function input(request: RefundRequest, over: Partial<ComputeRefundInput> = {}): ComputeRefundInput {
  return {
    lines: [lineA, lineB],
    prices_include_tax: false,
    paid: 4799,
    refunded_total: 0,
    request,
    ...over,
  };
}

function errorOf(fn: () => unknown): CommerceError {
  try {
    fn();
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

describe('computeRefund: default amount (decisions §13)', () => {
  it('2 of 3 units of a 3000 + 600 tax line, prices exclude tax → 2400', () => {
    const refund = computeRefund(input({ lines: [{ order_line_id: 'line_a', quantity: 2 }] }));
    expect(refund).toEqual({
      amount: 2400,
      lines: [{ order_line_id: 'line_a', quantity: 2 }],
      restock_movements: [],
    });
  });

  it('prices include tax: 1 of 3 units of a 3000 line (tax inside) → 1000', () => {
    const refund = computeRefund(
      input({ lines: [{ order_line_id: 'line_a', quantity: 1 }] }, { prices_include_tax: true, paid: 3999 }),
    );
    expect(refund.amount).toBe(1000);
  });

  it('several lines add up: 3 × line_a (3600) + 1 × line_b (1199) → 4799', () => {
    const refund = computeRefund(
      input({
        lines: [
          { order_line_id: 'line_a', quantity: 3 },
          { order_line_id: 'line_b', quantity: 1 },
        ],
      }),
    );
    expect(refund.amount).toBe(4799);
  });

  it('earlier refunds of the line are accounted: 1 of 3 refunded already, refunding 2 more → 2400 (3600 − 1200)', () => {
    const refund = computeRefund(
      input(
        { lines: [{ order_line_id: 'line_a', quantity: 2 }] },
        { lines: [{ ...lineA, refunded_quantity: 1 }], refunded_total: 1200 },
      ),
    );
    expect(refund.amount).toBe(2400);
  });

  it('a free line refunds 0 and is accepted (returns of free goods)', () => {
    const free = { ...lineB, id: 'line_free', line_total: 0, tax_amount: 0 };
    const refund = computeRefund(
      input(
        { lines: [{ order_line_id: 'line_free', quantity: 1 }], restock: true },
        { lines: [free], paid: 0 },
      ),
    );
    expect(refund.amount).toBe(0);
    expect(refund.restock_movements).toHaveLength(1);
  });
});

describe('computeRefund: explicit amount', () => {
  it('overrides the default: lines of 2400 with amount 500 → 500', () => {
    const refund = computeRefund(input({ lines: [{ order_line_id: 'line_a', quantity: 2 }], amount: 500 }));
    expect(refund.amount).toBe(500);
    expect(refund.lines).toEqual([{ order_line_id: 'line_a', quantity: 2 }]);
  });

  it('amount only: no lines, nothing restocked even with restock: true', () => {
    expect(computeRefund(input({ amount: 1000, restock: true }))).toEqual({
      amount: 1000,
      lines: [],
      restock_movements: [],
    });
  });

  it.each([0, -100, 10.5])('amount %s → 400 parameter_invalid (amount)', (amount) => {
    const error = errorOf(() => computeRefund(input({ amount })));
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('amount');
  });
});

describe('computeRefund: refused requests', () => {
  it('neither lines nor amount → 400 parameter_missing (amount)', () => {
    for (const request of [{}, { lines: [] }, { restock: true }]) {
      const error = errorOf(() => computeRefund(input(request)));
      expect(error.code).toBe('parameter_missing');
      expect(error.param).toBe('amount');
    }
  });

  it('unknown order line → 404 not_found (lines[1][order_line_id])', () => {
    const error = errorOf(() =>
      computeRefund(
        input({
          lines: [
            { order_line_id: 'line_a', quantity: 1 },
            { order_line_id: 'line_zzz', quantity: 1 },
          ],
        }),
      ),
    );
    expect(error.code).toBe('not_found');
    expect(error.param).toBe('lines[1][order_line_id]');
  });

  it('the same line twice → 400 parameter_invalid (lines[1][order_line_id])', () => {
    const error = errorOf(() =>
      computeRefund(
        input({
          lines: [
            { order_line_id: 'line_a', quantity: 1 },
            { order_line_id: 'line_a', quantity: 1 },
          ],
        }),
      ),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('lines[1][order_line_id]');
  });

  it('quantity 0 → 400 parameter_invalid (lines[0][quantity])', () => {
    const error = errorOf(() => computeRefund(input({ lines: [{ order_line_id: 'line_a', quantity: 0 }] })));
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('lines[0][quantity]');
  });

  it('4 of 3 units → 422 quantity_exceeds_refundable (lines[0][quantity]) with data', () => {
    const error = errorOf(() => computeRefund(input({ lines: [{ order_line_id: 'line_a', quantity: 4 }] })));
    expect(error.code).toBe('quantity_exceeds_refundable');
    expect(error.param).toBe('lines[0][quantity]');
    expect(error.data).toEqual({ order_line_id: 'line_a', requested: 4, refundable: 3 });
  });

  it('2 of 3 units when 2 were refunded already → quantity_exceeds_refundable, refundable 1', () => {
    const error = errorOf(() =>
      computeRefund(
        input(
          { lines: [{ order_line_id: 'line_a', quantity: 2 }] },
          { lines: [{ ...lineA, refunded_quantity: 2 }] },
        ),
      ),
    );
    expect(error.code).toBe('quantity_exceeds_refundable');
    expect(error.data).toMatchObject({ refundable: 1 });
  });

  it('partially paid order: the whole line (3600) of 2000 paid → 422 refund_exceeds_refundable', () => {
    const error = errorOf(() =>
      computeRefund(input({ lines: [{ order_line_id: 'line_a', quantity: 3 }] }, { paid: 2000 })),
    );
    expect(error.code).toBe('refund_exceeds_refundable');
    expect(error.param).toBe('amount');
    expect(error.data).toEqual({ requested: 3600, refundable: 2000 });
  });

  it('paid 4799, refunded 4000: 800 is refused, 799 accepted', () => {
    const over = { refunded_total: 4000 };
    expect(errorOf(() => computeRefund(input({ amount: 800 }, over))).code).toBe('refund_exceeds_refundable');
    expect(computeRefund(input({ amount: 799 }, over)).amount).toBe(799);
  });

  it('nothing paid: any amount is refused', () => {
    expect(errorOf(() => computeRefund(input({ amount: 1 }, { paid: 0 }))).code).toBe(
      'refund_exceeds_refundable',
    );
  });
});

describe('computeRefund: restock movements (decisions §10)', () => {
  it('restock: true on 3 ordered / 2 fulfilled and shipped, refund 3 → 1 from reserved, 2 to on_hand', () => {
    const line = { ...lineA, fulfilled_quantity: 2 };
    const refund = computeRefund(
      input({ lines: [{ order_line_id: 'line_a', quantity: 3 }], restock: true }, { lines: [line] }),
    );
    expect(refund.restock_movements).toEqual([
      {
        order_line_id: 'line_a',
        from_reserved: 1,
        to_on_hand: 2,
        returned_quantity: 2,
        from_fulfillments: [],
      },
    ]);
  });

  it('restock: true on 3 ordered, all 3 in pending ful_1, refund 2 → 2 from reserved taken out of ful_1', () => {
    const line = {
      ...lineA,
      fulfilled_quantity: 3,
      pending_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 3, created_at: 1 }],
    };
    const refund = computeRefund(
      input({ lines: [{ order_line_id: 'line_a', quantity: 2 }], restock: true }, { lines: [line] }),
    );
    expect(refund.restock_movements).toEqual([
      {
        order_line_id: 'line_a',
        from_reserved: 2,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }],
      },
    ]);
  });

  it('after a refund without restock (money only), restock: true still cancels the unfulfilled units first (issue 35)', () => {
    // 3 ordered, 1 shipped, 1 refunded without restock: 2 units are still to ship.
    const line = { ...lineA, fulfilled_quantity: 1, refunded_quantity: 1 };
    const refund = computeRefund(
      input({ lines: [{ order_line_id: 'line_a', quantity: 2 }], restock: true }, { lines: [line] }),
    );
    expect(refund.restock_movements).toEqual([
      {
        order_line_id: 'line_a',
        from_reserved: 2,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [],
      },
    ]);
  });

  it('restock omitted or false → no movements', () => {
    const refund = computeRefund(
      input({ lines: [{ order_line_id: 'line_b', quantity: 1 }], restock: false }),
    );
    expect(refund.restock_movements).toEqual([]);
  });

  it('cancelled order (inventory_reserved: false): unfulfilled units move nothing', () => {
    const refund = computeRefund(
      input(
        { lines: [{ order_line_id: 'line_a', quantity: 2 }], restock: true },
        { inventory_reserved: false },
      ),
    );
    expect(refund.restock_movements).toEqual([
      {
        order_line_id: 'line_a',
        from_reserved: 0,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [],
      },
    ]);
  });

  it('restock: true never takes units already back in stock or held by an open return (decisions §18): over `restockable` → 422, without restock accepted', () => {
    // line_b: 1 unit shipped, already returned through a completed exchange → restockable 0
    const lines = [lineA, { ...lineB, restockable: 0 }];
    const refused = () =>
      computeRefund(
        input({ lines: [{ order_line_id: 'line_b', quantity: 1 }], amount: 100, restock: true }, { lines }),
      );
    expect(refused).toThrow(CommerceError);
    try {
      refused();
    } catch (error) {
      expect((error as CommerceError).code).toBe('quantity_exceeds_refundable');
      expect((error as CommerceError).param).toBe('lines[0][quantity]');
      expect((error as CommerceError).data).toEqual({ order_line_id: 'line_b', requested: 1, refundable: 0 });
    }
    const moneyOnly = computeRefund(
      input({ lines: [{ order_line_id: 'line_b', quantity: 1 }], amount: 100, restock: false }, { lines }),
    );
    expect(moneyOnly.amount).toBe(100);
  });
});

describe('computeRefund: properties', () => {
  const lineArb = fc
    .record({
      quantity: fc.integer({ min: 1, max: 12 }),
      line_total: fc.nat(500_000),
      tax_amount: fc.nat(100_000),
      fulfilled: fc.nat(12),
    })
    .map(
      ({ quantity, line_total, tax_amount, fulfilled }): Omit<RefundableLine, 'id'> => ({
        quantity,
        refunded_quantity: 0,
        cancelled_quantity: 0,
        fulfilled_quantity: fulfilled % (quantity + 1),
        line_total,
        tax_amount,
      }),
    );
  const linesArb = fc
    .array(lineArb, { minLength: 1, maxLength: 4 })
    .map((ls) => ls.map((l, i): RefundableLine => ({ ...l, id: `line_${i}` })));

  it('refunding every unit of every line in random chunks sums exactly to what was paid', () => {
    fc.assert(
      fc.property(
        linesArb,
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 5 })), { maxLength: 40 }),
        (initial, prices_include_tax, picks) => {
          const lines = initial.map((l) => ({ ...l }));
          const paidFor = (l: RefundableLine) =>
            prices_include_tax ? l.line_total : l.line_total + l.tax_amount;
          const paid = lines.reduce((s, l) => s + paidFor(l), 0);
          const perLine = new Map(lines.map((l) => [l.id, 0]));
          let refunded_total = 0;
          const refundChunk = (line: RefundableLine, quantity: number) => {
            const refund = computeRefund({
              lines,
              prices_include_tax,
              paid,
              refunded_total,
              request: { lines: [{ order_line_id: line.id, quantity }] },
            });
            refunded_total += refund.amount;
            perLine.set(line.id, perLine.get(line.id)! + refund.amount);
            line.refunded_quantity += quantity;
          };
          for (const [pick, size] of picks) {
            const open = lines.filter((l) => l.refunded_quantity < l.quantity);
            if (open.length === 0) break;
            const line = open[pick % open.length]!;
            refundChunk(line, Math.min(size, line.quantity - line.refunded_quantity));
            expect(refunded_total).toBeLessThanOrEqual(paid);
          }
          for (const line of lines) {
            if (line.refunded_quantity < line.quantity)
              refundChunk(line, line.quantity - line.refunded_quantity);
            expect(perLine.get(line.id)).toBe(paidFor(line));
          }
          expect(refunded_total).toBe(paid);
        },
      ),
    );
  });

  it('random sequences of partial refunds (lines, amounts, or both) never exceed what was paid', () => {
    const requestArb = fc.record({
      line: fc.nat(),
      quantity: fc.integer({ min: 1, max: 6 }),
      amount: fc.option(fc.integer({ min: 1, max: 300_000 }), { nil: undefined }),
      withLines: fc.boolean(),
    });
    fc.assert(
      fc.property(
        linesArb,
        fc.nat(3_000_000),
        fc.array(requestArb, { maxLength: 25 }),
        (initial, paid, requests) => {
          const lines = initial.map((l) => ({ ...l }));
          let refunded_total = 0;
          for (const r of requests) {
            const line = lines[r.line % lines.length]!;
            const request: RefundRequest = {
              ...(r.withLines ? { lines: [{ order_line_id: line.id, quantity: r.quantity }] } : {}),
              ...(r.amount !== undefined || !r.withLines ? { amount: r.amount ?? 1 } : {}),
            };
            try {
              const refund = computeRefund({
                lines,
                prices_include_tax: false,
                paid,
                refunded_total,
                request,
              });
              expect(refund.amount).toBeGreaterThanOrEqual(0);
              refunded_total += refund.amount;
              for (const l of refund.lines) {
                const target = lines.find((x) => x.id === l.order_line_id)!;
                target.refunded_quantity += l.quantity;
                expect(target.refunded_quantity).toBeLessThanOrEqual(target.quantity);
              }
            } catch (error) {
              expect(CommerceError.is(error)).toBe(true);
              expect(['refund_exceeds_refundable', 'quantity_exceeds_refundable']).toContain(
                (error as CommerceError).code,
              );
            }
            expect(refunded_total).toBeLessThanOrEqual(paid);
          }
        },
      ),
    );
  });
});
