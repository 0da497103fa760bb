import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RefundRecord } from '../ports/storage';
import { orderLine } from './order-fixtures';
import { returnableByLine, returnableQuantity } from './returnable-units';

const restockingRefund = (order_line_id: string, returned: number, cancelled = 0): RefundRecord => ({
  id: 'ref_1',
  store_id: 'store_1',
  mode: 'test',
  order_id: 'ord_1',
  amount: 0,
  currency: 'EUR',
  reason: null,
  restock: true,
  status: 'completed',
  lines: [{ order_line_id, quantity: returned + cancelled }],
  provider_refund_id: null,
  metadata: {},
  restock_movements: [
    {
      order_line_id,
      from_reserved: cancelled,
      to_on_hand: returned,
      returned_quantity: returned,
      from_fulfillments: [],
    },
  ],
  provider_calls: null,
  failure_message: null,
  created_at: 1,
  updated_at: 1,
});

describe('returnable units of an order line (decisions §18)', () => {
  it('shipped − returned or restocked − held by open returns', () => {
    expect(
      returnableQuantity({
        shipped_quantity: 5,
        restock_returned_quantity: 1,
        returned_quantity: 1,
        returning_quantity: 2,
      }),
    ).toBe(1);
    expect(
      returnableQuantity({
        shipped_quantity: 0,
        restock_returned_quantity: 0,
        returned_quantity: 0,
        returning_quantity: 0,
      }),
    ).toBe(0);
  });

  it('is never negative, never above the shipped units, and each deduction takes exactly its units (property)', () => {
    fc.assert(
      fc.property(
        fc.nat(50),
        fc.nat(50),
        fc.nat(50),
        fc.nat(50),
        (shipped_quantity, restock_returned_quantity, returned_quantity, returning_quantity) => {
          const input = {
            shipped_quantity,
            restock_returned_quantity,
            returned_quantity,
            returning_quantity,
          };
          const r = returnableQuantity(input);
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(shipped_quantity);
          const taken = restock_returned_quantity + returned_quantity + returning_quantity;
          expect(r).toBe(taken <= shipped_quantity ? shipped_quantity - taken : 0);
          // Holding one more unit in an open return lowers it by one, while any is left.
          const held = returnableQuantity({ ...input, returning_quantity: returning_quantity + 1 });
          expect(held).toBe(Math.max(0, r - 1));
        },
      ),
    );
  });

  it('a sequence of returns never holds more units than shipped (property): each takes at most what is returnable', () => {
    fc.assert(
      fc.property(
        fc.nat(20),
        fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 20 }),
        (shipped, requests) => {
          let returning = 0;
          for (const q of requests) {
            const r = returnableQuantity({
              shipped_quantity: shipped,
              restock_returned_quantity: 0,
              returned_quantity: 0,
              returning_quantity: returning,
            });
            if (q <= r) returning += q;
          }
          expect(returning).toBeLessThanOrEqual(shipped);
        },
      ),
    );
  });

  it('reads the order as loaded: shipped units, restocking refunds’ returned units, completed and open returns', () => {
    const lines = [
      orderLine({
        id: 'line_1',
        quantity: 4,
        fulfilled_quantity: 4,
        shipped_quantity: 4,
        returned_quantity: 1,
        returning_quantity: 1,
      }),
      orderLine({ id: 'line_2', quantity: 2, fulfilled_quantity: 2, shipped_quantity: 0 }),
    ];
    const byLine = returnableByLine({ lines, refunds: [restockingRefund('line_1', 1, 0)] });
    expect(byLine.get('line_1')).toBe(1);
    expect(byLine.get('line_2')).toBe(0);
  });

  it('units a restocking refund cancelled before they shipped do not lower the shipped units left to return', () => {
    const lines = [orderLine({ id: 'line_1', quantity: 3, fulfilled_quantity: 1, shipped_quantity: 1 })];
    expect(returnableByLine({ lines, refunds: [restockingRefund('line_1', 0, 2)] }).get('line_1')).toBe(1);
  });
});
