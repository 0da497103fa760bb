import { CommerceError } from '../errors';
import type { Scope } from '../ports/storage';
import type { ServiceContext } from './context';

export interface StoredResponse {
  status: number;
  body: string;
}

const POLL_MS = 10;

/**
 * `Idempotency-Key` on POST (decisions §12): the first request with a key runs and its response
 * (success or domain error) is stored for 24 h; the same key with the same body replays it; a
 * different body → 409 `idempotency_key_reused`. A concurrent request with the key waits for the
 * first to finish and replays its response, so two concurrent requests produce one effect; if the
 * first is still running after the lock time → 409 `idempotency_key_in_use`. Unexpected errors
 * (5xx) store nothing, so the client may retry.
 */
export function createIdempotencyService(ctx: ServiceContext) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    async run(
      scope: Scope,
      key: string,
      operation: string,
      requestHash: string,
      execute: () => Promise<StoredResponse>,
    ): Promise<StoredResponse & { replayed?: boolean }> {
      if (key.length === 0 || key.length > 255) {
        throw new CommerceError('parameter_invalid', 'Idempotency-Key must be 1 to 255 characters', {
          param: 'Idempotency-Key',
        });
      }
      const deadline = ctx.clock.now() + ctx.config.idempotency_lock_ms;
      for (;;) {
        const now = ctx.clock.now();
        const begin = await ctx.storage.transaction((tx) =>
          tx.idempotency.begin(scope, {
            key,
            operation,
            request_hash: requestHash,
            now,
            lock_ms: ctx.config.idempotency_lock_ms,
            ttl_ms: ctx.config.idempotency_ttl_ms,
          }),
        );
        if (begin.outcome === 'replay') return { status: begin.status, body: begin.body, replayed: true };
        if (begin.outcome === 'mismatch') {
          throw new CommerceError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request',
            { param: 'Idempotency-Key' },
          );
        }
        if (begin.outcome === 'in_progress') {
          if (ctx.clock.now() >= deadline || Date.now() >= deadline) {
            throw new CommerceError(
              'idempotency_key_in_use',
              'A request with this Idempotency-Key is in progress',
              {
                param: 'Idempotency-Key',
              },
            );
          }
          await sleep(POLL_MS);
          continue;
        }
        let response: StoredResponse;
        try {
          response = await execute();
        } catch (error) {
          await ctx.storage.transaction((tx) => tx.idempotency.release(scope, key)).catch(() => undefined);
          throw error;
        }
        if (response.status >= 500) {
          await ctx.storage.transaction((tx) => tx.idempotency.release(scope, key));
        } else {
          await ctx.storage.transaction((tx) => tx.idempotency.complete(scope, key, response));
        }
        return response;
      }
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
