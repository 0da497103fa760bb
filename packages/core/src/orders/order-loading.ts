import type { OrderAggregate, Repositories, Scope, StoreRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';

/**
 * Loads an order of the scope, or throws 404 `not_found` (an id of another store, mode or
 * unknown). `forUpdate` locks the order row until the transaction ends, so concurrent admin
 * actions on one order run one after the other and each sees the other's result.
 */
export async function requireOrder(
  tx: Repositories,
  scope: Scope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrderAggregate> {
  const order = await tx.orders.get(scope, id, options);
  if (!order) throw new CommerceError('not_found', `No such order: '${id}'`);
  return order;
}

/** The store of the scope (currency, tax settings), read inside the caller's transaction. */
export async function requireStoreIn(tx: Repositories, scope: Scope): Promise<StoreRecord> {
  const store = await tx.stores.get(scope.store_id);
  if (!store) throw new CommerceError('not_found', 'No such store');
  return store;
}
