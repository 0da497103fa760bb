import type { Scope } from '@cartwright/core';
import { type EventPayload, reserveInventory } from '@cartwright/core/internal';
import type { InventoryRecord, ProductAggregate } from '@cartwright/core/storage';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import { outboxEvent } from './support/outbox';

/**
 * Inventory administration over real HTTP (docs/contract.md#list-filters, #inventory): list with `low_stock`, get,
 * patch, atomic adjust, the `on_hand ≥ reserved` guard, threshold events in the outbox, mode
 * isolation. Stock records are set up through the storage port (a product with one variant, and
 * reservations as checkout makes them), so these tests depend on no other area's endpoints.
 */

interface Levels {
  on_hand: number;
  reserved?: number;
  safety_stock?: number;
  track_inventory?: boolean;
  allow_backorder?: boolean;
  metadata?: Record<string, string>;
}

let counter = 0;
/** Fixture times strictly increase, so "newest first" is unambiguous whatever the ids. */
let lastFixtureTime = 0;

/** A stock record as set up, with its variant's SKU and its level's version (decisions §22). */
type StockItem = InventoryRecord & { sku: string; version: number };

/**
 * Inserts a product with one variant and its inventory record, then reserves `reserved` units
 * (a stock change: the level's version goes from 0 to 1).
 */
