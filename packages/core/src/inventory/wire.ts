import type { InventoryItemRecord, InventoryRecord } from '../ports/storage';

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

/** The one location of every item until a decision adds more (decisions §22). */
export const DEFAULT_LOCATION_ID = 'sloc_default';

/** The id of an item's level at {@link DEFAULT_LOCATION_ID}: the item's id with the prefix `ilvl_`. */
export function inventoryLevelId(inventoryId: string): string {
  return `ilvl_${inventoryId.startsWith('inv_') ? inventoryId.slice('inv_'.length) : inventoryId}`;
}

/**
 * The InventoryItem of `/v1/admin/inventory` (decisions §22): the admin Inventory plus the
 * variant's `sku` and `levels`, whose one level repeats the item's levels with their version.
 */
export function inventoryItemToWire(record: InventoryItemRecord) {
  const available = record.on_hand - record.reserved;
  return {
    id: record.id,
    variant_id: record.variant_id,
    sku: record.sku,
    track_inventory: record.track_inventory,
    allow_backorder: record.allow_backorder,
    safety_stock: record.safety_stock,
    on_hand: record.on_hand,
    reserved: record.reserved,
    available,
    metadata: record.metadata,
    levels: [
      {
        id: inventoryLevelId(record.id),
        location_id: DEFAULT_LOCATION_ID,
        on_hand: record.on_hand,
        reserved: record.reserved,
        available,
        version: record.version,
      },
    ],
  };
}
