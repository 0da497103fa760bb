import { checkAvailability, insufficientInventoryError } from '../inventory';
import type {
  CartAggregate,
  CustomerRecord,
  DiscountRecord,
  PurchasableVariant,
  Repositories,
  Scope,
  ShippingMethodRecord,
  StoreRecord,
} from '../ports/storage';
import { type PricingLineInput, type PricingResult, priceCart, type RejectedCode } from '../pricing';
import { priceInRegion, storeAmountInRegion } from '../regions/region-price';
import {
  optionalStoreAmountInRegion,
  type RegionPricing,
  type RegionPricingRecords,
  readRegionPricing,
  regionPricing,
} from '../regions/region-pricing-context';
import { CommerceError } from '../shared/errors';

const NOTHING_UNPRICED: ReadonlySet<string> = new Set();

/** One line to price: a cart item or an admin order line. `key` names it in the result. */
export interface PriceableItem {
  key: string;
  variant_id: string;
  quantity: number;
}

/** What {@link loadAndPrice} returns: the priced cart plus everything it loaded to price it. */
export interface PricedCart {
  /** From core's `priceCart`. Lines whose variant is unknown or deleted are left out. */
  pricing: PricingResult;
  /** By variant id (one `getPurchasable` query). Unknown or deleted variants are absent. */
  variants: Map<string, PurchasableVariant>;
  /** The chosen shipping method when it exists and is active, else null. */
  shipping_method: ShippingMethodRecord | null;
  /** Every discount that saved something (automatic and codes), in application order. */
  discounts: DiscountRecord[];
  /** The cart's codes that exist, in the order they were added, whether or not they qualify. */
  code_discounts: DiscountRecord[];
  /**
   * The region the cart was priced in (decisions §19), or null: the store's settings (no region,
   * or its region is gone). All of `pricing` is in its currency, with its tax settings.
   */
  region: RegionPricing | null;
  /** The tax settings pricing used: the region's, else the store's (orders snapshot them). */
  tax: { rate: number; prices_include_tax: boolean };
  /**
   * Variants of the items that have no price in the region (decisions §19): not priced (left out
   * of `pricing` like unknown variants), refused by {@link assertPurchasable}. Empty without a region.
   */
  unpriced: ReadonlySet<string>;
}

/** Input of {@link loadAndPrice}. */
export interface LoadAndPriceInput {
  scope: Scope;
  store: StoreRecord;
  items: PriceableItem[];
  shipping_method_id: string | null;
  discount_codes: string[];
  customer: { id: string | null; email: string | null; tags: string[] };
  /** Epoch ms, for discount windows. */
  now: number;
  /**
   * The region to price in (decisions §19); omitted or null: the store's currency and tax
   * settings, and no region query.
   */
  region_id?: string | null | undefined;
  /** Records the caller already read in this transaction; each one given skips its query. */
  known?: KnownPricingRecords | undefined;
}

/** Records a use case has already loaded, handed to {@link loadAndPrice} instead of re-read. */
export interface KnownPricingRecords {
  /**
   * A shipping method read in this transaction (`shippingMethods.get` of `id`, or the method a
   * cart locked in this transaction names: `record` null when there is no such method); used
   * when `shipping_method_id` is `id`.
   */
  shipping_method?: { id: string; record: ShippingMethodRecord | null } | undefined;
  /**
   * A `discounts.listForPricing` result over (at least) every one of `discount_codes`, or that
   * read still in flight.
   */
  discounts?: DiscountsForPricing | Promise<DiscountsForPricing> | undefined;
  /**
   * The active automatic discounts (`discounts.listForPricing(scope, [])`), read in this
   * transaction before the cart's codes were known: used as the whole discount list when there
   * are no codes (with codes, one `listForPricing` over them reads both again).
   */
  automatic?: DiscountRecord[] | undefined;
  /** A `products.getPurchasable` result; used when it covers every item's variant. */
  purchasable?: PurchasableVariant[] | undefined;
  /**
   * The variant ids `purchasable` was read for, found or not: one of them that `purchasable`
   * lacks is unknown or deleted, and covered all the same (without this, only the variants found
   * are). A variant outside both is read again, with the rest, as without `purchasable`.
   */
  purchasable_for?: ReadonlySet<string> | undefined;
  /**
   * For {@link priceStoredCart}: the cart's customer as read in this transaction (`customers.get`
   * of its `customer_id`; null when there is no such customer).
   */
  customer?: CustomerRecord | null | undefined;
  /**
   * A `readRegionPricing` result of `region_id` over (at least) every item's variant; used when
   * its region is the one to price in.
   */
  region?: RegionPricingRecords | undefined;
}

