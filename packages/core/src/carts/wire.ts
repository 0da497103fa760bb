import type { DiscountValueType } from '../discounts/vocabulary';
import type { AddressValue, CartAggregate } from '../ports/storage';
import { iso, type MoneyWire, money } from '../shared/wire-format';
import type { PricedCart } from './cart-pricing';
import type { AppliedDiscountResult, PricingResult } from './pricing';

/** An address as the wire shows it: required parts as strings, optional parts `null` when blank. */
export function addressToWire(address: AddressValue | null) {
  if (address === null) return null;
  return {
    name: address.name ?? '',
    company: address.company ?? null,
    line1: address.line1 ?? '',
    line2: address.line2 ?? null,
    city: address.city ?? '',
    state: address.state ?? null,
    postal_code: address.postal_code ?? '',
    country: address.country ?? '',
    phone: address.phone ?? null,
  };
}

/** An address from a request (`null` parts = blank) to the stored value (blank parts omitted). */
export function addressFromInput(
  input: { [K in keyof AddressValue]?: string | null | undefined } | null,
): AddressValue | null {
  if (input === null) return null;
  const value: AddressValue = {};
  for (const [key, part] of Object.entries(input)) {
    if (typeof part === 'string') value[key as keyof AddressValue] = part;
  }
  return value;
}

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
    metadata: cart.metadata,
    created_at: iso(cart.created_at),
    updated_at: iso(cart.updated_at),
  };
}

export type CartWire = ReturnType<typeof cartToWire>;
