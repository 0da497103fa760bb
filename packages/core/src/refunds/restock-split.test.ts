import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitRestock } from './restock-split';

describe('splitRestock (decisions §10: unfulfilled units first leave reserved, then fulfilled go to on_hand)', () => {
  it('3 ordered, 2 fulfilled and shipped, refund 2 → 1 from reserved, 1 to on_hand, 1 returned', () => {
    expect(
      splitRestock('line_1', { quantity: 3, refunded_quantity: 0, fulfilled_quantity: 2 }, 2, true),
    ).toEqual({
      order_line_id: 'line_1',
      from_reserved: 1,
      to_on_hand: 1,
      returned_quantity: 1,
    });
  });

  it('nothing fulfilled, refund 2 of 3 → 2 from reserved, none returned', () => {
    expect(splitRestock('l', { quantity: 3, refunded_quantity: 0, fulfilled_quantity: 0 }, 2, true)).toEqual({
      order_line_id: 'l',
      from_reserved: 2,
      to_on_hand: 0,
      returned_quantity: 0,
    });
  });

  it('all fulfilled, refund 2 of 3 → 2 to on_hand, 2 returned', () => {
    expect(splitRestock('l', { quantity: 3, refunded_quantity: 0, fulfilled_quantity: 3 }, 2, true)).toEqual({
      order_line_id: 'l',
      from_reserved: 0,
      to_on_hand: 2,
      returned_quantity: 2,
    });
  });

  it('an earlier refund already took the unfulfilled unit: 3 ordered, 2 fulfilled, 1 refunded, refund 1 → on_hand', () => {
    expect(splitRestock('l', { quantity: 3, refunded_quantity: 1, fulfilled_quantity: 2 }, 1, true)).toEqual({
      order_line_id: 'l',
      from_reserved: 0,
      to_on_hand: 1,
      returned_quantity: 1,
    });
  });

  it('fulfilled but not shipped stays reserved: 2 fulfilled, 0 shipped, refund 2 → 2 from reserved, 2 returned', () => {
    const line = { quantity: 2, refunded_quantity: 0, fulfilled_quantity: 2, shipped_quantity: 0 };
    expect(splitRestock('l', line, 2, true)).toEqual({
      order_line_id: 'l',
      from_reserved: 2,
      to_on_hand: 0,
      returned_quantity: 2,
    });
  });

  it('reservations already released (cancelled order): unshipped units need no movement', () => {
    expect(splitRestock('l', { quantity: 2, refunded_quantity: 0, fulfilled_quantity: 0 }, 2, false)).toEqual(
      {
        order_line_id: 'l',
        from_reserved: 0,
        to_on_hand: 0,
        returned_quantity: 0,
      },
    );
  });

  it('restocking a whole line in chunks: Σfrom_reserved = unshipped, Σto_on_hand = shipped, Σreturned = fulfilled', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.nat(30),
        fc.nat(30),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 40 }),
        (quantity, f, s, chunks) => {
          const fulfilled_quantity = f % (quantity + 1);
          const shipped_quantity = s % (fulfilled_quantity + 1);
          let refunded_quantity = 0;
          const totals = { from_reserved: 0, to_on_hand: 0, returned_quantity: 0 };
          for (const chunk of [...chunks, quantity]) {
            const units = Math.min(chunk, quantity - refunded_quantity);
            if (units === 0) break;
            const line = { quantity, refunded_quantity, fulfilled_quantity, shipped_quantity };
            const m = splitRestock('l', line, units, true);
            expect(m.from_reserved + m.to_on_hand).toBe(units);
            expect(m.returned_quantity).toBeLessThanOrEqual(units);
            totals.from_reserved += m.from_reserved;
            totals.to_on_hand += m.to_on_hand;
            totals.returned_quantity += m.returned_quantity;
            refunded_quantity += units;
          }
          expect(totals).toEqual({
            from_reserved: quantity - shipped_quantity,
            to_on_hand: shipped_quantity,
            returned_quantity: fulfilled_quantity,
          });
        },
      ),
    );
  });
});