/** What `discounts.listForPricing` returns. */
export interface DiscountsForPricing {
  automatic: DiscountRecord[];
  by_code: DiscountRecord[];
}

/** What {@link readPricingRecords} loads: the rows pricing needs, apart from the customer's. */
export interface PricingRecords {
  purchasable: PurchasableVariant[];
  method: ShippingMethodRecord | null;
  automatic: DiscountRecord[];
  by_code: DiscountRecord[];
  /** What the region needs (`region_id` given), else null. */
  region: RegionPricingRecords | null;
}

/**
 * Loads what pricing needs and prices with `priceCart` — the one path through which carts,
 * checkout and admin orders are priced, so a cart and the order made from it never disagree.
 *
 * A fixed number of queries whatever the cart size: purchasable variants (1), shipping method
 * (0–1), automatic and code discounts (1, `listForPricing`), the customer's prior uses of
 * discounts with a `per_customer_limit` (0–1; keyed by customer id, else lower-cased e-mail, as
 * checkout counts), and only for a cart in a region (decisions §19) the region, the currency
 * rates and the region's prices of the items' variants (3, in the same round trip).
 * The shipping method, the discounts and the variants are not read again when the caller passes
 * them in `known` (what a cart write read beside the cart's lock, a discount code just looked up,
 * the automatic discounts or variants read together with a new cart).
 *
 * Decisions:
 * - Items whose variant is unknown or deleted are not priced (they would have no price); the cart
 *   wire leaves them out and {@link assertPurchasable} refuses them.
 * - Items of inactive variants or non-active products are still priced (the cart shows them), and
 *   refused by {@link assertPurchasable}.
 * - An unknown or inactive shipping method prices as no method (`shipping_method: null`); setting
 *   one on a cart is refused earlier with `shipping_method_unavailable` ({@link requireShippingMethod}).
 * - Codes are looked up case-insensitively; unknown codes are skipped.
 * - In a region (decisions §19) every amount is in its currency: unit prices by `priceInRegion`
 *   (a variant without a price there is left out and listed in `unpriced`), shipping prices and
 *   thresholds and the store-currency amounts of discounts converted at the store → region rate
 *   (no rate: the method prices as none, a code is rejected `discount_not_applicable`, an
 *   automatic discount is skipped); its tax rate and convention replace the store's. A region
 *   that is gone prices as none (the store's settings).
 */
export async function loadAndPrice(tx: Repositories, input: LoadAndPriceInput): Promise<PricedCart> {
  return priceRecords(tx, input, await readPricingRecords(tx, input));
}

/**
 * The reads of {@link loadAndPrice} (variants, shipping method, discounts), all started at once
 * (one round trip): a caller that also needs another read (the cart's customer) starts it beside
 * this, then prices with {@link priceRecords}.
 */
export function readPricingRecords(
  tx: Repositories,
  input: Pick<
    LoadAndPriceInput,
    'scope' | 'items' | 'shipping_method_id' | 'discount_codes' | 'known' | 'region_id'
  >,
): Promise<PricingRecords> {
  const { scope, known } = input;
  const variantIds = [...new Set(input.items.map((item) => item.variant_id))];
  const codes = [...new Set(input.discount_codes)];
  const knownMethod = known?.shipping_method;
  const knownVariants = known?.purchasable;
  const readFor = known?.purchasable_for;
  const covered =
    knownVariants !== undefined &&
    variantIds.every(
      (id) => readFor?.has(id) === true || knownVariants.some((entry) => entry.variant.id === id),
    );
  const discounts =
    known?.discounts ??
    (codes.length === 0 && known?.automatic !== undefined
      ? { automatic: known.automatic, by_code: [] }
      : undefined);
  return Promise.all([
    variantIds.length === 0 ? [] : covered ? knownVariants : tx.products.getPurchasable(scope, variantIds),
    input.shipping_method_id === null
      ? null
      : knownMethod?.id === input.shipping_method_id
        ? knownMethod.record
        : tx.shippingMethods.get(scope, input.shipping_method_id),
    discounts ?? tx.discounts.listForPricing(scope, codes),
    input.region_id == null
      ? null
      : known?.region?.region?.id === input.region_id
        ? known.region
        : readRegionPricing(tx, scope, input.region_id, variantIds),
  ]).then(([purchasable, method, { automatic, by_code }, region]) => ({
    purchasable,
    method,
    automatic,
    by_code,
    region,
  }));
}

