import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderLine } from '../../orders/order-fixtures';
import type { OrderLineRecord, PaymentRecord, RefundRecord } from '../../ports/storage';
import { CommerceError } from '../../shared/errors';
import {
  type CompletionCondition,
  type CompletionOrder,
  type CompletionReturn,
  planReturnCompletion,
  settleExchange,
  surplusRefund,
} from './plan';

function payment(amount: number, status: PaymentRecord['status'] = 'completed', id = 'pay_1'): PaymentRecord {
  return {
    id,
    store_id: 'store_1',
    mode: 'test',
    order_id: 'ord_1',
    provider: 'manual',
    provider_id: null,
    amount,
    currency: 'EUR',
    status,
    idempotency_key: null,
    cart_id: null,
    client_secret: null,
    failure_reason: null,
    note: null,
    metadata: {},
    checkout_snapshot: null,
    created_at: 1,
    updated_at: 1,
  };
}

function refund(
  amount: number,
  lines: Array<[string, number]> = [],
  status: RefundRecord['status'] = 'completed',
  inFlight = false,
): RefundRecord {
  return {
    id: `ref_${amount}_${status}`,
    store_id: 'store_1',
    mode: 'test',
    order_id: 'ord_1',
    amount,
    currency: 'EUR',
    reason: null,
    restock: false,
    status,
    lines: lines.map(([order_line_id, quantity]) => ({ order_line_id, quantity })),
    provider_refund_id: null,
    metadata: {},
    restock_movements: [],
    provider_calls: inFlight ? [{ payment_id: 'pay_1', amount }] : null,
    failure_message: null,
    created_at: 2,
    updated_at: 2,
  };
}

function order(lines: OrderLineRecord[], paid: number, over: Partial<CompletionOrder> = {}): CompletionOrder {
  return { id: 'ord_1', lines, payments: [payment(paid)], refunds: [], prices_include_tax: false, ...over };
}

function ret(
  lines: Array<[string, number, CompletionCondition, string?]>,
  over: Partial<CompletionReturn> = {},
): CompletionReturn {
  return {
    id: 'ret_1',
    return_type: 'refund',
    reason: null,
    lines: lines.map(([order_line_id, quantity, condition, exchange_variant_id], i) => ({
      id: `retl_${i}`,
      order_line_id,
      quantity,
      condition,
      exchange_variant_id: exchange_variant_id ?? null,
    })),
    ...over,
  };
}

/**
 * The worked examples of docs/returns-and-exchanges.md ("Money rules, worked"): same numbers.
 * Store tax rate 20 %.
 */
