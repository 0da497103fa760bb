import type { ShippingMethodRecord } from '../ports/storage';
import { iso, money, moneyOrNull } from '../shared/wire-format';

/** The ShippingMethod resource (docs/contract.md#shipping-methods). */
export function shippingMethodToWire(record: ShippingMethodRecord) {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    price: money(record.price, record.currency),
    free_shipping_threshold: moneyOrNull(record.free_shipping_threshold, record.currency),
    is_active: record.is_active,
    position: record.position,
    metadata: record.metadata,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}

export type ShippingMethodWire = ReturnType<typeof shippingMethodToWire>;