/** Prices `input` on records read by {@link readPricingRecords} (see {@link loadAndPrice}). */
export async function priceRecords(
  tx: Repositories,
  input: LoadAndPriceInput,
  records: PricingRecords,
): Promise<PricedCart> {
  const { scope, store } = input;
  const { purchasable, method, automatic, by_code: byCode } = records;
  const region = records.region === null ? null : regionPricing(records.region, store);

  const variants = new Map(purchasable.map((entry) => [entry.variant.id, entry]));
  const code_discounts = orderByCodes(input.discount_codes, byCode);
  const shipping = method?.is_active ? shippingIn(method, region) : null;
  const shipping_method = shipping === null ? null : method;

  const customerKey = input.customer.id ?? input.customer.email?.toLowerCase() ?? null;
  const limited = [...automatic, ...code_discounts]
    .filter((discount) => discount.per_customer_limit !== null)
    .map((discount) => discount.id);
  const per_customer =
    customerKey !== null && limited.length > 0
      ? await tx.discounts.countUsesByCustomer(scope, [...new Set(limited)], customerKey)
      : {};
  const usage = Object.fromEntries(limited.map((id) => [id, per_customer[id] ?? 0]));

  const lines: PricingLineInput[] = [];
  // Only a cart in a region can have unpriced items: without one, no set is made.
  const unpriced = region === null ? NOTHING_UNPRICED : new Set<string>();
  for (const item of input.items) {
    const entry = variants.get(item.variant_id);
    if (!entry) continue;
    let unit_price = entry.variant.price;
    if (region !== null) {
      const inRegion = priceInRegion(entry.variant, region.prices.get(entry.variant.id), region.context);
      if (inRegion === null) {
        (unpriced as Set<string>).add(entry.variant.id);
        continue;
      }
      unit_price = inRegion.price;
    }
    lines.push({
      key: item.key,
      variant_id: entry.variant.id,
      product_id: entry.product.id,
      product_tags: entry.product.tags,
      unit_price,
      quantity: item.quantity,
    });
  }

  const tax =
    region === null
      ? { rate: store.tax_rate, prices_include_tax: store.prices_include_tax }
      : { rate: region.region.tax_rate, prices_include_tax: region.region.prices_include_tax };
  const automaticIn = region === null ? automatic : discountsIn(automatic, region).converted;
  const codesIn =
    region === null ? { converted: code_discounts, refused: [] } : discountsIn(code_discounts, region);

  const priced = priceCart({
    currency: region === null ? store.currency : region.region.currency,
    lines,
    shipping,
    tax,
    customer: input.customer,
    automatic_discounts: automaticIn,
    code_discounts: codesIn.converted,
    usage: customerKey !== null ? { per_customer: usage } : undefined,
    now: input.now,
    region_id: region === null ? null : region.region.id,
  });
  // A code whose amounts cannot be converted (no rate) saves nothing: it is refused like a code
  // whose conditions fail (decisions §19), listed after the codes priceCart judged.
  const pricing =
    codesIn.refused.length === 0
      ? priced
      : { ...priced, rejected_codes: [...priced.rejected_codes, ...codesIn.refused] };

  const byId = new Map([...automatic, ...code_discounts].map((discount) => [discount.id, discount]));
  const discounts = pricing.applied_discounts
    .map((applied) => byId.get(applied.discount_id))
    .filter((discount): discount is DiscountRecord => discount !== undefined);

  return { pricing, variants, shipping_method, discounts, code_discounts, region, tax, unpriced };
}

/**
 * A shipping method's price and threshold as pricing takes them: as stored without a region, in
 * the region's currency otherwise (decisions §19: store-currency amounts converted at the store →
 * region rate); null when they cannot be converted (no rate) — the method is then unavailable.
 */
function shippingIn(
  method: ShippingMethodRecord,
  region: RegionPricing | null,
): { price: number; free_shipping_threshold: number | null } | null {
  if (region === null) {
    return { price: method.price, free_shipping_threshold: method.free_shipping_threshold };
  }
  const price = storeAmountInRegion(method.price, region.context);
  const threshold = optionalStoreAmountInRegion(method.free_shipping_threshold, region.context);
  if (price === null || threshold === undefined) return null;
  return { price, free_shipping_threshold: threshold };
}

/**
 * Discounts in the region's currency (decisions §19): percentage and free-shipping values apply
 * anywhere; a `fixed` value, `minimum_amount` and `maximum_discount` are store-currency amounts,
 * converted at the store → region rate. A discount that has such an amount and no rate cannot
 * apply: `refused` lists it (for codes, as `discount_not_applicable`; automatic ones are skipped).
 */
