import type { Page, ProductAggregate, Repositories, Scope } from '../ports/storage';
import { CommerceError, errors } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';
import { type ProductWire, productToWire } from './wire';

/** Shared steps of the catalog use cases. */

/**
 * The product aggregate, or 404 `not_found` (unknown, deleted, or of another store/mode).
 * Writers that check the product's parts before changing them (variant option combinations,
 * positions, option values, image targets) pass `forUpdate`, so that two concurrent writers
 * cannot both pass the check (the second waits for the first to commit and reads its result).
 */
export async function requireProduct(
  tx: Repositories,
  scope: Scope,
  id: string,
  options?: { forUpdate?: boolean },
): Promise<ProductAggregate> {
  const product = await tx.products.get(scope, id, options);
  if (!product) throw errors.notFound('product', id);
  return product;
}

/** The store's currency: every catalog amount is in it (docs/contract.md#money). */
export async function storeCurrency(tx: Repositories, scope: Scope): Promise<string> {
  const store = await tx.stores.get(scope.store_id);
  if (!store) throw new CommerceError('not_found', 'No such store');
  return store.currency;
}

/**
 * After a change to a product's parts (variants, images, options): bumps the product's
 * `updated_at` — and, after a variant change, writes its representative `price` as the caller
 * computed it (`representativePrice` over the live variants as they are now, read under the
 * product's lock) — reloads the aggregate and emits `product.updated` with the admin wire
 * object. Returns the reloaded aggregate.
 */
export async function productChanged(
  work: Work,
  scope: Scope,
  productId: string,
  change: { price?: number | null } = {},
): Promise<ProductAggregate> {
  await work.tx.products.update(scope, productId, {
    updated_at: work.now,
    ...(change.price !== undefined && { price: change.price }),
  });
  const product = await requireProduct(work.tx, scope, productId);
  work.emit(scope, 'product.updated', productToWire(product, 'admin'));
  return product;
}

/** A storage page of products as the list envelope of the spec. */
export function productPageToWire(page: Page<ProductAggregate>, view: 'admin' | 'storefront') {
  return {
    data: page.data.map((product): ProductWire => productToWire(product, view)),
    total_count: page.total_count,
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
