import type { In, StoreApi } from '@cartwright/core';
import type {
  CartCreateSchema,
  CustomerCreateSchema,
  DiscountCreateSchema,
  MoneyInput,
  ProductCreateSchema,
  ShippingMethodCreateSchema,
  VariantCreateSchema,
} from '@cartwright/core/schemas';

/** The address fixtures and `t.checkout` use when a cart has none: a physical item needs one. */
export const TEST_ADDRESS = {
  name: 'Ada Lovelace',
  line1: '1 Test Street',
  city: 'London',
  postal_code: 'EC1A 1BB',
  country: 'GB',
} as const;

/** What `fixtures.product` takes: the one variant's price and stock, and a few product fields. */
export interface ProductFixtureInput {
  /** The variant's price in minor units (or a Money input in the store currency). */
  price: MoneyInput | number;
  /** Units on hand (default 100); tracked unless `track_inventory: false`. */
  on_hand?: number;
  track_inventory?: boolean;
  allow_backorder?: boolean;
  safety_stock?: number;
  /** Default `Product <n>`. */
  name?: string;
  /** Default `SKU-<n>`. */
  sku?: string;
  /** Default `active` (the API's default is `draft`, which cannot be bought). */
  status?: 'draft' | 'active' | 'archived';
  /** Default `physical` (checkout then needs a shipping address, which cart fixtures give). */
  type?: 'physical' | 'digital' | 'service' | 'bundle';
  tags?: string[];
  /** Any other variant fields (`compare_at_price`, `weight`, `metadata`, …). */
  variant?: Partial<In<typeof VariantCreateSchema>>;
  /** Any other product fields (`description`, `attributes`, `images`, …). */
  product?: Partial<In<typeof ProductCreateSchema>>;
}

/** `fixtures.cart` options: who owns it, where it ships, which codes it carries. */
export type CartFixtureOptions = Omit<In<typeof CartCreateSchema>, 'items' | 'shipping_address'> & {
  /** Default {@link TEST_ADDRESS}; `null` leaves the cart without one. */
  shipping_address?: In<typeof CartCreateSchema>['shipping_address'] | null;
  shipping_method_id?: string;
  /** Discount codes applied one after the other (each must apply, as over HTTP). */
  discount_codes?: string[];
};

/** Items of `fixtures.cart`: `{ variant_id, quantity }` (quantity defaults to 1). */
export type CartFixtureItem = NonNullable<In<typeof CartCreateSchema>['items']>[number];

/**
 * Fixtures: objects created through the same services (and validation) as the API, with
 * defaults that make them usable at once (active, in stock, shippable). Names, SKUs and e-mails
 * are numbered per test engine (`Product 1`, `SKU-0001`, `customer-1@example.com`).
 */
export function createFixtures(store: StoreApi) {
  let counter = 0;
  const next = () => ++counter;

  return {
    /** An active product with one variant at `price` and `on_hand` units (default 100). */
    async product(input: ProductFixtureInput) {
      const n = next();
      const product = await store.products.create({
        name: input.name ?? `Product ${n}`,
        status: input.status ?? 'active',
        type: input.type ?? 'physical',
        ...(input.tags !== undefined && { tags: input.tags }),
        ...input.product,
        variants: [
          {
            sku: input.sku ?? `SKU-${String(n).padStart(4, '0')}`,
            price: input.price,
            inventory: {
              on_hand: input.on_hand ?? 100,
              ...(input.track_inventory !== undefined && { track_inventory: input.track_inventory }),
              ...(input.allow_backorder !== undefined && { allow_backorder: input.allow_backorder }),
              ...(input.safety_stock !== undefined && { safety_stock: input.safety_stock }),
            },
            ...input.variant,
          },
        ],
      });
      const variant = product.variants[0];
      if (variant === undefined)
        throw new Error('fixtures.product: the product was created without its variant');
      return { product, variant };
    },

    /** An active cart with `items`, shipping to {@link TEST_ADDRESS} unless told otherwise. */
    async cart(items: CartFixtureItem[] = [], options: CartFixtureOptions = {}) {
      const { shipping_address, shipping_method_id, discount_codes, ...create } = options;
      let cart = await store.carts.create({
        ...create,
        items,
        ...(shipping_address !== null && { shipping_address: shipping_address ?? TEST_ADDRESS }),
      });
      if (shipping_method_id !== undefined) cart = await store.carts.update(cart.id, { shipping_method_id });
      for (const code of discount_codes ?? []) cart = await store.carts.applyDiscount(cart.id, { code });
      return cart;
    },

    /** A customer with a numbered e-mail (`customer-<n>@example.com`). */
    async customer(input: Partial<In<typeof CustomerCreateSchema>> = {}) {
      const n = next();
      return store.customers.create({
        email: `customer-${n}@example.com`,
        first_name: 'Test',
        last_name: `Customer ${n}`,
        ...input,
      });
    },

    /** A shipping method (default `Standard`, 500 minor units). */
    async shippingMethod(input: Partial<In<typeof ShippingMethodCreateSchema>> = {}) {
      return store.shippingMethods.create({ name: 'Standard', price: 500, ...input });
    },

    /**
     * A discount: 10 % off the order by default; a `code` makes it a code discount, none an
     * automatic one.
     */
    async discount(input: Partial<In<typeof DiscountCreateSchema>> = {}) {
      const n = next();
      return store.discounts.create({
        name: `Discount ${n}`,
        type: input.code != null ? 'code' : 'automatic',
        value_type: 'percentage',
        value: 10,
        ...input,
      } as In<typeof DiscountCreateSchema>);
    },
  };
}

/** The fixtures of a test engine (`t.fixtures`). */
export type Fixtures = ReturnType<typeof createFixtures>;
