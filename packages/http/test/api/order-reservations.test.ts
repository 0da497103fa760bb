import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import {
  adminOrder,
  createProduct,
  expectStatus,
  fulfill,
  inventoryOf,
  payOrder,
  placeOrder,
  refundRestock,
  ship,
} from './support/order-fixtures';

/**
 * An order gives back exactly the units it reserved (`order_lines.reserved_quantity`),
 * whatever the variant's `track_inventory` is when it is cancelled, shipped or refunded with
 * restock; it never releases units it did not reserve (tracking switched on after it was placed).
 */
describeApi('order reservations across a tracking switch (issue 19)', (api) => {
  const setTracking = async (a: TestApi, inventoryId: string, track_inventory: boolean) =>
    expectStatus(await a.patch(`/v1/admin/inventory/${inventoryId}`, { track_inventory }), 200).body;

  const pendingOrder = async (a: TestApi, variant_id: string, quantity: number) =>
    expectStatus(await adminOrder(a, [{ variant_id, quantity }], { status: 'pending' }), 201).body;

  /** Switches tracking off for `act` and back on after it. */
  const withTrackingOff = async (a: TestApi, inventoryId: string, act: () => Promise<unknown>) => {
    await setTracking(a, inventoryId, false);
    await act();
    await setTracking(a, inventoryId, true);
  };

  /** A draft admin order made pending (finalised), reserving its units. */
  const finalisedDraft = async (a: TestApi, variant_id: string, quantity: number) => {
    const draft = expectStatus(await adminOrder(a, [{ variant_id, quantity }]), 201).body;
    expectStatus(await a.patch(`/v1/admin/orders/${draft.id}`, { status: 'pending' }), 200);
    return draft;
  };

  /** Cancels the orders, one after another. */
  const cancel = async (a: TestApi, ...orderIds: string[]) => {
    for (const id of orderIds) expectStatus(await a.post(`/v1/admin/orders/${id}/cancel`, {}), 200);
  };

  const fulfillAndShip = async (
    a: TestApi,
    order: { id: string; lines: Array<{ id: string }> },
    quantity: number,
  ) => ship(a, (await fulfill(a, order, quantity)).id);

  test('checkout reserves 3, tracking switched off, order cancelled, tracking on again: nothing stays reserved', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 3, available: 7 });
    await withTrackingOff(a, item.inventory_id, () => cancel(a, order.id));
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
      on_hand: 10,
      reserved: 0,
      available: 10,
    });
  });

  test('admin order (pending) and a finalised draft: switched off before the cancel, their units come back', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const pending = await pendingOrder(a, item.variant_id, 2);
    const draft = await finalisedDraft(a, item.variant_id, 3);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 5 });
    await withTrackingOff(a, item.inventory_id, () => cancel(a, pending.id, draft.id));
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
      on_hand: 10,
      reserved: 0,
      available: 10,
    });
  });

  test('placed untracked (nothing reserved), tracking switched on, another order reserves: the cancel releases nothing', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10, track_inventory: false });
    const untracked = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]);
    const draft = await finalisedDraft(a, item.variant_id, 1);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 0 });
    await setTracking(a, item.inventory_id, true);
    await pendingOrder(a, item.variant_id, 4);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 4, available: 6 });
    await cancel(a, untracked.id, draft.id);
    // The other order's 4 units stay reserved: nobody can sell them twice.
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 4, available: 6 });
  });

  test('shipping after tracking was switched off: the reserved units leave on_hand and reserved together', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]));
    await withTrackingOff(a, item.inventory_id, () => fulfillAndShip(a, order, 3));
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 7, reserved: 0, available: 7 });
  });

  test('shipping units never reserved after tracking was switched on: on_hand drops, other orders keep their reservation', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10, track_inventory: false });
    const untracked = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]));
    await setTracking(a, item.inventory_id, true);
    await pendingOrder(a, item.variant_id, 3);
    await fulfillAndShip(a, untracked, 2);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 8, reserved: 3, available: 5 });
  });

  test('restocking refunds across a switch: reserved units released exactly, never another order’s', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]));
    await withTrackingOff(a, item.inventory_id, () => refundRestock(a, order, 1));
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 2 });

    // Reverse: placed untracked, tracking switched on, another order reserves 4.
    const other = await createProduct(a, { on_hand: 10, track_inventory: false });
    const untracked = await payOrder(a, await placeOrder(a, [{ variant_id: other.variant_id, quantity: 2 }]));
    await setTracking(a, other.inventory_id, true);
    await pendingOrder(a, other.variant_id, 4);
    await refundRestock(a, untracked, 2);
    expect(await inventoryOf(a, other.inventory_id)).toMatchObject({
      on_hand: 10,
      reserved: 4,
      available: 6,
    });
    // And the order itself now holds nothing: its cancel releases nothing either.
    await cancel(a, untracked.id);
    expect(await inventoryOf(a, other.inventory_id)).toMatchObject({ reserved: 4 });
  });
});