describe('planReturnCompletion — the worked examples (decisions §18, §13)', () => {
  it('1. prices exclude tax: 2 × 25.00 (tax 10.00) + shipping 5.00 (tax 1.00), paid 66.00; 1 unopened unit back → refund 30.00, 1 unit to on_hand', () => {
    const mug = orderLine({
      quantity: 2,
      unit_price: 2500,
      line_total: 5000,
      tax_amount: 1000,
      shipped_quantity: 2,
    });
    const plan = planReturnCompletion({ order: order([mug], 6600), ret: ret([['line_1', 1, 'unopened']]) });
    expect(plan.value).toBe(3000); // round(1 × (5000 + 1000) / 2); shipping is not refunded
    expect(plan.refundable).toBe(6600);
    expect(plan.refund).toEqual({
      amount: 3000,
      lines: [{ order_line_id: 'line_1', quantity: 1 }],
      restock: false,
      reason: 'return ret_1',
    });
    expect(plan.restock).toEqual([{ variant_id: 'var_1', from_reserved: 0, to_on_hand: 1 }]);
    expect(plan.units).toEqual([
      { order_line_id: 'line_1', variant_id: 'var_1', restocked: 1, written_off: 0 },
    ]);
    expect(plan.exchange).toBeNull();
  });

  it('2. prices include tax: 3 × 10.00 (of which 5.00 tax), paid 30.00; 2 damaged units back → refund 20.00, both written off', () => {
    const mug = orderLine({
      quantity: 3,
      unit_price: 1000,
      line_total: 3000,
      tax_amount: 500,
      shipped_quantity: 3,
    });
    const plan = planReturnCompletion({
      order: order([mug], 3000, { prices_include_tax: true }),
      ret: ret([['line_1', 2, 'damaged']], { reason: 'Broken in transit' }),
    });
    expect(plan.value).toBe(2000); // round(2 × 3000 / 3): the tax is inside the price
    expect(plan.refund).toEqual({
      amount: 2000,
      lines: [{ order_line_id: 'line_1', quantity: 2 }],
      restock: false,
      reason: 'Broken in transit',
    });
    expect(plan.restock).toEqual([]);
    expect(plan.units).toEqual([
      { order_line_id: 'line_1', variant_id: 'var_1', restocked: 0, written_off: 2 },
    ]);
  });

  it('opened units go back to on_hand like unopened ones; a blank reason reads "return ret_…"', () => {
    const mug = orderLine({ quantity: 3, line_total: 3000, shipped_quantity: 3 });
    const plan = planReturnCompletion({
      order: order([mug], 3000),
      ret: ret([['line_1', 2, 'opened']], { reason: '  ' }),
    });
    expect(plan.restock).toEqual([{ variant_id: 'var_1', from_reserved: 0, to_on_hand: 2 }]);
    expect(plan.refund?.reason).toBe('return ret_1');
  });

  it('3. a discounted line: 3 × 10.00 with 3.33 of a 5.00 order discount (line total 26.67, tax 5.33); 2 units back → 21.33, the last one later → 10.67', () => {
    const a = orderLine({
      quantity: 3,
      unit_price: 1000,
      line_discount: 333,
      line_total: 2667,
      tax_amount: 533,
      shipped_quantity: 3,
    });
    const b = orderLine({
      id: 'line_2',
      variant_id: 'var_2',
      quantity: 1,
      unit_price: 1500,
      line_discount: 167,
      line_total: 1333,
      tax_amount: 267,
      shipped_quantity: 1,
    });
    const first = planReturnCompletion({
      order: order([a, b], 4800),
      ret: ret([['line_1', 2, 'defective']]),
    });
    expect(first.value).toBe(2133); // round(2 × (2667 + 533) / 3) = round(2133.33)
    expect(first.refund?.amount).toBe(2133);
    expect(first.restock).toEqual([]); // defective: written off
    expect(first.units[0]).toMatchObject({ restocked: 0, written_off: 2 });

    // After that refund (2 units refunded on the line), the last unit: 3200 − 2133 = 1067.
    const after = order([{ ...a, refunded_quantity: 2 }, b], 4800, {
      refunds: [refund(2133, [['line_1', 2]])],
    });
    const last = planReturnCompletion({ order: after, ret: ret([['line_1', 1, null]]) });
    expect(last.value).toBe(1067);
    expect(last.refund?.amount).toBe(1067);
    expect(first.value + last.value).toBe(2667 + 533); // the whole line, to the cent
  });

  it('4. a partial refund before the return: 2 × 25.00 + tax, paid 60.00, 40.00 refunded as a goodwill gesture; both units back → refund capped at 20.00', () => {
    const mug = orderLine({
      quantity: 2,
      unit_price: 2500,
      line_total: 5000,
      tax_amount: 1000,
      shipped_quantity: 2,
    });
    const plan = planReturnCompletion({
      order: order([mug], 6000, { refunds: [refund(4000)] }),
      ret: ret([['line_1', 2, 'unopened']]),
    });
    expect(plan.value).toBe(6000);
    expect(plan.refundable).toBe(2000);
    expect(plan.refund?.amount).toBe(2000);
    expect(plan.refund?.lines).toEqual([{ order_line_id: 'line_1', quantity: 2 }]);
    expect(plan.restock).toEqual([{ variant_id: 'var_1', from_reserved: 0, to_on_hand: 2 }]);
  });

  it('4b. a unit refunded before (without restock) carries no money: 2 units back → only the other unit, 30.00', () => {
    const mug = orderLine({
      quantity: 2,
      unit_price: 2500,
      line_total: 5000,
      tax_amount: 1000,
      shipped_quantity: 2,
      refunded_quantity: 1,
    });
    const plan = planReturnCompletion({
      order: order([mug], 6000, { refunds: [refund(3000, [['line_1', 1]])] }),
      ret: ret([['line_1', 2, 'unopened']]),
    });
    expect(plan.value).toBe(3000);
    expect(plan.refund).toMatchObject({ amount: 3000, lines: [{ order_line_id: 'line_1', quantity: 1 }] });
    expect(plan.restock).toEqual([{ variant_id: 'var_1', from_reserved: 0, to_on_hand: 2 }]); // both units come back
  });

  it('a pending refund (in flight at the provider) counts: its units carry no money and its amount is not refundable', () => {
    const mug = orderLine({
      quantity: 2,
      unit_price: 2500,
      line_total: 5000,
      tax_amount: 1000,
      shipped_quantity: 2,
    });
    const plan = planReturnCompletion({
      order: order([mug], 6000, { refunds: [refund(3000, [['line_1', 1]], 'pending', true)] }),
      ret: ret([['line_1', 2, null]]),
    });
    expect(plan.refundable).toBe(3000);
    expect(plan.refund).toMatchObject({ amount: 3000, lines: [{ order_line_id: 'line_1', quantity: 1 }] });
  });

  it('everything already refunded → no refund (a capped amount of 0 makes none), the stock still comes back', () => {
    const mug = orderLine({
      quantity: 1,
      unit_price: 2500,
      line_total: 2500,
      tax_amount: 500,
      shipped_quantity: 1,
    });
    const plan = planReturnCompletion({
      order: order([mug], 3000, { refunds: [refund(3000)] }),
      ret: ret([['line_1', 1, 'unopened']]),
    });
    expect(plan.value).toBe(3000);
    expect(plan.refundable).toBe(0);
    expect(plan.refund).toBeNull();
    expect(plan.restock).toEqual([{ variant_id: 'var_1', from_reserved: 0, to_on_hand: 1 }]);
  });

  it('a free (fully discounted) unit → value 0, no refund', () => {
    const gift = orderLine({
      quantity: 1,
      unit_price: 1000,
      line_discount: 1000,
      line_total: 0,
      tax_amount: 0,
    });
    const plan = planReturnCompletion({
      order: order([gift], 0, { payments: [] }),
      ret: ret([['line_1', 1, null]]),
    });
    expect(plan.value).toBe(0);
    expect(plan.refund).toBeNull();
  });

  it('failed refunds do not count; refunded payments still count as paid', () => {
    const mug = orderLine({
      quantity: 1,
      unit_price: 2500,
      line_total: 2500,
      tax_amount: 500,
      shipped_quantity: 1,
    });
    const plan = planReturnCompletion({
      order: order([mug], 3000, {
        payments: [payment(3000, 'refunded')],
        refunds: [refund(3000, [], 'failed')],
      }),
      ret: ret([['line_1', 1, null]]),
    });
    expect(plan.refundable).toBe(3000);
    expect(plan.refund?.amount).toBe(3000);
  });

  it('an unknown order line is an internal error (the return validated its lines)', () => {
    expect(() =>
      planReturnCompletion({ order: order([orderLine()], 3000), ret: ret([['line_x', 1, null]]) }),
    ).toThrow(CommerceError);
  });
});

