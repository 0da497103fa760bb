/**
 * Derives a product slug from its name (docs/contract.md#catalog): accents are dropped (`Café` → `cafe`),
 * the text is lower-cased, every run of characters other than `a-z0-9` becomes one `-`, and
 * leading/trailing hyphens are trimmed, so the result always satisfies the `SlugSchema` pattern
 * (`^[a-z0-9]+(?:-[a-z0-9]+)*$`).
 *
 * Returns `''` when nothing is left (a name of only symbols or non-Latin script); the caller then
 * falls back to an id-based slug (see {@link fallbackSlug}).
 *
 * @example slugify('Blue T-Shirt (Large)!') // 'blue-t-shirt-large'
 * @example slugify('Crème Brûlée') // 'creme-brulee'
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The slug of a product whose name gives none: its id, lower-cased, `_` → `-`
 * (`prod_01J9…` → `prod-01j9…`). Ids are unique, so this never collides with another id slug.
 */
export function fallbackSlug(productId: string): string {
  return slugify(productId);
}

/** The slug a new product gets: the one given, else derived from the name, else from the id. */
export function slugForProduct(
  input: { slug?: string | undefined; name: string },
  productId: string,
): string {
  if (input.slug !== undefined) return input.slug;
  const derived = slugify(input.name);
  return derived === '' ? fallbackSlug(productId) : derived;
}
