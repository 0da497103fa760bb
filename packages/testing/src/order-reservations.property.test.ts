import { CommerceError } from '@cartwright/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Reservations against random order histories, through the in-memory engine
 * (docs/contract.md#restock, #reservations, #order-status). Random orders (one or two lines over two tracked
 * variants, paid by card or left unpaid) go through random sequences of fulfil / ship / refund
 * (random units, `restock` true or false) / cancel / complete. After every step:
 *
 * - each variant's `reserved` is exactly what the open orders (neither completed nor cancelled)
 *   still have to ship of it: per line, fulfillable − shipped, where fulfillable = quantity − units
 *   cancelled by restocking refunds (a restock cancels min(units, fulfillable − shipped): unshipped
 *   units first), and that is never negative — so no completed or cancelled order holds any;
 * - `on_hand` = start − units shipped + units a restocking refund brought back;
 * - a paid processing order with every fulfillable unit shipped (and one at least) has completed;
 * - an operation refused with a 409 or 422 changed nothing (orders and stock as before).
 *
 * The model is the test's own: it reads only the wire (lines, fulfillments) and counts cancelled
 * units itself.
 */

const START = 40;
const PAID = ['paid', 'partially_refunded', 'refunded'];
const CLOSED = ['completed', 'cancelled'];

type Op =
  | { kind: 'fulfil'; order: number; line: number; quantity: number }
  | { kind: 'ship'; order: number; pick: number }
  | { kind: 'refund'; order: number; line: number; quantity: number; restock: boolean }
  | { kind: 'cancel'; order: number }
  | { kind: 'complete'; order: number };

const orderArb = fc.record({
  paid: fc.constantFrom(true, true, true, false),
  lines: fc.uniqueArray(
    fc.record({ variant: fc.integer({ min: 0, max: 1 }), quantity: fc.integer({ min: 1, max: 4 }) }),
    { minLength: 1, maxLength: 2, selector: (l) => l.variant },
  ),
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('fulfil' as const),
      order: fc.nat(2),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('ship' as const), order: fc.nat(2), pick: fc.nat(3) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      order: fc.nat(2),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 4 }),
      restock: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), order: fc.nat(2) }) },
);

type Order = Awaited<ReturnType<TestEngine['store']['orders']['get']>>;

/** Units of each line in shipped or delivered fulfillments, from the wire. */
function shippedByLine(order: Order): Map<string, number> {
  const shipped = new Map<string, number>();
  for (const f of order.fulfillments) {
    if (f.status !== 'shipped' && f.status !== 'delivered') continue;
    for (const l of f.lines) shipped.set(l.order_line_id, (shipped.get(l.order_line_id) ?? 0) + l.quantity);
  }
  return shipped;
}

/** A refusal the rules answer with 409 or 422 (anything else fails the property). */
function isRefusal(error: unknown): boolean {
  return (
    CommerceError.is(error) && (error.type === 'conflict_error' || error.type === 'invalid_request_error')
  );
}

