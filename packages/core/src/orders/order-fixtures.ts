import type { OrderLineRecord } from '../ports/storage';

/**
 * An order line for unit tests: 3 units of a 10.00 mug (`line_1`, `var_1`), all reserved, nothing
 * fulfilled, shipped or refunded yet; `overrides` replace any field (`reserved_quantity` follows
 * `quantity` unless given).
 */
export function orderLine(overrides: Partial<OrderLineRecord> = {}): OrderLineRecord {
  return {
    id: 'line_1',
    order_id: 'ord_1',
    variant_id: 'var_1',
    product_id: 'prod_1',
    product_name: 'Mug',
    variant_name: 'Mug',
    sku: null,
    image_url: null,
    option_values: {},
    quantity: 3,
    fulfilled_quantity: 0,
    shipped_quantity: 0,
    refunded_quantity: 0,
    restocked_quantity: 0,
    returned_quantity: 0,
    returning_quantity: 0,
    reserved_quantity: overrides.quantity ?? 3,
    unit_price: 1000,
    line_discount: 0,
    line_total: 3000,
    tax_amount: 0,
    position: 0,
    ...overrides,
  };
}
