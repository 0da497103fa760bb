import { CommerceError } from '@cartwright/core';
import type {
  AuthContext,
  CustomerContext,
  HttpEngine,
  IdempotencyRunner,
  RouteEngine,
  StoreScope,
} from '../../src/engine-port';

/**
 * A test-only engine: API keys and customer tokens resolved from in-memory maps (an auth fixture,
 * not a storage mock). The real engine's auth service replaces it in end-to-end tests.
 */
export const KEYS = {
  secret: 'sk_test_4f0c1d2e3b4a5968',
  publishable: 'pk_test_9a8b7c6d5e4f3021',
  liveSecret: 'sk_live_1122334455667788',
} as const;

export const TOKENS = {
  active: 'ct_active_0123456789abcdef',
  disabled: 'ct_disabled_0123456789abcd',
  live: 'ct_live_0123456789abcdef01',
} as const;

const keyTable = new Map<string, AuthContext>([
  [KEYS.secret, { key_id: 'key_secret', store_id: 'store_1', mode: 'test', key_type: 'secret' }],
  [KEYS.publishable, { key_id: 'key_pub', store_id: 'store_1', mode: 'test', key_type: 'publishable' }],
  [KEYS.liveSecret, { key_id: 'key_live', store_id: 'store_1', mode: 'live', key_type: 'secret' }],
]);

const tokenTable = new Map<string, StoreScope & Omit<CustomerContext, 'token_id'>>([
  [TOKENS.active, { store_id: 'store_1', mode: 'test', customer_id: 'cus_active', status: 'active' }],
  [TOKENS.disabled, { store_id: 'store_1', mode: 'test', customer_id: 'cus_disabled', status: 'disabled' }],
  [TOKENS.live, { store_id: 'store_1', mode: 'live', customer_id: 'cus_live', status: 'active' }],
]);

/**
 * Only the auth slice (and optionally the idempotency hook) exists; the test routes use nothing
 * else, so it is typed as the registered engine for `createHandler`.
 */
export function createTestEngine(extra: { idempotency?: IdempotencyRunner } = {}): RouteEngine {
  const engine: HttpEngine = {
    auth: {
      async authenticateApiKey(rawKey) {
        const auth = keyTable.get(rawKey);
        if (auth === undefined) throw new CommerceError('invalid_api_key', 'Invalid API key provided.');
        return auth;
      },
      async authenticateCustomerToken(scope, token) {
        const found = tokenTable.get(token);
        if (found === undefined || found.store_id !== scope.store_id || found.mode !== scope.mode) {
          throw new CommerceError('invalid_customer_token', 'Invalid or expired customer token.');
        }
        if (found.status === 'disabled')
          throw new CommerceError('customer_disabled', 'This customer is disabled.');
        return { customer_id: found.customer_id, status: found.status, token_id: `tok_${found.customer_id}` };
      },
    },
    ...(extra.idempotency === undefined ? {} : { idempotency: extra.idempotency }),
  };
  return engine as RouteEngine;
}