export function discountsIn(
  discounts: readonly DiscountRecord[],
  region: Pick<RegionPricing, 'context'>,
): { converted: DiscountRecord[]; refused: RejectedCode[] } {
  const converted: DiscountRecord[] = [];
  const refused: RejectedCode[] = [];
  const { context } = region;
  for (const discount of discounts) {
    const value =
      discount.value_type === 'fixed' ? storeAmountInRegion(discount.value, context) : discount.value;
    const minimum = optionalStoreAmountInRegion(discount.minimum_amount, context);
    const maximum = optionalStoreAmountInRegion(discount.maximum_discount, context);
    if (value === null || minimum === undefined || maximum === undefined) {
      refused.push({ discount_id: discount.id, code: discount.code, reason: 'discount_not_applicable' });
      continue;
    }
    converted.push(
      value === discount.value && minimum === discount.minimum_amount && maximum === discount.maximum_discount
        ? discount
        : { ...discount, value, minimum_amount: minimum, maximum_discount: maximum },
    );
  }
  return { converted, refused };
}

/** The discounts of `codes` in the order of `codes` (case-insensitive match), unknown ones skipped. */
function orderByCodes(codes: readonly string[], found: readonly DiscountRecord[]): DiscountRecord[] {
  const byCode = new Map(found.map((discount) => [discount.code?.toLowerCase(), discount]));
  const ordered: DiscountRecord[] = [];
  const seen = new Set<string>();
  for (const code of codes) {
    const discount = byCode.get(code.toLowerCase());
    if (discount && !seen.has(discount.id)) {
      seen.add(discount.id);
      ordered.push(discount);
    }
  }
  return ordered;
}

/** Options of {@link assertPurchasable}. */
export interface AssertPurchasableOptions {
  /**
   * The wire name of an item's field, for `param` (default `items[i][variant_id]` /
   * `items[i][quantity]`; admin orders pass `lines[i][…]`, a single cart item `variant_id` / `quantity`).
   */
  param?: (index: number, field: 'variant_id' | 'quantity') => string;
  /**
   * What an unknown or deleted variant is: `not_found` (404, the default: an id in the request
   * names nothing) or `product_unavailable` (422: a cart line whose variant was deleted since).
   */
  missing?: 'not_found' | 'product_unavailable';
}

/**
 * Throws when an item cannot be bought (docs/contract.md#catalog, #inventory):
 * - unknown or deleted variant → `not_found` (or `product_unavailable`, see options);
 * - product not `active`, product deleted, or variant inactive → 422 `product_unavailable`;
 * - variant without a price in the cart's region (`unpriced`, decisions §19) → 422
 *   `product_unavailable`;
 * - stock short → 422 `insufficient_inventory` (`checkAvailability` against the TOTAL quantity of
 *   the variant over all items; untracked and backorderable variants always pass), carrying
 *   `data: { variant_id, requested, available }`.
 * Reserves nothing: checkout and pending admin orders reserve atomically afterwards.
 */
export function assertPurchasable(
  priced: Pick<PricedCart, 'variants'> & Partial<Pick<PricedCart, 'unpriced'>>,
  items: readonly PriceableItem[],
  options: AssertPurchasableOptions = {},
): void {
  const param = options.param ?? ((index, field) => `items[${index}][${field}]`);
  const totals = new Map<string, number>();
  for (const item of items) totals.set(item.variant_id, (totals.get(item.variant_id) ?? 0) + item.quantity);

  const checked = new Set<string>();
  items.forEach((item, index) => {
    const entry = priced.variants.get(item.variant_id);
    if (!entry) {
      if (options.missing === 'product_unavailable') {
        throw unavailable(item.variant_id, param(index, 'variant_id'));
      }
      throw new CommerceError('not_found', `No such variant: '${item.variant_id}'`, {
        param: param(index, 'variant_id'),
      });
    }
    if (!isBuyable(entry) || priced.unpriced?.has(item.variant_id)) {
      throw unavailable(item.variant_id, param(index, 'variant_id'));
    }
    if (checked.has(item.variant_id)) return;
    checked.add(item.variant_id);
    const requested = totals.get(item.variant_id) ?? item.quantity;
    const verdict = checkAvailability(entry.inventory, requested);
    if (!verdict.ok) {
      throw insufficientInventoryError(
        item.variant_id,
        requested,
        verdict.available,
        param(index, 'quantity'),
      );
    }
  });
}

