import { z } from 'zod';
import {
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  NonNegativeIntegerSchema,
  QueryBooleanSchema,
} from '../shared/schemas/common';
import { INT4_MAX, INT4_MIN, MAX_TEXT_LENGTH } from '../shared/schemas/limits';

// ---------------------------------------------------------------- response

/**
 * A variant's stock record (spec "Inventory"). `available = on_hand − reserved` (docs/contract.md#inventory).
 * Storefront responses show `available` and hide `on_hand`, `reserved` and `safety_stock` as
 * `null` (docs/contract.md#storefront-visibility).
 */
export const InventorySchema = z
  .object({
    id: z.string(),
    variant_id: z.string(),
    track_inventory: z.boolean(),
    allow_backorder: z.boolean(),
    safety_stock: z.int().nullable(),
    on_hand: z.int().nullable(),
    reserved: z.int().nullable(),
    available: z.int(),
    metadata: MetadataSchema,
  })
  .meta({ id: 'Inventory' });
export type Inventory = z.infer<typeof InventorySchema>;

export const InventoryListSchema = listOf(InventorySchema);
export type InventoryList = z.infer<typeof InventoryListSchema>;

// ---------------------------------------------------------------- requests

/**
 * The `inventory` of a variant in product and variant creation (docs/contract.md#catalog). Fields left out
 * take the service's defaults; `on_hand` and `safety_stock` are counts ≥ 0.
 */
export const InventoryInputSchema = z
  .strictObject({
    track_inventory: z.boolean().optional(),
    allow_backorder: z.boolean().optional(),
    safety_stock: NonNegativeIntegerSchema.optional(),
    on_hand: NonNegativeIntegerSchema.optional(),
  })
  .meta({ id: 'InventoryInput' });
export type InventoryInput = z.infer<typeof InventoryInputSchema>;

/**
 * `PATCH /v1/admin/inventory/{id}` (docs/contract.md#inventory): settings and an absolute `on_hand`. Going below
 * `reserved` is a business rule (422 `insufficient_inventory`), checked by the service.
 */
export const InventoryUpdateSchema = z
  .strictObject({
    track_inventory: z.boolean().optional(),
    allow_backorder: z.boolean().optional(),
    safety_stock: NonNegativeIntegerSchema.optional(),
    on_hand: NonNegativeIntegerSchema.optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'InventoryUpdate' });
export type InventoryUpdate = z.infer<typeof InventoryUpdateSchema>;

/** `POST /v1/admin/inventory/{id}/adjust`: `quantity` is a signed delta added to `on_hand`. */
export const InventoryAdjustSchema = z
  .strictObject({
    quantity: IntegerSchema.min(INT4_MIN).max(INT4_MAX),
    reason: z.string().max(MAX_TEXT_LENGTH).optional(),
  })
  .meta({ id: 'InventoryAdjust' });
export type InventoryAdjust = z.infer<typeof InventoryAdjustSchema>;

/** `GET /v1/admin/inventory`: `low_stock=true` keeps items with available ≤ safety_stock (docs/contract.md#list-filters). */
export const InventoryListQuerySchema = listQuery(['created_at'], {
  low_stock: QueryBooleanSchema.optional(),
});
export type InventoryListQuery = z.infer<typeof InventoryListQuerySchema>;
