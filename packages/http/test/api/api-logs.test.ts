import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import { createProduct, expectError, expectStatus } from './support/order-fixtures';

/**
 * API logs over HTTP (decisions §23): what `COMMERCE_API_LOGS` (the handler's `apiLogs`) records,
 * redacted and per store + mode, and `GET /v1/admin/logs` (newest first, `total_count`, filters
 * `method`, `status_code`, `path` prefix, cursor paging) and `GET /v1/admin/logs/{id}`. The
 * tests write the buffer with `handler.flushApiLogs()` instead of waiting for its second.
 */

interface Log {
  id: string;
  method: string;
  path: string;
  status_code: number;
  latency_ms: number;
  request_body: Record<string, unknown> | null;
  response_body: Record<string, unknown> | null;
  api_key_id: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

interface LogList {
  data: Log[];
  total_count: number;
  has_more: boolean;
  next_cursor: string | null;
}

async function logs(a: TestApi, query = '', key?: string): Promise<LogList> {
  await a.handler.flushApiLogs();
  return expectStatus(await a.get<LogList>(`/v1/admin/logs${query}`, key === undefined ? {} : { key }), 200)
    .body;
}

const PASSWORD = 'correct horse battery staple';

describeApi(
  'API logs: writes (the default)',
  (api) => {
    test('a POST is logged with its bodies redacted, and read back by id', async () => {
      const a = api();
      const email = `ada-${Date.now()}@example.com`;
      const created = expectStatus(
        await a.post(
          '/v1/admin/customers',
          { email, first_name: 'Ada', password: PASSWORD, metadata: { note: `my key is ${a.keys.secret}` } },
          { headers: { 'user-agent': 'api-logs-test/1.0' } },
        ),
        200,
      ).body;
      const token = expectStatus(await a.post(`/v1/admin/customers/${created.id}/token`, {}), 200).body;

      const list = await logs(a);
      const [tokenLog, createLog] = list.data;
      expect(tokenLog).toMatchObject({
        method: 'POST',
        path: `/v1/admin/customers/${created.id}/token`,
        status_code: 200,
        response_body: { token: '[REDACTED]', customer_id: created.id },
      });
      expect(createLog).toMatchObject({
        id: expect.stringMatching(/^log_/),
        method: 'POST',
        path: '/v1/admin/customers',
        status_code: 200,
        latency_ms: expect.any(Number),
        request_body: {
          email,
          first_name: 'Ada',
          password: '[REDACTED]',
          metadata: { note: `my key is ${a.keys.secret.slice(0, 12)}****` },
        },
        response_body: { id: created.id, email },
        api_key_id: expect.stringMatching(/^key_/),
        ip: '127.0.0.1',
        user_agent: 'api-logs-test/1.0',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      const stored = JSON.stringify(list.data);
      expect(stored).not.toContain(PASSWORD);
      expect(stored).not.toContain(a.keys.secret);
      expect(stored).not.toContain(token.token);

      const one = expectStatus(await a.get<Log>(`/v1/admin/logs/${createLog?.id}`), 200).body;
      expect(one).toEqual(createLog);
    });

    test('a GET 200 is not logged; a GET 404 is', async () => {
      const a = api();
      const before = (await logs(a)).total_count;
      expectStatus(await a.get('/v1/admin/products'), 200);
      expectError(await a.get('/v1/admin/products/prod_missing'), 404, 'not_found');
      const after = await logs(a);
      // The reads of the list itself are GETs answered 200: not logged either.
      expect(after.total_count).toBe(before + 1);
      expect(after.data[0]).toMatchObject({
        method: 'GET',
        path: '/v1/admin/products/prod_missing',
        status_code: 404,
        request_body: null,
        response_body: { error: { code: 'not_found' } },
      });
    });

    test('a request without a resolved key is not logged', async () => {
      const a = api();
      const before = (await logs(a)).total_count;
      expectError(await a.post('/v1/admin/products', { name: 'x' }, { key: null }), 401, 'unauthenticated');
      expectError(
        await a.post('/v1/admin/products', { name: 'x' }, { key: 'sk_test_nope' }),
        401,
        'invalid_api_key',
      );
      expect((await logs(a)).total_count).toBe(before);
    });

    test('newest first, total_count, filters method, status_code and path prefix, cursor paging', async () => {
      const a = api();
      const product = await createProduct(a, { price: 1200 });
      expectStatus(await a.patch(`/v1/admin/products/${product.product_id}`, { name: 'Renamed' }), 200);
      expectError(await a.post('/v1/admin/products', { name: '' }), 400, 'parameter_invalid');

      const all = await logs(a);
      expect(all.total_count).toBeGreaterThanOrEqual(3);
      const times = all.data.map((log) => Date.parse(log.created_at));
      expect(times).toEqual([...times].sort((x, y) => y - x));
      expect(all.data[0]).toMatchObject({ method: 'POST', path: '/v1/admin/products', status_code: 400 });
      expect(all.data[1]).toMatchObject({ method: 'PATCH', status_code: 200 });

      const patched = await logs(a, '?method=PATCH');
      expect(patched.total_count).toBe(1);
      expect(patched.data[0]?.request_body).toEqual({ name: 'Renamed' });
      const bad = await logs(a, '?status_code=400');
      expect(bad.data.every((log) => log.status_code === 400)).toBe(true);
      expect(bad.data.some((log) => log.path === '/v1/admin/products')).toBe(true);
      const under = await logs(a, `?path=${encodeURIComponent(`/v1/admin/products/${product.product_id}`)}`);
      expect(under.data.map((log) => log.method)).toEqual(['PATCH']);
      const prefix = await logs(a, '?path=/v1/admin/prod');
      expect(prefix.total_count).toBeGreaterThanOrEqual(3);
      expect(prefix.data.every((log) => log.path.startsWith('/v1/admin/prod'))).toBe(true);
      expect((await logs(a, '?path=/v1/storefront')).total_count).toBe(0);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: LogList = await logs(a, `?limit=2${cursor === null ? '' : `&starting_after=${cursor}`}`);
        expect(page.total_count).toBe(all.total_count);
        seen.push(...page.data.map((log) => log.id));
        cursor = page.has_more ? page.next_cursor : null;
      } while (cursor !== null);
      expect(seen).toEqual(all.data.map((log) => log.id));
    });

    test('per store + mode: a live key never sees test logs, nor a test key live ones', async () => {
      const a = api();
      expectStatus(await a.post('/v1/admin/products', { name: 'Live tee' }, { key: a.keys.liveSecret }), 200);
      const live = await logs(a, '', a.keys.liveSecret);
      expect(live.total_count).toBe(1);
      expect(live.data[0]).toMatchObject({ method: 'POST', path: '/v1/admin/products' });
      const test = await logs(a);
      expect(test.data.map((log) => log.id)).not.toContain(live.data[0]?.id);
      expectError(await a.get(`/v1/admin/logs/${live.data[0]?.id}`), 404, 'not_found');
      const testId = test.data[0]?.id as string;
      expectError(await a.get(`/v1/admin/logs/${testId}`, { key: a.keys.liveSecret }), 404, 'not_found');
    });

    test('publishable keys are logged too, and cannot read the logs', async () => {
      const a = api();
      const cart = expectStatus(await a.storefront.post('/v1/storefront/carts', {}), 200).body;
      const found = await logs(a, '?path=/v1/storefront/carts');
      expect(found.data[0]).toMatchObject({
        method: 'POST',
        path: '/v1/storefront/carts',
        response_body: { id: cart.id },
      });
      expectError(await a.storefront.get('/v1/admin/logs'), 403, 'forbidden');
    });

    test('bad filters → 400 parameter_invalid; an unknown id → 404 not_found', async () => {
      const a = api();
      expectError(await a.get('/v1/admin/logs?method=FETCH'), 400, 'parameter_invalid', 'method');
      expectError(await a.get('/v1/admin/logs?status_code=abc'), 400, 'parameter_invalid', 'status_code');
      expectError(await a.get('/v1/admin/logs?status_code=99'), 400, 'parameter_invalid', 'status_code');
      expectError(await a.get('/v1/admin/logs?path=v1'), 400, 'parameter_invalid', 'path');
      expectError(await a.get('/v1/admin/logs?limit=0'), 400, 'parameter_invalid', 'limit');
      expectError(await a.get('/v1/admin/logs/log_missing'), 404, 'not_found');
    });

    test('a failing log write never fails a request; the next flush writes again', async () => {
      const a = api();
      const logs_ = a.engine.apiLogs as { record: (...args: never[]) => Promise<void> };
      const record = logs_.record;
      logs_.record = async () => {
        throw new Error('log storage down');
      };
      try {
        expectStatus(await a.post('/v1/admin/products', { name: 'Unlogged' }), 200);
        await expect(a.handler.flushApiLogs()).resolves.toBeUndefined();
      } finally {
        logs_.record = record;
      }
      expectStatus(await a.post('/v1/admin/products', { name: 'Logged again' }), 200);
      const names = (await logs(a, '?method=POST&path=/v1/admin/products')).data.map(
        (log) => log.request_body?.name,
      );
      expect(names).toContain('Logged again');
      expect(names).not.toContain('Unlogged');
    });

    test('a body over 8 KB is stored cut and marked', async () => {
      const a = api();
      const description = 'd'.repeat(9_000);
      expectStatus(await a.post('/v1/admin/products', { name: 'Long', description }), 200);
      const [log] = (await logs(a, '?method=POST&path=/v1/admin/products')).data;
      expect(log?.request_body).toMatchObject({ _truncated: true, _bytes: expect.any(Number) });
      expect(String(log?.request_body?._preview).startsWith('{"name":"Long","description":"ddd')).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(log?.request_body))).toBeLessThanOrEqual(8192);
      expect(log?.response_body).toMatchObject({ _truncated: true });
    });
  },
  {},
  { apiLogs: 'writes' },
);

