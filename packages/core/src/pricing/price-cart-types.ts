import type { DiscountDefinition, DiscountRejectionCode } from './discounts/discount-definition';

/** One cart (or order) line to price. `key` identifies it in the result (a cart item or order line id). */
export interface PricingLineInput {
  key: string;
  variant_id: string;
  product_id: string;
  product_tags: string[];
  /** Integer minor units, ≥ 0. */
  unit_price: number;
  /** Integer, ≥ 0. */
  quantity: number;
}

/** Everything `priceCart` needs; it does no I/O, so the caller loads discounts, usage and settings. */
export interface PricingInput {
  currency: string;
  lines: PricingLineInput[];
  /** The cart's shipping method, or `null` when none is chosen. */
  shipping: { price: number; free_shipping_threshold: number | null } | null;
  /** `rate` is a percentage: `20` = 20 %, `8.875` allowed. */
  tax: { rate: number | string; prices_include_tax: boolean };
  customer: { id: string | null; email: string | null; tags: string[] };
  /** Candidate automatic discounts; those that don't qualify are silently skipped. */
  automatic_discounts: DiscountDefinition[];
  /** The cart's code discounts, in the order the codes were added. */
  code_discounts: DiscountDefinition[];
  /** The customer's prior uses per discount id, when known (for `per_customer_limit`). */
  usage?: { per_customer: Record<string, number> } | undefined;
  /** Epoch ms, for discount windows. */
  now: number;
  /**
   * The region the cart is priced in, for `region` discount conditions (decisions §19); omitted
   * or null: none. Every amount of the input is already in `currency` (the caller converts the
   * store-currency amounts: unit prices, shipping, fixed discount values and bounds).
   */
  region_id?: string | null | undefined;
}

/** One priced line. All amounts are integer minor units of the result's currency. */
export interface PricedLine {
  key: string;
  unit_price: number;
  quantity: number;
  /** `unit_price × quantity`. */
  subtotal: number;
  /** The line's share of all item discounts. */
  line_discount: number;
  /** `subtotal − line_discount`, before tax. */
  line_total: number;
  /** Tax on `line_total` (added on top, or contained with `prices_include_tax`). */
  tax_amount: number;
}

/** A discount that saved something, as carts and orders show it (with its per-line split). */
export interface AppliedDiscountResult {
  discount_id: string;
  code: string | null;
  name: string;
  value_type: string;
  value: number;
  target: string;
  /** Everything this discount saved: its line allocations plus `shipping_saved`. */
  saved: number;
  /** Its share of each line it touched (only non-zero shares, in cart order). */
  allocations: Array<{ key: string; amount: number }>;
  shipping_saved: number;
}

/** A code on the cart that does not qualify now: it saves nothing. */
export interface RejectedCode {
  discount_id: string;
  code: string | null;
  reason: DiscountRejectionCode;
}

/** The priced cart (docs/contract.md#pricing). */
export interface PricingResult {
  currency: string;
  lines: PricedLine[];
  subtotal: number;
  /** Item discounts plus `shipping_discount`. */
  discount_total: number;
  /** The shipping method's price (0 when free by threshold, with no method, or for an empty cart). */
  shipping_total: number;
  /** The part of `discount_total` taken off shipping. */
  shipping_discount: number;
  /** Tax on `shipping_total − shipping_discount`. */
  shipping_tax: number;
  /** Σ line `tax_amount` + `shipping_tax`. */
  tax_total: number;
  total: number;
  item_count: number;
  total_quantity: number;
  applied_discounts: AppliedDiscountResult[];
  rejected_codes: RejectedCode[];
}