describe('exchanges: credit and settlement (decisions §18)', () => {
  const mug = orderLine({
    quantity: 2,
    unit_price: 2500,
    line_total: 5000,
    tax_amount: 1000,
    shipped_quantity: 2,
  });

  it('5. credit = what the returned unit was paid (30.00); exchange order of 24.00 (20.00 + 4.00 tax) → payment 24.00, 6.00 refunded', () => {
    const plan = planReturnCompletion({
      order: order([mug], 6000),
      ret: ret([['line_1', 1, 'unopened', 'var_big']], { return_type: 'exchange' }),
    });
    expect(plan.refund).toBeNull();
    expect(plan.exchange).toEqual({ credit: 3000, lines: [{ variant_id: 'var_big', quantity: 1 }] });
    const settled = settleExchange(3000, 2400);
    expect(settled).toEqual({ payment: 2400, surplus: 600, due: 0 });
    expect(surplusRefund({ id: 'ret_1', reason: null }, settled.surplus)).toEqual({
      amount: 600,
      lines: [],
      restock: false,
      reason: 'return ret_1',
    });
  });

  it('6. credit 30.00, exchange order of 36.00 → payment 30.00, 6.00 still due (partially paid), no refund', () => {
    expect(settleExchange(3000, 3600)).toEqual({ payment: 3000, surplus: 0, due: 600 });
    expect(surplusRefund({ id: 'ret_1', reason: null }, 0)).toBeNull();
  });

  it('same replacement variant on two return lines is one exchange line of both quantities', () => {
    const two = orderLine({
      id: 'line_2',
      variant_id: 'var_2',
      quantity: 1,
      line_total: 1000,
      shipped_quantity: 1,
    });
    const plan = planReturnCompletion({
      order: order([mug, two], 7000),
      ret: ret(
        [
          ['line_1', 2, 'opened', 'var_x'],
          ['line_2', 1, 'damaged', 'var_x'],
        ],
        { return_type: 'exchange' },
      ),
    });
    expect(plan.exchange).toEqual({ credit: 7000, lines: [{ variant_id: 'var_x', quantity: 3 }] });
  });

  it('credit issued by an earlier exchange of the order is no longer refundable', () => {
    const plan = planReturnCompletion({
      order: order([mug], 6000),
      ret: ret([['line_1', 1, null, 'var_x']], { return_type: 'exchange' }),
      credit_issued: 4000,
    });
    expect(plan.refundable).toBe(2000);
    expect(plan.exchange?.credit).toBe(2000);
  });
});

