import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deriveFulfillmentStatus,
  type FulfillmentStatusLine,
  ORDER_FULFILLMENT_STATUSES,
} from './fulfillment-status';

const line = (
  fulfillable_quantity: number,
  fulfilled_quantity = 0,
  returned_quantity = 0,
): FulfillmentStatusLine => ({
  fulfillable_quantity,
  fulfilled_quantity,
  returned_quantity,
});

describe('deriveFulfillmentStatus (decisions §13)', () => {
  it('nothing fulfilled → unfulfilled', () => {
    expect(deriveFulfillmentStatus([line(2), line(1)])).toBe('unfulfilled');
  });

  it('no lines → unfulfilled', () => {
    expect(deriveFulfillmentStatus([])).toBe('unfulfilled');
  });

  it('1 of 3 units fulfilled → partially_fulfilled', () => {
    expect(deriveFulfillmentStatus([line(3, 1)])).toBe('partially_fulfilled');
  });

  it('one line complete, another untouched → partially_fulfilled', () => {
    expect(deriveFulfillmentStatus([line(2, 2), line(1, 0)])).toBe('partially_fulfilled');
  });

  it('every line fulfilled → fulfilled', () => {
    expect(deriveFulfillmentStatus([line(2, 2), line(1, 1)])).toBe('fulfilled');
  });

  it('every fulfilled unit back through restocking refunds → returned (2 fulfilled, 2 returned)', () => {
    expect(deriveFulfillmentStatus([line(2, 2, 2), line(1, 1, 1)])).toBe('returned');
  });

  it('every fulfilled unit back while others were never fulfilled → returned (1 of 3 fulfilled, 1 returned)', () => {
    expect(deriveFulfillmentStatus([line(3, 1, 1), line(1, 0, 0)])).toBe('returned');
  });

  it('some fulfilled units kept → not returned (2 fulfilled, 1 returned → fulfilled)', () => {
    expect(deriveFulfillmentStatus([line(2, 2, 1)])).toBe('fulfilled');
    expect(deriveFulfillmentStatus([line(3, 2, 1)])).toBe('partially_fulfilled');
  });

  it('by fulfillable units: units cancelled by a restocking refund need no fulfillment (3 ordered, 1 cancelled, 2 fulfilled → fulfilled)', () => {
    expect(deriveFulfillmentStatus([line(2, 2)])).toBe('fulfilled');
  });

  it('every unit cancelled before any was fulfilled → unfulfilled (nothing was fulfilled)', () => {
    expect(deriveFulfillmentStatus([line(0), line(0)])).toBe('unfulfilled');
    expect(deriveFulfillmentStatus([line(0), line(2)])).toBe('unfulfilled');
    expect(deriveFulfillmentStatus([line(0), line(2, 2)])).toBe('fulfilled');
  });

  it('is consistent with the quantities for random lines', () => {
    const lineArb = fc
      .tuple(fc.integer({ min: 0, max: 20 }), fc.nat(20), fc.nat(20))
      .map(([fulfillable, f, r]) => {
        const fulfilled = f % (fulfillable + 1);
        return line(fulfillable, fulfilled, r % (fulfilled + 1));
      });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 6 }), (lines) => {
        const status = deriveFulfillmentStatus(lines);
        expect(ORDER_FULFILLMENT_STATUSES).toContain(status);
        const fulfilled = lines.reduce((s, l) => s + l.fulfilled_quantity, 0);
        const allFulfilled =
          fulfilled > 0 && lines.every((l) => l.fulfilled_quantity === l.fulfillable_quantity);
        const allBack = fulfilled > 0 && lines.every((l) => l.returned_quantity === l.fulfilled_quantity);
        if (status === 'unfulfilled') expect(fulfilled).toBe(0);
        if (status === 'returned') expect(allBack).toBe(true);
        if (status === 'fulfilled') expect(allFulfilled && !allBack).toBe(true);
        if (status === 'partially_fulfilled') expect(fulfilled > 0 && !allFulfilled && !allBack).toBe(true);
      }),
    );
  });
});