async function stockItem(api: TestApi, levels: Levels, scope: Scope = api.scope): Promise<StockItem> {
  const { ids } = api.engine.context;
  const now = Math.max(Date.now(), lastFixtureTime + 1);
  lastFixtureTime = now;
  const productId = ids.next('prod');
  const variantId = ids.next('var');
  const inventory: InventoryRecord = {
    id: ids.next('inv'),
    store_id: scope.store_id,
    mode: scope.mode,
    variant_id: variantId,
    product_id: productId,
    track_inventory: levels.track_inventory ?? true,
    allow_backorder: levels.allow_backorder ?? false,
    safety_stock: levels.safety_stock ?? 0,
    on_hand: levels.on_hand,
    reserved: 0,
    metadata: levels.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
  const n = ++counter;
  const sku = `SKU-${n}-${now.toString(36)}`;
  const product: ProductAggregate = {
    id: productId,
    store_id: scope.store_id,
    mode: scope.mode,
    name: `Stock item ${n}`,
    slug: `stock-item-${n}-${now.toString(36)}`,
    description: null,
    type: 'physical',
    status: 'active',
    tags: [],
    attributes: {},
    metadata: {},
    price: 1000,
    currency: 'USD',
    created_at: now,
    updated_at: now,
    options: [],
    images: [],
    variants: [
      {
        id: variantId,
        store_id: scope.store_id,
        mode: scope.mode,
        product_id: productId,
        sku,
        barcode: null,
        price: 1000,
        compare_at_price: null,
        cost_price: null,
        currency: 'USD',
        weight: null,
        width: null,
        height: null,
        depth: null,
        is_active: true,
        option_value_ids: [],
        position: 0,
        metadata: {},
        created_at: now,
        updated_at: now,
        inventory,
      },
    ],
  };
  await api.engine.storage.transaction(async (tx) => {
    await tx.products.insert(product);
    if (levels.reserved) {
      const result = await reserveInventory(
        tx,
        scope,
        [{ variant_id: variantId, quantity: levels.reserved }],
        now,
      );
      if (!result.ok) throw new Error('fixture: reservation refused');
    }
  });
  return { ...inventory, reserved: levels.reserved ?? 0, sku, version: levels.reserved ? 1 : 0 };
}

/** The inventory events published while `act` runs, each checked to be in the outbox. */
async function inventoryEventsDuring(api: TestApi, act: () => Promise<unknown>): Promise<EventPayload[]> {
  const seen: EventPayload[] = [];
  const offs = (['inventory.low', 'inventory.out_of_stock'] as const).map((type) =>
    api.engine.events.on(type, (event) => {
      if (event.mode === 'test') seen.push(event);
    }),
  );
  try {
    await act();
  } finally {
    for (const off of offs) off();
  }
  for (const event of seen) {
    const stored = await outboxEvent(api, event.id);
    expect(stored?.type).toBe(event.type);
    expect(stored?.data).toEqual(event.data);
  }
  return seen;
}

/** The InventoryItem `/v1/admin/inventory` shows (decisions §22): the record, its SKU, its one level. */
const adminView = (record: StockItem) => ({
  id: record.id,
  variant_id: record.variant_id,
  sku: record.sku,
  track_inventory: record.track_inventory,
  allow_backorder: record.allow_backorder,
  safety_stock: record.safety_stock,
  on_hand: record.on_hand,
  reserved: record.reserved,
  available: record.on_hand - record.reserved,
  metadata: record.metadata,
  levels: [
    {
      id: `ilvl_${record.id.slice('inv_'.length)}`,
      location_id: 'sloc_default',
      on_hand: record.on_hand,
      reserved: record.reserved,
      available: record.on_hand - record.reserved,
      version: record.version,
    },
  ],
});

/** An inventory event's data: the Inventory of the spec (without the item's `sku` and `levels`). */
const inventoryOf = (item: unknown) => {
  const { sku: _sku, levels: _levels, ...inventory } = item as Record<string, unknown>;
  return inventory;
};

describeApi('inventory', (api) => {
  // ------------------------------------------------------------------ read

  test('GET /v1/admin/inventory/{id} shows the admin view: on_hand 10, reserved 3 → available 7', async () => {
    const item = await stockItem(api(), {
      on_hand: 10,
      reserved: 3,
      safety_stock: 2,
      metadata: { bin: 'A1' },
    });
    const r = await api().get(`/v1/admin/inventory/${item.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(adminView(item));
    expect(r.body.available).toBe(7);
  });

  test('unknown id and a live-mode record → 404 not_found for the test key', async () => {
    const missing = await api().get('/v1/admin/inventory/inv_missing');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });

    const live = await stockItem(api(), { on_hand: 5 }, api().liveScope);
    for (const r of [
      await api().get(`/v1/admin/inventory/${live.id}`),
      await api().patch(`/v1/admin/inventory/${live.id}`, { on_hand: 1 }),
      await api().post(`/v1/admin/inventory/${live.id}/adjust`, { quantity: 1 }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const list = await api().get('/v1/admin/inventory?limit=100');
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(live.id);
    const fromLive = await api().get(`/v1/admin/inventory/${live.id}`, { key: api().keys.liveSecret });
    expect(fromLive.body.on_hand).toBe(5);
  });

  test('a publishable key on admin inventory → 403 forbidden', async () => {
    const item = await stockItem(api(), { on_hand: 1 });
    for (const r of [
      await api().storefront.get('/v1/admin/inventory'),
      await api().storefront.get(`/v1/admin/inventory/${item.id}`),
      await api().storefront.patch(`/v1/admin/inventory/${item.id}`, { on_hand: 2 }),
      await api().storefront.post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: 1 }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
    }
  });

  test('GET /v1/admin/inventory lists newest first with cursor pagination', async () => {
    const a = await stockItem(api(), { on_hand: 1 });
    const b = await stockItem(api(), { on_hand: 2 });
    const first = await api().get('/v1/admin/inventory?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([adminView(b)]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: b.id });
    expect(first.body.total_count).toBeGreaterThanOrEqual(2);
    const second = await api().get(`/v1/admin/inventory?limit=1&starting_after=${first.body.next_cursor}`);
    expect(second.body.data).toEqual([adminView(a)]);
  });

  test('low_stock=true keeps available ≤ safety_stock (bound inclusive); false filters nothing', async () => {
    const above = await stockItem(api(), { on_hand: 10, reserved: 2, safety_stock: 5 }); // 8 > 5
    const equal = await stockItem(api(), { on_hand: 10, reserved: 5, safety_stock: 5 }); // 5 = 5
    const below = await stockItem(api(), { on_hand: 3, safety_stock: 5 }); // 3 < 5
    const zero = await stockItem(api(), { on_hand: 0 }); // 0 ≤ 0

    const low = await api().get('/v1/admin/inventory?low_stock=true&limit=100');
    expect(low.status).toBe(200);
    const lowIds = low.body.data.map((x: { id: string }) => x.id);
    expect(lowIds).toEqual(expect.arrayContaining([equal.id, below.id, zero.id]));
    expect(lowIds).not.toContain(above.id);
    for (const item of low.body.data) expect(item.available).toBeLessThanOrEqual(item.safety_stock);

    const all = await api().get('/v1/admin/inventory?low_stock=false&limit=100');
    expect(all.body.data.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining([above.id, equal.id, below.id, zero.id]),
    );
    expect(all.body.total_count).toBeGreaterThan(low.body.total_count);
  });

  test('list query errors: low_stock=yes → 400 parameter_invalid; limit=0 → 400', async () => {
    const bad = await api().get('/v1/admin/inventory?low_stock=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'low_stock' });
    const limit = await api().get('/v1/admin/inventory?limit=0');
    expect(limit.status).toBe(400);
    expect(limit.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });

  // ------------------------------------------------------------------ patch

  test('PATCH /v1/admin/inventory/{id} sets the settings, replaces metadata and sets on_hand absolutely', async () => {
    const item = await stockItem(api(), { on_hand: 10, reserved: 2, metadata: { bin: 'A1' } });
    const r = await api().patch(`/v1/admin/inventory/${item.id}`, {
      track_inventory: true,
      allow_backorder: true,
      safety_stock: 4,
      on_hand: 25,
      metadata: { shelf: '3' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(
      adminView({
        ...item,
        allow_backorder: true,
        safety_stock: 4,
        on_hand: 25,
        metadata: { shelf: '3' },
        version: item.version + 1,
      }),
    );
    expect(r.body).toMatchObject({ available: 23, levels: [{ on_hand: 25, reserved: 2, available: 23 }] });
    expect((await api().get(`/v1/admin/inventory/${item.id}`)).body).toEqual(r.body);
  });

  test('PATCH on_hand below reserved → 422 insufficient_inventory on on_hand, nothing changed; = reserved is allowed', async () => {
    const item = await stockItem(api(), { on_hand: 10, reserved: 4, safety_stock: 1 });
    const r = await api().patch(`/v1/admin/inventory/${item.id}`, { on_hand: 3, safety_stock: 0 });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'insufficient_inventory',
      param: 'on_hand',
    });
    expect((await api().get(`/v1/admin/inventory/${item.id}`)).body).toEqual(adminView(item));

    const exact = await api().patch(`/v1/admin/inventory/${item.id}`, { on_hand: 4 });
    expect(exact.status).toBe(200);
    expect(exact.body).toMatchObject({ on_hand: 4, reserved: 4, available: 0 });
  });

  test('PATCH validation: negative on_hand / safety_stock → 400 parameter_invalid; reserved is not settable → parameter_unknown', async () => {
    const item = await stockItem(api(), { on_hand: 1 });
    for (const body of [
      { on_hand: -1 },
      { safety_stock: -2 },
      { on_hand: 1.5 },
      { track_inventory: 'yes' },
    ]) {
      const r = await api().patch(`/v1/admin/inventory/${item.id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'parameter_invalid', param: Object.keys(body)[0] });
    }
    const reserved = await api().patch(`/v1/admin/inventory/${item.id}`, { reserved: 0 });
    expect(reserved.status).toBe(400);
    expect(reserved.body.error).toMatchObject({ code: 'parameter_unknown', param: 'reserved' });
    const missing = await api().patch('/v1/admin/inventory/inv_missing', { on_hand: 1 });
    expect(missing.status).toBe(404);
  });

  test('PATCH that moves available to safety stock and to zero emits inventory.low and inventory.out_of_stock', async () => {
    const item = await stockItem(api(), { on_hand: 10, reserved: 2, safety_stock: 3 });
    let body: unknown;
    const events = await inventoryEventsDuring(api(), async () => {
      body = (await api().patch(`/v1/admin/inventory/${item.id}`, { on_hand: 2 })).body;
    });
    expect(events.map((e) => e.type)).toEqual(['inventory.low', 'inventory.out_of_stock']);
    expect(events[0]?.data).toEqual(inventoryOf(body));

    // Raising the safety stock over available fires inventory.low on its own.
    const other = await stockItem(api(), { on_hand: 10, safety_stock: 2 });
    const raised = await inventoryEventsDuring(api(), () =>
      api().patch(`/v1/admin/inventory/${other.id}`, { safety_stock: 10 }),
    );
    expect(raised.map((e) => e.type)).toEqual(['inventory.low']);
  });

  // ------------------------------------------------------------------ adjust

  test('POST …/adjust adds a signed delta: 10 +5 → 15, then −3 → 12 (reason accepted)', async () => {
    const item = await stockItem(api(), { on_hand: 10, reserved: 1 });
    const up = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: 5, reason: 'restock' });
    expect(up.status).toBe(200);
    expect(up.body).toEqual(adminView({ ...item, on_hand: 15, version: item.version + 1 }));
    expect(up.body).toMatchObject({ available: 14, levels: [{ on_hand: 15, available: 14, version: 2 }] });
    const down = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: -3 });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ on_hand: 12, reserved: 1, available: 11 });
  });

  test('adjust below reserved → 422 insufficient_inventory on quantity, nothing changed; down to reserved is allowed', async () => {
    const item = await stockItem(api(), { on_hand: 5, reserved: 2 });
    const r = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: -4 });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'insufficient_inventory', param: 'quantity' });
    expect((await api().get(`/v1/admin/inventory/${item.id}`)).body.on_hand).toBe(5);
    const ok = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: -3 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ on_hand: 2, available: 0 });
  });

  test('adjust validation: missing quantity → 400 parameter_missing; 1.5 → parameter_invalid; unknown field; unknown id → 404', async () => {
    const item = await stockItem(api(), { on_hand: 1 });
    const missing = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { reason: 'count' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'quantity' });
    const fraction = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: 1.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.error).toMatchObject({ code: 'parameter_invalid', param: 'quantity' });
    const unknown = await api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: 1, note: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'note' });
    const notFound = await api().post('/v1/admin/inventory/inv_missing/adjust', { quantity: 1 });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('not_found');
  });

  test('adjust events: 10 (safety 3) −7 → inventory.low; −3 → out_of_stock; +10 → none', async () => {
    const item = await stockItem(api(), { on_hand: 10, safety_stock: 3 });
    const adjust = (quantity: number) => api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity });
    let lowBody: unknown;
    const low = await inventoryEventsDuring(api(), async () => {
      lowBody = (await adjust(-7)).body;
    });
    expect(low.map((e) => e.type)).toEqual(['inventory.low']);
    expect(low[0]?.data).toEqual(inventoryOf(lowBody));
    expect(low[0]?.data).toMatchObject({ id: item.id, available: 3, safety_stock: 3 });

    const out = await inventoryEventsDuring(api(), () => adjust(-3));
    expect(out.map((e) => e.type)).toEqual(['inventory.out_of_stock']);
    expect(out[0]?.data).toMatchObject({ id: item.id, available: 0 });

    expect(await inventoryEventsDuring(api(), () => adjust(10))).toEqual([]);
  });

  test('an untracked record moves without inventory events', async () => {
    const item = await stockItem(api(), { on_hand: 5, safety_stock: 3, track_inventory: false });
    const events = await inventoryEventsDuring(api(), () =>
      api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: -5 }),
    );
    expect(events).toEqual([]);
  });

  test('concurrent adjusts are atomic: 10 × (−1) on on_hand 6 → 6 succeed, 4 are refused, on_hand 0', async () => {
    const item = await stockItem(api(), { on_hand: 6 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api().post(`/v1/admin/inventory/${item.id}/adjust`, { quantity: -1 })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 422)).toHaveLength(4);
    expect((await api().get(`/v1/admin/inventory/${item.id}`)).body).toMatchObject({
      on_hand: 0,
      available: 0,
    });
  });
});
