import type { Scope } from '@cartwright/core';
import type { ProductAggregate } from '@cartwright/core/storage';
import {
  adjustInventory,
  releaseInventory,
  reserveInventory,
  restockInventory,
  shipInventory,
  updateInventory,
} from '@cartwright/core/storage-rules';
import { describe, expect, it } from 'vitest';
import { makeProduct, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/**
 * Inventory rows and their movements (docs/contract.md#inventory): the port's reads, its
 * compare-and-set (`apply`) and settings update, and core's movements (`reserveInventory` …)
 * written through them.
 */
export function inventorySuite(ctx: SuiteContext): void {
  /** Core's low-stock rule as the list filter (available ≤ safety_stock: on_hand ≤ safety_stock + reserved). */
  const LOW = { on_hand_at_most: ['safety_stock', 'reserved'] } as const;
  const setup = async (
    scope: Scope,
    options: Parameters<typeof makeProduct>[1] = {},
  ): Promise<ProductAggregate> => {
    const product = makeProduct(scope, options);
    await ctx.tx((tx) => tx.products.insert(product));
    return product;
  };

  describe('inventory', () => {
    it('reads by id and by variant ids, only in its scope; lists with on_hand_at_most [safety_stock, reserved]', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2, 3] });
      const [a, b, c] = product.variants.map((v) => v.inventory);
      await ctx.tx(async (tx) => {
        await updateInventory(tx, scope, a!.id, { safety_stock: 10, updated_at: 2 }); // 10 available ≤ 10 → low
        await updateInventory(tx, scope, b!.id, { safety_stock: 5, updated_at: 2 }); // 10 > 5
        await updateInventory(tx, scope, c!.id, { on_hand: 3, updated_at: 2 }); // 3 > 0
      });
      expect(await ctx.read((r) => r.inventory.get(scope, b!.id))).toMatchObject({
        id: b!.id,
        safety_stock: 5,
      });
      expect(await ctx.read((r) => r.inventory.get(otherMode(scope), b!.id))).toBeNull();
      const byVariant = await ctx.read((r) =>
        r.inventory.get(scope, { variant_ids: [c!.variant_id, a!.variant_id] }),
      );
      expect(byVariant.map((i) => i.id).sort()).toEqual([a!.id, c!.id].sort());
      expect(
        await ctx.read((r) => r.inventory.get(otherMode(scope), { variant_ids: [a!.variant_id] })),
      ).toEqual([]);
      const all = await ctx.read((r) =>
        r.inventory.list(scope, {}, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(all.total_count).toBe(3);
      const low = await ctx.read((r) =>
        r.inventory.list(scope, LOW, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(low.data.map((i) => i.id)).toEqual([a!.id]);
      await ctx.tx((tx) => tx.products.deleteVariant(scope, a!.variant_id, 3));
      expect(await ctx.read((r) => r.inventory.get(scope, a!.id))).toBeNull();
    });

    it('getItem and list carry the variant sku and the level version: 0 when inserted, + 1 per stock write, never by settings, a no-op or a miss', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2], skus: ['SKU-VERSION-A', null] });
      const [va, vb] = product.variants;
      const [a, b] = [va!.inventory, vb!.inventory];
      const item = (id: string) => ctx.read((r) => r.inventory.getItem(scope, id));
      expect(await item(a.id)).toEqual({ ...a, sku: 'SKU-VERSION-A', version: 0 });
      expect(await item(b.id)).toEqual({ ...b, sku: null, version: 0 });

      await ctx.tx((tx) => reserveInventory(tx, scope, [{ variant_id: a.variant_id, quantity: 2 }], 2));
      expect(await item(a.id)).toMatchObject({ reserved: 2, version: 1 });
      await ctx.tx((tx) => adjustInventory(tx, scope, a.id, 3, 3));
      expect(await item(a.id)).toMatchObject({ on_hand: 13, version: 2 });
      // Nothing moves: updated_at only. Settings: no level change.
      await ctx.tx((tx) => adjustInventory(tx, scope, a.id, 0, 4));
      await ctx.tx((tx) => updateInventory(tx, scope, a.id, { on_hand: 13, updated_at: 5 }));
      await ctx.tx((tx) =>
        updateInventory(tx, scope, a.id, { safety_stock: 4, track_inventory: true, updated_at: 6 }),
      );
      expect(await item(a.id)).toMatchObject({ on_hand: 13, safety_stock: 4, updated_at: 6, version: 2 });
      // Refused, rolled back or missed: no write, no version.
      expect(await ctx.tx((tx) => adjustInventory(tx, scope, a.id, -12, 7))).toEqual({
        refused: 'below_reserved',
      });
      await expect(
        ctx.tx(async (tx) => {
          await adjustInventory(tx, scope, a.id, 1, 7);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const stale = {
        variant_id: a.variant_id,
        expect: { on_hand: 99, reserved: 2, track_inventory: true, allow_backorder: false },
        set: { on_hand: 98, reserved: 2 },
      };
      expect(await ctx.tx((tx) => tx.inventory.apply(scope, [stale], 7))).toEqual([a.variant_id]);
      expect(await item(a.id)).toMatchObject({ on_hand: 13, reserved: 2, version: 2 });

      // One statement writing both rows moves each by one; release and ship move it too.
      await ctx.tx((tx) =>
        reserveInventory(
          tx,
          scope,
          [
            { variant_id: a.variant_id, quantity: 1 },
            { variant_id: b.variant_id, quantity: 1 },
          ],
          8,
        ),
      );
      await ctx.tx((tx) => releaseInventory(tx, scope, [{ variant_id: a.variant_id, quantity: 1 }], 9));
      await ctx.tx((tx) =>
        shipInventory(tx, scope, [{ variant_id: b.variant_id, quantity: 1, from_reserved: 1 }], 10),
      );
      const listed = await ctx.read((r) =>
        r.inventory.list(scope, {}, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(
        Object.fromEntries(
          listed.data.map((i) => [i.id, { sku: i.sku, version: i.version, reserved: i.reserved }]),
        ),
      ).toEqual({
        [a.id]: { sku: 'SKU-VERSION-A', version: 4, reserved: 2 },
        [b.id]: { sku: null, version: 2, reserved: 0 },
      });
      // The filtered list (another statement) carries them too.
      const low = await ctx.read((r) =>
        r.inventory.list(scope, LOW, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(low.data.map((i) => [i.id, i.sku, i.version])).toEqual([]);
      await ctx.tx((tx) => updateInventory(tx, scope, b.id, { safety_stock: 9, updated_at: 11 }));
      const lowAfter = await ctx.read((r) =>
        r.inventory.list(scope, LOW, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(lowAfter.data.map((i) => [i.id, i.sku, i.version])).toEqual([[b.id, null, 2]]);

      // Scope and deleted variants: absent.
      expect(await ctx.read((r) => r.inventory.getItem(otherMode(scope), a.id))).toBeNull();
      await ctx.tx((tx) => tx.products.deleteVariant(scope, a.variant_id, 12));
      expect(await item(a.id)).toBeNull();
    });

    it('on_hand_at_most [safety_stock, reserved] follows every movement across the threshold (reserve, release, adjust, settings), with keyset pages and total_count', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2, 3, 4] }); // on_hand 10 each
      const row = (i: number) => product.variants[i]!.inventory;
      const [a, b, c, d] = [row(0), row(1), row(2), row(3)];
      const lowIds = async (order: 'asc' | 'desc' = 'asc') => {
        const ids: string[] = [];
        let after: string | undefined;
        let total = -1;
        for (;;) {
          const page = await ctx.read((r) =>
            r.inventory.list(scope, LOW, {
              limit: 1,
              sort: 'created_at',
              order,
              ...(after && { starting_after: after }),
            }),
          );
          total = page.total_count;
          ids.push(...page.data.map((i) => i.id));
          if (!page.has_more) break;
          after = page.next_cursor ?? undefined;
        }
        expect(total).toBe(ids.length);
        return ids;
      };
      // Equal created_at: the keyset order is by id.
      const ordered = (...items: { id: string }[]) => items.map((i) => i.id).sort();
      expect(await lowIds()).toEqual([]);
      await ctx.tx(async (tx) => {
        await updateInventory(tx, scope, a.id, { safety_stock: 4, updated_at: 2 });
        await updateInventory(tx, scope, b.id, { safety_stock: 4, updated_at: 2 });
        await updateInventory(tx, scope, c.id, { safety_stock: 10, updated_at: 2 }); // 10 ≤ 10: low
      });
      expect(await lowIds()).toEqual(ordered(c));
      // Reserving 6 of a leaves 4 available: at the bound, low. 5 of b leaves 5: not low.
      await ctx.tx((tx) =>
        reserveInventory(
          tx,
          scope,
          [
            { variant_id: a.variant_id, quantity: 6 },
            { variant_id: b.variant_id, quantity: 5 },
          ],
          3,
        ),
      );
      expect(await lowIds()).toEqual(ordered(a, c));
      expect(await lowIds('desc')).toEqual(ordered(a, c).reverse());
      await ctx.tx((tx) => reserveInventory(tx, scope, [{ variant_id: b.variant_id, quantity: 1 }], 4));
      expect(await lowIds()).toEqual(ordered(a, b, c));
      // Back above: a released, c restocked by an adjustment; d's safety stock raised over it.
      await ctx.tx(async (tx) => {
        await releaseInventory(tx, scope, [{ variant_id: a.variant_id, quantity: 1 }], 5);
        await adjustInventory(tx, scope, c.id, 1, 5);
        await updateInventory(tx, scope, d.id, { safety_stock: 11, updated_at: 5 });
      });
      expect(await lowIds()).toEqual(ordered(b, d));
      // A rolled-back movement leaves the list as it was.
      await expect(
        ctx.tx(async (tx) => {
          await reserveInventory(tx, scope, [{ variant_id: a.variant_id, quantity: 5 }], 6);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await lowIds()).toEqual(ordered(b, d));
      expect(
        (
          await ctx.read((r) =>
            r.inventory.list(otherMode(scope), LOW, { limit: 10, sort: 'created_at', order: 'asc' }),
          )
        ).total_count,
      ).toBe(0);
    });

    it('on_hand_at_most compares on_hand with the sum of the named columns of the same row, whatever the columns', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2, 3, 4] }); // on_hand 10 each
      const [a, b, c, d] = product.variants.map((v) => v.inventory);
      await ctx.tx(async (tx) => {
        await reserveInventory(tx, scope, [{ variant_id: a!.variant_id, quantity: 10 }], 2); // reserved 10
        await reserveInventory(tx, scope, [{ variant_id: b!.variant_id, quantity: 4 }], 2); // reserved 4
        await updateInventory(tx, scope, b!.id, { safety_stock: 6, updated_at: 2 }); // 10 ≤ 6 + 4
        await updateInventory(tx, scope, c!.id, { safety_stock: 10, updated_at: 2 }); // 10 ≤ 10 + 0
        await adjustInventory(tx, scope, d!.id, -10, 2); // on_hand 0
      });
      const ids = async (columns: ReadonlyArray<'safety_stock' | 'reserved'>) => {
        const page = await ctx.read((r) =>
          r.inventory.list(
            scope,
            { on_hand_at_most: columns },
            { limit: 10, sort: 'created_at', order: 'asc' },
          ),
        );
        expect(page.total_count).toBe(page.data.length);
        return page.data.map((i) => i.id).sort();
      };
      const sorted = (...rows: Array<{ id: string } | undefined>) => rows.map((row) => row!.id).sort();
      expect(await ids(['safety_stock', 'reserved'])).toEqual(sorted(a, b, c, d));
      expect(await ids(['reserved', 'safety_stock'])).toEqual(sorted(a, b, c, d));
      expect(await ids(['reserved'])).toEqual(sorted(a, d)); // available ≤ 0
      expect(await ids(['safety_stock'])).toEqual(sorted(c, d));
      expect(await ids([])).toEqual(sorted(d)); // on_hand ≤ 0
      expect(
        (await ctx.read((r) => r.inventory.list(scope, {}, { limit: 10, sort: 'created_at', order: 'asc' })))
          .total_count,
      ).toBe(4);
    });

    it('update sets settings and an absolute on_hand, but never below reserved (refused, unchanged)', async () => {
      const scope = newScope();
      const product = await setup(scope);
      const inv = product.variants[0]!.inventory;
      await ctx.tx((tx) => reserveInventory(tx, scope, [{ variant_id: inv.variant_id, quantity: 4 }], 2));
      const change = await ctx.tx((tx) =>
        updateInventory(tx, scope, inv.id, {
          on_hand: 4,
          allow_backorder: true,
          track_inventory: true,
          safety_stock: 1,
          metadata: { bin: 'A-1' },
          updated_at: 3,
        }),
      );
      expect(change).toEqual({
        before: { ...inv, reserved: 4, updated_at: 2 },
        after: {
          ...inv,
          reserved: 4,
          on_hand: 4,
          allow_backorder: true,
          safety_stock: 1,
          metadata: { bin: 'A-1' },
          updated_at: 3,
        },
      });
      expect(await ctx.tx((tx) => updateInventory(tx, scope, inv.id, { on_hand: 3, updated_at: 4 }))).toEqual(
        {
          refused: 'below_reserved',
        },
      );
      expect(await ctx.read((r) => r.inventory.get(scope, inv.id))).toMatchObject({
        on_hand: 4,
        updated_at: 3,
      });
      expect(
        await ctx.tx((tx) => updateInventory(tx, scope, 'inv_missing', { on_hand: 1, updated_at: 4 })),
      ).toBeNull();
      expect(
        await ctx.tx((tx) => updateInventory(tx, otherMode(scope), inv.id, { on_hand: 9, updated_at: 4 })),
      ).toBeNull();
    });

    it('adjust adds a signed delta atomically, guarded by on_hand + delta ≥ reserved', async () => {
      const scope = newScope();
      const inv = (await setup(scope)).variants[0]!.inventory;
      await ctx.tx((tx) => reserveInventory(tx, scope, [{ variant_id: inv.variant_id, quantity: 6 }], 2));
      const plus = await ctx.tx((tx) => adjustInventory(tx, scope, inv.id, 5, 3));
      expect(plus).toMatchObject({
        before: { on_hand: 10, reserved: 6 },
        after: { on_hand: 15, reserved: 6, updated_at: 3 },
      });
      expect(await ctx.tx((tx) => adjustInventory(tx, scope, inv.id, -9, 4))).toMatchObject({
        after: { on_hand: 6 },
      });
      expect(await ctx.tx((tx) => adjustInventory(tx, scope, inv.id, -1, 5))).toEqual({
        refused: 'below_reserved',
      });
      expect(await ctx.read((r) => r.inventory.get(scope, inv.id))).toMatchObject({
        on_hand: 6,
        reserved: 6,
      });
      expect(await ctx.tx((tx) => adjustInventory(tx, scope, 'inv_missing', 1, 5))).toBeNull();
    });

    it('reserve: tracked rows move (before/after), untracked are reported unchanged, backorder may oversell', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2, 3], on_hand: 2 });
      const [tracked, untracked, backorder] = product.variants.map((v) => v.inventory);
      await ctx.tx(async (tx) => {
        await updateInventory(tx, scope, untracked!.id, { track_inventory: false, updated_at: 1 });
        await updateInventory(tx, scope, backorder!.id, { allow_backorder: true, updated_at: 1 });
      });
      const result = await ctx.tx((tx) =>
        reserveInventory(
          tx,
          scope,
          [
            { variant_id: tracked!.variant_id, quantity: 1 },
            { variant_id: untracked!.variant_id, quantity: 50 },
            { variant_id: backorder!.variant_id, quantity: 5 },
            { variant_id: tracked!.variant_id, quantity: 1 },
          ],
          7,
        ),
      );
      if (!result.ok) throw new Error('expected ok');
      const [first, second, third, fourth] = result.changes;
      expect(first).toMatchObject({ before: { reserved: 0 }, after: { reserved: 1, updated_at: 7 } });
      expect(second?.before).toBe(second?.after);
      expect(second?.after).toMatchObject({ reserved: 0, track_inventory: false });
      expect(third).toMatchObject({ before: { reserved: 0 }, after: { reserved: 5, on_hand: 2 } });
      expect(fourth).toMatchObject({ before: { reserved: 1 }, after: { reserved: 2 } });
      expect(await ctx.read((r) => r.inventory.get(scope, untracked!.id))).toMatchObject({ reserved: 0 });
    });

    it('reserve refuses with the available quantity; the caller rolls back, so earlier movements vanish', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2], on_hand: 3 });
      const [a, b] = product.variants.map((v) => v.inventory);
      const refused = await ctx
        .tx(async (tx) => {
          const result = await reserveInventory(
            tx,
            scope,
            [
              { variant_id: a!.variant_id, quantity: 2 },
              { variant_id: b!.variant_id, quantity: 4 },
            ],
            5,
          );
          if (!result.ok) throw Object.assign(new Error('refused'), { refused: result.refused });
          return result;
        })
        .catch((error: { refused: unknown }) => error.refused);
      expect(refused).toEqual({ variant_id: b!.variant_id, requested: 4, available: 3 });
      expect(await ctx.read((r) => r.inventory.get(scope, a!.id))).toMatchObject({ reserved: 0 });
      const missing = await ctx.tx((tx) =>
        reserveInventory(tx, scope, [{ variant_id: 'var_missing', quantity: 1 }], 5),
      );
      expect(missing).toEqual({
        ok: false,
        refused: { variant_id: 'var_missing', requested: 1, available: 0 },
      });
      const foreign = await ctx.tx((tx) =>
        reserveInventory(tx, otherMode(scope), [{ variant_id: a!.variant_id, quantity: 1 }], 5),
      );
      expect(foreign.ok).toBe(false);
    });

    it('reserve with `current` (rows read earlier in the transaction): same changes as without, before = those rows', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2, 3], on_hand: 5 });
      const [tracked, untracked, other] = product.variants.map((v) => v.inventory);
      await ctx.tx((tx) =>
        updateInventory(tx, scope, untracked!.id, { track_inventory: false, updated_at: 1 }),
      );
      const movements = [
        { variant_id: tracked!.variant_id, quantity: 2 },
        { variant_id: untracked!.variant_id, quantity: 9 },
        { variant_id: tracked!.variant_id, quantity: 1 },
        { variant_id: other!.variant_id, quantity: 5 },
      ];
      const { read, result } = await ctx.tx(async (tx) => {
        const read = await tx.inventory.get(scope, {
          variant_ids: [tracked!.variant_id, untracked!.variant_id, other!.variant_id],
        });
        return { read, result: await reserveInventory(tx, scope, movements, 8, read) };
      });
      if (!result.ok) throw new Error('expected ok');
      const byVariant = new Map(read.map((row) => [row.variant_id, row]));
      expect(result.changes.map((c) => [c.before, c.after.reserved, c.after.updated_at])).toEqual([
        [byVariant.get(tracked!.variant_id), 2, 8],
        [byVariant.get(untracked!.variant_id), 0, 1],
        [{ ...byVariant.get(tracked!.variant_id), reserved: 2, updated_at: 8 }, 3, 8],
        [byVariant.get(other!.variant_id), 5, 8],
      ]);
      expect(result.changes[3]?.after).toEqual({
        ...byVariant.get(other!.variant_id),
        reserved: 5,
        updated_at: 8,
      });
      const stored = await ctx.read((r) =>
        r.inventory.get(scope, { variant_ids: [tracked!.variant_id, other!.variant_id] }),
      );
      expect(stored.map((row) => row.reserved).sort()).toEqual([3, 5]);
    });

    it('reserve with stale `current` never oversells: refusals and before come from the rows as they are', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2], on_hand: 4 });
      const [a, b] = product.variants.map((v) => v.inventory);
      // `current` says 4 available, the row holds 1: the guard refuses, reported with the real 1.
      const refused = await ctx
        .tx(async (tx) => {
          const read = await tx.inventory.get(scope, { variant_ids: [a!.variant_id, b!.variant_id] });
          await updateInventory(tx, scope, a!.id, { on_hand: 1, updated_at: 2 });
          const result = await reserveInventory(
            tx,
            scope,
            [
              { variant_id: b!.variant_id, quantity: 1 },
              { variant_id: a!.variant_id, quantity: 3 },
            ],
            3,
            read,
          );
          if (!result.ok) throw Object.assign(new Error('refused'), { refused: result.refused });
          return result;
        })
        .catch((error: { refused: unknown }) => error.refused);
      expect(refused).toEqual({ variant_id: a!.variant_id, requested: 3, available: 1 });
      expect(await ctx.read((r) => r.inventory.get(scope, b!.id))).toMatchObject({ reserved: 0, on_hand: 4 });
      // `current` says 0 available, the row holds 4: reserved all the same.
      const short = { ...a!, on_hand: 0 };
      const ok = await ctx.tx((tx) =>
        reserveInventory(tx, scope, [{ variant_id: a!.variant_id, quantity: 4 }], 4, [short]),
      );
      expect(ok).toMatchObject({
        ok: true,
        changes: [{ before: { reserved: 0, on_hand: 4 }, after: { reserved: 4 } }],
      });
      // `current` has an old `reserved` (the row moved since): before and after are what the row held.
      const old = await ctx.read((r) => r.inventory.get(scope, b!.id));
      await ctx.tx((tx) => reserveInventory(tx, scope, [{ variant_id: b!.variant_id, quantity: 1 }], 5));
      const moved = await ctx.tx((tx) =>
        reserveInventory(tx, scope, [{ variant_id: b!.variant_id, quantity: 2 }], 6, [old!]),
      );
      expect(moved).toMatchObject({
        ok: true,
        changes: [{ before: { reserved: 1 }, after: { reserved: 3, updated_at: 6 } }],
      });
      // More than is there, with `current` claiming enough: refused, nothing moved.
      const over = await ctx.tx((tx) =>
        reserveInventory(tx, scope, [{ variant_id: b!.variant_id, quantity: 2 }], 7, [
          { ...old!, on_hand: 100 },
        ]),
      );
      expect(over).toEqual({ ok: false, refused: { variant_id: b!.variant_id, requested: 2, available: 1 } });
    });

    it('release (never below 0), ship (on_hand and reserved), restock; untracked rows move only the units reserved', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2] });
      const [inv, untracked] = product.variants.map((v) => v.inventory);
      await ctx.tx(async (tx) => {
        await updateInventory(tx, scope, untracked!.id, { track_inventory: false, updated_at: 1 });
        await reserveInventory(tx, scope, [{ variant_id: inv!.variant_id, quantity: 6 }], 2);
      });
      const v = inv!.variant_id;
      const shipped = await ctx.tx((tx) =>
        shipInventory(
          tx,
          scope,
          [
            { variant_id: v, quantity: 2, from_reserved: 2 },
            // Never reserved (untracked): nothing moves.
            { variant_id: untracked!.variant_id, quantity: 2, from_reserved: 0 },
          ],
          3,
        ),
      );
      expect(shipped).toEqual([
        {
          before: expect.objectContaining({ on_hand: 10, reserved: 6 }),
          after: expect.objectContaining({ on_hand: 8, reserved: 4, updated_at: 3 }),
        },
      ]);
      const released = await ctx.tx((tx) => releaseInventory(tx, scope, [{ variant_id: v, quantity: 1 }], 4));
      expect(released[0]?.after).toMatchObject({ reserved: 3, on_hand: 8 });
      const restocked = await ctx.tx((tx) =>
        restockInventory(tx, scope, [{ variant_id: v, from_reserved: 1, to_on_hand: 2 }], 5),
      );
      expect(restocked[0]).toMatchObject({
        before: { reserved: 3, on_hand: 8 },
        after: { reserved: 2, on_hand: 10 },
      });
      const clamped = await ctx.tx((tx) => releaseInventory(tx, scope, [{ variant_id: v, quantity: 99 }], 6));
      expect(clamped[0]?.after).toMatchObject({ reserved: 0, on_hand: 10 });
      expect(
        await ctx.tx((tx) =>
          releaseInventory(tx, scope, [{ variant_id: untracked!.variant_id, quantity: 1 }], 7),
        ),
      ).toEqual([]);
    });

    it('a reservation is given back exactly after tracking was switched off: release, ship, restock (issue 19)', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1] });
      const inv = product.variants[0]!.inventory;
      const v = inv.variant_id;
      await ctx.tx((tx) => reserveInventory(tx, scope, [{ variant_id: v, quantity: 6 }], 2));
      await ctx.tx((tx) => updateInventory(tx, scope, inv.id, { track_inventory: false, updated_at: 3 }));
      const released = await ctx.tx((tx) => releaseInventory(tx, scope, [{ variant_id: v, quantity: 2 }], 4));
      expect(released).toEqual([
        {
          before: expect.objectContaining({ reserved: 6, on_hand: 10, track_inventory: false }),
          after: expect.objectContaining({ reserved: 4, on_hand: 10, updated_at: 4 }),
        },
      ]);
      // 3 shipped, 2 of them reserved: those leave on_hand and reserved; the third is not counted.
      const shipped = await ctx.tx((tx) =>
        shipInventory(tx, scope, [{ variant_id: v, quantity: 3, from_reserved: 2 }], 5),
      );
      expect(shipped[0]?.after).toMatchObject({ reserved: 2, on_hand: 8 });
      // Restock: reserved units leave reserved; units back to on_hand only while tracked.
      const restocked = await ctx.tx((tx) =>
        restockInventory(tx, scope, [{ variant_id: v, from_reserved: 1, to_on_hand: 5 }], 6),
      );
      expect(restocked[0]?.after).toMatchObject({ reserved: 1, on_hand: 8 });
      await ctx.tx((tx) => updateInventory(tx, scope, inv.id, { track_inventory: true, updated_at: 7 }));
      // Tracked again: units never reserved leave on_hand only; other orders' reservations stay.
      const again = await ctx.tx((tx) =>
        shipInventory(tx, scope, [{ variant_id: v, quantity: 2, from_reserved: 0 }], 8),
      );
      expect(again[0]?.after).toMatchObject({ reserved: 1, on_hand: 6 });
      expect(await ctx.read((r) => r.inventory.get(scope, inv.id))).toMatchObject({
        reserved: 1,
        on_hand: 6,
      });
    });

    it('apply: a compare-and-set per row — every row as expected → all written; one stale expectation → none written, the stale one named', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2], on_hand: 5 });
      const [a, b] = product.variants.map((v) => v.inventory);
      const levels = { on_hand: 5, reserved: 0, track_inventory: true, allow_backorder: false };
      expect(
        await ctx.tx((tx) =>
          tx.inventory.apply(
            scope,
            [
              { variant_id: a!.variant_id, expect: levels, set: { on_hand: 5, reserved: 2 } },
              { variant_id: b!.variant_id, expect: levels, set: { on_hand: 4, reserved: 0 } },
            ],
            9,
          ),
        ),
      ).toEqual([]);
      expect(await ctx.read((r) => r.inventory.get(scope, a!.id))).toMatchObject({
        on_hand: 5,
        reserved: 2,
        updated_at: 9,
      });
      expect(await ctx.read((r) => r.inventory.get(scope, b!.id))).toMatchObject({
        on_hand: 4,
        reserved: 0,
        updated_at: 9,
      });
      // a as expected, b stale (it holds on_hand 4 now): nothing is written, b is named.
      const missed = await ctx.tx((tx) =>
        tx.inventory.apply(
          scope,
          [
            {
              variant_id: a!.variant_id,
              expect: { ...levels, reserved: 2 },
              set: { on_hand: 5, reserved: 5 },
            },
            { variant_id: b!.variant_id, expect: levels, set: { on_hand: 5, reserved: 5 } },
          ],
          10,
        ),
      );
      expect(missed).toEqual([b!.variant_id]);
      expect(await ctx.read((r) => r.inventory.get(scope, a!.id))).toMatchObject({
        reserved: 2,
        updated_at: 9,
      });
      expect(await ctx.read((r) => r.inventory.get(scope, b!.id))).toMatchObject({ reserved: 0, on_hand: 4 });
      // Every field of `expect` is compared: the flags too.
      for (const stale of [
        { ...levels, reserved: 2, track_inventory: false },
        { ...levels, reserved: 2, allow_backorder: true },
        { ...levels, reserved: 3 },
        { ...levels, reserved: 2, on_hand: 6 },
      ]) {
        expect(
          await ctx.tx((tx) =>
            tx.inventory.apply(
              scope,
              [{ variant_id: a!.variant_id, expect: stale, set: { on_hand: 1, reserved: 1 } }],
              11,
            ),
          ),
        ).toEqual([a!.variant_id]);
      }
      // Unknown variants and other scopes miss too.
      expect(
        await ctx.tx((tx) =>
          tx.inventory.apply(scope, [{ variant_id: 'var_missing', expect: levels, set: levels }], 11),
        ),
      ).toEqual(['var_missing']);
      expect(
        await ctx.tx((tx) =>
          tx.inventory.apply(
            otherMode(scope),
            [{ variant_id: a!.variant_id, expect: { ...levels, reserved: 2 }, set: levels }],
            11,
          ),
        ),
      ).toEqual([a!.variant_id]);
      expect(await ctx.read((r) => r.inventory.get(scope, a!.id))).toMatchObject({
        on_hand: 5,
        reserved: 2,
        updated_at: 9,
      });
      expect(await ctx.tx((tx) => tx.inventory.apply(scope, [], 12))).toEqual([]);
    });

    it('apply over more rows than one statement carries: all or nothing', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: Array.from({ length: 60 }, (_, i) => i + 1), on_hand: 3 });
      const levels = { on_hand: 3, reserved: 0, track_inventory: true, allow_backorder: false };
      const writes = product.variants.map((v) => ({
        variant_id: v.id,
        expect: levels,
        set: { on_hand: 3, reserved: 1 },
      }));
      const last = writes[59]!;
      const stale = [...writes.slice(0, 59), { ...last, expect: { ...levels, reserved: 1 } }];
      expect(await ctx.tx((tx) => tx.inventory.apply(scope, stale, 2))).toEqual([last.variant_id]);
      const ids = product.variants.map((v) => v.id);
      const untouched = await ctx.read((r) => r.inventory.get(scope, { variant_ids: ids }));
      expect(untouched.every((row) => row.reserved === 0)).toBe(true);
      expect(await ctx.tx((tx) => tx.inventory.apply(scope, writes, 3))).toEqual([]);
      const written = await ctx.read((r) => r.inventory.get(scope, { variant_ids: ids }));
      expect(written.every((row) => row.reserved === 1 && row.updated_at === 3)).toBe(true);
    });

    it('get by id and by variant ids with `lock` read the same rows; updateSettings changes settings only', async () => {
      const scope = newScope();
      const product = await setup(scope, { prices: [1, 2] });
      const [a, b] = product.variants.map((v) => v.inventory);
      const locked = await ctx.tx(async (tx) => ({
        one: await tx.inventory.get(scope, a!.id, { lock: true }),
        many: await tx.inventory.get(
          scope,
          { variant_ids: [b!.variant_id, a!.variant_id, 'var_missing'] },
          { lock: true },
        ),
      }));
      expect(locked.one).toEqual(a);
      expect(locked.many.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [a, b].sort((x, y) => x!.id.localeCompare(y!.id)),
      );
      const after = await ctx.tx((tx) =>
        tx.inventory.updateSettings(scope, a!.id, {
          track_inventory: false,
          allow_backorder: true,
          safety_stock: 3,
          metadata: { bin: 'B' },
          updated_at: 4,
        }),
      );
      expect(after).toEqual({
        ...a,
        track_inventory: false,
        allow_backorder: true,
        safety_stock: 3,
        metadata: { bin: 'B' },
        updated_at: 4,
      });
      expect(
        await ctx.tx((tx) => tx.inventory.updateSettings(scope, 'inv_missing', { updated_at: 5 })),
      ).toBeNull();
      expect(
        await ctx.tx((tx) => tx.inventory.updateSettings(otherMode(scope), a!.id, { updated_at: 5 })),
      ).toBeNull();
    });
  });
}
