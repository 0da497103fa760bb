import type { ApiKeyRecord } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { sqliteStorage } from '../sqlite';
import { ApiKeyLookups } from './api-key-lookups';

const record = (id: string) => ({ id }) as ApiKeyRecord;

describe('ApiKeyLookups', () => {
  it('answers while the data version holds; another version starts over', () => {
    const lookups = new ApiKeyLookups();
    expect(lookups.get('h', 1)).toBeUndefined();
    lookups.set('h', 1, lookups.generation, record('key_1'));
    lookups.set('missing', 1, lookups.generation, null);
    expect(lookups.get('h', 1)).toEqual(record('key_1'));
    expect(lookups.get('missing', 1)).toBeNull();
    expect(lookups.get('h', 2)).toBeUndefined();
    expect(lookups.get('missing', 2)).toBeUndefined();
  });

  it('a look-up that started before an invalidation is not kept', () => {
    const lookups = new ApiKeyLookups();
    lookups.get('h', 1);
    const started = lookups.generation;
    lookups.invalidate(); // this storage revoked or rotated a key meanwhile
    lookups.set('h', 1, started, record('stale'));
    expect(lookups.get('h', 1)).toBeUndefined();
  });
});

describe('API key look-ups on SQLite', () => {
  it('a key revoked through another storage on the same file is seen at once (data_version)', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-keys-'));
    const a = sqliteStorage({ filename: join(dir, 'shop.db') });
    const b = sqliteStorage({ filename: join(dir, 'shop.db') });
    try {
      await a.migrate();
      const key: ApiKeyRecord = {
        id: 'key_lookup',
        store_id: 'store_1',
        mode: 'test',
        name: null,
        key_type: 'secret',
        key_hash: 'hash_lookup',
        key_prefix: 'sk_test_xxxx',
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
        created_at: 1,
      };
      await a.transaction((tx) => tx.apiKeys.insert(key));
      for (let i = 0; i < 2; i++) {
        expect((await b.read((r) => r.apiKeys.findByHash('hash_lookup')))?.revoked_at).toBeNull();
        expect((await a.read((r) => r.apiKeys.findByHash('hash_lookup')))?.revoked_at).toBeNull();
      }
      await a.transaction((tx) => tx.apiKeys.revoke({ store_id: 'store_1', mode: 'test' }, 'key_lookup', 5));
      expect((await b.read((r) => r.apiKeys.findByHash('hash_lookup')))?.revoked_at).toBe(5);
      // and through the storage that revoked it (its own write does not change its data_version)
      expect((await a.read((r) => r.apiKeys.findByHash('hash_lookup')))?.revoked_at).toBe(5);
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
