import { describe, expect, test } from 'vitest';
import type { ApiKeyRecord } from '../ports/storage';
import { createApiKeyCache } from './api-key-cache';

const record = (id: string): ApiKeyRecord => ({
  id,
  store_id: 'store_1',
  mode: 'test',
  key_type: 'secret',
  name: null,
  key_prefix: 'sk_test_abcd',
  key_hash: `hash_${id}`,
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  created_at: 0,
});

describe('api key cache', () => {
  test('remembers a key for ttl ms: set at 1000 with ttl 500 → found at 1499, gone at 1500', () => {
    const cache = createApiKeyCache(500);
    cache.set('sk_test_a', record('key_a'), 1000);
    expect(cache.get('sk_test_a', 1499)?.id).toBe('key_a');
    expect(cache.get('sk_test_a', 1500)).toBeUndefined();
    expect(cache.get('sk_test_a', 1000)).toBeUndefined();
  });

  test('clear forgets every key (revoke and rotate call it)', () => {
    const cache = createApiKeyCache(1000);
    cache.set('sk_test_a', record('key_a'), 0);
    cache.set('sk_test_b', record('key_b'), 0);
    cache.clear();
    expect(cache.get('sk_test_a', 1)).toBeUndefined();
    expect(cache.get('sk_test_b', 1)).toBeUndefined();
  });

  test('a ttl of 0 never remembers anything', () => {
    const cache = createApiKeyCache(0);
    cache.set('sk_test_a', record('key_a'), 0);
    expect(cache.get('sk_test_a', 0)).toBeUndefined();
  });

  test('keeps at most 1000 keys, dropping the oldest first', () => {
    const cache = createApiKeyCache(10_000);
    for (let i = 0; i <= 1000; i++) cache.set(`sk_test_${i}`, record(`key_${i}`), 0);
    expect(cache.get('sk_test_0', 1)).toBeUndefined();
    expect(cache.get('sk_test_1', 1)?.id).toBe('key_1');
    expect(cache.get('sk_test_1000', 1)?.id).toBe('key_1000');
  });
});
