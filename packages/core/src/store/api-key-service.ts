import type { ApiKeyRecord, Mode, PageRequest, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { iso, isoOrNull } from '../shared/wire-format';
import type { ApiKeyCache } from './api-key-cache';
import { isWellFormedKey, keyPrefixOf, keyTypeOf, modeOf } from './auth-service';
import type { KeyType } from './vocabulary';

export interface ApiKeyCreateInput {
  name?: string | null | undefined;
  key_type: KeyType;
  mode: Mode;
  /** Epoch ms (the schema parses ISO input). */
  expires_at?: number | null | undefined;
}

export function apiKeyToWire(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    key_type: record.key_type,
    mode: record.mode,
    key_prefix: record.key_prefix,
    last_used_at: isoOrNull(record.last_used_at),
    expires_at: isoOrNull(record.expires_at),
    created_at: iso(record.created_at),
  };
}

/**
 * API keys (docs/contract.md#keys-and-modes, #api-keys): stored as SHA-256 hashes, shown in full only once (create and
 * rotate), scoped to one store and one mode.
 */
export function createApiKeyService(ctx: ServiceContext, keyCache: ApiKeyCache) {
  /** `sk_test_` + 32 URL-safe random characters (192 bits). */
  function generateKey(keyType: KeyType, mode: Mode): string {
    return `${keyType === 'secret' ? 'sk' : 'pk'}_${mode}_${ctx.crypto.randomToken(24)}`;
  }

  async function recordFor(
    rawKey: string,
    store_id: string,
    name: string | null,
    expires_at: number | null,
    now: number,
  ): Promise<ApiKeyRecord> {
    return {
      id: ctx.ids.next('key'),
      store_id,
      mode: modeOf(rawKey),
      name,
      key_type: keyTypeOf(rawKey),
      key_hash: await ctx.crypto.sha256Hex(rawKey),
      key_prefix: keyPrefixOf(rawKey),
      last_used_at: null,
      expires_at,
      revoked_at: null,
      created_at: now,
    };
  }

  return {
    generateKey,

    /** A key may only create keys of its own mode (403 otherwise). */
    async create(scope: Scope, input: ApiKeyCreateInput) {
      if (input.mode !== scope.mode) {
        throw new CommerceError('forbidden', `A ${scope.mode} key cannot create ${input.mode} keys`, {
          param: 'mode',
        });
      }
      const key = generateKey(input.key_type, input.mode);
      const expiresAt = input.expires_at ?? null;
      const now = ctx.clock.now();
      if (expiresAt !== null && expiresAt <= now) {
        throw new CommerceError('parameter_invalid', 'expires_at must be in the future', {
          param: 'expires_at',
        });
      }
      const record = await recordFor(key, scope.store_id, input.name ?? null, expiresAt, now);
      const created = { ...apiKeyToWire(record), key };
      await write(ctx, scope, ({ tx }) => tx.apiKeys.insert(record), { answer: () => created });
      return created;
    },

    /**
     * Registers a key given in full (`COMMERCE_API_KEYS`, docs/contract.md#running). Idempotent: a key that is
     * already registered is left as it is. Returns whether it was new.
     */
    async register(store_id: string, rawKey: string, name: string | null = null): Promise<boolean> {
      if (!isWellFormedKey(rawKey)) {
        throw new CommerceError('parameter_invalid', `Not an API key: '${rawKey.slice(0, 8)}…'`, {
          param: 'key',
        });
      }
      const hash = await ctx.crypto.sha256Hex(rawKey);
      return write(ctx, null, async ({ tx, now }) => {
        if (await tx.apiKeys.findByHash(hash)) return false;
        await tx.apiKeys.insert(await recordFor(rawKey, store_id, name, null, now));
        return true;
      });
    },

    /**
     * `GET /v1/admin/api-keys`: the keys of the scope that are not revoked (the storage leaves
     * revoked ones out; the record has no field that would tell them apart).
     */
    async list(scope: Scope, page: PageRequest<'created_at'>) {
      const result = await read(ctx, (tx) => tx.apiKeys.list(scope, page));
      return { ...result, data: result.data.map(apiKeyToWire) };
    },

    /** `GET /v1/admin/api-keys/{id}`: a revoked or unknown key → 404, as rotate and delete answer. */
    async get(scope: Scope, id: string) {
      const record = await read(ctx, (tx) => tx.apiKeys.get(scope, id));
      if (!record || record.revoked_at !== null) {
        throw new CommerceError('not_found', `No such API key: '${id}'`);
      }
      return apiKeyToWire(record);
    },

    /**
     * Revokes at once, in every process: authentication reads the key's record on every request
     * (`AuthService.authenticateApiKey`), so a request that starts after this response is refused.
     */
    async delete(scope: Scope, id: string) {
      const ok = await write(ctx, scope, ({ tx, now }) => tx.apiKeys.revoke(scope, id, now));
      keyCache.clear();
      if (!ok) throw new CommerceError('not_found', `No such API key: '${id}'`);
      return { id, deleted: true as const };
    },

    /**
     * `POST /v1/admin/api-keys/{id}/rotate` (docs/contract.md#api-keys): the record keeps its `id` and gets a
     * new secret of the same kind and mode, shown once in the response (`{ id, key, … }`); the
     * old secret stops working at once in every process (its hash is no longer stored). A revoked
     * or unknown key → 404.
     */
    async rotate(scope: Scope, id: string) {
      const old = await read(ctx, (tx) => tx.apiKeys.get(scope, id));
      if (!old || old.revoked_at !== null) throw new CommerceError('not_found', `No such API key: '${id}'`);
      const key = generateKey(old.key_type, old.mode);
      const key_hash = await ctx.crypto.sha256Hex(key);
      const notFound = () => new CommerceError('not_found', `No such API key: '${id}'`);
      const rotated = await write(
        ctx,
        scope,
        ({ tx }) => tx.apiKeys.rotate(scope, id, { key_hash, key_prefix: keyPrefixOf(key) }),
        {
          answer: (record) => {
            if (!record) throw notFound();
            return { ...apiKeyToWire(record), key };
          },
        },
      );
      keyCache.clear();
      if (!rotated) throw notFound();
      return { ...apiKeyToWire(rotated), key };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
