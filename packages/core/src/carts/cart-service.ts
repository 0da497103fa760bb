import { configuredLocale } from '../locales/negotiate';
import type {
  CartAggregate,
  CartItemRecord,
  CartPatch,
  CustomerRecord,
  DiscountRecord,
  LockedCart,
  PurchasableVariant,
  Repositories,
  Scope,
  ShippingMethodRecord,
  StoreRecord,
} from '../ports/storage';
import type { DiscountRejectionCode } from '../pricing';
import { priceInRegion } from '../regions/region-price';
import { assertRegionUsable, readRegionPricing, regionPricing } from '../regions/region-pricing-context';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { assertCartLimits } from '../shared/schemas/limits';
import { read, type Work, write } from '../shared/unit-of-work';
import {
  assertCartWritable,
  assertMaySetCustomer,
  type CartActor,
  canActOnCart,
  cartNotFound,
} from './cart-access';
import { planMerge } from './cart-merge';
import {
  assertPurchasable,
  assertShippingMethod,
  type KnownPricingRecords,
  type PricedCart,
  priceStoredCart,
  priceStoredRecords,
  readStoredCartPricing,
} from './cart-pricing';
import type { CartCreate, CartItemAdd, CartItemUpdate, CartMerge, CartUpdate } from './schemas';
import { addressFromInput, cartToWire } from './wire';

export type { CartActor } from './cart-access';

/**
 * Storefront carts (docs/contract.md#cart-ownership, #carts, #inventory, #pricing). Every method returns the cart
 * priced fresh through `loadAndPrice` (the path checkout and admin orders use too).
 *
 * Access: a secret key acts on any cart; a publishable key on guest carts, and on a customer's
 * cart only with that customer's token — otherwise 404. Changes to a non-active cart → 409
 * `cart_not_active`. Nothing here reserves inventory, and no events are emitted (the spec lists
 * none for carts).
 *
 * Decisions:
 * - A cart holds one item per variant: adding a variant already in the cart (at create or later)
 *   adds to that item's quantity; a `metadata` sent with it replaces the item's metadata.
 * - Stock and buyability are checked when quantities grow (create, add, a larger PATCH quantity),
 *   against the cart's whole quantity of the variant; lowering a quantity or removing an item
 *   always works, so a customer can fix a cart whose stock fell.
 * - An unknown variant id in a request → 404 `not_found` (param names the field).
 * - Discount codes are stored in the discount's own spelling; applying a code already on the cart
 *   re-checks it and changes nothing. Removing a code that is not on the cart → 404 `not_found`.
 * - Merge without `source_cart_id` of a cart that is already the caller's own → returned as is; of
 *   another customer's cart with a secret key and a token → 403 `forbidden`. With
 *   `source_cart_id`, `{id}` must be the customer's cart and the source theirs or a guest's (404
 *   otherwise, whatever the key), and not `{id}` itself (400). The customer's cart also takes the
 *   merged cart's addresses and shipping method where it has none.
 * - A merge into a cart in a region (decisions §19) keeps the target's region and drops the guest
 *   items that have no price there, as it drops unavailable ones.
 */
