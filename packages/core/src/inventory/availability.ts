import { CommerceError } from '../shared/errors';
import { availableOf, type InventoryLevels } from './inventory-levels';

/** The outcome of an availability check: enough, or short with what is available. */
export type AvailabilityCheck = { readonly ok: true } | { readonly ok: false; readonly available: number };

/**
 * Whether `requested_total_quantity` units can be sold (docs/contract.md#inventory). The quantity is the
 * WHOLE quantity of the variant wanted (a cart's summed quantity of that variant, or an order's),
 * not an increment. Untracked variants and variants that allow backorder always pass.
 * When short, `available` is reported, never below 0.
 *
 * @example checkAvailability({ ...inv, on_hand: 5, reserved: 2 }, 4) // { ok: false, available: 3 }
 */
export function checkAvailability(
  inventory: InventoryLevels,
  requested_total_quantity: number,
): AvailabilityCheck {
  if (!inventory.track_inventory || inventory.allow_backorder) return { ok: true };
  const available = availableOf(inventory);
  return requested_total_quantity <= available
    ? { ok: true }
    : { ok: false, available: Math.max(0, available) };
}

/**
 * The 422 `insufficient_inventory` error, carrying `data: { variant_id, requested, available }`
 * so that a storefront can offer what is left.
 *
 * @param param the input field at fault, in wire notation: `quantity` (cart item, adjust),
 * `items[2][quantity]`, `lines[0][quantity]`.
 */
export function insufficientInventoryError(
  variant_id: string,
  requested: number,
  available: number,
  param = 'quantity',
): CommerceError {
  const left = Math.max(0, available);
  return new CommerceError(
    'insufficient_inventory',
    `Insufficient inventory for variant '${variant_id}': ${requested} requested, ${left} available`,
    { param, data: { variant_id, requested, available: left } },
  );
}
