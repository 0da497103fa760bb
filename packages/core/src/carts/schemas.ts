import { z } from 'zod';
import { AppliedDiscountSchema } from '../discounts/schemas';
import { LocaleTagSchema } from '../locales/schemas';
import {
  AddressInputSchema,
  AddressSchema,
  DateTimeSchema,
  EmailSchema,
  IdentifierTextSchema,
  IdSchema,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  type Named,
  OptionalLongTextSchema,
  QuantitySchema,
} from '../shared/schemas/common';
import {
  MAX_CART_LINES,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_QUANTITY,
} from '../shared/schemas/limits';
import type { CartStatus } from './vocabulary';

/** The vocabulary of this context (./vocabulary.ts, which the storage records use too), re-exported here. */
export type { CartStatus };

export const CART_STATUSES = ['active', 'completed', 'abandoned'] as const satisfies readonly CartStatus[];
export interface CartStatusSchema extends Named<typeof cartStatusSchema> {}
const cartStatusSchema = z.enum(CART_STATUSES);
export const CartStatusSchema: CartStatusSchema = cartStatusSchema;

/**
 * The name of a payment provider (docs/contract.md#checkout): lowercase letters, digits and `_`, starting
 * with a letter, at most {@link MAX_PAYMENT_PROVIDER_NAME_LENGTH} characters. Which names checkout
 * accepts is what the engine has registered (`manual` always, `stripe` when configured, and any
 * provider of your own); every `PaymentProvider.name` must be one (createEngine checks).
 */
export type PaymentProviderName = string;
export const MAX_PAYMENT_PROVIDER_NAME_LENGTH = 64;
export const PAYMENT_PROVIDER_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
/**
 * Marks, in the OpenAPI document, a field whose values are the registered payment providers:
 * the document builder (`@cartwright/http`) writes their names there as its `enum`.
 */
export const PAYMENT_PROVIDERS_EXTENSION = 'x-cartwright-payment-providers';
export const PaymentProviderNameSchema = z
  .string()
  .max(MAX_PAYMENT_PROVIDER_NAME_LENGTH)
  .regex(PAYMENT_PROVIDER_NAME_PATTERN, {
    error: 'must be a payment provider name (lowercase letters, digits and _, starting with a letter)',
  })
  .meta({ [PAYMENT_PROVIDERS_EXTENSION]: true });

/**
 * The most a cart line's `metadata` may take, serialised as JSON (UTF-8 bytes; decisions §15): with
 * {@link MAX_CART_LINES} lines the largest cart a shopper can make stays under 1 MB
 * (docs/limits.md#carts; packages/http/test/api/data-limits.test.ts builds it).
 */
export const MAX_LINE_METADATA_BYTES = 2048;
/**
 * The most the cart's own `metadata` may take, serialised as JSON (UTF-8 bytes): room for every
 * metadata the general limits allow in plain text (50 keys of 40 characters with values of 500:
 * about 27 KB), while 50 values of characters JSON escapes (`\u0001`, six bytes each) would
 * otherwise make 160 KB and the largest cart over 1 MiB.
 */
export const MAX_CART_METADATA_BYTES = 32_768;

const utf8 = new TextEncoder();