describe('reservations over random fulfil / ship / refund (± restock) / cancel / complete sequences', () => {
  test('reserved = what open orders still have to ship, never negative; on_hand follows; refusals change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(orderArb, { minLength: 2, maxLength: 3 }),
        fc.array(opArb, { minLength: 15, maxLength: 40 }),
        async (orderSpecs, ops) => {
          const t = await createTestEngine();
          try {
            const variants = await Promise.all(
              [0, 1].map(
                async (i) => (await t.fixtures.product({ price: 1000 + i * 500, on_hand: START })).variant,
              ),
            );
            const ids: string[] = [];
            for (const spec of orderSpecs) {
              const cart = await t.fixtures.cart(
                spec.lines.map((l) => ({ variant_id: variants[l.variant]!.id, quantity: l.quantity })),
              );
              const order = await t.checkout(cart.id, spec.paid ? {} : { payment_provider: 'manual' });
              ids.push(order.id);
            }
            // The model: units cancelled by restocking refunds and units brought back, per line.
            const cancelled = new Map<string, number>();
            const broughtBack = new Map<string, number>();

            const snapshot = async () => ({
              orders: await Promise.all(ids.map((id) => t.store.orders.get(id))),
              stock: await Promise.all(variants.map((v) => t.store.inventory.get(v.inventory.id))),
            });

            const check = async () => {
              const { orders, stock } = await snapshot();
              const owed = variants.map(() => 0);
              const shippedUnits = variants.map(() => 0);
              const back = variants.map(() => 0);
              for (const order of orders) {
                const shipped = shippedByLine(order);
                let allShipped = true;
                let anyFulfillable = false;
                for (const line of order.lines) {
                  const v = variants.findIndex((x) => x.id === line.variant_id);
                  const fulfillable = line.quantity - (cancelled.get(line.id) ?? 0);
                  const left = fulfillable - (shipped.get(line.id) ?? 0);
                  expect(left, `line ${line.id} shipped more than fulfillable`).toBeGreaterThanOrEqual(0);
                  expect(line.fulfilled_quantity).toBeLessThanOrEqual(fulfillable);
                  if (left > 0) allShipped = false;
                  if (fulfillable > 0) anyFulfillable = true;
                  if (!CLOSED.includes(order.status)) owed[v]! += left;
                  shippedUnits[v]! += shipped.get(line.id) ?? 0;
                  back[v]! += broughtBack.get(line.id) ?? 0;
                }
                // Paid, and every fulfillable unit (there is one) shipped: it has completed.
                if (order.status === 'processing' && PAID.includes(order.payment_status)) {
                  expect(allShipped && anyFulfillable, `order ${order.id} should have completed`).toBe(false);
                }
              }
              stock.forEach((level, v) => {
                expect(level.reserved).toBeGreaterThanOrEqual(0);
                expect(level.reserved, `reserved of variant ${v}`).toBe(owed[v]);
                expect(level.on_hand, `on_hand of variant ${v}`).toBe(START - shippedUnits[v]! + back[v]!);
              });
            };

            await check();
            for (const op of ops) {
              const before = await snapshot();
              const order = before.orders[op.order % ids.length]!;
              const line = order.lines[('line' in op ? op.line : 0) % order.lines.length]!;
              let run: () => Promise<unknown>;
              let onSuccess = () => {};
              if (op.kind === 'fulfil') {
                run = () =>
                  t.store.orders.fulfillments.create(order.id, {
                    lines: [{ order_line_id: line.id, quantity: op.quantity }],
                  });
              } else if (op.kind === 'ship') {
                const pending = order.fulfillments.filter((f) => f.status === 'pending');
                const f = pending[op.pick % Math.max(1, pending.length)];
                if (!f) continue;
                run = () => t.store.orders.fulfillments.ship(f.id);
              } else if (op.kind === 'refund') {
                run = () =>
                  t.store.orders.refunds.create(order.id, {
                    lines: [{ order_line_id: line.id, quantity: op.quantity }],
                    restock: op.restock,
                  });
                if (op.restock) {
                  // Unshipped units are cancelled first; the rest were shipped and come back.
                  const fulfillable = line.quantity - (cancelled.get(line.id) ?? 0);
                  const unshipped = fulfillable - (shippedByLine(order).get(line.id) ?? 0);
                  const cancelling = Math.min(op.quantity, unshipped);
                  onSuccess = () => {
                    cancelled.set(line.id, (cancelled.get(line.id) ?? 0) + cancelling);
                    broughtBack.set(line.id, (broughtBack.get(line.id) ?? 0) + op.quantity - cancelling);
                  };
                }
              } else if (op.kind === 'cancel') {
                run = () => t.store.orders.cancel(order.id);
              } else {
                run = () => t.store.orders.complete(order.id);
              }
              const refused = await run().then(
                () => false,
                (error: unknown) => {
                  if (!isRefusal(error)) throw error;
                  return true;
                },
              );
              if (refused) {
                expect(await snapshot(), `${op.kind} was refused but changed something`).toEqual(before);
              } else {
                onSuccess();
              }
              await check();
            }
          } finally {
            await t.close();
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 60_000);
});
