import { z } from 'zod';
import {
  DateTimeSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  moneyInput,
  type Named,
  NonNegativeIntegerSchema,
  OptionalLongTextSchema,
  QueryBooleanSchema,
  RequiredTextSchema,
} from '../shared/schemas/common';

/** Sorts offered by shipping method lists. */
export const SHIPPING_METHOD_SORTS = ['created_at', 'position'] as const;

// ---------------------------------------------------------------- responses

/**
 * A shipping method (docs/contract.md#shipping-methods). Its price is charged unless the discounted subtotal reaches
 * `free_shipping_threshold` (null: never free), docs/contract.md#shipping-price.
 */
export interface ShippingMethodSchema extends Named<typeof shippingMethodSchema> {}
const shippingMethodSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: MoneySchema,
    free_shipping_threshold: MoneySchema.nullable(),
    is_active: z.boolean(),
    position: z.int(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'ShippingMethod' });
export const ShippingMethodSchema: ShippingMethodSchema = shippingMethodSchema;
export type ShippingMethod = z.infer<typeof ShippingMethodSchema>;

export const ShippingMethodListSchema = listOf(ShippingMethodSchema);
export type ShippingMethodList = z.infer<typeof ShippingMethodListSchema>;

// ---------------------------------------------------------------- requests

/** `POST /v1/admin/shipping-methods` (docs/contract.md#shipping-methods). */
export interface ShippingMethodCreateSchema extends Named<typeof shippingMethodCreateSchema> {}
const shippingMethodCreateSchema = z
  .strictObject({
    name: RequiredTextSchema,
    description: OptionalLongTextSchema,
    price: moneyInput,
    free_shipping_threshold: moneyInput.nullable().optional(),
    is_active: z.boolean().default(true),
    position: NonNegativeIntegerSchema.default(0),
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'ShippingMethodCreate' });
export const ShippingMethodCreateSchema: ShippingMethodCreateSchema = shippingMethodCreateSchema;
export type ShippingMethodCreate = z.infer<typeof ShippingMethodCreateSchema>;

/** `PATCH /v1/admin/shipping-methods/{id}`: any field; `null` clears the threshold. */
export interface ShippingMethodUpdateSchema extends Named<typeof shippingMethodUpdateSchema> {}
const shippingMethodUpdateSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    description: OptionalLongTextSchema,
    price: moneyInput.optional(),
    free_shipping_threshold: moneyInput.nullable().optional(),
    is_active: z.boolean().optional(),
    position: NonNegativeIntegerSchema.optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'ShippingMethodUpdate' });
export const ShippingMethodUpdateSchema: ShippingMethodUpdateSchema = shippingMethodUpdateSchema;
export type ShippingMethodUpdate = z.infer<typeof ShippingMethodUpdateSchema>;

// ---------------------------------------------------------------- list queries

/** `GET /v1/admin/shipping-methods`: optional `is_active`, sort created_at | position. */
export interface AdminShippingMethodListQuerySchema
  extends Named<typeof adminShippingMethodListQuerySchema> {}
const adminShippingMethodListQuerySchema = listQuery(SHIPPING_METHOD_SORTS, {
  is_active: QueryBooleanSchema.optional(),
});
export const AdminShippingMethodListQuerySchema: AdminShippingMethodListQuerySchema =
  adminShippingMethodListQuerySchema;
export type AdminShippingMethodListQuery = z.infer<typeof AdminShippingMethodListQuerySchema>;

/** `GET /v1/storefront/shipping-methods`: active methods only (a service rule). */
export interface StorefrontShippingMethodListQuerySchema
  extends Named<typeof storefrontShippingMethodListQuerySchema> {}
const storefrontShippingMethodListQuerySchema = listQuery(SHIPPING_METHOD_SORTS, {});
export const StorefrontShippingMethodListQuerySchema: StorefrontShippingMethodListQuerySchema =
  storefrontShippingMethodListQuerySchema;
export type StorefrontShippingMethodListQuery = z.infer<typeof StorefrontShippingMethodListQuerySchema>;