export function createCartService(ctx: ServiceContext) {
  async function requireStore(tx: Repositories, scope: Scope): Promise<StoreRecord> {
    return storeOrThrow(await tx.stores.get(scope.store_id));
  }

  function storeOrThrow(store: StoreRecord | null): StoreRecord {
    if (!store) throw new CommerceError('not_found', 'No such store');
    return store;
  }

  /**
   * The first round trip of a cart write: the cart, locked before it is read
   * (docs/contract.md#cart-concurrency: writes to one cart run one after another, each seeing the
   * items the one before committed) with its open checkout attempt for {@link assertCartWritable},
   * and — sent right behind the lock, so it waits for it like the reads after it always did — the
   * store and the active automatic discounts pricing will need (the latter unless `automatic` is
   * false; unchecked: callers check them where they always did), and with `prefetch` the pricing
   * reads that depend only on the cart's id and the request (see {@link WritePrefetch}).
   *
   * Nothing read is used before the cart is found and the actor may act on it (404 otherwise,
   * whatever the prefetch found): the prefetch only reads.
   */
  async function loadForWrite(
    tx: Repositories,
    scope: Scope,
    actor: CartActor,
    id: string,
    options: { automatic?: boolean; prefetch?: WritePrefetch } = {},
  ): Promise<LoadedForWrite> {
    const { prefetch } = options;
    const method = prefetch?.shipping_method;
    const [cart, store, discounts, purchasable, shippingMethod, customer] = await Promise.all([
      tx.carts.get(scope, id, { forUpdate: true }),
      tx.stores.get(scope.store_id),
      options.automatic === false ? undefined : tx.discounts.listForPricing(scope, []),
      prefetch ? tx.products.getPurchasableForCart(scope, id, prefetch.variant_ids) : undefined,
      method === undefined
        ? undefined
        : method === 'cart'
          ? tx.shippingMethods.getForCart(scope, id)
          : tx.shippingMethods.get(scope, method.id),
      prefetch?.customer_id == null ? undefined : tx.customers.get(scope, prefetch.customer_id),
    ]);
    if (!cart || !canActOnCart(cart, actor)) throw cartNotFound(id);
    const loaded: LoadedForWrite = { cart, store, automatic: discounts?.automatic };
    if (!prefetch || purchasable === undefined) return loaded;
    // The variants of the cart's items as locked: a cart's items change only under its lock
    // (SQLite: the writer lock), so the prefetch, a statement behind the lock, read the variants
    // of these same items — a variant among them it did not find is unknown or deleted. The
    // same holds for the method the cart names.
    const methodId = method === 'cart' ? cart.shipping_method_id : (method?.id ?? null);
    loaded.prefetched = {
      purchasable,
      purchasable_for: new Set([...cart.items.map((item) => item.variant_id), ...prefetch.variant_ids]),
      shipping_method:
        methodId === null || shippingMethod === undefined
          ? undefined
          : { id: methodId, record: shippingMethod },
      customer:
        prefetch.customer_id == null || customer === undefined
          ? undefined
          : { id: prefetch.customer_id, record: customer },
    };
    return loaded;
  }

  /**
   * The records a cart written by this request is priced on without reading them again: the
   * automatic discounts, and what the prefetch of {@link loadForWrite} read (its customer only
   * when it is the written cart's).
   */
  function knownFor(
    loaded: Omit<LoadedForWrite, 'cart' | 'store'>,
    next: CartAggregate,
  ): KnownPricingRecords {
    const { automatic, prefetched } = loaded;
    if (!prefetched) return { automatic };
    const { customer } = prefetched;
    return {
      automatic,
      purchasable: prefetched.purchasable,
      purchasable_for: prefetched.purchasable_for,
      shipping_method: prefetched.shipping_method,
      customer: customer !== undefined && customer.id === next.customer_id ? customer.record : undefined,
    };
  }

  /** A customer id set by a secret key must name a customer of the scope (404 otherwise). */
  function customerNotFound(id: string): CommerceError {
    return new CommerceError('not_found', `No such customer: '${id}'`, { param: 'customer_id' });
  }

  async function priced(
    tx: Repositories,
    scope: Scope,
    cart: CartAggregate,
    now: number,
    known?: KnownPricingRecords,
  ) {
    const store = await requireStore(tx, scope);
    const result = await priceStoredCart(tx, { scope, store, cart, now, known });
    return { store, result };
  }

  /**
   * Prices a cart written by this request, on the store, discounts and prefetched records its
   * first round trip read ({@link knownFor}).
   */
  function pricedAfterLoad(
    tx: Repositories,
    scope: Scope,
    loaded: Omit<LoadedForWrite, 'cart'>,
    cart: CartAggregate,
    now: number,
  ): Promise<PricedCart> {
    const store = storeOrThrow(loaded.store);
    return priceStoredCart(tx, { scope, store, cart, now, known: knownFor(loaded, cart) });
  }

  /**
   * A new cart item. Items list in the order they were added, by `created_at` then id; `order`
   * (the item's place among those added by one request) is added to `created_at` in ms so that
   * several items added at once keep their request order whatever the ids (item `created_at` is
   * not on the wire).
   */
  function newItem(
    cart_id: string,
    variant_id: string,
    quantity: number,
    metadata: CartItemRecord['metadata'],
    now: number,
    order = 0,
  ): CartItemRecord {
    return {
      id: ctx.ids.next('item'),
      cart_id,
      variant_id,
      quantity,
      metadata,
      created_at: now + order,
      updated_at: now,
    };
  }

  /** Reads a cart and prices it (for GET). */
  async function view(
    scope: Scope,
    find: (tx: Repositories) => Promise<CartAggregate | null>,
    id: string,
    actor: CartActor,
  ) {
    const now = ctx.clock.now();
    return read(ctx, async (tx) => {
      const [cart, store, discounts] = await Promise.all([
        find(tx),
        tx.stores.get(scope.store_id),
        tx.discounts.listForPricing(scope, []),
      ]);
      if (!cart || !canActOnCart(cart, actor)) throw cartNotFound(id);
      const result = await pricedAfterLoad(tx, scope, { store, automatic: discounts.automatic }, cart, now);
      return cartToWire(cart, result);
    });
  }

  return {
    /**
     * `POST /v1/storefront/carts`. With a customer token the cart belongs to that customer;
     * `customer_id` with a publishable key must be the token's customer (403 `forbidden`).
     * `region_id` (decisions §19): the region the cart is priced in (unknown → 404, inactive → 422
     * `region_unavailable`); left out, the default region when it is active, else none (the
     * store's settings). An item not sold in the region → 422 `product_unavailable`.
     */
    async create(scope: Scope, actor: CartActor, input: CartCreate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        let customer_id = actor.customer_id;
        if (input.customer_id !== undefined) {
          assertMaySetCustomer(input.customer_id, actor);
          customer_id = input.customer_id;
        }
        // One round trip: the customer (checked, and priced with), the store, the automatic
        // discounts and the variants of the lines (a new cart has no codes and no method).
        // The region (decisions §19): the one named, with its pricing reads, or else the default
        // region (one query more, in the same round trip).
        const variantIds = [...new Set(input.items.map((line) => line.variant_id))];
        const [customer, found, discounts, purchasable, named, fallback] = await Promise.all([
          customer_id !== null ? tx.customers.get(scope, customer_id) : null,
          tx.stores.get(scope.store_id),
          tx.discounts.listForPricing(scope, []),
          variantIds.length > 0 ? tx.products.getPurchasable(scope, variantIds) : [],
          input.region_id !== undefined ? readRegionPricing(tx, scope, input.region_id, variantIds) : null,
          input.region_id === undefined ? tx.regions.getDefault(scope) : null,
        ]);
        if (input.customer_id !== undefined && input.customer_id !== actor.customer_id && !customer) {
          throw customerNotFound(input.customer_id);
        }
        const store = storeOrThrow(found);
        if (named !== null && input.region_id !== undefined)
          assertRegionUsable(named.region, input.region_id);
        // An inactive default region is passed over: the cart takes the store's settings.
        const regionRead =
          named ?? (fallback?.is_active ? await readRegionPricing(tx, scope, fallback.id, variantIds) : null);
        const region = regionRead?.region ?? null;
        // The shopper's language (decisions §21): one of the store's locales.
        const locale =
          input.locale === undefined ? null : configuredLocale(await tx.locales.list(scope), input.locale);
        const id = ctx.ids.next('cart');
        const items: CartItemRecord[] = [];
        const byVariant = new Map<string, CartItemRecord>();
        for (const line of input.items) {
          const existing = byVariant.get(line.variant_id);
          if (existing) {
            existing.quantity += line.quantity;
            if (line.metadata !== undefined) existing.metadata = line.metadata;
          } else {
            const item = newItem(id, line.variant_id, line.quantity, line.metadata ?? {}, now, items.length);
            byVariant.set(line.variant_id, item);
            items.push(item);
          }
        }
        const cart: CartAggregate = {
          id,
          store_id: scope.store_id,
          mode: scope.mode,
          status: 'active',
          session_id: input.session_id ?? null,
          customer_id,
          email: null,
          shipping_address: addressFromInput(input.shipping_address ?? null),
          billing_address: addressFromInput(input.billing_address ?? null),
          shipping_method_id: null,
          discount_codes: [],
          currency: region?.currency ?? store.currency,
          region_id: region?.id ?? null,
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
          completed_at: null,
          locale,
          items,
        };
        const result = await priceStoredCart(tx, {
          scope,
          store,
          cart,
          now,
          known: { automatic: discounts.automatic, purchasable, customer, region: regionRead ?? undefined },
        });
        assertPurchasable(
          result,
          input.items.map((line, index) => ({
            key: String(index),
            variant_id: line.variant_id,
            quantity: line.quantity,
          })),
        );
        work.defer(tx.carts.insert(cart));
        return cartToWire(cart, result);
      });
    },

    /** `GET /v1/storefront/carts/{id}` (any status). */
    async get(scope: Scope, actor: CartActor, id: string) {
      return view(scope, (tx) => tx.carts.get(scope, id), id, actor);
    },

    /** `GET /v1/storefront/carts/by-session/{session_id}`: the session's newest active cart, else 404. */
    async getBySession(scope: Scope, actor: CartActor, session_id: string) {
      return view(scope, (tx) => tx.carts.getActive(scope, { session_id }), session_id, actor);
    },

    /**
     * `PATCH /v1/storefront/carts/{id}`: customer, addresses (`null` clears), shipping method
     * (unknown or inactive, or without a price in the cart's currency → 422
     * `shipping_method_unavailable`), metadata (replaced as a whole), `region_id` (decisions §19:
     * the cart takes the region's currency and is re-priced in it; unknown → 404, inactive → 422
     * `region_unavailable`, an item without a price there → 422 `product_unavailable` with
     * `param: items[i]`; nothing changes on a refusal).
     */
    async update(scope: Scope, actor: CartActor, id: string, input: CartUpdate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        // Beside the lock: the cart's variants, the method the cart will name (the one set here,
        // else its own) and the customer it will belong to (the one set here, else most likely
        // the caller's) — with neither a region nor codes, pricing then reads nothing more.
        const loaded = await loadForWrite(tx, scope, actor, id, {
          prefetch: {
            variant_ids: [],
            shipping_method:
              input.shipping_method_id === undefined
                ? 'cart'
                : input.shipping_method_id === null
                  ? undefined
                  : { id: input.shipping_method_id },
            customer_id: input.customer_id !== undefined ? input.customer_id : actor.customer_id,
          },
        });
        const { cart } = loaded;
        assertCartWritable(cart);
        if (input.customer_id != null) assertMaySetCustomer(input.customer_id, actor);
        const patch: CartPatch = {
          updated_at: now,
          ...(input.customer_id !== undefined && { customer_id: input.customer_id }),
          ...(input.shipping_address !== undefined && {
            shipping_address: addressFromInput(input.shipping_address),
          }),
          ...(input.billing_address !== undefined && {
            billing_address: addressFromInput(input.billing_address),
          }),
          ...(input.shipping_method_id !== undefined && { shipping_method_id: input.shipping_method_id }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
          ...(input.locale !== undefined && {
            locale:
              input.locale === null ? null : configuredLocale(await tx.locales.list(scope), input.locale),
          }),
          ...(input.region_id !== undefined && { region_id: input.region_id }),
        };
        const next: CartAggregate = { ...cart, ...patch };
        // The customer set here is the one the cart is priced for, and the method set here the
        // one pricing reads; what the first round trip did not read (the cart's codes, its
        // region's records, a customer other than the prefetched one) is read in one round trip.
        const read = await readStoredCartPricing(tx, { scope, cart: next, known: knownFor(loaded, next) });
        if (input.customer_id != null && input.customer_id !== actor.customer_id && !read.customer) {
          throw customerNotFound(input.customer_id);
        }
        if (input.shipping_method_id != null) {
          assertShippingMethod(read.records.method, input.shipping_method_id);
        }
        if (input.region_id !== undefined) {
          // Decisions §19: unknown → 404, inactive → 422 `region_unavailable`; the cart takes
          // the region's currency and is re-priced in it.
          const region = assertRegionUsable(read.records.region?.region ?? null, input.region_id);
          patch.currency = region.currency;
          next.currency = region.currency;
        }
        const store = storeOrThrow(loaded.store);
        const result = await priceStoredRecords(tx, { scope, store, cart: next, now }, read);
        if (input.shipping_method_id != null && result.shipping_method === null) {
          // Its price cannot be converted into the region's currency (no rate, decisions §19).
          assertShippingMethod(null, input.shipping_method_id);
        }
        if (input.region_id !== undefined && input.region_id !== cart.region_id) {
          // Every item must have a price in the new region, else nothing changes.
          next.items.forEach((item, index) => {
            if (result.unpriced.has(item.variant_id)) {
              throw new CommerceError(
                'product_unavailable',
                `Variant '${item.variant_id}' has no price in region '${input.region_id}'`,
                { param: `items[${index}]`, data: { variant_id: item.variant_id } },
              );
            }
          });
        }
        deferSet(work, scope, cart.id, patch);
        return cartToWire(next, result);
      });
    },

    /** `POST /v1/storefront/carts/{id}/items`: the same variant again adds to its quantity. */
    async addItem(scope: Scope, actor: CartActor, id: string, input: CartItemAdd) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        // Beside the lock: the variants of the cart's items and of the one added, and the
        // caller's customer (the cart's, when it is a customer's cart).
        const loaded = await loadForWrite(tx, scope, actor, id, {
          prefetch: { variant_ids: [input.variant_id], customer_id: actor.customer_id },
        });
        const { cart } = loaded;
        assertCartWritable(cart);
        const existing = cart.items.find((item) => item.variant_id === input.variant_id);
        const item: CartItemRecord = existing
          ? {
              ...existing,
              quantity: existing.quantity + input.quantity,
              metadata: input.metadata ?? existing.metadata,
              updated_at: now,
            }
          : newItem(cart.id, input.variant_id, input.quantity, input.metadata ?? {}, now);
        const items = existing ? cart.items.map((i) => (i.id === item.id ? item : i)) : [...cart.items, item];
        assertCartLimits(items, { lines: 'variant_id', quantity: 'quantity' });
        const next: CartAggregate = { ...cart, updated_at: now, items };
        const result = await pricedAfterLoad(tx, scope, loaded, next, now);
        assertGrowth(result, items, item.variant_id);
        deferSet(work, scope, cart.id, { updated_at: now });
        work.defer(
          existing
            ? tx.carts.updateItem(scope, cart.id, item.id, {
                quantity: item.quantity,
                metadata: item.metadata,
                updated_at: now,
              })
            : tx.carts.insertItem(scope, item),
        );
        return cartToWire(next, result);
      });
    },

    /** `PATCH /v1/storefront/carts/{id}/items/{item_id}`: sets the quantity (≥ 1) and optionally the metadata. */
    async updateItem(scope: Scope, actor: CartActor, id: string, item_id: string, input: CartItemUpdate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const loaded = await loadForWrite(tx, scope, actor, id);
        const { cart } = loaded;
        assertCartWritable(cart);
        const existing = cart.items.find((item) => item.id === item_id);
        if (!existing) throw itemNotFound(item_id);
        const item: CartItemRecord = {
          ...existing,
          quantity: input.quantity,
          metadata: input.metadata ?? existing.metadata,
          updated_at: now,
        };
        const items = cart.items.map((i) => (i.id === item.id ? item : i));
        const next: CartAggregate = { ...cart, updated_at: now, items };
        const result = await pricedAfterLoad(tx, scope, loaded, next, now);
        if (item.quantity > existing.quantity) assertGrowth(result, items, item.variant_id);
        deferSet(work, scope, cart.id, { updated_at: now });
        work.defer(
          tx.carts.updateItem(scope, cart.id, item.id, {
            quantity: item.quantity,
            metadata: item.metadata,
            updated_at: now,
          }),
        );
        return cartToWire(next, result);
      });
    },

    /** `DELETE /v1/storefront/carts/{id}/items/{item_id}` → the updated cart. */
    async removeItem(scope: Scope, actor: CartActor, id: string, item_id: string) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const loaded = await loadForWrite(tx, scope, actor, id);
        const { cart } = loaded;
        assertCartWritable(cart);
        if (!cart.items.some((item) => item.id === item_id)) throw itemNotFound(item_id);
        const next: CartAggregate = {
          ...cart,
          updated_at: now,
          items: cart.items.filter((item) => item.id !== item_id),
        };
        const result = await pricedAfterLoad(tx, scope, loaded, next, now);
        work.defer(tx.carts.deleteItem(scope, cart.id, item_id));
        deferSet(work, scope, cart.id, { updated_at: now });
        return cartToWire(next, result);
      });
    },

    /**
     * `POST /v1/storefront/carts/{id}/discounts`: unknown code → 422 `discount_not_found`;
     * inactive or outside its window → `discount_expired`; limit used up →
     * `discount_usage_limit_reached`; conditions unmet → `discount_not_applicable` (param `code`).
     */
    async applyDiscount(scope: Scope, actor: CartActor, id: string, code: string) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const loaded = await loadForWrite(tx, scope, actor, id, { automatic: false });
        const { cart } = loaded;
        assertCartWritable(cart);
        // One look-up serves both the code asked for and pricing (the cart's other codes); the
        // rest of pricing's reads travel with it.
        const lower = code.toLowerCase();
        const discountsRead = tx.discounts.listForPricing(scope, [...cart.discount_codes, code]);
        const [discounts, read] = await Promise.all([
          discountsRead,
          readStoredCartPricing(tx, { scope, cart, known: { discounts: discountsRead } }),
        ]);
        const discount = discounts.by_code.find((d) => d.code?.toLowerCase() === lower);
        if (discount?.type !== 'code' || discount.code === null) {
          throw new CommerceError('discount_not_found', `No discount with code '${code}'`, { param: 'code' });
        }
        const canonical = discount.code;
        const already = cart.discount_codes.some((c) => c.toLowerCase() === canonical.toLowerCase());
        const codes = already ? cart.discount_codes : [...cart.discount_codes, canonical];
        const candidate: CartAggregate = { ...cart, discount_codes: codes };
        const store = storeOrThrow(loaded.store);
        const result = await priceStoredRecords(tx, { scope, store, cart: candidate, now }, read);
        const rejected = result.pricing.rejected_codes.find((r) => r.discount_id === discount.id);
        if (rejected) throw rejection(rejected.reason, canonical);
        if (already) return cartToWire(cart, result);
        const patch: CartPatch = { discount_codes: codes, updated_at: now };
        deferSet(work, scope, cart.id, patch);
        return cartToWire({ ...cart, ...patch }, result);
      });
    },

    /** `DELETE /v1/storefront/carts/{id}/discounts/{code}` (case-insensitive) → the updated cart. */
    async removeDiscount(scope: Scope, actor: CartActor, id: string, code: string) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const loaded = await loadForWrite(tx, scope, actor, id);
        const { cart } = loaded;
        assertCartWritable(cart);
        const codes = cart.discount_codes.filter((c) => c.toLowerCase() !== code.toLowerCase());
        if (codes.length === cart.discount_codes.length) {
          throw new CommerceError('not_found', `Code '${code}' is not on this cart`, { param: 'code' });
        }
        const patch: CartPatch = { discount_codes: codes, updated_at: now };
        const next: CartAggregate = { ...cart, ...patch };
        const result = await pricedAfterLoad(tx, scope, loaded, next, now);
        deferSet(work, scope, cart.id, patch);
        return cartToWire(next, result);
      });
    },

    /**
     * `POST /v1/storefront/carts/{id}/merge` (docs/contract.md#cart-merge), for the token's customer.
     *
     * Without `source_cart_id`, `{id}` is the guest cart: when the customer has another active
     * cart, the guest cart's items are added into it (see `planMerge` for the availability caps),
     * its codes that exist and qualify on the merged cart are carried over, the guest cart becomes
     * `abandoned`, and the customer's cart is returned; otherwise the guest cart is given to the
     * customer and returned.
     *
     * With `source_cart_id` (decisions §22), `{id}` is the target, an active cart of the customer;
     * the source (a guest cart or another cart of the customer) is merged into it the same way and
     * becomes `abandoned`. The source equal to `{id}` → 400 `parameter_invalid`; a target that is
     * not the customer's, or a source that is another customer's, or either unknown → 404
     * `not_found` (param `source_cart_id` for the source); either not active → 409
     * `cart_not_active`.
     *
     * Locks (docs/contract.md#cart-concurrency): the customer's first, so merges into one customer
     * run one at a time; then both carts, in ascending id order, so two merges that share a cart
     * cannot wait for each other (PostgreSQL, MariaDB). Only carts the caller may merge are locked:
     * ownership is checked on a plain read first, and again on the locked rows.
     */
    async merge(scope: Scope, actor: CartActor & { customer_id: string }, id: string, input: CartMerge = {}) {
      const source_id = input.source_cart_id;
      if (source_id !== undefined) {
        if (source_id === id) {
          throw new CommerceError(
            'parameter_invalid',
            'source_cart_id must be another cart than the target',
            {
              param: 'source_cart_id',
            },
          );
        }
        return write(ctx, scope, ({ tx, now }) => mergeSource(tx, scope, actor, id, source_id, now));
      }
      return write(ctx, scope, async ({ tx, now }) => {
        const customer_id = actor.customer_id;
        // One merge into a customer at a time, whatever the guest carts: the customer's lock comes
        // first, so a second merge waiting here reads the active cart the first one gave the
        // customer (or merged into) and merges into it too.
        await tx.carts.lockCustomer(scope, customer_id);
        const peeked = await tx.carts.get(scope, id);
        if (!peeked || !canActOnCart(peeked, actor)) throw cartNotFound(id);
        assertGuestOrOwn(peeked, customer_id);
        // The customer's cart it would go into, if any: both are locked in id order.
        const candidate =
          peeked.customer_id === customer_id
            ? null
            : await tx.carts.getActive(scope, { customer_id, except_cart_id: id });
        const locked = await lockInOrder(tx, scope, [id, candidate?.id]);
        const guest = locked.get(id);
        if (!guest || !canActOnCart(guest, actor)) throw cartNotFound(id);
        assertGuestOrOwn(guest, customer_id);
        assertCartWritable(guest);
        if (guest.customer_id === customer_id) {
          const { result } = await priced(tx, scope, guest, now);
          return cartToWire(guest, result);
        }
        const first = candidate ? locked.get(candidate.id) : null;
        const target =
          first?.status === 'active' && first.customer_id === customer_id
            ? first
            : // Checked out or given away between the read and the lock (rare): the next one.
              candidate && (await lockActiveCartOf(tx, scope, customer_id, guest.id));
        if (!target) {
          const updated = await tx.carts.update(scope, guest.id, { customer_id, updated_at: now });
          if (!updated) throw cartNotFound(id);
          const next: CartAggregate = { ...updated, items: guest.items };
          const { result } = await priced(tx, scope, next, now);
          return cartToWire(next, result);
        }
        assertCartWritable(target);
        return mergeInto(tx, scope, guest, target, now);
      });
    },
  };

  /**
   * A merge with `source_cart_id` (see `merge`): `target_id` is the customer's cart, `source_id`
   * a guest cart or another of the customer's.
   */
  async function mergeSource(
    tx: Repositories,
    scope: Scope,
    actor: CartActor & { customer_id: string },
    target_id: string,
    source_id: string,
    now: number,
  ) {
    const customer_id = actor.customer_id;
    await tx.carts.lockCustomer(scope, customer_id);
    /** 404 unless the target is the customer's and the source a guest's or the customer's. */
    function check<C extends CartAggregate>(target: C | null | undefined, source: C | null | undefined) {
      if (!target || target.customer_id !== customer_id) throw cartNotFound(target_id);
      if (!source || (source.customer_id !== null && source.customer_id !== customer_id)) {
        throw new CommerceError('not_found', `No such cart: '${source_id}'`, { param: 'source_cart_id' });
      }
      return { target, source };
    }
    // Checked before anything is locked, so a request naming another customer's cart never holds
    // (nor waits for) its lock; checked again on the locked rows.
    const [seenTarget, seenSource] = await Promise.all([
      tx.carts.get(scope, target_id),
      tx.carts.get(scope, source_id),
    ]);
    check(seenTarget, seenSource);
    const locked = await lockInOrder(tx, scope, [target_id, source_id]);
    const { target, source } = check(locked.get(target_id), locked.get(source_id));
    assertCartWritable(target);
    assertCartWritable(source);
    return mergeInto(tx, scope, source, target, now);
  }

  /**
   * Locks the given carts (`undefined` skipped) one after another in ascending id order — the
   * order every merge takes its carts in — and returns them by id (a missing cart is absent).
   */
  async function lockInOrder(
    tx: Repositories,
    scope: Scope,
    ids: ReadonlyArray<string | undefined>,
  ): Promise<Map<string, LockedCart>> {
    const sorted = [...new Set(ids.filter((id): id is string => id !== undefined))].sort();
    const locked = new Map<string, LockedCart>();
    for (const id of sorted) {
      const cart = await tx.carts.get(scope, id, { forUpdate: true });
      if (cart) locked.set(id, cart);
    }
    return locked;
  }

  /**
   * The customer's newest active cart other than `except`, locked and read again: a cart found
   * active may have been checked out before its lock was granted, then the next one is tried
   * (carts never become active again, so this ends).
   */
  async function lockActiveCartOf(
    tx: Repositories,
    scope: Scope,
    customer_id: string,
    except: string,
  ): Promise<LockedCart | null> {
    for (;;) {
      const found = await tx.carts.getActive(scope, { customer_id, except_cart_id: except });
      if (!found) return null;
      const locked = await tx.carts.get(scope, found.id, { forUpdate: true });
      if (locked?.status === 'active' && locked.customer_id === customer_id) return locked;
    }
  }

  async function mergeInto(
    tx: Repositories,
    scope: Scope,
    guest: CartAggregate,
    target: CartAggregate,
    now: number,
  ) {
    const variantIds = [...new Set([...target.items, ...guest.items].map((item) => item.variant_id))];
    // A target in a region (decisions §19) takes no guest item that is not sold there: read its
    // prices beside the variants (no query more for a cart without a region).
    const [purchasable, regionRead, store] = await Promise.all([
      variantIds.length > 0 ? tx.products.getPurchasable(scope, variantIds) : [],
      target.region_id === null ? null : readRegionPricing(tx, scope, target.region_id, variantIds),
      target.region_id === null ? null : tx.stores.get(scope.store_id),
    ]);
    const variants = new Map(purchasable.map((entry) => [entry.variant.id, entry]));
    const region = regionRead === null || store === null ? null : regionPricing(regionRead, store);
    const sold =
      region === null
        ? guest.items
        : guest.items.filter((item) => {
            const entry = variants.get(item.variant_id);
            return (
              entry !== undefined &&
              priceInRegion(entry.variant, region.prices.get(item.variant_id), region.context) !== null
            );
          });
    const plan = planMerge(target.items, sold, variants);
    const increased = new Map(plan.increased.map((change) => [change.item.id, change.quantity]));
    const added = plan.added.map((line, index) =>
      newItem(target.id, line.variant_id, line.quantity, line.metadata, now, index),
    );
    const items = [
      ...target.items.map((item) => {
        const quantity = increased.get(item.id);
        return quantity === undefined ? item : { ...item, quantity, updated_at: now };
      }),
      ...added,
    ];
    // A merge that would outgrow the limits (docs/contract.md#input-limits) is refused; the guest cart stays as it is.
    assertCartLimits(items);

    const held = new Set(target.discount_codes.map((code) => code.toLowerCase()));
    const candidates = guest.discount_codes.filter((code) => !held.has(code.toLowerCase()));
    const merged: CartAggregate = {
      ...target,
      items,
      discount_codes: [...target.discount_codes, ...candidates],
      shipping_address: target.shipping_address ?? guest.shipping_address,
      billing_address: target.billing_address ?? guest.billing_address,
      shipping_method_id: target.shipping_method_id ?? guest.shipping_method_id,
    };
    const { result } = await priced(tx, scope, merged, now);
    const carried = carriedCodes(result, candidates);
    const discount_codes = [...target.discount_codes, ...carried];

    for (const [item_id, quantity] of increased) {
      await tx.carts.updateItem(scope, target.id, item_id, { quantity, updated_at: now });
    }
    for (const item of added) await tx.carts.insertItem(scope, item);
    const updated = await tx.carts.update(scope, target.id, {
      discount_codes,
      shipping_address: merged.shipping_address,
      billing_address: merged.billing_address,
      shipping_method_id: merged.shipping_method_id,
      updated_at: now,
    });
    if (!updated) throw cartNotFound(target.id);
    if (!(await tx.carts.transition(scope, guest.id, 'active', 'abandoned', now))) {
      throw new CommerceError('cart_not_active', `Cart '${guest.id}' is no longer active`);
    }
    const final: CartAggregate = { ...updated, items };
    return cartToWire(final, result);
  }
}

