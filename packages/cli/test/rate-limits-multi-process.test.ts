import { describe, expect, test } from 'vitest';
import { readConfig } from '../src/config';
import { call, DATABASE_TARGETS, type ServeProcess, tally, useServers } from './support/serve-process';

/**
 * Rate limits across `cartwright serve` processes on one database (docs/contract.md#rate-limits): the
 * strict per-address windows (failed authentication, guest order look-ups) are counted in the
 * database, so two processes share one budget; the per-key budgets are each process's own, as
 * documented (docs/limits.md). Configured through the environment, as an operator would.
 */
const SECRET = 'sk_test_rateLimitsMultiProcess00000001';
const PUBLISHABLE = 'pk_test_rateLimitsMultiProcess00000001';

for (const target of DATABASE_TARGETS) {
  describe(`rate limits across 2 server processes on one ${target} database`, () => {
    const { servers } = useServers(
      target,
      2,
      {
        COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
        COMMERCE_RATE_LIMIT_FAILED_AUTH: '4/1h',
        COMMERCE_RATE_LIMIT_ORDER_LOOKUP: '3/1h',
        COMMERCE_RATE_LIMIT_PUBLISHABLE_KEY: '3/1h',
      },
      'cartwright-limits-',
    );

    test('failed authentications from one address share one window: the 5th → 429 on either process', async () => {
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const guesses = [a, b, a, b].map((server, i) =>
        call(server, 'GET', '/v1/admin/products', `sk_test_guessGuessGuess${i}0000000`),
      );
      const answers = await Promise.all(guesses);
      expect(tally(answers)).toEqual({ 401: 4 });
      for (const server of [a, b]) {
        const refused = await call(server, 'GET', '/v1/admin/products', 'sk_test_guessGuessGuess90000000');
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('rate_limited');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(refused.headers.get('ratelimit-limit')).toBe('4');
      }
      // The valid key still works from that address.
      expect((await call(b, 'GET', '/v1/admin/store', SECRET)).status).toBe(200);
    });

    test('guest order look-ups from one address share one window: the 4th → 429 on either process', async () => {
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const path = '/v1/storefront/orders/lookup?number=1001&email=nobody%40example.com';
      expect(tally(await Promise.all([a, b, a].map((s) => call(s, 'GET', path, PUBLISHABLE))))).toEqual({
        404: 3,
      });
      expect((await call(b, 'GET', path, PUBLISHABLE)).status).toBe(429);
      expect((await call(a, 'GET', path, PUBLISHABLE)).status).toBe(429);
    });

    test('the per-key budget is each process’s own (documented): A spent its 3, B has 1 left', async () => {
      const [a, b] = servers as [ServeProcess, ServeProcess];
      // The look-ups above took 3 of A's tokens (a, a, a) and 2 of B's (b, b): refused ones count.
      expect((await call(a, 'GET', '/v1/storefront/products', PUBLISHABLE)).status).toBe(429);
      const onB = await call(b, 'GET', '/v1/storefront/products', PUBLISHABLE);
      expect(onB.status).toBe(200);
      expect(onB.headers.get('ratelimit-remaining')).toBe('0');
      expect((await call(b, 'GET', '/v1/storefront/products', PUBLISHABLE)).status).toBe(429);
      // The secret key has its own budget in each process.
      expect((await call(a, 'GET', '/v1/admin/store', SECRET)).status).toBe(200);
    });
  });
}

describe('COMMERCE_RATE_LIMITS=off', () => {
  const { servers } = useServers(
    'sqlite',
    1,
    { COMMERCE_API_KEYS: SECRET, COMMERCE_RATE_LIMITS: 'off' },
    'cartwright-nolimits-',
  );

  test('no limit applies and no RateLimit-* header is sent', async () => {
    const server = servers[0]!;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(server, 'GET', '/v1/admin/products', `sk_test_guessGuessGuess${i}0000000`),
      ),
    );
    expect(tally(answers)).toEqual({ 401: 60 });
    const ok = await call(server, 'GET', '/v1/admin/store', SECRET);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('rate limit, CORS and proxy settings from the environment', () => {
  test('defaults: limits on with the engine defaults, storefront CORS *, admin none, no trusted proxy', () => {
    const config = readConfig({});
    expect(config.rateLimits).toEqual({});
    expect(config.corsOrigins).toBe('*');
    expect(config.corsAdminOrigins).toEqual([]);
    expect(config.trustProxy).toBe(false);
  });

  test('each rule as <requests>/<window> with s, m or h, or off', () => {
    const config = readConfig({
      COMMERCE_RATE_LIMIT_SECRET_KEY: '500/10s',
      COMMERCE_RATE_LIMIT_PUBLISHABLE_KEY: '100/1m',
      COMMERCE_RATE_LIMIT_FAILED_AUTH: '20 / 1h',
      COMMERCE_RATE_LIMIT_ORDER_LOOKUP: 'off',
      COMMERCE_RATE_LIMIT_SIGN_IN: '5/30',
    });
    expect(config.rateLimits).toEqual({
      secret_key: { limit: 500, window_seconds: 10 },
      publishable_key: { limit: 100, window_seconds: 60 },
      failed_auth: { limit: 20, window_seconds: 3600 },
      order_lookup: false,
      sign_in: { limit: 5, window_seconds: 30 },
    });
    expect(readConfig({ COMMERCE_RATE_LIMITS: 'OFF' }).rateLimits).toBe(false);
  });

  test('a malformed value is refused with a message naming the variable', () => {
    expect(() => readConfig({ COMMERCE_RATE_LIMITS: 'maybe' })).toThrow(
      /COMMERCE_RATE_LIMITS must be 'on' or 'off'/,
    );
    for (const bad of ['100', '0/10s', '10/0s', '10/2d', 'ten/1m', '10/25h']) {
      expect(() => readConfig({ COMMERCE_RATE_LIMIT_SECRET_KEY: bad })).toThrow(
        /COMMERCE_RATE_LIMIT_SECRET_KEY must be/,
      );
    }
    expect(() => readConfig({ COMMERCE_CORS_ORIGINS: 'shop.example' })).toThrow(
      /COMMERCE_CORS_ORIGINS must be/,
    );
    expect(() => readConfig({ COMMERCE_TRUST_PROXY: 'yes' })).toThrow(/COMMERCE_TRUST_PROXY must be/);
  });

  test('origins as a comma-separated list (trailing slashes dropped) or *; trust proxy as a count or true', () => {
    const config = readConfig({
      COMMERCE_CORS_ORIGINS: 'https://shop.example/, http://localhost:5173',
      COMMERCE_CORS_ADMIN_ORIGINS: '*',
      COMMERCE_TRUST_PROXY: '2',
    });
    expect(config.corsOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
    expect(config.corsAdminOrigins).toBe('*');
    expect(config.trustProxy).toBe(2);
    expect(readConfig({ COMMERCE_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });
});
