import { describe, expect, it } from 'vitest';
import type { RefundRecord } from '../ports/storage';
import type { RestockMovement } from '.';
import {
  cancelledUnitsByLine,
  restockMovementsOf,
  restockMovementValues,
  restockTotalsByLine,
} from './refund-ledger';

const taking: RestockMovement = {
  order_line_id: 'line_1',
  from_reserved: 2,
  to_on_hand: 1,
  returned_quantity: 1,
  from_fulfillments: [
    { fulfillment_id: 'ful_2', quantity: 1 },
    { fulfillment_id: 'ful_1', quantity: 1 },
  ],
};

describe('refund ledger: restock movements in the refund’s restock_movements', () => {
  it('round-trips a movement that took units out of two fulfillments', () => {
    const restock_movements = restockMovementValues([taking]);
    expect(restockMovementsOf({ restock_movements })).toEqual([taking]);
  });

  it('a movement that took nothing out of fulfillments round-trips with an empty from_fulfillments', () => {
    const plain = { ...taking, from_fulfillments: [] };
    expect(restockMovementsOf({ restock_movements: restockMovementValues([plain]) })).toEqual([plain]);
  });

  it('movements recorded before from_fulfillments existed (moved out of metadata by 0016) read with an empty one', () => {
    const restock_movements = [
      { order_line_id: 'line_1', from_reserved: 1, to_on_hand: 0, returned_quantity: 0 },
      {
        order_line_id: 'line_3',
        from_reserved: 1,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 1 }],
      },
    ];
    expect(restockMovementsOf({ restock_movements })).toEqual([
      {
        order_line_id: 'line_1',
        from_reserved: 1,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [],
      },
      {
        order_line_id: 'line_3',
        from_reserved: 1,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 1 }],
      },
    ]);
  });

  it('totals per line: 2 + 1 from reserved, 1 returned; a refund failed in flight recorded nothing, one failed after being applied keeps its 4', () => {
    const refund = (status: RefundRecord['status'], movements: RestockMovement[], units: number) =>
      ({
        status,
        restock: true,
        lines: movements.length > 0 ? [{ order_line_id: 'line_1', quantity: units }] : [],
        restock_movements: restockMovementValues(movements),
      }) as RefundRecord;
    const refunds = [
      refund('completed', [taking], 3),
      refund('pending', [{ ...taking, from_reserved: 1, to_on_hand: 0, returned_quantity: 0 }], 1),
      // Refused while in flight: it recorded no movements, it moved nothing.
      refund('failed', [], 0),
    ];
    // Cancelled: the units that had not shipped (3 − 1 returned, then 1).
    expect(restockTotalsByLine({ refunds }).get('line_1')).toEqual({
      from_reserved: 3,
      returned_quantity: 1,
      cancelled_quantity: 3,
    });
    expect(cancelledUnitsByLine({ refunds })).toEqual(new Map([['line_1', 3]]));
    // Failed at the provider after it was applied as pending: its units stay restocked.
    const failedAfterPending = refund('failed', [{ ...taking, from_reserved: 4, returned_quantity: 0 }], 4);
    expect(restockTotalsByLine({ refunds: [...refunds, failedAfterPending] }).get('line_1')).toEqual({
      from_reserved: 7,
      returned_quantity: 1,
      cancelled_quantity: 7,
    });
  });

  it('a refund without restock cancels nothing: its units still ship (issue 35)', () => {
    const noRestock = {
      status: 'completed',
      restock: false,
      lines: [{ order_line_id: 'line_1', quantity: 2 }],
      restock_movements: [],
    } as unknown as RefundRecord;
    expect(restockTotalsByLine({ refunds: [noRestock] }).size).toBe(0);
    expect(cancelledUnitsByLine({ refunds: [noRestock] }).size).toBe(0);
  });
});