export type CartService = ReturnType<typeof createCartService>;

/**
 * Pricing reads a cart write sends beside the cart's lock, before the cart is known (see
 * `loadForWrite`): each depends only on the cart's id and the request, and runs after the lock
 * is granted like every read pricing uses. What they read is used only when it is what pricing
 * would read: a variant outside the set read, or another customer, is read as before.
 */
interface WritePrefetch {
  /** Variants the written cart holds besides the cart's items (an added item's). */
  variant_ids: readonly string[];
  /**
   * The shipping method the written cart names: `{ id }` (set by the request), `'cart'` (the one
   * the cart names, read by the cart's id); omitted, none is read.
   */
  shipping_method?: { id: string } | 'cart' | undefined;
  /** The customer the written cart most likely belongs to (null: none is read). */
  customer_id: string | null;
}

/** What `loadForWrite` read. */
interface LoadedForWrite {
  cart: LockedCart;
  store: StoreRecord | null;
  automatic: DiscountRecord[] | undefined;
  /** What its {@link WritePrefetch} read, as `KnownPricingRecords` take it. */
  prefetched?: {
    purchasable: PurchasableVariant[];
    /** The variants of the cart's items (as locked) and the prefetch's `variant_ids`. */
    purchasable_for: ReadonlySet<string>;
    shipping_method: { id: string; record: ShippingMethodRecord | null } | undefined;
    customer: { id: string; record: CustomerRecord | null } | undefined;
  };
}

