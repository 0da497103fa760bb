import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FulfillmentRecord, OrderAggregate, OrderLineRecord, RefundRecord } from '../ports/storage';
import { cancelledUnitsByLine, restockMovementValues } from '../refunds/refund-ledger';
import { lineUnits, unfulfilledQuantity } from './line-units';
import { orderLine } from './order-fixtures';
import { heldReservations } from './order-inventory';
import { deriveProgress } from './order-progress';
import { refundedParts, restockMovements } from './order-refunds';

const line = orderLine;

function fulfillment(
  id: string,
  lines: Array<[string, number]>,
  created_at: number,
  status: FulfillmentRecord['status'] = 'pending',
): FulfillmentRecord {
  return {
    id,
    store_id: 'store_1',
    mode: 'test',
    order_id: 'ord_1',
    status,
    tracking_number: null,
    tracking_url: null,
    carrier: null,
    carrier_code: null,
    lines: lines.map(([order_line_id, quantity]) => ({ order_line_id, quantity })),
    metadata: {},
    created_at,
    updated_at: created_at,
    shipped_at: status === 'pending' ? null : created_at,
    delivered_at: null,
    estimated_delivery: null,
  };
}

type OrderParts = Pick<OrderAggregate, 'lines' | 'fulfillments' | 'inventory_reserved' | 'refunds'>;

function restock(order: OrderParts, quantity: number, lineId = 'line_1') {
  const refund = { restock: true, lines: [{ order_line_id: lineId, quantity }] };
  const movements = restockMovements(order, refund);
  return { movements, ...refundedParts(order, refund, movements, 99) };
}

describe('restockMovements + refundedParts (a restocking refund takes its units out of unshipped fulfillments)', () => {
  it('3 ordered, 3 in pending ful_1, restock 2 → 2 from reserved, ful_1 keeps 1 (pending), fulfilled 1, returned 0', () => {
    const order: OrderParts = {
      lines: [line({ fulfilled_quantity: 3 })],
      fulfillments: [fulfillment('ful_1', [['line_1', 3]], 1)],
      inventory_reserved: true,
      refunds: [],
    };
    const { movements, lines, fulfillments, reductions } = restock(order, 2);
    expect(movements).toEqual([
      {
        order_line_id: 'line_1',
        from_reserved: 2,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }],
      },
    ]);
    expect(lines[0]).toMatchObject({ fulfilled_quantity: 1, refunded_quantity: 2, restocked_quantity: 2 });
    expect(fulfillments[0]).toMatchObject({
      status: 'pending',
      lines: [{ order_line_id: 'line_1', quantity: 1 }],
      updated_at: 99,
    });
    expect(reductions).toEqual([
      { fulfillment_id: 'ful_1', lines: [{ order_line_id: 'line_1', quantity: 1 }], cancelled: false },
    ]);
  });

  it('mixed: 5 ordered = 1 open + 2 in pending ful_2 + 2 shipped in ful_1, restock 4 → ful_2 cancelled, fulfilled 2, 3 from reserved, 1 to on_hand', () => {
    const order: OrderParts = {
      lines: [line({ quantity: 5, fulfilled_quantity: 4, shipped_quantity: 2 })],
      fulfillments: [
        fulfillment('ful_1', [['line_1', 2]], 1, 'shipped'),
        fulfillment('ful_2', [['line_1', 2]], 2),
      ],
      inventory_reserved: true,
      refunds: [],
    };
    const { movements, lines, fulfillments } = restock(order, 4);
    expect(movements[0]).toMatchObject({ from_reserved: 3, to_on_hand: 1, returned_quantity: 1 });
    expect(lines[0]).toMatchObject({ fulfilled_quantity: 2, shipped_quantity: 2, refunded_quantity: 4 });
    expect(fulfillments.map((f) => [f.id, f.status, f.lines])).toEqual([
      ['ful_1', 'shipped', [{ order_line_id: 'line_1', quantity: 2 }]],
      ['ful_2', 'cancelled', []],
    ]);
  });

  it('two pending fulfillments of one line: the newest (ful_b) is emptied first and cancelled, ful_a keeps its units', () => {
    const order: OrderParts = {
      lines: [line({ quantity: 4, fulfilled_quantity: 4 })],
      fulfillments: [fulfillment('ful_a', [['line_1', 2]], 1), fulfillment('ful_b', [['line_1', 2]], 2)],
      inventory_reserved: true,
      refunds: [],
    };
    const { fulfillments, lines } = restock(order, 2);
    expect(fulfillments.map((f) => [f.id, f.status, f.lines.length])).toEqual([
      ['ful_a', 'pending', 1],
      ['ful_b', 'cancelled', 0],
    ]);
    expect(lines[0]?.fulfilled_quantity).toBe(2);
  });

  it('a fulfillment of two lines loses only the refunded line: ful_1 (line_1 × 2, line_2 × 1), restock line_1 × 2 → ful_1 keeps line_2 × 1', () => {
    const order: OrderParts = {
      lines: [
        line({ quantity: 2, fulfilled_quantity: 2 }),
        line({ id: 'line_2', quantity: 1, fulfilled_quantity: 1 }),
      ],
      fulfillments: [
        fulfillment(
          'ful_1',
          [
            ['line_1', 2],
            ['line_2', 1],
          ],
          1,
        ),
      ],
      inventory_reserved: true,
      refunds: [],
    };
    const { fulfillments, lines } = restock(order, 2);
    expect(fulfillments[0]).toMatchObject({
      status: 'pending',
      lines: [{ order_line_id: 'line_2', quantity: 1 }],
    });
    expect(lines.map((l) => l.fulfilled_quantity)).toEqual([0, 1]);
    expect(lines[1]).toBe(order.lines[1]);
  });

  it('refund without restock touches no fulfillment: 3 in pending ful_1, refund 2 → ful_1 keeps 3, fulfilled 3', () => {
    const order: OrderParts = {
      lines: [line({ fulfilled_quantity: 3 })],
      fulfillments: [fulfillment('ful_1', [['line_1', 3]], 1)],
      inventory_reserved: true,
      refunds: [],
    };
    const refund = { restock: false, lines: [{ order_line_id: 'line_1', quantity: 2 }] };
    const movements = restockMovements(order, refund);
    expect(movements).toEqual([]);
    const parts = refundedParts(order, refund, movements, 99);
    expect(parts.fulfillments).toEqual(order.fulfillments);
    expect(parts.lines[0]).toMatchObject({
      fulfilled_quantity: 3,
      refunded_quantity: 2,
      restocked_quantity: 0,
      returned_quantity: 0,
      returning_quantity: 0,
    });
  });

  it('order no longer holding reservations (cancelled): nothing leaves reserved, no fulfillment is touched', () => {
    const order: OrderParts = {
      lines: [line({ fulfilled_quantity: 1, shipped_quantity: 1 })],
      fulfillments: [fulfillment('ful_1', [['line_1', 1]], 1, 'shipped')],
      inventory_reserved: false,
      refunds: [],
    };
    const { movements, reductions } = restock(order, 3);
    expect(movements[0]).toMatchObject({
      from_reserved: 0,
      to_on_hand: 1,
      returned_quantity: 1,
      from_fulfillments: [],
    });
    expect(reductions).toEqual([]);
  });
});

