import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type EngineOptions, type Scope } from '@cartwright/core';
import { type EngineInternals, engineInternals } from '@cartwright/core/internal';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { createNodeListener } from '../../../src/adapters/node';
import { type ApiHandlerOptions, createApiHandler } from '../../../src/api';
import type { CartwrightHandler } from '../../../src/create-handler';
import { API_TARGETS, type Target } from './targets';

/**
 * The HTTP API test harness: a real engine on real storage (SQLite in memory, PostgreSQL and
 * MariaDB each in a fresh database of the throwaway server the global setup started), served by
 * node:http on a loopback port, called with real HTTP requests. `describeApi` runs a block once
 * per target; the targets are `API_TARGETS` (targets.ts: SQLite in the fast default run, every
 * engine of the run in `pnpm test:all` and CI, or `CARTWRIGHT_API_TARGETS`).
 */
export { API_TARGETS, type Target };

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  /** API key; default the test-mode secret key. `null` sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  /** Raw body text (sent as is). */
  rawBody?: string;
  headers?: Record<string, string>;
  customerToken?: string;
  idempotencyKey?: string;
}

export interface Keys {
  secret: string;
  publishable: string;
  liveSecret: string;
  livePublishable: string;
}

export interface TestApi {
  target: Target;
  /** The engine with its internals (tests reach past the front door). */
  engine: EngineInternals;
  /** Scope of the test-mode keys. */
  scope: Scope;
  liveScope: Scope;
  keys: Keys;
  baseUrl: string;
  /** The handler served (`flushApiLogs()` writes the buffered API logs). */
  handler: CartwrightHandler;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Same as the others with the test-mode publishable key. */
  storefront: {
    get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
    post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
    patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
    delete<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  };
}

const KEYS: Keys = {
  secret: 'sk_test_harnessSecretKey0000000000000001',
  publishable: 'pk_test_harnessPublishableKey000000000001',
  liveSecret: 'sk_live_harnessSecretKey0000000000000001',
  livePublishable: 'pk_live_harnessPublishableKey000000000001',
};

/** A storage for `target`, and what to do once the API using it has closed. */
async function createStorage(
  target: Target,
): Promise<{ storage: EngineOptions['storage']; dispose(): Promise<void> }> {
  const none = async () => {};
  if (target === 'sqlite') {
    const { sqliteStorage } = await import('@cartwright/storage-kysely/sqlite');
    return { storage: sqliteStorage({ filename: ':memory:' }), dispose: none };
  }
  if (target === 'mariadb') {
    const { mysqlStorage } = await import('@cartwright/storage-kysely/mysql');
    const { createMariadbTestDatabase, dropMariadbTestDatabase } = await import(
      '../../../../storage-conformance/src/mariadb-server'
    );
    const serverUrl = inject('cartwrightMysqlUrl');
    if (!serverUrl) throw new Error(`MariaDB is not available: ${inject('cartwrightMysqlError')}`);
    const url = await createMariadbTestDatabase(serverUrl);
    return {
      storage: mysqlStorage({ connectionString: url, max: 20 }),
      // Each block's database is dropped when it is done: a run makes a few hundred.
      dispose: () => dropMariadbTestDatabase(url),
    };
  }
  const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
  const { createTestDatabase } = await import('@cartwright/storage-conformance/postgres-server');
  const serverUrl = inject('cartwrightPgUrl');
  if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
  const url = await createTestDatabase(serverUrl);
  return { storage: postgresStorage({ connectionString: url, max: 20 }), dispose: none };
}

/** Starts a full API for one target. Call `close()` when done. */
export async function startApi(
  target: Target,
  engineOptions: Partial<Omit<EngineOptions, 'storage'>> = {},
  handlerOptions: ApiHandlerOptions = {},
): Promise<TestApi & { close(): Promise<void> }> {
  const { storage, dispose } = await createStorage(target);
  const engine = engineInternals(await createEngine({ ...engineOptions, storage }));
  const scope = await engine.scopeFor('test');
  const liveScope = await engine.scopeFor('live');
  for (const key of Object.values(KEYS)) await engine.apiKeys.register(scope.store_id, key);
  // API logs only where a block asks for them: their background writes would disturb the blocks
  // that count transactions.
  const handler = createApiHandler(engine, { validateResponses: true, apiLogs: 'off', ...handlerOptions });
  const server: Server = createServer(createNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request<T>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? KEYS.secret : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (options.customerToken) headers['x-customer-token'] = options.customerToken;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, ...(body !== undefined && { body }) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text.length ? JSON.parse(text) : null;
    } catch {
      // leave as text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  const withKey = (keyName: keyof Keys) => ({
    get: <T>(path: string, o: RequestOptions = {}) => request<T>('GET', path, { key: KEYS[keyName], ...o }),
    post: <T>(path: string, body?: unknown, o: RequestOptions = {}) =>
      request<T>('POST', path, { key: KEYS[keyName], body, ...o }),
    patch: <T>(path: string, body?: unknown, o: RequestOptions = {}) =>
      request<T>('PATCH', path, { key: KEYS[keyName], body, ...o }),
    delete: <T>(path: string, o: RequestOptions = {}) =>
      request<T>('DELETE', path, { key: KEYS[keyName], ...o }),
  });
  const admin = withKey('secret');

  return {
    target,
    engine,
    scope,
    liveScope,
    keys: KEYS,
    baseUrl,
    handler,
    request,
    ...admin,
    storefront: withKey('publishable'),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await handler.close();
      await engine.close();
      await dispose();
    },
  };
}

/**
 * Runs `body` once per target with a fresh API (fresh database) per target. Inside, read the API
 * through the getter: `describeApi('carts', (api) => { test('…', async () => { await api().post(…) }) })`.
 */
export function describeApi(
  name: string,
  body: (api: () => TestApi) => void,
  engineOptions: Partial<Omit<EngineOptions, 'storage'>> = {},
  handlerOptions: ApiHandlerOptions = {},
): void {
  for (const target of API_TARGETS) {
    describe(`${name} [${target}]`, () => {
      let current: (TestApi & { close(): Promise<void> }) | undefined;
      beforeAll(async () => {
        current = await startApi(target, engineOptions, handlerOptions);
      }, 60_000);
      afterAll(async () => {
        await current?.close();
      });
      body(() => {
        if (!current) throw new Error('API not started');
        return current;
      });
    });
  }
}