/**
 * Writes `patch` to a cart the caller read `forUpdate` in this transaction, as one of the last
 * writes of the use case (`work.defer`: it travels with COMMIT; the response is the cart read plus
 * the patch, built by the caller). The row is locked and carts are never deleted, so `set`
 * finds it; were it ever `false`, `write` reports the 404 once the transaction ended.
 */
function deferSet(work: Work, scope: Scope, id: string, patch: CartPatch): void {
  work.defer(
    work.tx.carts.update(scope, id, patch, { returning: false }).then((found) => {
      if (!found) throw cartNotFound(id);
    }),
  );
}

/** Candidate codes that exist and qualify on the priced cart (rejected and unknown ones are dropped). */
function carriedCodes(priced: PricedCart, candidates: readonly string[]): string[] {
  const rejected = new Set(priced.pricing.rejected_codes.map((r) => r.discount_id));
  const valid = new Set(
    priced.code_discounts
      .filter((discount) => !rejected.has(discount.id) && discount.code !== null)
      .map((discount) => discount.code?.toLowerCase()),
  );
  return candidates.filter((code) => valid.has(code.toLowerCase()));
}

/** A merge without `source_cart_id` takes a guest cart or the customer's own: another customer's → 403. */
function assertGuestOrOwn(cart: Pick<CartAggregate, 'customer_id'>, customer_id: string): void {
  if (cart.customer_id !== null && cart.customer_id !== customer_id) {
    throw new CommerceError('forbidden', 'This cart belongs to another customer');
  }
}

/** Buyability and stock of one variant against the cart's whole quantity of it. */
function assertGrowth(priced: PricedCart, items: readonly CartItemRecord[], variant_id: string): void {
  const quantity = items
    .filter((item) => item.variant_id === variant_id)
    .reduce((sum, item) => sum + item.quantity, 0);
  assertPurchasable(priced, [{ key: variant_id, variant_id, quantity }], { param: (_index, field) => field });
}

function itemNotFound(item_id: string): CommerceError {
  return new CommerceError('not_found', `No such cart item: '${item_id}'`);
}

const REJECTION_MESSAGES: Record<DiscountRejectionCode, string> = {
  discount_expired: 'is not active or outside its validity window',
  discount_usage_limit_reached: 'has reached its usage limit',
  discount_not_applicable: 'does not apply to this cart',
};

function rejection(reason: DiscountRejectionCode, code: string): CommerceError {
  return new CommerceError(reason, `Discount code '${code}' ${REJECTION_MESSAGES[reason]}`, {
    param: 'code',
  });
}
