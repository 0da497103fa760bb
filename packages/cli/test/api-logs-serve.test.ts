import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, readConfig } from '../src/index';
import { call, eventually, runCartwright, startServe, stop } from './support/serve-process';

// COMMERCE_API_LOGS (decisions §23, docs/back-office.md#api-logs): `cartwright serve` records API
// logs off the request's path — written within a second, and the last ones on SIGTERM.

const SECRET = 'sk_test_apiLogsServeSecretKey000000000001';

test('unset or empty → writes; writes, all, off in any case; anything else → ConfigError naming the variable', () => {
  expect(readConfig({}).apiLogs).toBe('writes');
  expect(readConfig({ COMMERCE_API_LOGS: '' }).apiLogs).toBe('writes');
  expect(readConfig({ COMMERCE_API_LOGS: ' ALL ' }).apiLogs).toBe('all');
  expect(readConfig({ COMMERCE_API_LOGS: 'off' }).apiLogs).toBe('off');
  expect(readConfig({ COMMERCE_API_LOGS: 'writes' }).apiLogs).toBe('writes');
  for (const raw of ['none', '0', 'true', 'reads']) {
    expect(() => readConfig({ COMMERCE_API_LOGS: raw })).toThrow(ConfigError);
    expect(() => readConfig({ COMMERCE_API_LOGS: raw })).toThrow(
      /COMMERCE_API_LOGS must be 'writes', 'all' or 'off'/,
    );
  }
});

test('an invalid value stops `cartwright serve` before it starts', () => {
  const { code, out } = runCartwright(['serve', '--no-worker'], {
    DATABASE_URL: ':memory:',
    PORT: '0',
    COMMERCE_API_LOGS: 'verbose',
  });
  expect(code).not.toBe(0);
  expect(out).toContain("COMMERCE_API_LOGS must be 'writes', 'all' or 'off', got 'verbose'");
});

describe('cartwright serve (SQLite file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-api-logs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('default: a write is listed within a second; the last ones are written on SIGTERM', {
    timeout: 60_000,
  }, async () => {
    const db = join(dir, 'writes.db');
    const env = { COMMERCE_API_KEYS: SECRET };
    let server = await startServe(db, env);
    try {
      expect((await call(server, 'POST', '/v1/admin/products', SECRET, { name: 'Tee' })).status).toBe(200);
      expect((await call(server, 'GET', '/v1/admin/products', SECRET)).status).toBe(200);
      const first = await eventually(
        async () => {
          const list = await call(server, 'GET', '/v1/admin/logs', SECRET);
          return list.body.total_count > 0 ? list.body : undefined;
        },
        5_000,
        'the POST in the API logs',
      );
      expect(first.total_count).toBe(1);
      expect(first.data[0]).toMatchObject({ method: 'POST', path: '/v1/admin/products', status_code: 200 });

      // Stopped at once: the buffered log is written while draining.
      expect(
        (await call(server, 'DELETE', `/v1/admin/products/${first.data[0].response_body.id}`, SECRET)).status,
      ).toBe(200);
      await stop(server);
      server = await startServe(db, env);
      const after = await call(server, 'GET', '/v1/admin/logs?method=DELETE', SECRET);
      expect(after.body.total_count).toBe(1);
    } finally {
      await stop(server);
    }
  });

  test('COMMERCE_API_LOGS=off: nothing is logged', { timeout: 60_000 }, async () => {
    const db = join(dir, 'off.db');
    const env = { COMMERCE_API_KEYS: SECRET, COMMERCE_API_LOGS: 'off' };
    let server = await startServe(db, env);
    try {
      expect((await call(server, 'POST', '/v1/admin/products', SECRET, { name: 'Tee' })).status).toBe(200);
      expect((await call(server, 'GET', '/v1/admin/products/prod_missing', SECRET)).status).toBe(404);
      await stop(server);
      server = await startServe(db, env);
      const list = await call(server, 'GET', '/v1/admin/logs', SECRET);
      expect(list.body.total_count).toBe(0);
    } finally {
      await stop(server);
    }
  });
});
