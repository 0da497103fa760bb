import type { ReturnRecord, Scope } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeOrder, makeOrderLine, newId, newScope, otherMode, RICH_METADATA } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/** A return of `order_id` with two lines (positions 1 and 0, to prove the read order). */
function makeReturn(scope: Scope, order_id: string, overrides: Partial<ReturnRecord> = {}): ReturnRecord {
  const id = overrides.id ?? newId('ret');
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    order_id,
    customer_id: 'cus_1',
    status: 'requested',
    return_type: 'refund',
    reason: 'Too small',
    reason_category: 'changed_mind',
    refund_id: null,
    exchange_order_id: null,
    admin_notes: null,
    customer_notes: 'Ünïcödé notes',
    metadata: {},
    lines: [
      {
        id: newId('retl'),
        return_id: id,
        order_line_id: 'line_b',
        quantity: 1,
        reason: null,
        condition: null,
        exchange_variant_id: null,
        product_name: 'Shirt',
        position: 1,
      },
      {
        id: newId('retl'),
        return_id: id,
        order_line_id: 'line_a',
        quantity: 2,
        reason: 'worn once',
        condition: 'opened',
        exchange_variant_id: 'var_9',
        product_name: 'Tee',
        position: 0,
      },
    ],
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    approved_at: null,
    received_at: null,
    completed_at: null,
    rejected_at: null,
    cancelled_at: null,
    ...overrides,
  };
}

/** Returns (decisions §18): round trip with lines, scoped reads, filtered keyset lists, status compare-and-set. */
export function returnsSuite(ctx: SuiteContext): void {
  describe('returns', () => {
    async function orderIn(scope: Scope, number = 1001) {
      const order = makeOrder(scope, number);
      await ctx.tx((tx) => tx.orders.insert(order));
      return order;
    }

    it('round-trips a return with its lines in position order; another scope sees nothing', async () => {
      const scope = newScope();
      const order = await orderIn(scope);
      const ret = makeReturn(scope, order.id, { metadata: RICH_METADATA, admin_notes: 'ok' });
      await ctx.tx((tx) => tx.returns.insert(ret));
      const read = await ctx.read((r) => r.returns.get(scope, ret.id));
      expect(read).toEqual({ ...ret, lines: [ret.lines[1], ret.lines[0]] });
      expect(await ctx.read((r) => r.returns.get(otherMode(scope), ret.id))).toBeNull();
      expect(await ctx.read((r) => r.returns.get(newScope(), ret.id))).toBeNull();
      expect((await ctx.read((r) => r.returns.list(otherMode(scope), {}, page()))).data).toEqual([]);
    });

    it('update: a compare-and-set on the status read; answers the return with its lines, null on a failed guard', async () => {
      const scope = newScope();
      const order = await orderIn(scope);
      const ret = makeReturn(scope, order.id);
      await ctx.tx((tx) => tx.returns.insert(ret));
      const approved = await ctx.tx((tx) =>
        tx.returns.update(
          scope,
          ret.id,
          { status: 'approved', approved_at: 5, admin_notes: 'fine', updated_at: 5 },
          { expect_status: 'requested' },
        ),
      );
      expect(approved).toMatchObject({
        status: 'approved',
        approved_at: 5,
        admin_notes: 'fine',
        updated_at: 5,
      });
      expect(approved?.lines).toHaveLength(2);
      // The status moved: the same guard fails now.
      expect(
        await ctx.tx((tx) =>
          tx.returns.update(
            scope,
            ret.id,
            { status: 'cancelled', updated_at: 6 },
            { expect_status: 'requested' },
          ),
        ),
      ).toBeNull();
      expect(await ctx.tx((tx) => tx.returns.update(otherMode(scope), ret.id, { updated_at: 7 }))).toBeNull();
      expect((await ctx.read((r) => r.returns.get(scope, ret.id)))?.status).toBe('approved');
    });

    it('updateLines sets the condition of this return’s lines only', async () => {
      const scope = newScope();
      const order = await orderIn(scope);
      const a = makeReturn(scope, order.id);
      const b = makeReturn(scope, order.id);
      await ctx.tx(async (tx) => {
        await tx.returns.insert(a);
        await tx.returns.insert(b);
      });
      await ctx.tx((tx) =>
        tx.returns.updateLines(scope, a.id, [
          { id: a.lines[0]!.id, condition: 'damaged' },
          // A line of another return is left alone.
          { id: b.lines[0]!.id, condition: 'defective' },
        ]),
      );
      expect(
        (await ctx.read((r) => r.returns.get(scope, a.id)))?.lines.find((l) => l.id === a.lines[0]!.id)
          ?.condition,
      ).toBe('damaged');
      expect(
        (await ctx.read((r) => r.returns.get(scope, b.id)))?.lines.find((l) => l.id === b.lines[0]!.id)
          ?.condition,
      ).toBeNull();
    });

    it('lists newest first with filters status, order_id, customer_id, created_after, created_before (inclusive) and total_count', async () => {
      const scope = newScope();
      const one = await orderIn(scope, 1001);
      const two = await orderIn(scope, 1002);
      const r1 = makeReturn(scope, one.id, { created_at: 10, customer_id: 'cus_a' });
      const r2 = makeReturn(scope, one.id, { created_at: 20, customer_id: 'cus_a', status: 'approved' });
      const r3 = makeReturn(scope, two.id, { created_at: 30, customer_id: 'cus_b' });
      await ctx.tx(async (tx) => {
        for (const r of [r1, r2, r3]) await tx.returns.insert(r);
      });
      const ids = async (
        filter: Parameters<import('@cartwright/core/storage').ReturnRepository['list']>[1],
        limit = 10,
      ) => (await ctx.read((r) => r.returns.list(scope, filter, page(limit)))).data.map((r) => r.id);
      expect(await ids({})).toEqual([r3.id, r2.id, r1.id]);
      expect(await ids({ status: 'approved' })).toEqual([r2.id]);
      expect(await ids({ order_id: one.id })).toEqual([r2.id, r1.id]);
      expect(await ids({ customer_id: 'cus_b' })).toEqual([r3.id]);
      expect(await ids({ created_after: 20 })).toEqual([r3.id, r2.id]);
      expect(await ids({ created_before: 20 })).toEqual([r2.id, r1.id]);
      const first = await ctx.read((r) => r.returns.list(scope, {}, page(2)));
      expect(first).toMatchObject({ total_count: 3, has_more: true });
      expect(first.data.map((r) => r.lines.length)).toEqual([2, 2]);
      const rest = await ctx.read((r) =>
        r.returns.list(scope, {}, { ...page(2), starting_after: first.data[1]!.id }),
      );
      expect(rest.data.map((r) => r.id)).toEqual([r1.id]);
    });

    it('order lines keep returned_quantity and returning_quantity (updateLines)', async () => {
      const scope = newScope();
      const id = newId('ord');
      const line = makeOrderLine(id);
      await ctx.tx((tx) => tx.orders.insert(makeOrder(scope, 1001, { id, lines: [line] })));
      await ctx.tx((tx) =>
        tx.orders.updateLines(scope, id, [{ id: line.id, returned_quantity: 1, returning_quantity: 1 }]),
      );
      expect((await ctx.read((r) => r.orders.get(scope, id)))?.lines[0]).toMatchObject({
        returned_quantity: 1,
        returning_quantity: 1,
      });
    });
  });
}

function page(limit = 10) {
  return { limit, sort: 'created_at' as const, order: 'desc' as const };
}
