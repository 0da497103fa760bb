import type { InventoryRecord } from '../ports/storage';

export type InventoryView = 'admin' | 'storefront';

/**
 * The Inventory resource. The storefront sees only `available` (docs/contract.md#storefront-visibility): `on_hand`,
 * `reserved` and `safety_stock` are null there.
 */
export function inventoryToWire(record: InventoryRecord, view: InventoryView = 'admin') {
  const available = record.on_hand - record.reserved;
  const admin = view === 'admin';
  return {
    id: record.id,
    variant_id: record.variant_id,
    track_inventory: record.track_inventory,
    allow_backorder: record.allow_backorder,
    safety_stock: admin ? record.safety_stock : null,
    on_hand: admin ? record.on_hand : null,
    reserved: admin ? record.reserved : null,
    available,
    metadata: admin ? record.metadata : {},
  };
}
