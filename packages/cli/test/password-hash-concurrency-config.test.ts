import { engineInternals } from '@cartwright/core/internal';
import { expect, test } from 'vitest';
import { ConfigError, createConfiguredEngine, readConfig } from '../src/index';
import { runCartwright } from './support/serve-process';

// COMMERCE_PASSWORD_HASH_CONCURRENCY (issue 37, docs/security.md#passwords): the engine's
// `passwordHashConcurrency` for `cartwright serve` — at most that many password hashes at once,
// twice that many waiting, any further one refused at once with 503 `service_unavailable`.

test('unset → the engine default; a whole number from 1 to 1024 is taken as given', () => {
  expect(readConfig({}).passwordHashConcurrency).toBeUndefined();
  expect(readConfig({ COMMERCE_PASSWORD_HASH_CONCURRENCY: '' }).passwordHashConcurrency).toBeUndefined();
  expect(readConfig({ COMMERCE_PASSWORD_HASH_CONCURRENCY: ' 1 ' }).passwordHashConcurrency).toBe(1);
  expect(readConfig({ COMMERCE_PASSWORD_HASH_CONCURRENCY: '1024' }).passwordHashConcurrency).toBe(1024);
});

test.each(['0', '-1', '1.5', '1e2', 'abc', '1025', 'off'])(
  '%s is refused with a ConfigError naming the variable',
  (raw) => {
    expect(() => readConfig({ COMMERCE_PASSWORD_HASH_CONCURRENCY: raw })).toThrow(ConfigError);
    expect(() => readConfig({ COMMERCE_PASSWORD_HASH_CONCURRENCY: raw })).toThrow(
      /COMMERCE_PASSWORD_HASH_CONCURRENCY must be a whole number from 1 to 1024/,
    );
  },
);

/** Starts `count` password hashes at once in the engine `serve` builds from `env`: how many were refused 503. */
async function refusedOf(env: Record<string, string>, count: number): Promise<number> {
  const config = readConfig({ DATABASE_URL: ':memory:', ...env });
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
  try {
    const { passwords } = engineInternals(engine).context;
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) => passwords.hash(`a long enough password ${i}`)),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'service_unavailable' });
    return refused.length;
  } finally {
    await engine.close();
  }
}

test('the engine `serve` builds gets it: with 1, of 4 hashes at once 1 runs, 2 wait and the 4th → 503; unset (≥ 2 at once, 4 waiting) none is refused', {
  timeout: 30_000,
}, async () => {
  expect(await refusedOf({ COMMERCE_PASSWORD_HASH_CONCURRENCY: '1' }, 4)).toBe(1);
  expect(await refusedOf({}, 4)).toBe(0);
});

test('an invalid value stops `cartwright serve` before it starts, naming the variable', () => {
  const { code, out } = runCartwright(['serve', '--no-worker'], {
    DATABASE_URL: ':memory:',
    PORT: '0',
    COMMERCE_PASSWORD_HASH_CONCURRENCY: '0',
  });
  expect(code).not.toBe(0);
  expect(out).toContain("COMMERCE_PASSWORD_HASH_CONCURRENCY must be a whole number from 1 to 1024, got '0'");
});
