/**
 * The numbers of one variant's Inventory record that the rules of docs/contract.md#inventory work on. Every
 * function in this folder is generic over records that carry at least these fields and returns
 * the record with only these fields changed, so a full storage record passes through intact.
 *
 * The storage layer performs the same movements as single conditional SQL updates (the `WHERE`
 * is the guard, e.g. `reserved = reserved + :q WHERE on_hand - reserved >= :q`); the arithmetic
 * and guards there MUST match these functions, which the storage conformance suite can check
 * against them.
 */
export interface InventoryLevels {
  /** Only tracked variants are checked and moved (docs/contract.md#inventory). */
  track_inventory: boolean;
  /** Sell beyond stock: availability checks always pass; `available` may go negative. */
  allow_backorder: boolean;
  /** `inventory.low` threshold and the admin `low_stock=true` filter. */
  safety_stock: number;
  /** Units physically in stock. */
  on_hand: number;
  /** Units held by orders that have not shipped yet. */
  reserved: number;
}

/** `available = on_hand − reserved` (docs/contract.md#inventory). May be negative with backorders. */
export function availableOf(inventory: Pick<InventoryLevels, 'on_hand' | 'reserved'>): number {
  return inventory.on_hand - inventory.reserved;
}

/**
 * @throws RangeError when `quantity` is not a positive safe integer (a programming error: the
 * request schemas already refuse such quantities with 400).
 */
export function assertPositiveQuantity(quantity: number, label = 'quantity'): void {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) {
    throw new RangeError(`${label} must be a positive integer, got ${quantity}`);
  }
}
