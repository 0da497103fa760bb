import type { PriceableItem, PricedCart } from '../carts/cart-pricing';
import type {
  AddressValue,
  JsonObject,
  OrderAggregate,
  OrderLineRecord,
  Scope,
  StoreRecord,
} from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import type { OrderStatus } from './vocabulary';

/** What {@link buildOrder} needs besides the priced lines. */
export interface OrderDraft {
  id: string;
  number: number;
  scope: Scope;
  store: StoreRecord;
  status: Extract<OrderStatus, 'draft' | 'pending'>;
  customer_id: string | null;
  email: string;
  shipping_address: AddressValue | null;
  billing_address: AddressValue | null;
  note: string | null;
  metadata: JsonObject;
  cart_id: string | null;
  /**
   * Whether the order holds reservations from the start (checkout and pending admin orders): each
   * line then records its units as reserved when its variant is tracked (`reserved_quantity`).
   */
  inventory_reserved: boolean;
  now: number;
}

/**
 * Builds a new order from a priced cart (or priced admin lines): every line snapshots the
 * product and variant names, SKU, image, option values (`{ option name: value }`) and the prices the one pricing function gave
 * (`unit_price`, `line_discount`, `line_total`, `tax_amount`), so later catalog changes never
 * change the order (docs/contract.md#checkout). Lines follow `items` order; items whose variant could not be
 * priced are left out (the caller has already refused them with `assertPurchasable`). Totals,
 * shipping and applied discounts come from the same pricing result. The order starts unpaid and
 * unfulfilled, with no payments, fulfillments or refunds; the caller adds a payment and settles
 * the status.
 */
export function buildOrder(
  ctx: Pick<ServiceContext, 'ids'>,
  draft: OrderDraft,
  priced: PricedCart,
  items: readonly PriceableItem[],
): OrderAggregate {
  const { pricing } = priced;
  const pricedByKey = new Map(pricing.lines.map((line) => [line.key, line]));
  const lines: OrderLineRecord[] = [];
  for (const item of items) {
    const line = pricedByKey.get(item.key);
    const entry = priced.variants.get(item.variant_id);
    if (!line || !entry) continue;
    lines.push({
      id: ctx.ids.next('line'),
      order_id: draft.id,
      variant_id: entry.variant.id,
      product_id: entry.product.id,
      product_name: entry.product.name,
      variant_name: entry.variant_name,
      sku: entry.variant.sku,
      image_url: entry.image_url,
      quantity: line.quantity,
      fulfilled_quantity: 0,
      shipped_quantity: 0,
      refunded_quantity: 0,
      restocked_quantity: 0,
      returned_quantity: 0,
      returning_quantity: 0,
      // What the reservation takes: the rows pricing read in this transaction decide whether the
      // variant is tracked; `reserveLines` refuses to go on if the reservation found otherwise.
      reserved_quantity: draft.inventory_reserved && entry.inventory.track_inventory ? line.quantity : 0,
      unit_price: line.unit_price,
      line_discount: line.line_discount,
      line_total: line.line_total,
      tax_amount: line.tax_amount,
      position: lines.length,
      option_values: { ...entry.option_values },
    });
  }

  return {
    id: draft.id,
    store_id: draft.scope.store_id,
    mode: draft.scope.mode,
    number: draft.number,
    status: draft.status,
    payment_status: 'unpaid',
    fulfillment_status: 'unfulfilled',
    customer_id: draft.customer_id,
    email: draft.email,
    shipping_address: draft.shipping_address,
    billing_address: draft.billing_address,
    // The region and its currency and tax convention, snapshotted (decisions §19).
    region_id: priced.region?.region.id ?? null,
    currency: pricing.currency,
    subtotal: pricing.subtotal,
    discount_total: pricing.discount_total,
    shipping_total: pricing.shipping_total,
    tax_total: pricing.tax_total,
    total: pricing.total,
    paid_total: 0,
    refunded_total: 0,
    prices_include_tax: priced.tax.prices_include_tax,
    tax_rate: priced.tax.rate,
    shipping_method_id: priced.shipping_method?.id ?? null,
    shipping_method_name: priced.shipping_method?.name ?? null,
    shipping_discount: pricing.shipping_discount,
    shipping_tax: pricing.shipping_tax,
    applied_discounts: pricing.applied_discounts.map((d) => ({
      discount_id: d.discount_id,
      code: d.code,
      name: d.name,
      value_type: d.value_type,
      value: d.value,
      saved: d.saved,
    })),
    note: draft.note,
    metadata: draft.metadata,
    cart_id: draft.cart_id,
    inventory_reserved: draft.inventory_reserved,
    cancel_reason: null,
    created_at: draft.now,
    updated_at: draft.now,
    confirmed_at: null,
    cancelled_at: null,
    completed_at: null,
    lines,
    payments: [],
    fulfillments: [],
    refunds: [],
  };
}
