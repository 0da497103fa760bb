import type { Clock } from '@cartwright/core/providers';
import {
  type Address,
  createAdminClient,
  createStorefrontClient,
  HeadlessCommerce,
  HeadlessCommerceError,
  type Money,
  type Product,
  type StorefrontClient,
  type Variant,
} from '@headless-commerce/sdk';
import { expect } from 'vitest';
import type { TestApi } from '../api/support/harness';
import { ADDRESS as FIXTURE_ADDRESS, unique } from '../api/support/order-fixtures';

/** A short unique suffix (tests of one block share a database): the order fixtures' own. */
export { unique };

/**
 * Helpers for driving the API through the public client `@headless-commerce/sdk` 0.2.0 against a
 * real server (the `describeApi` harness: real HTTP on a loopback port, SQLite and PostgreSQL).
 * Retries are off (`maxRetries: 0`): a 5xx must fail the test at once, not after back-off.
 */

export interface SdkClients {
  /** `createAdminClient` with the test-mode secret key. */
  admin: HeadlessCommerce;
  /** `createStorefrontClient` with the test-mode publishable key, no customer token. */
  storefront: StorefrontClient;
  /** A storefront client that sends `X-Customer-Token` (the SDK's `customerToken` option). */
  storefrontAs(customerToken: string): StorefrontClient;
  /** A full client with any key (for auth tests and the SDK's low-level `request`). */
  withKey(apiKey: string): HeadlessCommerce;
}

export function sdkClients(api: TestApi): SdkClients {
  const baseUrl = `${api.baseUrl}/v1`;
  return {
    admin: createAdminClient({ apiKey: api.keys.secret, baseUrl, maxRetries: 0 }),
    storefront: createStorefrontClient({ apiKey: api.keys.publishable, baseUrl, maxRetries: 0 }),
    storefrontAs: (customerToken) =>
      createStorefrontClient({ apiKey: api.keys.publishable, baseUrl, maxRetries: 0, customerToken }),
    withKey: (apiKey) => new HeadlessCommerce({ apiKey, baseUrl, maxRetries: 0 }),
  };
}

/** A clock that never returns the same millisecond twice (deterministic newest-first lists). */
export function tickingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}

export const usd = (amount: number): Money => ({ amount, currency: 'USD' });

/** The order fixtures' spec Address (`name`, not the SDK's CartAddress `first_name`/`last_name`), as the SDK types it. */
export const ADDRESS: Address = FIXTURE_ADDRESS;

/** Our Address as returned: every field present, absent ones null. */
export const ADDRESS_OUT = {
  name: 'Ada Lovelace',
  first_name: null,
  last_name: null,
  company: null,
  line1: '12 St James Square',
  line2: null,
  city: 'London',
  state: null,
  postal_code: 'SW1Y 4JH',
  country: 'GB',
  phone: null,
  label: null,
  receiver_name: null,
};

/**
 * Our Variant: the SDK's `Variant` plus what it does not type — the spec's `inventory` object
 * and decisions §22's `width`, `height`, `depth` and `position`.
 */
export type OurVariant = Variant & {
  width: number | null;
  height: number | null;
  depth: number | null;
  position: number;
  inventory: {
    id: string;
    variant_id: string;
    track_inventory: boolean;
    allow_backorder: boolean;
    safety_stock: number | null;
    on_hand: number | null;
    reserved: number | null;
    available: number;
    metadata: Record<string, unknown>;
  };
};

/** Awaits a call that must fail and returns the SDK's error. */
export async function sdkError(call: Promise<unknown>): Promise<HeadlessCommerceError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(HeadlessCommerceError);
    return error as HeadlessCommerceError;
  }
  throw new Error('expected the SDK call to fail');
}

/** Asserts the SDK error's status and our `error.code` (the SDK exposes it as `err.code`). */
export async function expectSdkError(
  call: Promise<unknown>,
  status: number,
  code: string,
): Promise<HeadlessCommerceError> {
  const error = await sdkError(call);
  expect({ status: error.status, code: error.code }, error.message).toEqual({ status, code });
  return error;
}

export interface SellableProduct {
  product: Product;
  variant: OurVariant;
  inventory_id: string;
}

/**
 * Creates an active product the way an SDK user must: `products.adminCreate` (the SDK's input has
 * no variants), `variants.adminCreate`, then `inventory.adminAdjust` for the stock.
 */
export async function createSellable(
  admin: HeadlessCommerce,
  options: { price?: number; on_hand?: number; tags?: string[]; name?: string } = {},
): Promise<SellableProduct> {
  const name = options.name ?? unique('Tee ');
  const product = await admin.products.adminCreate({
    name,
    slug: unique('tee-').toLowerCase(),
    status: 'active',
    tags: options.tags ?? [],
  });
  const variant = (await admin.variants.adminCreate(product.id, {
    sku: unique('SKU-'),
    price: options.price ?? 1000,
  })) as OurVariant;
  const inventory_id = variant.inventory.id;
  if ((options.on_hand ?? 100) > 0) {
    await admin.inventory.adminAdjust(inventory_id, { quantity: options.on_hand ?? 100 });
  }
  return { product: await admin.products.adminGet(product.id), variant, inventory_id };
}

/** Whether a string is an ISO 8601 date-time as we print it. */
export const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
