import type { Scope } from '@cartwright/core';
import type { AuthContext } from '../engine-port';

/**
 * The request's scope (`ctx.scope`): the store + mode partition of the caller's key
 * (docs/contract.md#keys-and-modes), carrying the request's context (its idempotency claim), to
 * pass to the engine unchanged. Throws on a route declared without an API key.
 */
export function scopeOf(ctx: { auth: AuthContext | null; scope: Scope | null }): Scope {
  if (ctx.auth === null || ctx.scope === null) throw new Error('This route is declared without an API key');
  return ctx.scope;
}
