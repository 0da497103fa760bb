import { describe, expect, it } from 'vitest';
import type { RefundRecord } from '../ports/storage';
import type { RestockMovement } from '.';
import { restockMetadata, restockMovementsOf, restockTotalsByLine } from './refund-ledger';

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

describe('refund ledger: restock movements in the refund’s metadata', () => {
  it('round-trips a movement that took units out of two fulfillments', () => {
    const metadata = restockMetadata([taking]);
    expect(restockMovementsOf({ metadata })).toEqual([taking]);
  });

  it('a movement that took nothing out of fulfillments is written without from_fulfillments (as before)', () => {
    const plain = { ...taking, from_fulfillments: [] };
    expect(restockMetadata([plain])).toEqual({
      restock_movements: [{ order_line_id: 'line_1', from_reserved: 2, to_on_hand: 1, returned_quantity: 1 }],
    });
    expect(restockMovementsOf({ metadata: restockMetadata([plain]) })).toEqual([plain]);
  });

  it('metadata recorded before from_fulfillments existed reads with an empty one; malformed entries are skipped', () => {
    const metadata = {
      restock_movements: [
        { order_line_id: 'line_1', from_reserved: 1, to_on_hand: 0, returned_quantity: 0 },
        { order_line_id: 'line_2', from_reserved: 'x' },
        {
          order_line_id: 'line_3',
          from_reserved: 1,
          to_on_hand: 0,
          returned_quantity: 0,
          from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 1 }, { bogus: true }],
        },
      ],
    };
    expect(restockMovementsOf({ metadata })).toEqual([
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
    const refund = (status: RefundRecord['status'], movements: RestockMovement[]) =>
      ({ status, metadata: restockMetadata(movements) }) as RefundRecord;
    const refunds = [
      refund('completed', [taking]),
      refund('pending', [{ ...taking, from_reserved: 1, to_on_hand: 0, returned_quantity: 0 }]),
      // Refused while in flight: settleRefund clears its metadata, it moved nothing.
      refund('failed', []),
    ];
    expect(restockTotalsByLine({ refunds }).get('line_1')).toEqual({
      from_reserved: 3,
      returned_quantity: 1,
    });
    // Failed at the provider after it was applied as pending: its units stay restocked.
    const failedAfterPending = refund('failed', [{ ...taking, from_reserved: 4, returned_quantity: 0 }]);
    expect(restockTotalsByLine({ refunds: [...refunds, failedAfterPending] }).get('line_1')).toEqual({
      from_reserved: 7,
      returned_quantity: 1,
    });
  });
});
