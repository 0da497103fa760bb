import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reduceFulfillments } from './restock-fulfillments';
import { type PendingFulfillmentUnits, splitRestock } from './restock-split';

const pending = (fulfillment_id: string, quantity: number, created_at: number): PendingFulfillmentUnits => ({
  fulfillment_id,
  quantity,
  created_at,
});

describe('splitRestock (decisions §10: open units, then pending fulfillments newest first, leave reserved; then shipped units go to on_hand)', () => {
  it('3 ordered, 3 in a pending fulfillment, restock 2 → 2 from reserved taken out of it (it keeps 1), 0 to on_hand, 0 returned', () => {
    const line = {
      quantity: 3,
      cancelled_quantity: 0,
      fulfilled_quantity: 3,
      pending_fulfillments: [pending('ful_1', 3, 1)],
    };
    expect(splitRestock('line_1', line, 2, true)).toEqual({
      order_line_id: 'line_1',
      from_reserved: 2,
      to_on_hand: 0,
      returned_quantity: 0,
      from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }],
    });
  });

  it('mixed: 5 ordered = 1 unfulfilled + 2 in a pending fulfillment + 2 shipped, restock 4 → 3 from reserved (1 open + 2 out of the fulfillment), 1 to on_hand, 1 returned', () => {
    const line = {
      quantity: 5,
      cancelled_quantity: 0,
      fulfilled_quantity: 4,
      pending_fulfillments: [pending('ful_2', 2, 20)],
    };
    expect(splitRestock('l', line, 4, true)).toEqual({
      order_line_id: 'l',
      from_reserved: 3,
      to_on_hand: 1,
      returned_quantity: 1,
      from_fulfillments: [{ fulfillment_id: 'ful_2', quantity: 2 }],
    });
  });

  it('two pending fulfillments (ful_old 2 units at t=1, ful_new 2 units at t=2), restock 3 → ful_new gives 2, then ful_old 1', () => {
    const line = {
      quantity: 4,
      cancelled_quantity: 0,
      fulfilled_quantity: 4,
      pending_fulfillments: [pending('ful_old', 2, 1), pending('ful_new', 2, 2)],
    };
    expect(splitRestock('l', line, 3, true)).toEqual({
      order_line_id: 'l',
      from_reserved: 3,
      to_on_hand: 0,
      returned_quantity: 0,
      from_fulfillments: [
        { fulfillment_id: 'ful_new', quantity: 2 },
        { fulfillment_id: 'ful_old', quantity: 1 },
      ],
    });
  });

  it('pending fulfillments created in the same millisecond: the greater (newer) id first, ful_B before ful_A', () => {
    const line = {
      quantity: 2,
      cancelled_quantity: 0,
      fulfilled_quantity: 2,
      pending_fulfillments: [pending('ful_A', 1, 5), pending('ful_B', 1, 5)],
    };
    expect(splitRestock('l', line, 1, true).from_fulfillments).toEqual([
      { fulfillment_id: 'ful_B', quantity: 1 },
    ]);
  });

  it('3 ordered, 2 fulfilled and shipped, refund 2 → 1 from reserved, 1 to on_hand, 1 returned', () => {
    expect(
      splitRestock('line_1', { quantity: 3, cancelled_quantity: 0, fulfilled_quantity: 2 }, 2, true),
    ).toEqual({
      order_line_id: 'line_1',
      from_reserved: 1,
      to_on_hand: 1,
      returned_quantity: 1,
      from_fulfillments: [],
    });
  });

  it('nothing fulfilled, refund 2 of 3 → 2 from reserved, none returned, no fulfillment touched', () => {
    expect(splitRestock('l', { quantity: 3, cancelled_quantity: 0, fulfilled_quantity: 0 }, 2, true)).toEqual(
      {
        order_line_id: 'l',
        from_reserved: 2,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [],
      },
    );
  });

  it('all fulfilled and shipped, refund 2 of 3 → 2 to on_hand, 2 returned', () => {
    expect(splitRestock('l', { quantity: 3, cancelled_quantity: 0, fulfilled_quantity: 3 }, 2, true)).toEqual(
      {
        order_line_id: 'l',
        from_reserved: 0,
        to_on_hand: 2,
        returned_quantity: 2,
        from_fulfillments: [],
      },
    );
  });

  it('an earlier restocking refund cancelled the unfulfilled unit: 3 ordered, 2 shipped, 1 cancelled, restock 1 → on_hand', () => {
    expect(splitRestock('l', { quantity: 3, cancelled_quantity: 1, fulfilled_quantity: 2 }, 1, true)).toEqual(
      {
        order_line_id: 'l',
        from_reserved: 0,
        to_on_hand: 1,
        returned_quantity: 1,
        from_fulfillments: [],
      },
    );
  });

  it('an earlier refund without restock cancelled nothing: 3 ordered, 2 shipped, 1 refunded without restock, restock 1 → the unshipped unit leaves reserved (issue 35)', () => {
    expect(splitRestock('l', { quantity: 3, cancelled_quantity: 0, fulfilled_quantity: 2 }, 1, true)).toEqual(
      {
        order_line_id: 'l',
        from_reserved: 1,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [],
      },
    );
  });

  it('reservations already released (cancelled order): unshipped units need no movement, no fulfillment is touched', () => {
    expect(
      splitRestock('l', { quantity: 2, cancelled_quantity: 0, fulfilled_quantity: 0 }, 2, false),
    ).toEqual({
      order_line_id: 'l',
      from_reserved: 0,
      to_on_hand: 0,
      returned_quantity: 0,
      from_fulfillments: [],
    });
  });

  it('cancelled order, 3 ordered, 1 shipped, refund 3 → 1 to on_hand, 1 returned, nothing from reserved', () => {
    const line = { quantity: 3, cancelled_quantity: 0, fulfilled_quantity: 1 };
    expect(splitRestock('l', line, 3, false)).toEqual({
      order_line_id: 'l',
      from_reserved: 0,
      to_on_hand: 1,
      returned_quantity: 1,
      from_fulfillments: [],
    });
  });

  it('reservations released by a completion by hand, a pending fulfillment left: its units are taken out of it, nothing from reserved, not returned', () => {
    const line = {
      quantity: 3,
      cancelled_quantity: 0,
      fulfilled_quantity: 3,
      pending_fulfillments: [pending('ful_1', 1, 1)],
    };
    expect(splitRestock('l', line, 2, false)).toEqual({
      order_line_id: 'l',
      from_reserved: 0,
      to_on_hand: 1,
      returned_quantity: 1,
      from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 1 }],
    });
  });

  it('restocking a whole line in chunks, fulfillments shrinking as it goes: Σfrom_reserved = unshipped, Σto_on_hand = Σreturned = shipped, every pending unit taken out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.nat(30),
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 40 }),
        (quantity, s, pendingSizes, chunks) => {
          const shipped_quantity = s % (quantity + 1);
          // Pending fulfillments fill what is left after the shipped units, up to the quantity.
          let room = quantity - shipped_quantity;
          let fulfillments = pendingSizes.flatMap((size, i) => {
            const q = Math.min(size, room);
            room -= q;
            return q > 0
              ? [{ id: `ful_${i}`, status: 'pending', lines: [{ order_line_id: 'l', quantity: q }] }]
              : [];
          });
          const pendingTotal = quantity - shipped_quantity - room;
          let fulfilled_quantity = shipped_quantity + pendingTotal;
          let refunded_quantity = 0;
          let cancelled_quantity = 0;
          const totals = { from_reserved: 0, to_on_hand: 0, returned_quantity: 0 };
          for (const chunk of [...chunks, quantity]) {
            const units = Math.min(chunk, quantity - refunded_quantity);
            if (units === 0) break;
            const line = {
              quantity,
              cancelled_quantity,
              fulfilled_quantity,
              pending_fulfillments: fulfillments
                .filter((f) => f.status === 'pending')
                .map((f, i) => pending(f.id, f.lines[0]?.quantity ?? 0, i)),
            };
            const m = splitRestock('l', line, units, true);
            expect(m.from_reserved + m.to_on_hand).toBe(units);
            expect(m.returned_quantity).toBe(m.to_on_hand);
            const taken = m.from_fulfillments.reduce((sum, t) => sum + t.quantity, 0);
            const reductions = new Map(
              reduceFulfillments(fulfillments, [m]).map((r) => [r.fulfillment_id, r]),
            );
            fulfillments = fulfillments.map((f) => {
              const r = reductions.get(f.id);
              return r ? { ...f, lines: r.lines, status: r.cancelled ? 'cancelled' : f.status } : f;
            });
            totals.from_reserved += m.from_reserved;
            totals.to_on_hand += m.to_on_hand;
            totals.returned_quantity += m.returned_quantity;
            refunded_quantity += units;
            cancelled_quantity += units - m.returned_quantity;
            fulfilled_quantity -= taken;
            // Never more units to ship than are fulfillable.
            expect(fulfilled_quantity).toBeLessThanOrEqual(quantity - cancelled_quantity);
          }
          expect(cancelled_quantity).toBe(quantity - shipped_quantity);
          expect(totals).toEqual({
            from_reserved: quantity - shipped_quantity,
            to_on_hand: shipped_quantity,
            returned_quantity: shipped_quantity,
          });
          expect(fulfilled_quantity).toBe(shipped_quantity);
          expect(fulfillments.every((f) => f.status === 'cancelled' && f.lines.length === 0)).toBe(true);
        },
      ),
    );
  });
});