describeApi(
  'API logs: all',
  (api) => {
    test('a GET 200 is logged too', async () => {
      const a = api();
      expectStatus(await a.get('/v1/admin/products?limit=1'), 200);
      const list = await logs(a, '?method=GET&path=/v1/admin/products');
      expect(list.data[0]).toMatchObject({ method: 'GET', path: '/v1/admin/products', status_code: 200 });
    });
  },
  {},
  { apiLogs: 'all' },
);

describeApi(
  'API logs: off',
  (api) => {
    test('nothing is logged', async () => {
      const a = api();
      expectStatus(await a.post('/v1/admin/products', { name: 'Quiet' }), 200);
      expectError(await a.get('/v1/admin/products/prod_missing'), 404, 'not_found');
      const list = await logs(a);
      expect(list).toMatchObject({ data: [], total_count: 0, has_more: false });
    });
  },
  {},
  { apiLogs: 'off' },
);

describeApi(
  'API logs: written within a second without a flush',
  (api) => {
    test('the buffer is written by its timer', async () => {
      const a = api();
      expectStatus(await a.post('/v1/admin/products', { name: 'Timed' }), 200);
      const deadline = Date.now() + 3000;
      let count = 0;
      while (count === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        count = expectStatus(await a.get<LogList>('/v1/admin/logs'), 200).body.total_count;
      }
      expect(count).toBe(1);
    });
  },
  {},
  { apiLogs: 'writes', apiLogFlushMs: 200 },
);
