import { z } from 'zod';
import {
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  type Named,
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
export interface InventorySchema extends Named<typeof inventorySchema> {}
const inventorySchema = z
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
export const InventorySchema: InventorySchema = inventorySchema;
export type Inventory = z.infer<typeof InventorySchema>;

export const InventoryListSchema = listOf(InventorySchema);
export type InventoryList = z.infer<typeof InventoryListSchema>;

/**
 * The stock of an inventory item at one location (decisions §22, the public client's
 * `InventoryLevel`). One location, `sloc_default`, until a decision adds more: its level holds the
 * item's own `on_hand`, `reserved` and `available`. `id` is the item's id with the prefix `ilvl_`
 * (`inv_01J…` → `ilvl_01J…`). `version` counts the level's stock changes: 0 when the item is
 * created, + 1 with every change of `on_hand` or `reserved` (reservations, releases, shipments,
 * restocks, adjustments, an absolute `on_hand`); settings do not move it.
 */
export interface InventoryLevelSchema extends Named<typeof inventoryLevelSchema> {}
const inventoryLevelSchema = z
  .object({
    id: z.string(),
    location_id: z.string(),
    on_hand: z.int(),
    reserved: z.int(),
    available: z.int(),
    version: z.int().min(0),
  })
  .meta({ id: 'InventoryLevel' });
export const InventoryLevelSchema: InventoryLevelSchema = inventoryLevelSchema;
export type InventoryLevel = z.infer<typeof InventoryLevelSchema>;

/**
 * An inventory item as `/v1/admin/inventory` shows it (decisions §22, the public client's
 * `InventoryItem`): the Inventory record's fields (admin view: nothing hidden), its variant's
 * `sku`, and `levels` (one, at `sloc_default`, with the same `on_hand`, `reserved` and
 * `available` as the item). Admin only: the storefront sees inventory inside variants, without
 * levels (docs/contract.md#storefront-visibility).
 */
export interface InventoryItemSchema extends Named<typeof inventoryItemSchema> {}
const inventoryItemSchema = z
  .object({
    id: z.string(),
    variant_id: z.string(),
    sku: z.string().nullable(),
    track_inventory: z.boolean(),
    allow_backorder: z.boolean(),
    safety_stock: z.int(),
    on_hand: z.int(),
    reserved: z.int(),
    available: z.int(),
    metadata: MetadataSchema,
    levels: z.array(InventoryLevelSchema),
  })
  .meta({ id: 'InventoryItem' });
export const InventoryItemSchema: InventoryItemSchema = inventoryItemSchema;
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

export const InventoryItemListSchema = listOf(InventoryItemSchema);
export type InventoryItemList = z.infer<typeof InventoryItemListSchema>;

// ---------------------------------------------------------------- requests

/**
 * The `inventory` of a variant in product and variant creation (docs/contract.md#catalog). Fields left out
 * take the service's defaults; `on_hand` and `safety_stock` are counts ≥ 0.
 */
export interface InventoryInputSchema extends Named<typeof inventoryInputSchema> {}
const inventoryInputSchema = z
  .strictObject({
    track_inventory: z.boolean().optional(),
    allow_backorder: z.boolean().optional(),
    safety_stock: NonNegativeIntegerSchema.optional(),
    on_hand: NonNegativeIntegerSchema.optional(),
  })
  .meta({ id: 'InventoryInput' });
export const InventoryInputSchema: InventoryInputSchema = inventoryInputSchema;
export type InventoryInput = z.infer<typeof InventoryInputSchema>;

/**
 * `PATCH /v1/admin/inventory/{id}` (docs/contract.md#inventory): settings and an absolute `on_hand`. Going below
 * `reserved` is a business rule (422 `insufficient_inventory`), checked by the service.
 */
export interface InventoryUpdateSchema extends Named<typeof inventoryUpdateSchema> {}
const inventoryUpdateSchema = z
  .strictObject({
    track_inventory: z.boolean().optional(),
    allow_backorder: z.boolean().optional(),
    safety_stock: NonNegativeIntegerSchema.optional(),
    on_hand: NonNegativeIntegerSchema.optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'InventoryUpdate' });
export const InventoryUpdateSchema: InventoryUpdateSchema = inventoryUpdateSchema;
export type InventoryUpdate = z.infer<typeof InventoryUpdateSchema>;

/** `POST /v1/admin/inventory/{id}/adjust`: `quantity` is a signed delta added to `on_hand`. */
export interface InventoryAdjustSchema extends Named<typeof inventoryAdjustSchema> {}
const inventoryAdjustSchema = z
  .strictObject({
    quantity: IntegerSchema.min(INT4_MIN).max(INT4_MAX),
    reason: z.string().max(MAX_TEXT_LENGTH).optional(),
  })
  .meta({ id: 'InventoryAdjust' });
export const InventoryAdjustSchema: InventoryAdjustSchema = inventoryAdjustSchema;
export type InventoryAdjust = z.infer<typeof InventoryAdjustSchema>;

/** `GET /v1/admin/inventory`: `low_stock=true` keeps items with available ≤ safety_stock (docs/contract.md#list-filters). */
export interface InventoryListQuerySchema extends Named<typeof inventoryListQuerySchema> {}
const inventoryListQuerySchema = listQuery(['created_at'], {
  low_stock: QueryBooleanSchema.optional(),
});
export const InventoryListQuerySchema: InventoryListQuerySchema = inventoryListQuerySchema;
export type InventoryListQuery = z.infer<typeof InventoryListQuerySchema>;
