import { describe, expect, test } from 'vitest';
import { createApiKeyCache } from './api-key-cache';

describe('api key hash cache', () => {
  test('remembers a hash for ttl ms: set at 1000 with ttl 500 → found at 1499, gone at 1500', () => {
    const cache = createApiKeyCache(500);
    cache.set('sk_test_a', 'hash_a', 1000);
    expect(cache.get('sk_test_a', 1499)).toBe('hash_a');
    expect(cache.get('sk_test_a', 1500)).toBeUndefined();
    expect(cache.get('sk_test_a', 1000)).toBeUndefined();
  });

  test('clear forgets every key (revoke and rotate call it)', () => {
    const cache = createApiKeyCache(1000);
    cache.set('sk_test_a', 'hash_a', 0);
    cache.set('sk_test_b', 'hash_b', 0);
    cache.clear();
    expect(cache.get('sk_test_a', 1)).toBeUndefined();
    expect(cache.get('sk_test_b', 1)).toBeUndefined();
  });

  test('a ttl of 0 never remembers anything', () => {
    const cache = createApiKeyCache(0);
    cache.set('sk_test_a', 'hash_a', 0);
    expect(cache.get('sk_test_a', 0)).toBeUndefined();
  });

  test('keeps at most 1000 keys, dropping the oldest first', () => {
    const cache = createApiKeyCache(10_000);
    for (let i = 0; i <= 1000; i++) cache.set(`sk_test_${i}`, `hash_${i}`, 0);
    expect(cache.get('sk_test_0', 1)).toBeUndefined();
    expect(cache.get('sk_test_1', 1)).toBe('hash_1');
    expect(cache.get('sk_test_1000', 1)).toBe('hash_1000');
  });
});