/** Whether a variant may be sold: active variant of an active, not deleted product. */
export function isBuyable(entry: PurchasableVariant): boolean {
  return entry.variant.is_active && entry.product.status === 'active' && !entry.product.deleted;
}

function unavailable(variant_id: string, param: string): CommerceError {
  return new CommerceError('product_unavailable', `Variant '${variant_id}' is not available for purchase`, {
    param,
    data: { variant_id },
  });
}

/**
 * The shipping method a cart or order may use: it must exist in the scope and be active, else
 * 422 `shipping_method_unavailable` (param `shipping_method_id`). Decision: 422 rather than 404,
 * since the request itself was found and only one field of it is unusable.
 */
export async function requireShippingMethod(
  tx: Repositories,
  scope: Scope,
  id: string,
  param = 'shipping_method_id',
): Promise<ShippingMethodRecord> {
  return assertShippingMethod(await tx.shippingMethods.get(scope, id), id, param);
}

/** {@link requireShippingMethod} on a method already read (`shippingMethods.get` of `id`). */
export function assertShippingMethod(
  method: ShippingMethodRecord | null,
  id: string,
  param = 'shipping_method_id',
): ShippingMethodRecord {
  if (!method?.is_active) {
    throw new CommerceError('shipping_method_unavailable', `Shipping method '${id}' is not available`, {
      param,
    });
  }
  return method;
}

/** A cart's items as lines to price (keyed by item id). */
export function cartPriceableItems(cart: Pick<CartAggregate, 'items'>): PriceableItem[] {
  return cart.items.map((item) => ({ key: item.id, variant_id: item.variant_id, quantity: item.quantity }));
}

/** What {@link readStoredCartPricing} loads: the cart's customer and the pricing records. */
export interface StoredCartRecords {
  /** `customers.get` of the cart's `customer_id` (null without one, or when there is none). */
  customer: CustomerRecord | null;
  records: PricingRecords;
}

/**
 * The reads of {@link priceStoredCart}, all started at once (one round trip): the cart's
 * customer (unless `known.customer` gives it) and {@link readPricingRecords}. `known.discounts`
 * may be a read still in flight (started beside this one).
 */
export function readStoredCartPricing(
  tx: Repositories,
  input: { scope: Scope; cart: CartAggregate; known?: KnownPricingRecords | undefined },
): Promise<StoredCartRecords> {
  const { cart, scope, known } = input;
  return Promise.all([
    cart.customer_id === null
      ? null
      : known?.customer !== undefined
        ? known.customer
        : tx.customers.get(scope, cart.customer_id),
    readPricingRecords(tx, {
      scope,
      items: cartPriceableItems(cart),
      shipping_method_id: cart.shipping_method_id,
      discount_codes: cart.discount_codes,
      region_id: cart.region_id,
      known,
    }),
  ]).then(([customer, records]) => ({ customer, records }));
}

/** A stored cart to price: its store, the time, and the buyer's e-mail when checkout overrides it. */
export interface StoredCartPricing {
  scope: Scope;
  store: StoreRecord;
  cart: CartAggregate;
  now: number;
  email?: string | null | undefined;
}

/**
 * Prices a stored cart on what {@link readStoredCartPricing} read for it (the same cart, or one
 * that differs only in its discount codes when `known.discounts` covered them).
 * `email` overrides the buyer's e-mail (checkout passes the e-mail it will use).
 */
export function priceStoredRecords(
  tx: Repositories,
  input: StoredCartPricing,
  read: StoredCartRecords,
): Promise<PricedCart> {
  const { cart, scope } = input;
  const { customer } = read;
  return priceRecords(
    tx,
    {
      scope,
      store: input.store,
      items: cartPriceableItems(cart),
      shipping_method_id: cart.shipping_method_id,
      discount_codes: cart.discount_codes,
      customer: {
        id: customer?.id ?? null,
        email: input.email ?? customer?.email ?? cart.email ?? null,
        tags: customer?.tags ?? [],
      },
      now: input.now,
    },
    read.records,
  );
}

/**
 * Prices a stored cart: loads its customer (for `customer` / `customer_tag` conditions and
 * per-customer limits; one query when the cart has a customer, unless `known.customer` gives it)
 * together with the reads of {@link loadAndPrice} — one round trip — and prices.
 * `email` overrides the buyer's e-mail (checkout passes the e-mail it will use).
 */
export async function priceStoredCart(
  tx: Repositories,
  input: StoredCartPricing & { known?: KnownPricingRecords | undefined },
): Promise<PricedCart> {
  return priceStoredRecords(tx, input, await readStoredCartPricing(tx, input));
}
