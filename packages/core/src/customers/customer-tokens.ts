import type { CustomerTokenRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { type Work, write } from '../shared/unit-of-work';
import { iso } from '../shared/wire-format';
import { requireCustomer } from './customer-views';
import { CUSTOMER_TOKEN_DEFAULT_EXPIRES_IN } from './schemas';

/** Random bytes per token: 256 bits, well over the ≥ 128 bits of docs/contract.md#customer-tokens. */
const TOKEN_BYTES = 32;

/**
 * Issues a customer token (`POST /v1/admin/customers/{id}/token`, docs/contract.md#customer-tokens): `ct_` followed
 * by 256 random bits (URL-safe base64), stored only as its SHA-256 hash, scoped to the store and
 * mode of the caller. The token is shown once, in this response.
 *
 * Decisions: a token may be issued for a disabled customer (it is then refused with 403
 * `customer_disabled` until the customer is re-activated); issuing a token does not revoke the
 * customer's earlier tokens (several devices may be signed in). Deleting the customer revokes them all.
 */
export async function issueCustomerToken(
  ctx: ServiceContext,
  scope: Scope,
  customer_id: string,
  expires_in: number = CUSTOMER_TOKEN_DEFAULT_EXPIRES_IN,
) {
  const token = await newCustomerToken(ctx);
  return write(ctx, scope, async (work) => {
    await requireCustomer(work.tx, scope, customer_id);
    return storeCustomerToken(ctx, work, scope, customer_id, token, expires_in);
  });
}

/** A new random customer token and its hash (computed outside the transaction). */
export async function newCustomerToken(ctx: ServiceContext): Promise<{ token: string; token_hash: string }> {
  const token = `ct_${ctx.crypto.randomToken(TOKEN_BYTES)}`;
  return { token, token_hash: await ctx.crypto.sha256Hex(token) };
}

/** Stores a customer token in the caller's transaction (the customer must exist). */
export async function storeCustomerToken(
  ctx: ServiceContext,
  { tx, now }: Work,
  scope: Scope,
  customer_id: string,
  { token, token_hash }: { token: string; token_hash: string },
  expires_in: number = CUSTOMER_TOKEN_DEFAULT_EXPIRES_IN,
) {
  const record: CustomerTokenRecord = {
    id: ctx.ids.next('ct'),
    store_id: scope.store_id,
    mode: scope.mode,
    customer_id,
    token_hash,
    expires_at: now + expires_in * 1000,
    created_at: now,
  };
  await tx.customerTokens.insert(record);
  return { token, customer_id, expires_at: iso(record.expires_at) };
}