type Op =
  | { kind: 'fulfil'; quantity: number }
  | { kind: 'ship'; pick: number }
  | { kind: 'refund'; quantity: number; restock: boolean }
  | { kind: 'cancel' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('fulfil' as const), quantity: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('ship' as const), pick: fc.nat(5) }),
  fc.record({
    kind: fc.constant('refund' as const),
    quantity: fc.integer({ min: 1, max: 4 }),
    restock: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const) }),
);

describe('inventory moved by one order line over fulfil / ship / refund (± restock) / cancel = the physical model', () => {
  it('reserved held = ordered − shipped − restocked from reserved − released, never negative, covers every pending unit; on_hand = start − shipped + shipped units restocked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(opArb, { maxLength: 25 }), (quantity, ops) => {
        // The variant's stock: another order holds OTHER units of `reserved`, which must stay intact.
        const OTHER = 2;
        const START = quantity + 5;
        const stock = { on_hand: START, reserved: OTHER + quantity };
        // The physical model: units that left the shelf, came back, or stopped being held.
        const physical = { shipped: 0, restockedFromReserved: 0, backOnShelf: 0, released: 0 };
        let order: OrderParts = {
          lines: [line({ quantity })],
          fulfillments: [],
          inventory_reserved: true,
          refunds: [],
        };
        let clock = 1;
        const theLine = () => order.lines[0] as OrderLineRecord;
        const pendingUnits = () =>
          order.fulfillments
            .filter((f) => f.status === 'pending')
            .reduce((sum, f) => sum + f.lines.reduce((s, l) => s + l.quantity, 0), 0);

        const ship = (f: FulfillmentRecord) => {
          // As `ship`: the fulfillment's (remaining) units leave on_hand and reserved.
          const q = f.lines.reduce((sum, l) => sum + l.quantity, 0);
          stock.on_hand -= q;
          stock.reserved -= q;
          physical.shipped += q;
          order = {
            ...order,
            lines: [{ ...theLine(), shipped_quantity: theLine().shipped_quantity + q }],
            fulfillments: order.fulfillments.map((x) => (x.id === f.id ? { ...x, status: 'shipped' } : x)),
          };
        };
        const release = () => {
          // As `releaseOrderReservations`: what the order's ledger says it still holds.
          const held = heldReservations(order).reduce((sum, m) => sum + m.quantity, 0);
          expect(held).toBe(stock.reserved - OTHER);
          stock.reserved -= held;
          physical.released += held;
          order = { ...order, inventory_reserved: false };
        };

        const check = () => {
          const held = stock.reserved - OTHER;
          expect(held).toBe(quantity - physical.shipped - physical.restockedFromReserved - physical.released);
          expect(held).toBeGreaterThanOrEqual(0);
          // Every unit a pending fulfillment will ship is still reserved for it.
          expect(held).toBeGreaterThanOrEqual(pendingUnits());
          if (order.inventory_reserved) {
            expect(heldReservations(order).reduce((sum, m) => sum + m.quantity, 0)).toBe(held);
            // What the order holds is exactly what it still has to ship (docs/contract.md#reservations).
            const [units] = lineUnits(order);
            expect(held).toBe((units?.fulfillable_quantity ?? 0) - (units?.shipped_quantity ?? 0));
          } else {
            expect(held).toBe(0);
          }
          expect(stock.on_hand).toBe(START - physical.shipped + physical.backOnShelf);
          expect(physical.backOnShelf).toBeLessThanOrEqual(physical.shipped);
          // The line's fulfilled units are exactly the units of its non-cancelled fulfillments.
          const inFulfillments = order.fulfillments
            .filter((f) => f.status !== 'cancelled')
            .reduce((sum, f) => sum + f.lines.reduce((s, l) => s + l.quantity, 0), 0);
          expect(theLine().fulfilled_quantity).toBe(inFulfillments);
          for (const f of order.fulfillments) {
            expect(f.lines.every((l) => l.quantity > 0)).toBe(true);
            if (f.status === 'pending') expect(f.lines.length).toBeGreaterThan(0);
          }
          expect(() => deriveProgress({ total: 0, payments: [], ...order })).not.toThrow();
        };

        for (const op of ops) {
          if (op.kind === 'fulfil') {
            const cancelled = cancelledUnitsByLine(order).get('line_1') ?? 0;
            const q = Math.min(op.quantity, unfulfilledQuantity(theLine(), cancelled));
            if (!order.inventory_reserved || q === 0) continue;
            const f = fulfillment(`ful_${String(clock).padStart(3, '0')}`, [['line_1', q]], clock++);
            order = {
              ...order,
              lines: [{ ...theLine(), fulfilled_quantity: theLine().fulfilled_quantity + q }],
              fulfillments: [...order.fulfillments, f],
            };
          } else if (op.kind === 'ship') {
            const pending = order.fulfillments.filter((f) => f.status === 'pending');
            const f = pending[op.pick % Math.max(1, pending.length)];
            if (f) ship(f);
          } else if (op.kind === 'refund') {
            const q = Math.min(op.quantity, theLine().quantity - theLine().refunded_quantity);
            if (q === 0) continue;
            const refund = { restock: op.restock, lines: [{ order_line_id: 'line_1', quantity: q }] };
            const movements = restockMovements(order, refund);
            const parts = refundedParts(order, refund, movements, clock++);
            let fromReserved = 0;
            let toOnHand = 0;
            for (const m of movements) {
              fromReserved += m.from_reserved;
              toOnHand += m.to_on_hand;
            }
            if (op.restock && order.inventory_reserved) expect(fromReserved + toOnHand).toBe(q);
            stock.reserved -= fromReserved;
            stock.on_hand += toOnHand;
            physical.restockedFromReserved += fromReserved;
            physical.backOnShelf += toOnHand;
            const record = {
              status: 'completed',
              restock: op.restock,
              lines: refund.lines,
              restock_movements: restockMovementValues(movements),
              provider_calls: null,
            } as RefundRecord;
            order = {
              ...order,
              lines: parts.lines,
              fulfillments: parts.fulfillments,
              refunds: [...order.refunds, record],
            };
          } else if (order.inventory_reserved && theLine().shipped_quantity === 0) {
            // Cancel (allowed while nothing has shipped): release, cancel pending fulfillments.
            release();
            const cancelledUnits = pendingUnits();
            order = {
              ...order,
              inventory_reserved: false,
              lines: [{ ...theLine(), fulfilled_quantity: theLine().fulfilled_quantity - cancelledUnits }],
              fulfillments: order.fulfillments.map((f) =>
                f.status === 'pending' ? { ...f, status: 'cancelled' } : f,
              ),
            };
          }
          check();
        }

        // Drain: ship what is pending, then release what is left; the order moved exactly what it reserved.
        for (const f of order.fulfillments.filter((x) => x.status === 'pending')) ship(f);
        if (order.inventory_reserved) release();
        check();
        expect(stock.reserved).toBe(OTHER);
        expect(physical.shipped + physical.restockedFromReserved + physical.released).toBe(quantity);
      }),
      { numRuns: 500 },
    );
  });
});
