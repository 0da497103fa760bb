import { z } from 'zod';
import {
  CurrencyCodeSchema,
  DateTimeSchema,
  EmailSchema,
  IntegerSchema,
  MetadataInputSchema,
  MetadataSchema,
  type Named,
  RateSchema,
  RequiredTextSchema,
} from '../shared/schemas/common';
import { MAX_NAME_LENGTH, MAX_TAX_RATE } from '../shared/schemas/limits';

/** The longest storefront return window: ten years of days (decisions §18). */
export const MAX_RETURN_WINDOW_DAYS = 3650;

// ---------------------------------------------------------------- responses

/**
 * Store settings (spec "Store"), shared by both modes (docs/contract.md#store-settings). `tax_rate` is a percentage:
 * `20` is 20 %, `8.875` allowed (docs/contract.md#money). `organization_id` names the organization that owns
 * the store (as the public client `@headless-commerce/sdk` declares it). `slug` (decisions §22) is derived
 * from the name when the store is created (or first loaded, for a store made before slugs), unique across
 * the database (`-` and a 6-character suffix when the name's is taken), and stays when the name changes;
 * it is not an input of `PATCH`.
 */
export interface StoreSchema extends Named<typeof storeSchema> {}
const storeSchema = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    slug: z.string(),
    currency: z.string(),
    timezone: z.string(),
    prices_include_tax: z.boolean(),
    tax_rate: z.number(),
    /** Days after a line's latest shipment the storefront may return it (decisions §18); null = no window. */
    return_window_days: z.int().nullable(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Store' });
export const StoreSchema: StoreSchema = storeSchema;
export type Store = z.infer<typeof StoreSchema>;

/** The organization record (docs/contract.md#store-settings). */
export interface OrganizationSchema extends Named<typeof organizationSchema> {}
const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.string(),
    billing_email: z.string().nullable(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Organization' });
export const OrganizationSchema: OrganizationSchema = organizationSchema;
export type Organization = z.infer<typeof OrganizationSchema>;

// ---------------------------------------------------------------- requests

/** Whether `zone` is an IANA time zone the runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * `PATCH /v1/admin/store` (docs/contract.md#store-settings). `currency` is an ISO 4217 code (upper-cased); changing
 * it once products or orders exist is a 409 (service rule). `tax_rate` is a percentage 0..100
 * with at most 6 decimal places; `timezone` an IANA zone name.
 */
export interface StoreUpdateSchema extends Named<typeof storeUpdateSchema> {}
const storeUpdateSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    currency: CurrencyCodeSchema.optional(),
    timezone: z
      .string()
      .max(MAX_NAME_LENGTH)
      .refine(isTimeZone, { error: 'must be an IANA time zone name (e.g. Europe/Paris)' })
      .optional(),
    prices_include_tax: z.boolean().optional(),
    tax_rate: RateSchema.min(0).max(MAX_TAX_RATE).optional(),
    /** 0..3650 days, or null (no window, the default): the storefront's return window (decisions §18). */
    return_window_days: IntegerSchema.min(0).max(MAX_RETURN_WINDOW_DAYS).nullable().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'StoreUpdate' });
export const StoreUpdateSchema: StoreUpdateSchema = storeUpdateSchema;
export type StoreUpdate = z.infer<typeof StoreUpdateSchema>;

/** `PATCH /v1/admin/organization` (spec: `name`; docs/contract.md#store-settings: also `billing_email`, `metadata`). */
export interface OrganizationUpdateSchema extends Named<typeof organizationUpdateSchema> {}
const organizationUpdateSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    billing_email: EmailSchema.nullable().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'OrganizationUpdate' });
export const OrganizationUpdateSchema: OrganizationUpdateSchema = organizationUpdateSchema;
export type OrganizationUpdate = z.infer<typeof OrganizationUpdateSchema>;
