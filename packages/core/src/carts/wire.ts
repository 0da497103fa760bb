import type { DiscountValueType } from '../discounts/vocabulary';
import type { CartAggregate } from '../ports/storage';
import type { AppliedDiscountResult, PricingResult } from '../pricing';
import { iso, type MoneyWire, money } from '../shared/wire-format';
import { addressToWire } from './address-wire';
import type { PricedCart } from './cart-pricing';

/** Addresses between the wire and storage live in ./address-wire.ts (decisions §22). */
export { addressFromInput, addressToWire } from './address-wire';

/** An AppliedDiscount of the wire (spec) from a pricing result's applied discount. */
export function appliedDiscountToWire(applied: AppliedDiscountResult, currency: string) {
  return {
    discount_id: applied.discount_id,
    code: applied.code,
    name: applied.name,
    value_type: applied.value_type as DiscountValueType,
    value: applied.value,
    saved: money(applied.saved, currency),
  };
}

/** The CartSummary of the wire from a pricing result. */
export function cartSummaryToWire(pricing: PricingResult): {
  subtotal: MoneyWire;
  discount_total: MoneyWire;
  shipping_total: MoneyWire;
  tax_total: MoneyWire;
  total: MoneyWire;
  item_count: number;
  total_quantity: number;
} {
  const c = pricing.currency;
  return {
    subtotal: money(pricing.subtotal, c),
    discount_total: money(pricing.discount_total, c),
    shipping_total: money(pricing.shipping_total, c),
    tax_total: money(pricing.tax_total, c),
    total: money(pricing.total, c),
    item_count: pricing.item_count,
    total_quantity: pricing.total_quantity,
  };
}

/**
 * A cart on the wire (spec "Cart"), priced fresh: items carry `unit_price`, `line_discount` and
 * `line_total` from `priced`, the summary and applied discounts too. Items whose variant no longer
 * exists are left out (they are not priced either, see `loadAndPrice`). Checkout reuses this.
 */
export function cartToWire(cart: CartAggregate, priced: PricedCart) {
  const { pricing } = priced;
  const currency = pricing.currency;
  const lines = new Map(pricing.lines.map((line) => [line.key, line]));
  const items = [];
  for (const item of cart.items) {
    const entry = priced.variants.get(item.variant_id);
    const line = lines.get(item.id);
    if (!entry || !line) continue;
    items.push({
      id: item.id,
      variant_id: item.variant_id,
      product_id: entry.product.id,
      product_name: entry.product.name,
      variant_name: entry.variant_name,
      sku: entry.variant.sku,
      image_url: entry.image_url,
      quantity: item.quantity,
      unit_price: money(line.unit_price, currency),
      line_discount: money(line.line_discount, currency),
      line_total: money(line.line_total, currency),
      option_values: entry.option_values,
      metadata: item.metadata,
    });
  }
  return {
    id: cart.id,
    status: cart.status,
    session_id: cart.session_id,
    customer_id: cart.customer_id,
    items,
    shipping_address: addressToWire(cart.shipping_address),
    billing_address: addressToWire(cart.billing_address),
    shipping_method_id: cart.shipping_method_id,
    discount_codes: cart.discount_codes,
    summary: cartSummaryToWire(pricing),
    applied_discounts: pricing.applied_discounts.map((applied) => appliedDiscountToWire(applied, currency)),
    locale: cart.locale,
    region_id: priced.region?.region.id ?? null,
    currency,
    metadata: cart.metadata,
    created_at: iso(cart.created_at),
    updated_at: iso(cart.updated_at),
  };
}

export type CartWire = ReturnType<typeof cartToWire>;
