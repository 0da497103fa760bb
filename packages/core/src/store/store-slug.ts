import { slugify } from '../catalog/slug';

/**
 * A store's `slug` (decisions §22, docs/contract.md#store-settings): derived from its name when the
 * store is created, or the first time a store without one is loaded at start, unique across the
 * database. It does not follow later name changes (as Shopify's handle: an address stays valid).
 */

/** The longest slug taken from a name; a suffix adds {@link SUFFIX_LENGTH} + 1 characters. */
export const STORE_SLUG_BASE_LENGTH = 48;
/** Characters of the random suffix of a slug whose base is taken. */
export const SUFFIX_LENGTH = 6;
/** The slug of a store whose name gives none (only symbols, or a non-Latin script). */
export const FALLBACK_STORE_SLUG = 'store';

/**
 * The slug a name gives (`slugify` of the catalog: accents dropped, lower-case, `a-z0-9` runs
 * joined by `-`), cut to {@link STORE_SLUG_BASE_LENGTH} characters without a trailing hyphen;
 * `store` when nothing is left.
 *
 * @example storeSlugBase('Café du Coin!') // 'cafe-du-coin'
 */
export function storeSlugBase(name: string): string {
  const base = slugify(name).slice(0, STORE_SLUG_BASE_LENGTH).replace(/-+$/, '');
  return base === '' ? FALLBACK_STORE_SLUG : base;
}

/**
 * `base-<suffix>`: the suffix is {@link SUFFIX_LENGTH} lower-case letters and digits taken from
 * `random` (any text, e.g. a random token; characters outside `a-z0-9` are skipped, upper-case
 * letters lower-cased). Throws when `random` has too few usable characters.
 *
 * @example suffixedStoreSlug('corner-shop', 'Q7-x_9kPz2') // 'corner-shop-q7x9kp'
 */
export function suffixedStoreSlug(base: string, random: string): string {
  const suffix = random
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, SUFFIX_LENGTH);
  if (suffix.length < SUFFIX_LENGTH) throw new RangeError('suffixedStoreSlug: not enough random characters');
  return `${base}-${suffix}`;
}

/**
 * The first slug for the store `storeId` that no other store has: the name's base, then
 * suffixed ones (a fresh random suffix each time, from `random()`). `ownerOf(slug)` tells which
 * store has a slug (null: none). Gives up after `attempts` candidates (a RangeError: the random
 * source does not vary).
 */
export async function freeStoreSlug(
  name: string,
  storeId: string,
  ownerOf: (slug: string) => Promise<string | null>,
  random: () => string,
  attempts = 10,
): Promise<string> {
  const base = storeSlugBase(name);
  let candidate = base;
  for (let i = 0; i < attempts; i++) {
    const owner = await ownerOf(candidate);
    if (owner === null || owner === storeId) return candidate;
    candidate = suffixedStoreSlug(base, random());
  }
  throw new RangeError(`freeStoreSlug: no free slug for '${base}' after ${attempts} candidates`);
}
