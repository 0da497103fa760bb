import { engineInternals } from '@cartwright/core/internal';
import { expect, test } from 'vitest';
import { ConfigError, createConfiguredEngine, readConfig } from '../src/index';

// COMMERCE_PAYMENT_TIMEOUT_MINUTES (decisions §22): how long an order waits for a payment the
// storefront confirms in the browser before reconciliation cancels it.

test('unset → 30 minutes; a whole number of minutes is taken as given', () => {
  expect(readConfig({}).paymentTimeoutMinutes).toBe(30);
  expect(readConfig({ COMMERCE_PAYMENT_TIMEOUT_MINUTES: '' }).paymentTimeoutMinutes).toBe(30);
  expect(readConfig({ COMMERCE_PAYMENT_TIMEOUT_MINUTES: ' 5 ' }).paymentTimeoutMinutes).toBe(5);
  expect(readConfig({ COMMERCE_PAYMENT_TIMEOUT_MINUTES: '10080' }).paymentTimeoutMinutes).toBe(10080);
});

test.each(['0', '-1', '1.5', '1e3', 'abc', '10081'])(
  '%s is refused with a ConfigError naming the variable',
  (raw) => {
    expect(() => readConfig({ COMMERCE_PAYMENT_TIMEOUT_MINUTES: raw })).toThrow(ConfigError);
    expect(() => readConfig({ COMMERCE_PAYMENT_TIMEOUT_MINUTES: raw })).toThrow(
      /COMMERCE_PAYMENT_TIMEOUT_MINUTES/,
    );
  },
);

test('the engine `serve` builds gets it in ms (default 30 min)', async () => {
  for (const [env, ms] of [
    [{}, 30 * 60_000],
    [{ COMMERCE_PAYMENT_TIMEOUT_MINUTES: '7' }, 7 * 60_000],
  ] as const) {
    const config = readConfig({ DATABASE_URL: ':memory:', ...env });
    const { engine } = await createConfiguredEngine(config, { skipKeys: true });
    try {
      expect(engineInternals(engine).context.config.payment_timeout_ms).toBe(ms);
    } finally {
      await engine.close();
    }
  }
});
