import type { ApiLog } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { expectSdkError, isoDate, sdkClients, tickingClock } from './support';

/**
 * The public client's `logs.*` methods (decisions §23), unmodified, against the served API (real
 * HTTP on a loopback port, every engine) with API logs on (`writes`, the default of
 * `COMMERCE_API_LOGS`): `adminList` (filters, paging, `total_count`), `adminListAutoPaginate` and
 * `adminGet`, each answering the SDK's `ApiLog`.
 */

describeApi(
  'sdk: logs.* (decisions §23)',
  (api) => {
    test('adminList / adminGet / adminListAutoPaginate read the logged requests, redacted, newest first', async () => {
      const a = api();
      const { admin } = sdkClients(a);
      const product = await admin.products.adminCreate({ name: 'Logged tee', slug: 'logged-tee' });
      await admin.products.adminUpdate(product.id, { name: 'Logged tee, renamed' });
      await expectSdkError(admin.products.adminGet('prod_missing'), 404, 'not_found');
      const customer = await admin.customers.adminCreate({
        email: 'logged@example.com',
        password: 'a long enough password',
      } as Parameters<typeof admin.customers.adminCreate>[0]);
      await a.handler.flushApiLogs();

      const list = await admin.logs.adminList();
      expect(list.total_count).toBe(4);
      expect(list.data.map((log) => [log.method, log.status_code])).toEqual([
        ['POST', 200],
        ['GET', 404],
        ['PATCH', 200],
        ['POST', 200],
      ]);
      const [created] = list.data;
      const expected: ApiLog = {
        id: expect.stringMatching(/^log_/),
        method: 'POST',
        path: '/v1/admin/customers',
        status_code: 200,
        latency_ms: expect.any(Number),
        request_body: { email: 'logged@example.com', password: '[REDACTED]' },
        response_body: expect.objectContaining({ id: customer.id, email: 'logged@example.com' }),
        api_key_id: expect.stringMatching(/^key_/),
        ip: '127.0.0.1',
        user_agent: expect.any(String),
        created_at: isoDate,
      };
      expect(created).toEqual(expected);
      expect(await admin.logs.adminGet(created!.id)).toEqual(created);

      const filtered = await admin.logs.adminList({
        method: 'GET',
        status_code: '404',
        path: '/v1/admin/products',
      });
      expect(filtered.total_count).toBe(1);
      expect(filtered.data[0]).toMatchObject({
        path: '/v1/admin/products/prod_missing',
        response_body: { error: { code: 'not_found' } },
      });

      const page = await admin.logs.adminList({ limit: 3 });
      expect(page).toMatchObject({ total_count: 4, has_more: true });
      const rest = await admin.logs.adminList({ limit: 3, starting_after: page.data[2]!.id });
      expect([...page.data, ...rest.data].map((log) => log.id)).toEqual(list.data.map((log) => log.id));

      const all: ApiLog[] = [];
      for await (const log of admin.logs.adminListAutoPaginate({ limit: 1 } as { limit: number }))
        all.push(log);
      expect(all.map((log) => log.id)).toEqual(list.data.map((log) => log.id));
    });

    test('adminGet of an unknown id → 404 not_found; a bad filter → 400 parameter_invalid', async () => {
      const { admin } = sdkClients(api());
      await expectSdkError(admin.logs.adminGet('log_missing'), 404, 'not_found');
      await expectSdkError(admin.logs.adminList({ status_code: 'abc' }), 400, 'parameter_invalid');
      await expectSdkError(admin.logs.adminList({ method: 'FETCH' }), 400, 'parameter_invalid');
    });
  },
  { clock: tickingClock() },
  { apiLogs: 'writes' },
);
