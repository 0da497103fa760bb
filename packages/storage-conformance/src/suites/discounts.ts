import type { Scope } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import { makeDiscount, newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/**
 * Discounts: case-insensitive codes, automatic order, and the usage primitives — a capped counter
 * with its log (`recordUsage`), its guarded undo (`releaseUsage`), and the count of a key's uses.
 * The per-customer limit is core's rule (tested in core).
 */
export function discountsSuite(ctx: SuiteContext): void {
  /** The discounts of these codes, as pricing reads them (`listForPricing`'s `by_code`). */
  const byCodes = async (scope: Scope, codes: string[]) =>
    (await ctx.read((r) => r.discounts.listForPricing(scope, codes))).by_code;
  /** The active automatic discounts in application order (`listForPricing` without codes). */
  const automatic = async (scope: Scope) =>
    (await ctx.read((r) => r.discounts.listForPricing(scope, []))).automatic;

  describe('discounts', () => {
    it('round-trips a discount (conditions, 12.5 %), finds codes case-insensitively, only in its scope', async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, {
        code: 'Summer-Sale',
        usage_limit: 5,
        per_customer_limit: 1,
        minimum_amount: 1000,
        maximum_discount: 250,
        starts_at: 1,
        ends_at: 2,
        metadata: { campaign: { name: 'été' } },
      });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toEqual(discount);
      expect(await byCodes(scope, ['SUMMER-sale'])).toEqual([discount]);
      expect(await byCodes(scope, ['nope'])).toEqual([]);
      expect(await byCodes(otherMode(scope), ['summer-sale'])).toEqual([]);
      expect(await ctx.read((r) => r.discounts.get(otherMode(scope), discount.id))).toBeNull();
      const other = makeDiscount(scope, { code: 'WINTER' });
      await ctx.tx((tx) => tx.discounts.insert(other));
      const found = await byCodes(scope, ['winter', 'summer-SALE', 'missing', 'Winter']);
      expect(found.map((d) => d.id).sort()).toEqual([discount.id, other.id].sort());
      expect(await byCodes(scope, [])).toEqual([]);
    });

    it('codes are unique per scope case-insensitively → duplicate_code (param code); free again after delete', async () => {
      const scope = newScope();
      const first = makeDiscount(scope, { code: 'SAVE10' });
      await ctx.tx((tx) => tx.discounts.insert(first));
      await expectCommerceError(
        ctx.tx((tx) => tx.discounts.insert(makeDiscount(scope, { code: 'save10' }))),
        'duplicate_code',
        'code',
      );
      await ctx.tx((tx) => tx.discounts.insert(makeDiscount(otherMode(scope), { code: 'SAVE10' })));
      const second = makeDiscount(scope, { code: 'SAVE20' });
      await ctx.tx((tx) => tx.discounts.insert(second));
      await expectCommerceError(
        ctx.tx((tx) => tx.discounts.update(scope, second.id, { code: 'Save10', updated_at: 2 })),
        'duplicate_code',
        'code',
      );
      // Automatic discounts have no code; several may coexist.
      await ctx.tx(async (tx) => {
        await tx.discounts.insert(makeDiscount(scope, { code: null, type: 'automatic' }));
        await tx.discounts.insert(makeDiscount(scope, { code: null, type: 'automatic' }));
      });
      expect(await ctx.tx((tx) => tx.discounts.delete(scope, first.id, 3))).toBe(true);
      expect(await ctx.tx((tx) => tx.discounts.delete(scope, first.id, 3))).toBe(false);
      expect(await ctx.read((r) => r.discounts.get(scope, first.id))).toBeNull();
      expect(await byCodes(scope, ['save10'])).toEqual([]);
      await ctx.tx((tx) => tx.discounts.insert(makeDiscount(scope, { code: 'SAVE10' })));
    });

    it('listForPricing: active automatic discounts oldest first, and the live discounts of the codes (active or not)', async () => {
      const scope = newScope();
      const late = makeDiscount(scope, { code: null, type: 'automatic', created_at: 30 });
      const early = makeDiscount(scope, { code: null, type: 'automatic', created_at: 10 });
      const inactive = makeDiscount(scope, {
        code: null,
        type: 'automatic',
        created_at: 5,
        is_active: false,
      });
      const summer = makeDiscount(scope, { code: 'Summer', created_at: 20 });
      const paused = makeDiscount(scope, { code: 'PAUSED', created_at: 25, is_active: false });
      const unrelated = makeDiscount(scope, { code: 'OTHER', created_at: 1 });
      const deleted = makeDiscount(scope, { code: 'GONE', created_at: 2 });
      await ctx.tx(async (tx) => {
        for (const d of [late, early, inactive, summer, paused, unrelated, deleted])
          await tx.discounts.insert(d);
        await tx.discounts.insert(makeDiscount(otherMode(scope), { code: 'SUMMER' }));
        await tx.discounts.delete(scope, deleted.id, 3);
      });
      const codes = ['summer', 'paused', 'gone', 'missing', 'SUMMER'];
      const both = await ctx.read((r) => r.discounts.listForPricing(scope, codes));
      expect(both.automatic).toEqual([early, late]);
      expect([...both.by_code].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [summer, paused].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await ctx.read((r) => r.discounts.listForPricing(scope, []))).toEqual({
        automatic: both.automatic,
        by_code: [],
      });
      expect(await ctx.read((r) => r.discounts.listForPricing(otherMode(scope), ['nope']))).toEqual({
        automatic: [],
        by_code: [],
      });
    });

    it('listForPricing: a discount found both as automatic and by code comes once in each list; order is by creation, then id', async () => {
      const scope = newScope();
      // Core never stores an automatic discount with a code, but the port does not forbid it.
      const both = makeDiscount(scope, { code: 'TWICE', type: 'automatic', created_at: 20 });
      const tieB = makeDiscount(scope, { id: 'disc_tie_b', code: null, type: 'automatic', created_at: 10 });
      const tieA = makeDiscount(scope, { id: 'disc_tie_a', code: null, type: 'automatic', created_at: 10 });
      const coded = makeDiscount(scope, { code: 'ONCE', created_at: 5 });
      await ctx.tx(async (tx) => {
        for (const d of [both, tieB, tieA, coded]) await tx.discounts.insert(d);
      });
      const found = await ctx.read((r) => r.discounts.listForPricing(scope, ['twice', 'once']));
      expect(found.automatic.map((d) => d.id)).toEqual([tieA.id, tieB.id, both.id]);
      expect(found.automatic).toEqual(await automatic(scope));
      expect(found.by_code.map((d) => d.id)).toEqual([coded.id, both.id]);
    });

    it('listForPricing without codes returns active automatic discounts oldest first; list filters by type and is_active', async () => {
      const scope = newScope();
      const late = makeDiscount(scope, { code: null, type: 'automatic', created_at: 30 });
      const early = makeDiscount(scope, { code: null, type: 'automatic', created_at: 10 });
      const inactive = makeDiscount(scope, {
        code: null,
        type: 'automatic',
        created_at: 5,
        is_active: false,
      });
      const code = makeDiscount(scope, { created_at: 20 });
      await ctx.tx(async (tx) => {
        for (const d of [late, early, inactive, code]) await tx.discounts.insert(d);
      });
      expect((await automatic(scope)).map((d) => d.id)).toEqual([early.id, late.id]);
      expect(await automatic(otherMode(scope))).toEqual([]);
      const ids = async (filter: { type?: 'code' | 'automatic'; is_active?: boolean }) =>
        (
          await ctx.read((r) =>
            r.discounts.list(scope, filter, { limit: 10, sort: 'created_at', order: 'desc' }),
          )
        ).data.map((d) => d.id);
      expect(await ids({})).toEqual([late.id, code.id, early.id, inactive.id]);
      expect(await ids({ type: 'automatic' })).toEqual([late.id, early.id, inactive.id]);
      expect(await ids({ type: 'code' })).toEqual([code.id]);
      expect(await ids({ is_active: false })).toEqual([inactive.id]);
      expect(await ids({ type: 'automatic', is_active: true })).toEqual([late.id, early.id]);
    });

    it('update patches columns (code change moves the lookup; conditions and metadata replaced)', async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, { code: 'OLD' });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      const conditions = [
        { id: newId('cond'), type: 'customer_tag' as const, operator: 'not_in' as const, values: ['vip'] },
      ];
      const updated = await ctx.tx((tx) =>
        tx.discounts.update(scope, discount.id, {
          code: 'New',
          value_type: 'fixed',
          value: 500,
          usage_limit: null,
          ends_at: 99,
          is_active: false,
          conditions,
          metadata: {},
          updated_at: 8,
        }),
      );
      expect(updated).toEqual({
        ...discount,
        code: 'New',
        value_type: 'fixed',
        value: 500,
        usage_limit: null,
        ends_at: 99,
        is_active: false,
        conditions,
        metadata: {},
        updated_at: 8,
      });
      expect(await byCodes(scope, ['old'])).toEqual([]);
      expect((await byCodes(scope, ['NEW'])).map((d) => d.id)).toEqual([discount.id]);
      expect(
        await ctx.tx((tx) =>
          tx.discounts.update(otherMode(scope), discount.id, { name: 'x', updated_at: 9 }),
        ),
      ).toBeNull();
    });

    it('recordUsage is a capped counter with its log: counts and records within usage_limit, answers the counters; at the cap null and nothing changed', async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, { usage_limit: 2, per_customer_limit: 5 });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      const use = (customer_key: string) =>
        ctx.tx((tx) =>
          tx.discounts.recordUsage(scope, {
            id: newId('use'),
            discount_id: discount.id,
            order_id: newId('ord'),
            customer_key,
            at: 5,
          }),
        );
      expect(await use('cus_a')).toEqual({ usage_count: 1, usage_limit: 2, per_customer_limit: 5 });
      expect(await use('cus_b')).toEqual({ usage_count: 2, usage_limit: 2, per_customer_limit: 5 });
      expect(await use('cus_a')).toBeNull();
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toMatchObject({
        usage_count: 2,
        updated_at: discount.updated_at,
      });
      expect(
        await ctx.read((r) => r.discounts.countUsesByCustomer(scope, [discount.id, 'disc_none'], 'cus_a')),
      ).toEqual({
        [discount.id]: 1,
        disc_none: 0,
      });
      expect(await ctx.read((r) => r.discounts.countUsesByCustomer(scope, [], 'cus_a'))).toEqual({});
    });

    it('recordUsage records every use of a key and enforces no per-customer rule (core does); countUsesByCustomer counts per key and scope', async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, { per_customer_limit: 1 });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      const use = (s: Scope, customer_key: string) =>
        ctx.tx((tx) =>
          tx.discounts.recordUsage(s, {
            id: newId('use'),
            discount_id: discount.id,
            order_id: newId('ord'),
            customer_key,
            at: 5,
          }),
        );
      for (const n of [1, 2, 3]) {
        expect(await use(scope, 'a@example.com')).toEqual({
          usage_count: n,
          usage_limit: null,
          per_customer_limit: 1,
        });
      }
      expect(await use(scope, 'cus_other')).toMatchObject({ usage_count: 4 });
      expect(
        await ctx.read((r) => r.discounts.countUsesByCustomer(scope, [discount.id], 'a@example.com')),
      ).toEqual({ [discount.id]: 3 });
      expect(
        await ctx.read((r) =>
          r.discounts.countUsesByCustomer(otherMode(scope), [discount.id], 'a@example.com'),
        ),
      ).toEqual({ [discount.id]: 0 });
      // Another scope's discount is unknown here: nothing counted, nothing recorded.
      expect(await use(otherMode(scope), 'x')).toBeNull();
      expect(
        await ctx.read((r) => r.discounts.countUsesByCustomer(otherMode(scope), [discount.id], 'x')),
      ).toEqual({
        [discount.id]: 0,
      });
      // A deleted discount counts no use.
      await ctx.tx((tx) => tx.discounts.delete(scope, discount.id, 9));
      expect(await use(scope, 'cus_late')).toBeNull();
    });

    it('releaseUsage gives back the use one order made (count and customer uses), once; other orders and scopes keep theirs', async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, { usage_limit: 2, per_customer_limit: 2 });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      const [expired, kept] = [newId('ord'), newId('ord')];
      for (const order_id of [expired, kept]) {
        const used = await ctx.tx((tx) =>
          tx.discounts.recordUsage(scope, {
            id: newId('use'),
            discount_id: discount.id,
            order_id,
            customer_key: 'cus_a',
            at: 5,
          }),
        );
        expect(used).toMatchObject({ usage_limit: 2, per_customer_limit: 2 });
      }
      const release = (s: Scope, order_id: string) =>
        ctx.tx((tx) => tx.discounts.releaseUsage(s, { discount_id: discount.id, order_id }));
      expect(await release(otherMode(scope), expired)).toBe(0);
      expect(await release(scope, newId('ord'))).toBe(0);
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toMatchObject({ usage_count: 2 });

      expect(await release(scope, expired)).toBe(1);
      expect(await release(scope, expired)).toBe(0);
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toMatchObject({ usage_count: 1 });
      expect(await ctx.read((r) => r.discounts.countUsesByCustomer(scope, [discount.id], 'cus_a'))).toEqual({
        [discount.id]: 1,
      });
      // The use given back is free again, within both limits.
      const again = await ctx.tx((tx) =>
        tx.discounts.recordUsage(scope, {
          id: newId('use'),
          discount_id: discount.id,
          order_id: newId('ord'),
          customer_key: 'cus_a',
          at: 6,
        }),
      );
      expect(again).toEqual({ usage_count: 2, usage_limit: 2, per_customer_limit: 2 });
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toMatchObject({ usage_count: 2 });
    });
  });
}
