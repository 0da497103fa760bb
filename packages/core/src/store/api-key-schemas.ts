import { z } from 'zod';
import type { Mode } from '../ports';
import { DateTimeSchema, listOf, RequiredTextSchema, TimestampInputSchema } from '../shared/schemas/common';
import type { KeyType } from './vocabulary';

/** Key kinds (docs/contract.md#keys-and-modes): secret keys call everything, publishable keys only the storefront. */
export const API_KEY_TYPES = ['secret', 'publishable'] as const satisfies readonly KeyType[];
export const ApiKeyTypeSchema = z.enum(API_KEY_TYPES);

/** Data partitions (docs/contract.md#keys-and-modes). */
export const API_KEY_MODES = ['test', 'live'] as const satisfies readonly Mode[];
export const ApiKeyModeSchema = z.enum(API_KEY_MODES);

// ---------------------------------------------------------------- responses

/**
 * An API key record (docs/contract.md#api-keys): only `key_prefix` is ever shown back; `name` is null for keys
 * registered without one (environment, CLI).
 */
export const ApiKeySchema = z
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
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** `POST /v1/admin/api-keys` response: the record plus the full `key`, shown this once. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({ key: z.string() }).meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** `POST /v1/admin/api-keys/{id}/rotate` response (docs/contract.md#api-keys): the new key, shown once. */
export const ApiKeyRotatedSchema = z
  .object({ id: z.string(), key: z.string() })
  .meta({ id: 'ApiKeyRotated' });
export type ApiKeyRotated = z.infer<typeof ApiKeyRotatedSchema>;

export const ApiKeyListSchema = listOf(ApiKeySchema);
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

// ---------------------------------------------------------------- requests

/**
 * `POST /v1/admin/api-keys` (docs/contract.md#api-keys): `{ name, key_type, mode, expires_at? }`. A key may
 * only create keys of its own mode (403, service rule); `expires_at` in the past is the service's
 * to refuse, since it needs the clock.
 */
export const ApiKeyCreateSchema = z
  .strictObject({
    name: RequiredTextSchema,
    key_type: ApiKeyTypeSchema,
    mode: ApiKeyModeSchema,
    expires_at: TimestampInputSchema.nullable().optional(),
  })
  .meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;
