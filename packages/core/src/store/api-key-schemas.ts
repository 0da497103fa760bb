import { z } from 'zod';
import type { Mode } from '../ports';
import {
  DateTimeSchema,
  listOf,
  type Named,
  RequiredTextSchema,
  TimestampInputSchema,
} from '../shared/schemas/common';
import type { KeyType } from './vocabulary';

/** Key kinds (docs/contract.md#keys-and-modes): secret keys call everything, publishable keys only the storefront. */
export const API_KEY_TYPES = ['secret', 'publishable'] as const satisfies readonly KeyType[];
export interface ApiKeyTypeSchema extends Named<typeof apiKeyTypeSchema> {}
const apiKeyTypeSchema = z.enum(API_KEY_TYPES);
export const ApiKeyTypeSchema: ApiKeyTypeSchema = apiKeyTypeSchema;

/** Data partitions (docs/contract.md#keys-and-modes). */
export const API_KEY_MODES = ['test', 'live'] as const satisfies readonly Mode[];
export interface ApiKeyModeSchema extends Named<typeof apiKeyModeSchema> {}
const apiKeyModeSchema = z.enum(API_KEY_MODES);
export const ApiKeyModeSchema: ApiKeyModeSchema = apiKeyModeSchema;

// ---------------------------------------------------------------- responses

/**
 * An API key record (docs/contract.md#api-keys): only `key_prefix` is ever shown back; `name` is null for keys
 * registered without one (environment, CLI).
 */
export interface ApiKeySchema extends Named<typeof apiKeySchema> {}
const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    key_prefix: z.string(),
    key_type: ApiKeyTypeSchema,
    mode: ApiKeyModeSchema,
    last_used_at: DateTimeSchema.nullable(),
    expires_at: DateTimeSchema.nullable(),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'ApiKey' });
export const ApiKeySchema: ApiKeySchema = apiKeySchema;
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** `POST /v1/admin/api-keys` response: the record plus the full `key`, shown this once. */
export interface ApiKeyCreatedSchema extends Named<typeof apiKeyCreatedSchema> {}
const apiKeyCreatedSchema = ApiKeySchema.extend({ key: z.string() }).meta({ id: 'ApiKeyCreated' });
export const ApiKeyCreatedSchema: ApiKeyCreatedSchema = apiKeyCreatedSchema;
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** `POST /v1/admin/api-keys/{id}/rotate` response (docs/contract.md#api-keys): the new key, shown once. */
export interface ApiKeyRotatedSchema extends Named<typeof apiKeyRotatedSchema> {}
const apiKeyRotatedSchema = z.object({ id: z.string(), key: z.string() }).meta({ id: 'ApiKeyRotated' });
export const ApiKeyRotatedSchema: ApiKeyRotatedSchema = apiKeyRotatedSchema;
export type ApiKeyRotated = z.infer<typeof ApiKeyRotatedSchema>;

export const ApiKeyListSchema = listOf(ApiKeySchema);
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

// ---------------------------------------------------------------- requests

/**
 * `POST /v1/admin/api-keys` (docs/contract.md#api-keys): `{ name, key_type, mode, expires_at? }`. A key may
 * only create keys of its own mode (403, service rule); `expires_at` in the past is the service's
 * to refuse, since it needs the clock.
 */
export interface ApiKeyCreateSchema extends Named<typeof apiKeyCreateSchema> {}
const apiKeyCreateSchema = z
  .strictObject({
    name: RequiredTextSchema,
    key_type: ApiKeyTypeSchema,
    mode: ApiKeyModeSchema,
    expires_at: TimestampInputSchema.nullable().optional(),
  })
  .meta({ id: 'ApiKeyCreate' });
export const ApiKeyCreateSchema: ApiKeyCreateSchema = apiKeyCreateSchema;
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;