describe('planReturnCompletion — properties', () => {
  const condition = fc.constantFrom<CompletionCondition>(null, 'unopened', 'opened', 'damaged', 'defective');
  const scenario = fc
    .record({
      lines: fc.array(
        fc.record({
          quantity: fc.integer({ min: 1, max: 6 }),
          unit_price: fc.integer({ min: 0, max: 50_000 }),
          discount_pct: fc.integer({ min: 0, max: 100 }),
          refunded: fc.nat(6),
          returned: fc.integer({ min: 1, max: 6 }),
          condition,
        }),
        { minLength: 1, maxLength: 4 },
      ),
      include_tax: fc.boolean(),
      rate: fc.integer({ min: 0, max: 30 }),
      shipping: fc.nat(2000),
      prior_amount_refund: fc.nat(100_000),
      pending_refund: fc.nat(100_000),
      credit_issued: fc.nat(100_000),
      exchange: fc.boolean(),
    })
    .map((s) => {
      const lines = s.lines.map((l, i) => {
        const gross = l.unit_price * l.quantity;
        const line_discount = Math.floor((gross * l.discount_pct) / 100);
        const line_total = gross - line_discount;
        const tax_amount = s.include_tax
          ? line_total - Math.round(line_total / (1 + s.rate / 100))
          : Math.round((line_total * s.rate) / 100);
        return orderLine({
          id: `line_${i}`,
          variant_id: `var_${i % 2}`,
          quantity: l.quantity,
          unit_price: l.unit_price,
          line_discount,
          line_total,
          tax_amount,
          shipped_quantity: l.quantity,
          refunded_quantity: Math.min(l.refunded, l.quantity),
        });
      });
      const paidLines = lines.reduce((sum, l) => sum + l.line_total + (s.include_tax ? 0 : l.tax_amount), 0);
      const paid = paidLines + s.shipping;
      const completed = Math.min(s.prior_amount_refund, paid);
      const pending = Math.min(s.pending_refund, paid - completed);
      const credit_issued = Math.min(s.credit_issued, paid - completed - pending);
      const o = order(lines, paid, {
        prices_include_tax: s.include_tax,
        refunds: [refund(completed), { ...refund(pending, [], 'pending'), id: 'ref_pending' }],
      });
      const r = ret(
        s.lines.map((l, i) => [`line_${i}`, Math.min(l.returned, l.quantity), l.condition, 'var_new']),
        { return_type: s.exchange ? 'exchange' : 'refund' },
      );
      return { o, r, paid, completed, pending, credit_issued };
    });

  it('the refund never exceeds what is refundable; credit + refunds ≤ paid; integer cents', () => {
    fc.assert(
      fc.property(
        scenario,
        fc.nat(200_000),
        ({ o, r, paid, completed, pending, credit_issued }, exchangeTotal) => {
          const plan = planReturnCompletion({ order: o, ret: r, credit_issued });
          const refundable = paid - completed - pending - credit_issued;
          expect(plan.refundable).toBe(refundable);
          for (const n of [
            plan.value,
            plan.refundable,
            plan.refund?.amount ?? 0,
            plan.exchange?.credit ?? 0,
          ]) {
            expect(Number.isSafeInteger(n)).toBe(true);
            expect(n).toBeGreaterThanOrEqual(0);
          }
          if (plan.refund) {
            expect(plan.refund.amount).toBeGreaterThan(0);
            expect(plan.refund.amount).toBeLessThanOrEqual(refundable);
            expect(plan.refund.amount).toBeLessThanOrEqual(plan.value);
          }
          let moved = plan.refund?.amount ?? 0;
          if (plan.exchange) {
            expect(plan.exchange.credit).toBe(Math.min(plan.value, refundable));
            const s = settleExchange(plan.exchange.credit, exchangeTotal);
            expect(s.payment + s.surplus).toBe(plan.exchange.credit);
            expect(s.payment).toBeLessThanOrEqual(exchangeTotal);
            expect(s.payment + s.due).toBe(exchangeTotal);
            moved = s.payment + s.surplus;
          }
          // credit + refunds (earlier, pending, this one) + credit issued before ≤ paid
          expect(completed + pending + credit_issued + moved).toBeLessThanOrEqual(paid);
        },
      ),
    );
  });

  it('every returned unit is restocked or written off, by its condition', () => {
    fc.assert(
      fc.property(scenario, ({ o, r }) => {
        const plan = planReturnCompletion({ order: o, ret: r });
        const returned = r.lines.reduce((sum, l) => sum + l.quantity, 0);
        const counted = plan.units.reduce((sum, u) => sum + u.restocked + u.written_off, 0);
        expect(counted).toBe(returned);
        const toRestock = r.lines
          .filter((l) => l.condition === null || l.condition === 'unopened' || l.condition === 'opened')
          .reduce((sum, l) => sum + l.quantity, 0);
        expect(plan.restock.reduce((sum, m) => sum + m.to_on_hand + m.from_reserved, 0)).toBe(toRestock);
      }),
    );
  });

  it('the value never exceeds what the lines cost (the refunded units of each line carry nothing)', () => {
    fc.assert(
      fc.property(scenario, ({ o, r }) => {
        const plan = planReturnCompletion({ order: o, ret: r });
        const unrefundedCost = o.lines.reduce((sum, l) => {
          const paidLine = l.line_total + (o.prices_include_tax ? 0 : l.tax_amount);
          return sum + paidLine - Math.round((l.refunded_quantity * paidLine) / l.quantity);
        }, 0);
        expect(plan.value).toBeLessThanOrEqual(unrefundedCost);
      }),
    );
  });
});
