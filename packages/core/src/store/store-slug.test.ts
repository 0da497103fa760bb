import { describe, expect, it } from 'vitest';
import {
  FALLBACK_STORE_SLUG,
  freeStoreSlug,
  STORE_SLUG_BASE_LENGTH,
  storeSlugBase,
  suffixedStoreSlug,
} from './store-slug';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe('storeSlugBase (decisions §22: derived from the name)', () => {
  it.each([
    ['My Store', 'my-store'],
    ['Café du Coin!', 'cafe-du-coin'],
    ['  --Acme & Sons, Ltd.--  ', 'acme-sons-ltd'],
    ['ÜBER   store 2024', 'uber-store-2024'],
  ])('%j → %j', (name, slug) => {
    expect(storeSlugBase(name)).toBe(slug);
  });

  it('a name with nothing slug-worthy (symbols, a non-Latin script) → "store"', () => {
    for (const name of ['!!!', '東京ストア', '   ', 'ﾟ'])
      expect(storeSlugBase(name)).toBe(FALLBACK_STORE_SLUG);
  });

  it(`is cut to ${STORE_SLUG_BASE_LENGTH} characters, never ending on a hyphen, and always a valid slug`, () => {
    const long = storeSlugBase('a'.repeat(47) + ' b c d e f');
    expect(long).toBe('a'.repeat(47));
    expect(storeSlugBase('x'.repeat(300))).toHaveLength(STORE_SLUG_BASE_LENGTH);
    // NFKD may expand a character into several: still bounded.
    expect(storeSlugBase('㍻'.repeat(100)).length).toBeLessThanOrEqual(STORE_SLUG_BASE_LENGTH);
    for (const name of ['a'.repeat(47) + '-b', 'Ⅻ Ⅻ ﬁﬁ', '-a-', 'x'.repeat(300)]) {
      expect(storeSlugBase(name)).toMatch(SLUG);
    }
  });
});

describe('suffixedStoreSlug', () => {
  it('appends "-" and 6 lower-case letters or digits taken from the random text', () => {
    expect(suffixedStoreSlug('corner-shop', 'Q7-x_9kPz2')).toBe('corner-shop-q7x9kp');
    expect(suffixedStoreSlug('store', 'abcdefgh')).toMatch(SLUG);
  });

  it('refuses a random text with fewer than 6 usable characters', () => {
    expect(() => suffixedStoreSlug('shop', '-_-_ab')).toThrow(RangeError);
  });
});

describe('freeStoreSlug (unique across the database)', () => {
  const owners = (taken: Record<string, string>) => async (slug: string) => taken[slug] ?? null;
  const randoms = (...values: string[]) => {
    let i = 0;
    return () => values[i++] ?? 'zzzzzzzz';
  };

  it('the name’s slug when no store has it', async () => {
    expect(await freeStoreSlug('Corner Shop', 'store_1', owners({}), randoms())).toBe('corner-shop');
  });

  it('the name’s slug when the store itself already has it (a retry after a concurrent claim)', async () => {
    expect(
      await freeStoreSlug('Corner Shop', 'store_1', owners({ 'corner-shop': 'store_1' }), randoms()),
    ).toBe('corner-shop');
  });

  it('taken by another store → a short random suffix; taken again → another one', async () => {
    const taken = { 'corner-shop': 'store_2', 'corner-shop-aaaaaa': 'store_3' };
    expect(
      await freeStoreSlug('Corner Shop', 'store_1', owners(taken), randoms('AAAAAA11', 'b2C3d4E5')),
    ).toBe('corner-shop-b2c3d4');
    expect(await freeStoreSlug('Corner Shop', 'store_1', owners(taken), randoms('q1w2e3r4'))).toBe(
      'corner-shop-q1w2e3',
    );
  });

  it('gives up (RangeError) when the random source never finds a free slug', async () => {
    const everything = async (slug: string) => (slug.startsWith('shop') ? 'store_other' : null);
    await expect(freeStoreSlug('Shop', 'store_1', everything, () => 'same1234', 4)).rejects.toThrow(
      /no free slug for 'shop' after 4 candidates/,
    );
  });
});
