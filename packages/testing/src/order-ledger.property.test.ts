import { CommerceError } from '@cartwright/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The order ledger against random histories (issue 39; decisions §10, §13, §18), through the
 * in-memory engine and only its public API. Random orders (one or two lines over two tracked
 * variants, paid by card — refunds then go through the provider — or left unpaid) go through random
 * sequences of fulfil / ship / refund (by lines ± restock ± amount, or by amount) / return (create,
 * receive with random conditions, complete, cancel, reject; `refund` or `exchange`, whose exchange
 * orders join the history) / cancel / complete / stock adjustments. After every step the ledger
 * is exact:
 *
 * - money: per order, refunds (completed and pending) + exchange credit it gave away ≤ paid,
 *   and `refunded_total` ≤ paid;
 * - units: per line, units returned (completed returns + shipped units a restocking refund
 *   brought back) ≤ units shipped;
 * - `reserved` of each variant = what the open orders still have to ship of it (per line:
 *   fulfillable − shipped, fulfillable = quantity − units cancelled by restocking refunds);
 * - `on_hand` = start + adjustments − units shipped + units restocked (restocking refunds of
 *   shipped units, completed returns of units in condition null / unopened / opened);
 * - an operation refused with a 409 or 422 changed nothing.
 *
 * The model is the test's own: it reads the wire (orders, returns, stock) and counts the units
 * it moved itself.
 */

const START = 40;
const CLOSED = ['completed', 'cancelled'];
const CONDITIONS = [null, 'unopened', 'opened', 'damaged', 'defective'] as const;
type Condition = (typeof CONDITIONS)[number];
const RESTOCKED: readonly Condition[] = [null, 'unopened', 'opened'];

type Op =
  | { kind: 'fulfil'; order: number; line: number; quantity: number }
  | { kind: 'ship'; order: number; pick: number }
  | { kind: 'fulfil_ship'; order: number }
  | { kind: 'refund'; order: number; line: number; quantity: number; restock: boolean; amount: number | null }
  | { kind: 'refund_amount'; order: number; amount: number }
  | { kind: 'cancel'; order: number }
  | { kind: 'complete'; order: number }
  | { kind: 'adjust'; variant: number; delta: number }
  | {
      kind: 'return';
      order: number;
      line: number;
      quantity: number;
      exchange: boolean;
      exchange_variant: number;
      condition: Condition;
    }
  | { kind: 'receive'; pick: number; condition: Condition }
  | { kind: 'complete_return'; pick: number }
  | { kind: 'cancel_return'; pick: number }
  | { kind: 'reject_return'; pick: number };

const orderArb = fc.record({
  paid: fc.constantFrom(true, true, true, false),
  lines: fc.uniqueArray(
    fc.record({ variant: fc.integer({ min: 0, max: 1 }), quantity: fc.integer({ min: 1, max: 4 }) }),
    { minLength: 1, maxLength: 2, selector: (l) => l.variant },
  ),
});

