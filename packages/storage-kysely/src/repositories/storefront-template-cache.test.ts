import { STOREFRONT_SLOT } from '@cartwright/core/internal';
import { describe, expect, it } from 'vitest';
import { StorefrontTemplateCache } from './storefront-template-cache';

const scope = { store_id: 'store_1', mode: 'test' as const };
const other = { store_id: 'store_2', mode: 'test' as const };

/** A one-slot template of `length` characters at least. */
function templateOf(variant: string, length = 0): string {
  return `{"variant_id":"${variant}",${STOREFRONT_SLOT},"pad":"${'x'.repeat(length)}"}`;
}

describe('StorefrontTemplateCache', () => {
  it('keeps a template under the revision read with it: rev 3 hits, rev 2 or 4 misses; keys are per store, mode and product', () => {
    const cache = new StorefrontTemplateCache();
    const split = cache.put(scope, 'p1', 3, templateOf('v1'), true);
    expect(split?.variant_ids).toEqual(['v1']);
    expect(cache.get(scope, 'p1', 3)).toBe(split);
    expect(cache.get(scope, 'p1', 2)).toBeUndefined();
    expect(cache.get(scope, 'p1', 4)).toBeUndefined();
    expect(cache.get(other, 'p1', 3)).toBeUndefined();
    expect(cache.get({ ...scope, mode: 'live' }, 'p1', 3)).toBeUndefined();
    // A newer revision replaces the entry (and its size).
    cache.put(scope, 'p1', 4, templateOf('v9', 10), true);
    expect(cache.get(scope, 'p1', 3)).toBeUndefined();
    expect(cache.get(scope, 'p1', 4)?.variant_ids).toEqual(['v9']);
    expect(cache.size).toBe(1);
    expect(cache.chars).toBe(templateOf('v9', 10).length);
  });

  it('caches "no template" as null; fill = false (a transaction) returns the split without keeping it', () => {
    const cache = new StorefrontTemplateCache();
    expect(cache.put(scope, 'p1', 0, null, true)).toBeNull();
    expect(cache.get(scope, 'p1', 0)).toBeNull();
    expect(cache.get(scope, 'p1', 1)).toBeUndefined();
    // A template whose slot has no variant id is not usable: null.
    expect(cache.put(scope, 'p2', 1, `[${STOREFRONT_SLOT}]`, true)).toBeNull();
    expect(cache.put(scope, 'p3', 1, templateOf('v3'), false)?.variant_ids).toEqual(['v3']);
    expect(cache.get(scope, 'p3', 1)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('3 entries at most: a 4th evicts the least recently used (p2 after p1 was read), not the oldest written', () => {
    const cache = new StorefrontTemplateCache({ maxEntries: 3 });
    for (const id of ['p1', 'p2', 'p3']) cache.put(scope, id, 1, templateOf(id), true);
    expect(cache.get(scope, 'p1', 1)).toBeDefined();
    cache.put(scope, 'p4', 1, templateOf('p4'), true);
    expect(cache.size).toBe(3);
    expect(cache.get(scope, 'p2', 1)).toBeUndefined();
    for (const id of ['p1', 'p3', 'p4']) expect(cache.get(scope, id, 1)?.variant_ids).toEqual([id]);
  });

  it('bounded by characters: 3 templates of ~100 chars under a 250-char budget keep the 2 most recent; one larger than the budget is served, not kept', () => {
    const cache = new StorefrontTemplateCache({ maxChars: 250 });
    for (const id of ['p1', 'p2', 'p3']) cache.put(scope, id, 1, templateOf(id, 80), true);
    expect(cache.size).toBe(2);
    expect(cache.chars).toBeLessThanOrEqual(250);
    expect(cache.get(scope, 'p1', 1)).toBeUndefined();
    const big = cache.put(scope, 'big', 1, templateOf('big', 400), true);
    expect(big?.variant_ids).toEqual(['big']);
    expect(cache.get(scope, 'big', 1)).toBeUndefined();
    expect(cache.size).toBe(2);
    // Shrinking evicts at once; 0 entries turns it off.
    cache.resize({ maxEntries: 1 });
    expect(cache.size).toBe(1);
    cache.resize({ maxEntries: 0 });
    expect(cache.size).toBe(0);
    expect(cache.chars).toBe(0);
    cache.put(scope, 'p5', 1, templateOf('p5'), true);
    expect(cache.size).toBe(0);
  });

  it('random puts and gets never exceed the bounds and always return what was put at that revision', () => {
    const cache = new StorefrontTemplateCache({ maxEntries: 7, maxChars: 600 });
    const last = new Map<string, number>();
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 2000; step++) {
      const id = `p${next(20)}`;
      if (next(2) === 0) {
        const rev = (last.get(id) ?? 0) + 1;
        last.set(id, rev);
        cache.put(scope, id, rev, templateOf(`${id}r${rev}`, next(120)), true);
      } else {
        const rev = last.get(id) ?? 0;
        const hit = cache.get(scope, id, rev);
        if (hit) expect(hit.variant_ids).toEqual([`${id}r${rev}`]);
        expect(cache.get(scope, id, rev - 1)).toBeUndefined();
      }
      expect(cache.size).toBeLessThanOrEqual(7);
      expect(cache.chars).toBeLessThanOrEqual(600);
    }
  });
});

describe('StorefrontTemplateCache: keys and approximate recency', () => {
  it('one product id in two scopes: each lookup checks the store and mode; the later put replaces the earlier', () => {
    const cache = new StorefrontTemplateCache();
    cache.put(scope, 'p1', 1, templateOf('a'), true);
    cache.put(other, 'p1', 1, templateOf('b'), true);
    expect(cache.get(scope, 'p1', 1)).toBeUndefined();
    expect(cache.get(other, 'p1', 1)?.variant_ids).toEqual(['b']);
    expect(cache.size).toBe(1);
    expect(cache.chars).toBe(templateOf('b').length);
  });

  it('10 entries: a hit on an entry newer than half the capacity leaves the order; an older one moves to the recent end', () => {
    const cache = new StorefrontTemplateCache({ maxEntries: 10 });
    for (let i = 0; i < 10; i++) cache.put(scope, `p${i}`, 1, templateOf(`p${i}`), true);
    expect(cache.get(scope, 'p0', 1)).toBeDefined(); // 10 steps old: moved
    expect(cache.get(scope, 'p9', 1)).toBeDefined(); // 1 step old: stays
    cache.put(scope, 'p10', 1, templateOf('p10'), true);
    cache.put(scope, 'p11', 1, templateOf('p11'), true);
    // p1 and p2 were the least recent: evicted; p0 survived as it was moved.
    expect(cache.get(scope, 'p1', 1)).toBeUndefined();
    expect(cache.get(scope, 'p2', 1)).toBeUndefined();
    expect(cache.get(scope, 'p0', 1)).toBeDefined();
    expect(cache.get(scope, 'p9', 1)).toBeDefined();
  });

  it('an entry read once per 4 insertions (capacity 8) is never evicted by a crawl of 200 new products', () => {
    const cache = new StorefrontTemplateCache({ maxEntries: 8 });
    cache.put(scope, 'hot', 1, templateOf('hot'), true);
    for (let i = 0; i < 200; i++) {
      cache.put(scope, `crawl${i}`, 1, templateOf(`crawl${i}`), true);
      if (i % 4 === 3) expect(cache.get(scope, 'hot', 1)?.variant_ids).toEqual(['hot']);
      expect(cache.size).toBeLessThanOrEqual(8);
    }
    // Read no more: 8 insertions push it out.
    for (let i = 0; i < 8; i++) cache.put(scope, `late${i}`, 1, templateOf(`late${i}`), true);
    expect(cache.get(scope, 'hot', 1)).toBeUndefined();
  });
});