/** {@link MetadataInputSchema}, at most `max` bytes serialised as JSON (UTF-8). */
function metadataOfAtMost(max: number, id: string, what: string) {
  return MetadataInputSchema.superRefine((value, ctx) => {
    const size = utf8.encode(JSON.stringify(value)).length;
    if (size > max) {
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${max} bytes serialised as JSON (it is ${size})`,
      });
    }
  }).meta({
    id,
    description:
      `${what}: a free-form JSON object: at most ${MAX_METADATA_KEYS} keys of at most ${MAX_METADATA_KEY_LENGTH} ` +
      `characters; strings at most ${MAX_METADATA_VALUE_LENGTH} characters; at most ${max} bytes serialised as JSON (UTF-8).`,
  });
}

/** A cart line's `metadata` in a request: at most {@link MAX_LINE_METADATA_BYTES} serialised. */
export interface LineMetadataInputSchema extends Named<typeof lineMetadataInputSchema> {}
const lineMetadataInputSchema = metadataOfAtMost(
  MAX_LINE_METADATA_BYTES,
  'LineMetadataInput',
  "A cart line's metadata",
);
export const LineMetadataInputSchema: LineMetadataInputSchema = lineMetadataInputSchema;

/** A cart's own `metadata` in a request: at most {@link MAX_CART_METADATA_BYTES} serialised. */
export interface CartMetadataInputSchema extends Named<typeof cartMetadataInputSchema> {}
const cartMetadataInputSchema = metadataOfAtMost(
  MAX_CART_METADATA_BYTES,
  'CartMetadataInput',
  "A cart's metadata",
);
export const CartMetadataInputSchema: CartMetadataInputSchema = cartMetadataInputSchema;

// ---------------------------------------------------------------- responses

/**
 * A cart line (spec "CartItem"); `sku` and `image_url` are null when the variant has none;
 * `option_values` are the variant's as they are now, by option name (decisions §22).
 */
export interface CartItemSchema extends Named<typeof cartItemSchema> {}
const cartItemSchema = z
  .object({
    id: z.string(),
    variant_id: z.string(),
    product_id: z.string(),
    product_name: z.string(),
    variant_name: z.string(),
    sku: z.string().nullable(),
    image_url: z.string().nullable(),
    quantity: z.int(),
    unit_price: MoneySchema,
    line_discount: MoneySchema,
    line_total: MoneySchema,
    option_values: z.record(z.string(), z.string()),
    metadata: MetadataSchema,
  })
  .meta({ id: 'CartItem' });
export const CartItemSchema: CartItemSchema = cartItemSchema;
export type CartItem = z.infer<typeof CartItemSchema>;

/** The priced totals of a cart (docs/contract.md#pricing). */
export interface CartSummarySchema extends Named<typeof cartSummarySchema> {}
const cartSummarySchema = z
  .object({
    subtotal: MoneySchema,
    discount_total: MoneySchema,
    shipping_total: MoneySchema,
    tax_total: MoneySchema,
    total: MoneySchema,
    item_count: z.int(),
    total_quantity: z.int(),
  })
  .meta({ id: 'CartSummary' });
export const CartSummarySchema: CartSummarySchema = cartSummarySchema;
export type CartSummary = z.infer<typeof CartSummarySchema>;

/** A cart (spec "Cart"); addresses are null until set. */
export interface CartSchema extends Named<typeof cartSchema> {}
const cartSchema = z
  .object({
    id: z.string(),
    status: CartStatusSchema,
    session_id: z.string().nullable(),
    customer_id: z.string().nullable(),
    items: z.array(CartItemSchema),
    shipping_address: AddressSchema.nullable(),
    billing_address: AddressSchema.nullable(),
    shipping_method_id: z.string().nullable(),
    discount_codes: z.array(z.string()),
    summary: CartSummarySchema,
    applied_discounts: z.array(AppliedDiscountSchema),
    /** Beyond the SDK (decisions §21): the shopper's language, or null; the order's line names are in it. */
    locale: z.string().nullable(),
    /**
     * Beyond the SDK (decisions §19): the region the cart is priced in (its currency, prices, tax
     * rate and convention), or null: the store's settings.
     */
    region_id: z.string().nullable().meta({
      description:
        'Beyond the SDK (decisions §19): the region the cart is priced in (its currency, prices, tax rate and convention); null: the store settings.',
    }),
    /** Beyond the SDK (decisions §19): the currency of every amount of the cart. */
    currency: z.string().meta({
      description:
        "Beyond the SDK (decisions §19): the ISO 4217 code of every amount of the cart (its region's, else the store's).",
    }),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Cart' });
export const CartSchema: CartSchema = cartSchema;
export type Cart = z.infer<typeof CartSchema>;

// ---------------------------------------------------------------- requests

/**
 * `POST /v1/storefront/carts/{id}/items` (docs/contract.md#carts): `quantity` defaults to 1; the same variant
 * again adds to the existing item's quantity.
 */
export interface CartItemAddSchema extends Named<typeof cartItemAddSchema> {}
const cartItemAddSchema = z
  .strictObject({
    variant_id: IdSchema,
    quantity: QuantitySchema.default(1),
    metadata: LineMetadataInputSchema.optional(),
  })
  .meta({ id: 'CartItemAdd' });
export const CartItemAddSchema: CartItemAddSchema = cartItemAddSchema;
export type CartItemAdd = z.infer<typeof CartItemAddSchema>;

/**
 * `POST /v1/storefront/carts` (docs/contract.md#carts): all optional. With a customer token the cart
 * belongs to that customer; `customer_id` with a publishable key needs that customer's token
 * (a service rule, docs/contract.md#cart-ownership).
 */
export interface CartCreateSchema extends Named<typeof cartCreateSchema> {}
const cartCreateSchema = z
  .strictObject({
    session_id: IdentifierTextSchema.optional(),
    customer_id: IdSchema.optional(),
    items: z.array(CartItemAddSchema).max(MAX_CART_LINES).default([]),
    shipping_address: AddressInputSchema.optional(),
    billing_address: AddressInputSchema.optional(),
    metadata: CartMetadataInputSchema.default({}),
    locale: LocaleTagSchema.optional(),
    /** Decisions §19: the region to price in; omitted → the default region, else the store's settings. */
    region_id: IdSchema.optional().meta({
      description:
        'Decisions §19: the region to price the cart in (unknown → 404, inactive → 422 `region_unavailable`); left out, the active default region, else the store settings.',
    }),
  })
  .superRefine((cart, ctx) => {
    // Items of the same variant become one line: their summed quantity is the line's.
    const totals = new Map<string, number>();
    cart.items.forEach((item, index) => {
      const total = (totals.get(item.variant_id) ?? 0) + item.quantity;
      totals.set(item.variant_id, total);
      if (total > MAX_QUANTITY && total - item.quantity <= MAX_QUANTITY) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', index, 'quantity'],
          message: `makes ${total} of one variant; a line holds at most ${MAX_QUANTITY}`,
        });
      }
    });
  })
  .meta({ id: 'CartCreate' });
export const CartCreateSchema: CartCreateSchema = cartCreateSchema;
export type CartCreate = z.infer<typeof CartCreateSchema>;

/** `PATCH /v1/storefront/carts/{id}` (spec): all optional; `null` clears a field. */
export interface CartUpdateSchema extends Named<typeof cartUpdateSchema> {}
const cartUpdateSchema = z
  .strictObject({
    customer_id: IdSchema.nullable().optional(),
    shipping_address: AddressInputSchema.nullable().optional(),
    billing_address: AddressInputSchema.nullable().optional(),
    shipping_method_id: IdSchema.nullable().optional(),
    metadata: CartMetadataInputSchema.optional(),
    locale: LocaleTagSchema.nullable().optional(),
    /** Decisions §19: moves the cart to this region and re-prices it. */
    region_id: IdSchema.optional().meta({
      description:
        'Decisions §19: moves the cart to this region and re-prices it (an item without a price there → 422 `product_unavailable`, `param: items[i]`).',
    }),
  })
  .meta({ id: 'CartUpdate' });
export const CartUpdateSchema: CartUpdateSchema = cartUpdateSchema;
export type CartUpdate = z.infer<typeof CartUpdateSchema>;

/** `PATCH /v1/storefront/carts/{id}/items/{item_id}` (spec): `quantity` required, ≥ 1. */
export interface CartItemUpdateSchema extends Named<typeof cartItemUpdateSchema> {}
const cartItemUpdateSchema = z
  .strictObject({
    quantity: QuantitySchema,
    metadata: LineMetadataInputSchema.optional(),
  })
  .meta({ id: 'CartItemUpdate' });
export const CartItemUpdateSchema: CartItemUpdateSchema = cartItemUpdateSchema;
export type CartItemUpdate = z.infer<typeof CartItemUpdateSchema>;

/** `POST /v1/storefront/carts/{id}/discounts` (spec): `code` required. */
export interface CartDiscountApplySchema extends Named<typeof cartDiscountApplySchema> {}
const cartDiscountApplySchema = z
  .strictObject({ code: IdentifierTextSchema })
  .meta({ id: 'CartDiscountApply' });
export const CartDiscountApplySchema: CartDiscountApplySchema = cartDiscountApplySchema;
export type CartDiscountApply = z.infer<typeof CartDiscountApplySchema>;

/**
 * `POST /v1/storefront/carts/{id}/merge` (docs/contract.md#cart-merge). Without `source_cart_id`
 * (no body, or `{}`), `{id}` is the guest cart merged into the customer's active cart (or given to
 * the customer); with it, `{id}` is the customer's cart the source is merged into.
 */
export interface CartMergeSchema extends Named<typeof cartMergeSchema> {}
const cartMergeSchema = z
  .strictObject({
    source_cart_id: IdSchema.optional().meta({
      description:
        "The cart merged into `{id}` and abandoned: a guest cart or another of the customer's own carts (not `{id}` itself).",
    }),
  })
  .meta({ id: 'CartMerge' });
export const CartMergeSchema: CartMergeSchema = cartMergeSchema;
export type CartMerge = z.infer<typeof CartMergeSchema>;

const CHECKOUT_SHAPE = {
  email: EmailSchema.optional(),
  payment_provider: PaymentProviderNameSchema.optional(),
  /** The older name of `payment_provider` (docs/contract.md#checkout). */
  payment_method: PaymentProviderNameSchema.optional().meta({
    deprecated: true,
    description: 'The older name of payment_provider.',
  }),
  payment_method_id: IdentifierTextSchema.optional().meta({
    description:
      "The payment method to charge at once (Stripe: a `pm_…` from Stripe.js). Without it, a Stripe checkout creates a PaymentIntent the storefront confirms in the browser with the answer's `payment.client_secret`.",
  }),
  shipping_address: AddressInputSchema.optional(),
  billing_address: AddressInputSchema.optional(),
  note: OptionalLongTextSchema,
  metadata: CartMetadataInputSchema.optional(),
};

type CheckoutSchemaType = z.ZodObject<typeof CHECKOUT_SHAPE, z.core.$strict> & {
  _zod: { output: { payment_provider: PaymentProviderName; payment_method?: PaymentProviderName } };
};

/**
 * `POST /v1/storefront/carts/{id}/checkout` (docs/contract.md#checkout). The output always has
 * `payment_provider` — taken from `payment_provider`, else from the older `payment_method`,
 * else `manual`; `payment_method` stays (equal to it) only when the request named the provider
 * by that older name alone, so that checkout refuses an unregistered provider on the field that
 * named it. Both names with different values are an error. Any well-formed name passes here;
 * checkout answers 400 `parameter_invalid` for one the engine has not registered, and 400
 * `parameter_missing` without `payment_method_id` for a provider that `requiresPaymentMethod`.
 * `stripe` without `payment_method_id` creates a payment the storefront confirms in the browser
 * (decisions §22). The e-mail is required for guest
 * carts only, which the service knows (400 `parameter_missing`, param `email`); addresses, note
 * and metadata are applied to the cart before checkout.
 */
export const CheckoutSchema = z
  .strictObject(CHECKOUT_SHAPE)
  .superRefine((body, ctx) => {
    if (
      body.payment_provider !== undefined &&
      body.payment_method !== undefined &&
      body.payment_provider !== body.payment_method
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['payment_method'],
        message: 'is the older name of payment_provider and must not differ from it',
      });
    }
  })
  .overwrite((body) => {
    const older = body.payment_provider === undefined ? body.payment_method : undefined;
    body.payment_provider = body.payment_provider ?? body.payment_method ?? 'manual';
    if (older === undefined) delete body.payment_method;
    return body;
  })
  .meta({ id: 'Checkout' }) as CheckoutSchemaType;
export type Checkout = z.infer<typeof CheckoutSchema>;
