import type { CustomerAddressRecord, CustomerRecord, Repositories, Scope } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { customerTotals } from './customer-totals';
import { type CustomerWire, customerToWire } from './wire';

/** The store's currency, in which `total_spent` is shown. */
export async function storeCurrency(tx: Repositories, scope: Scope): Promise<string> {
  const store = await tx.stores.get(scope.store_id);
  if (!store) throw new CommerceError('not_found', 'No such store');
  return store.currency;
}

/**
 * Customer resources for many records in a fixed number of queries (store, totals, addresses),
 * whatever the number of customers: no N+1 on lists.
 */
export async function customerViews(
  tx: Repositories,
  scope: Scope,
  records: readonly CustomerRecord[],
): Promise<CustomerWire[]> {
  if (records.length === 0) return [];
  const ids = records.map((record) => record.id);
  const currency = await storeCurrency(tx, scope);
  // `total_spent` counts the orders in the store currency only (decisions §19).
  const totals = customerTotals(ids, await tx.orders.sumByCustomer(scope, ids, { spent_currency: currency }));
  const addresses = await tx.customers.listAddresses(scope, ids);
  const byCustomer = new Map<string, CustomerAddressRecord[]>();
  for (const address of addresses) {
    const list = byCustomer.get(address.customer_id);
    if (list) list.push(address);
    else byCustomer.set(address.customer_id, [address]);
  }
  return records.map((record) =>
    customerToWire(record, totals[record.id], byCustomer.get(record.id) ?? [], currency),
  );
}

/** One customer resource (see {@link customerViews}). */
export async function customerView(
  tx: Repositories,
  scope: Scope,
  record: CustomerRecord,
): Promise<CustomerWire> {
  const [view] = await customerViews(tx, scope, [record]);
  return view as CustomerWire;
}

/** The customer of the scope, or 404 `not_found` (also for ids of another store or mode). */
export async function requireCustomer(tx: Repositories, scope: Scope, id: string): Promise<CustomerRecord> {
  const record = await tx.customers.get(scope, id);
  if (!record) throw new CommerceError('not_found', `No such customer: '${id}'`);
  return record;
}
