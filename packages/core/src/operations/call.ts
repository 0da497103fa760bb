import type { PageRequest } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import type { OperationCall, OperationCustomer } from './operation';

/** The signed-in customer of a `customerToken: 'required'` operation. */
export function signedIn(call: OperationCall<unknown, unknown>): OperationCustomer {
  if (call.customer === null)
    throw new CommerceError('invalid_customer_token', 'A signed-in customer is required');
  return call.customer;
}

/** The signed-in customer and the customer token the call came with (HTTP's header, or the in-process `token` argument). */
export function tokenOf(call: OperationCall<unknown, unknown>): { customer_id: string; token_id: string } {
  const customer = signedIn(call);
  if (customer.token_id === null)
    throw new CommerceError('invalid_customer_token', 'A customer token is required');
  return { customer_id: customer.customer_id, token_id: customer.token_id };
}

/**
 * The storage page of a parsed list query: `limit`, `starting_after`, `sort` (default
 * `defaultSort`), `order` (default: newest first for `created_at`, else ascending).
 */
export function pageOf<S extends string>(
  query: {
    limit: number;
    starting_after?: string | undefined;
    sort?: S | undefined;
    order?: 'asc' | 'desc' | undefined;
  },
  defaultSort: S = 'created_at' as S,
): PageRequest<S> {
  const sort = (query.sort ?? defaultSort) as S;
  return {
    limit: query.limit,
    starting_after: query.starting_after,
    sort,
    order: query.order ?? (sort === 'created_at' ? 'desc' : 'asc'),
  };
}