const condition = fc.constantFrom<Condition>(...CONDITIONS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('fulfil' as const),
      order: fc.nat(4),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('ship' as const), order: fc.nat(4), pick: fc.nat(3) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('fulfil_ship' as const), order: fc.nat(4) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      order: fc.nat(4),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
      restock: fc.boolean(),
      amount: fc.option(fc.integer({ min: 1, max: 300 }), { freq: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('refund_amount' as const),
      order: fc.nat(4),
      amount: fc.integer({ min: 1, max: 3000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(4) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), order: fc.nat(4) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      variant: fc.nat(2),
      delta: fc.integer({ min: -3, max: 5 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('return' as const),
      order: fc.nat(4),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
      exchange: fc.boolean(),
      exchange_variant: fc.nat(2),
      condition,
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('receive' as const), pick: fc.nat(5), condition }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('complete_return' as const), pick: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel_return' as const), pick: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reject_return' as const), pick: fc.nat(5) }) },
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

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

describe('the order ledger over random fulfil / ship / refund / return / exchange / cancel sequences', () => {
  test('refunded + credit ≤ paid, returned ≤ shipped, reserved = units still to ship, on_hand moves only by shipments, restocks and adjustments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(orderArb, { minLength: 2, maxLength: 3 }),
        fc.array(opArb, { minLength: 30, maxLength: 60 }),
        async (orderSpecs, ops) => {
          const t = await createTestEngine();
          try {
            const variants = await Promise.all(
              [0, 1, 2].map(
                async (i) => (await t.fixtures.product({ price: 1000 + i * 750, on_hand: START })).variant,
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
            const returnIds: string[] = [];
            // The model, per order line: units cancelled by restocking refunds, shipped units a
            // restocking refund brought back, units returned by completed returns (and of those,
            // restocked); per variant: adjustments.
            const cancelled = new Map<string, number>();
            const broughtBack = new Map<string, number>();
            const returned = new Map<string, number>();
            const returnRestocked = new Map<string, number>();
            const adjusted = variants.map(() => 0);

            const snapshot = async () => ({
              orders: await Promise.all(ids.map((id) => t.store.orders.get(id))),
              returns: await Promise.all(returnIds.map((id) => t.store.returns.get(id))),
              stock: await Promise.all(variants.map((v) => t.store.inventory.get(v.inventory.id))),
            });

            const check = async () => {
              const { orders, stock } = await snapshot();
              const owed = variants.map(() => 0);
              const shippedUnits = variants.map(() => 0);
              const back = variants.map(() => 0);
              const creditOut = new Map<string, number>();
              for (const order of orders) {
                for (const p of order.payments) {
                  if (p.provider !== 'exchange_credit') continue;
                  expect(['completed', 'refunded']).toContain(p.status);
                  add(creditOut, String(p.metadata.order_id), p.amount.amount);
                }
              }
              for (const order of orders) {
                // Money.
                const paid = order.payments
                  .filter((p) => p.status === 'completed' || p.status === 'refunded')
                  .reduce((sum, p) => sum + p.amount.amount, 0);
                const refunds = order.refunds
                  .filter((r) => r.status !== 'failed')
                  .reduce((sum, r) => sum + r.amount.amount, 0);
                expect(order.refunded_total.amount, `refunded_total of ${order.id}`).toBeLessThanOrEqual(
                  paid,
                );
                expect(
                  refunds + (creditOut.get(order.id) ?? 0),
                  `refunds + credit of ${order.id}`,
                ).toBeLessThanOrEqual(paid);
                // Units.
                const shipped = shippedByLine(order);
                for (const line of order.lines) {
                  const v = variants.findIndex((x) => x.id === line.variant_id);
                  const fulfillable = line.quantity - (cancelled.get(line.id) ?? 0);
                  const shippedHere = shipped.get(line.id) ?? 0;
                  const left = fulfillable - shippedHere;
                  expect(left, `line ${line.id} shipped more than fulfillable`).toBeGreaterThanOrEqual(0);
                  expect(
                    (returned.get(line.id) ?? 0) + (broughtBack.get(line.id) ?? 0),
                    `line ${line.id}: returned more than shipped`,
                  ).toBeLessThanOrEqual(shippedHere);
                  expect(line.returnable_quantity).toBeGreaterThanOrEqual(0);
                  if (!CLOSED.includes(order.status)) owed[v]! += left;
                  shippedUnits[v]! += shippedHere;
                  back[v]! += (broughtBack.get(line.id) ?? 0) + (returnRestocked.get(line.id) ?? 0);
                }
              }
              stock.forEach((level, v) => {
                expect(level.reserved).toBeGreaterThanOrEqual(0);
                expect(level.reserved, `reserved of variant ${v}`).toBe(owed[v]);
                expect(level.on_hand, `on_hand of variant ${v}`).toBe(
                  START + adjusted[v]! - shippedUnits[v]! + back[v]!,
                );
              });
            };

            await check();
            for (const op of ops) {
              const before = await snapshot();
              const order = before.orders[('order' in op ? op.order : 0) % ids.length]!;
              let line = order.lines[('line' in op ? op.line : 0) % order.lines.length]!;
              // Steer most picks to where the step can happen (refusals still come up).
              const wanted = {
                receive: 'approved',
                complete_return: 'received',
                cancel_return: 'approved',
                reject_return: 'received',
              } as const;
              let ret: (typeof before.returns)[number] | null = null;
              if ('pick' in op && op.kind !== 'ship' && before.returns.length > 0) {
                const fit = before.returns.filter((r) => r.status === wanted[op.kind]);
                const from = fit.length > 0 && op.pick % 5 !== 4 ? fit : before.returns;
                ret = from[op.pick % from.length]!;
              }
              if (op.kind === 'return' && op.quantity < 3) {
                line = order.lines.find((l) => l.returnable_quantity > 0) ?? line;
              }
              if (op.kind === 'refund' && op.line === 0) {
                // A line some return names (open or completed): its units must not come back twice.
                const named = new Set(
                  before.returns
                    .filter((r) => r.order_id === order.id)
                    .flatMap((r) => r.lines.map((l) => l.order_line_id)),
                );
                line = order.lines.find((l) => named.has(l.id)) ?? line;
              }
              let run: () => Promise<unknown>;
              let onSuccess: (result: unknown) => void = () => {};
              if (op.kind === 'fulfil') {
                const open = line.quantity - (cancelled.get(line.id) ?? 0) - line.fulfilled_quantity;
                const quantity = open > 0 && op.quantity < 3 ? Math.min(open, op.quantity + 1) : op.quantity;
                run = () =>
                  t.store.orders.fulfillments.create(order.id, {
                    lines: [{ order_line_id: line.id, quantity }],
                  });
              } else if (op.kind === 'fulfil_ship') {
                // Every open unit of the order in one fulfillment, shipped at once.
                const lines = order.lines
                  .map((l) => ({
                    order_line_id: l.id,
                    quantity: l.quantity - (cancelled.get(l.id) ?? 0) - l.fulfilled_quantity,
                  }))
                  .filter((l) => l.quantity > 0);
                if (lines.length === 0) continue;
                run = async () => {
                  const f = await t.store.orders.fulfillments.create(order.id, { lines });
                  return t.store.orders.fulfillments.ship(f.id);
                };
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
                    ...(op.amount !== null && { amount: op.amount }),
                  });
                if (op.restock) {
                  // Unshipped units are cancelled first; the rest were shipped and come back.
                  const fulfillable = line.quantity - (cancelled.get(line.id) ?? 0);
                  const unshipped = fulfillable - (shippedByLine(order).get(line.id) ?? 0);
                  const cancelling = Math.min(op.quantity, unshipped);
                  onSuccess = () => {
                    add(cancelled, line.id, cancelling);
                    add(broughtBack, line.id, op.quantity - cancelling);
                  };
                }
              } else if (op.kind === 'refund_amount') {
                run = () => t.store.orders.refunds.create(order.id, { amount: op.amount });
              } else if (op.kind === 'cancel') {
                run = () => t.store.orders.cancel(order.id);
              } else if (op.kind === 'complete') {
                run = () => t.store.orders.complete(order.id);
              } else if (op.kind === 'adjust') {
                const variant = variants[op.variant]!;
                run = () => t.store.inventory.adjust(variant.inventory.id, { quantity: op.delta });
                onSuccess = () => {
                  adjusted[op.variant]! += op.delta;
                };
              } else if (op.kind === 'return') {
                run = () =>
                  t.store.returns.create(order.id, {
                    return_type: op.exchange ? 'exchange' : 'refund',
                    lines: [
                      {
                        order_line_id: line.id,
                        quantity:
                          op.quantity < 3 ? Math.max(1, Math.min(op.quantity, line.returnable_quantity)) : 3,
                        ...(op.condition !== null && { condition: op.condition }),
                        ...(op.exchange && { exchange_variant_id: variants[op.exchange_variant]!.id }),
                      },
                    ],
                  });
                onSuccess = (created) => returnIds.push((created as { id: string }).id);
              } else if (op.kind === 'receive') {
                if (!ret) continue;
                run = () =>
                  t.store.returns.receive(ret.id, {
                    lines: ret.lines.map((l) => ({ id: l.id, condition: op.condition ?? 'opened' })),
                  });
              } else if (op.kind === 'complete_return') {
                if (!ret) continue;
                run = () => t.store.returns.complete(ret.id);
                onSuccess = (done) => {
                  const completed = done as typeof ret;
                  for (const l of completed.lines) {
                    add(returned, l.order_line_id, l.quantity);
                    if (RESTOCKED.includes(l.condition)) add(returnRestocked, l.order_line_id, l.quantity);
                  }
                  if (completed.exchange_order_id !== null) ids.push(completed.exchange_order_id);
                };
              } else if (op.kind === 'cancel_return') {
                if (!ret) continue;
                run = () => t.store.returns.cancel(ret.id);
              } else {
                if (!ret) continue;
                run = () => t.store.returns.reject(ret.id, {});
              }
              const outcome = await run().then(
                (value) => ({ ok: true as const, value }),
                (error: unknown) => {
                  if (!isRefusal(error)) throw error;
                  return { ok: false as const, error };
                },
              );
              if (!outcome.ok) {
                expect(await snapshot(), `${op.kind} was refused but changed something`).toEqual(before);
              } else {
                onSuccess(outcome.value);
              }
              await check();
            }
          } finally {
            await t.close();
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 180_000);
});
