import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdminClient, type DashboardStats, type OrganizationMember } from '@headless-commerce/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DATABASE_TARGETS,
  freshDatabaseUrl,
  runCartwright,
  type ServeProcess,
  startServe,
  stop,
} from '../../../cli/test/support/serve-process';
import { describeApi } from '../api/support/harness';
import { createProduct, payOrder, placeOrder } from '../api/support/order-fixtures';
import { expectSdkError, isoDate, sdkClients, tickingClock, usd } from './support';

/**
 * The public client's back-office methods (decisions §23), unmodified, against the served API
 * (real HTTP on a loopback port, every engine): the 4 member methods of `organization`
 * (`adminListMembers`, `adminCreateMember`, `adminUpdateMember`, `adminDeleteMember`) and
 * `dashboard.stats`. The SDK's types win over its doc-comment examples (`period: '7' | '30'`,
 * not `'30d'`).
 */

describeApi(
  'sdk: organization members and dashboard.stats (decisions §23)',
  (api) => {
    test('organization.adminCreateMember / adminListMembers / adminUpdateMember / adminDeleteMember; last_admin and duplicates as HeadlessCommerceError', async () => {
      const { admin } = sdkClients(api());
      const owner: OrganizationMember = await admin.organization.adminCreateMember({
        email: 'owner@example.com',
        user_id: 'auth0|owner',
        role: 'admin',
      });
      expect(owner).toEqual({
        id: expect.stringMatching(/^mem_/),
        user_id: 'auth0|owner',
        email: 'owner@example.com',
        role: 'admin',
        invited_at: isoDate,
        accepted_at: null,
        created_at: isoDate,
        updated_at: isoDate,
      });
      const clerk = await admin.organization.adminCreateMember({
        email: 'clerk@example.com',
        user_id: 'auth0|clerk',
      });
      expect(clerk.role).toBe('member');

      const list = await admin.organization.adminListMembers();
      expect(list.data.map((m) => m.id)).toEqual([clerk.id, owner.id]);
      expect(list.has_more).toBe(false);

      await expectSdkError(
        admin.organization.adminCreateMember({ email: 'OWNER@example.com', user_id: 'other' }),
        409,
        'duplicate_email',
      );
      await expectSdkError(
        admin.organization.adminCreateMember({ email: 'new@example.com', user_id: 'auth0|clerk' }),
        409,
        'duplicate_user_id',
      );
      await expectSdkError(
        admin.organization.adminUpdateMember(owner.id, { role: 'member' }),
        409,
        'last_admin',
      );
      await expectSdkError(admin.organization.adminDeleteMember(owner.id), 409, 'last_admin');

      const promoted = await admin.organization.adminUpdateMember(clerk.id, { role: 'admin' });
      expect(promoted).toMatchObject({ id: clerk.id, role: 'admin' });
      const deleted = await admin.organization.adminDeleteMember(owner.id);
      expect(deleted).toEqual({ id: owner.id, deleted: true });
      expect((await admin.organization.adminListMembers()).data.map((m) => m.id)).toEqual([clerk.id]);
      await expectSdkError(admin.organization.adminDeleteMember(owner.id), 404, 'not_found');
    });

    test("dashboard.stats(): today's revenue and orders, the chart of 7 or 30 days, recent orders, low stock", async () => {
      const a = api();
      const { admin } = sdkClients(a);
      const empty: DashboardStats = await admin.dashboard.stats();
      expect(empty.kpi.today_revenue).toEqual({ value: usd(0), change_pct: 0 });
      expect(empty.revenue_chart).toHaveLength(7);

      const product = await createProduct(a, { price: 1250, on_hand: 3, safety_stock: 5 });
      const order = await payOrder(a, await placeOrder(a, [{ variant_id: product.variant_id }]));
      const pending = await placeOrder(a, [{ variant_id: product.variant_id }]);

      const stats = await admin.dashboard.stats({ period: '7' });
      expect(stats.kpi).toEqual({
        today_revenue: { value: usd(1250), change_pct: 100 },
        today_orders: { value: 2, change_pct: 100 },
        month_revenue: { value: usd(1250), change_pct: 100 },
        pending_orders: { value: 2, change_pct: 100 },
      });
      const today = stats.revenue_chart.at(-1);
      expect(today?.revenue).toEqual(usd(1250));
      expect(today?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(stats.recent_orders.map((o) => o.id)).toEqual([pending.id, order.id]);
      expect(stats.recent_orders[1]).toEqual({
        id: order.id,
        order_number: order.number,
        email: 'guest@example.com',
        total: usd(1250),
        status: 'confirmed',
        created_at: isoDate,
      });
      // 3 on hand, 2 sold (1 of them still reserved by the pending order): 1 available ≤ 5.
      expect(stats.low_stock_alerts).toEqual([
        {
          variant_id: product.variant_id,
          sku: product.sku,
          product_name: product.name,
          available: 1,
          safety_stock: 5,
        },
      ]);
      const month = await admin.dashboard.stats({ period: '30' });
      expect(month.revenue_chart).toHaveLength(30);
      expect(month.revenue_chart.at(-1)).toEqual(today);
      await expectSdkError(admin.dashboard.stats({ period: '30d' as never }), 400, 'parameter_invalid');
    });
  },
  { clock: tickingClock() },
);

const SECRET = 'sk_test_backOfficeServeSecret00000000001';

// The same methods against `cartwright serve` itself (a child process from the CLI's sources), on
// the engines it serves that are targets of this run: the first admin from
// `cartwright members create`, then the SDK with a configured secret key.
for (const target of DATABASE_TARGETS) {
  describe(`sdk: the back-office methods against cartwright serve [${target}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-back-office-serve-'));
    let server: ServeProcess | undefined;
    let databaseUrl = '';
    beforeAll(async () => {
      databaseUrl = await freshDatabaseUrl(target, dir);
      server = await startServe(databaseUrl, { COMMERCE_API_KEYS: SECRET });
    }, 90_000);
    afterAll(async () => {
      if (server) await stop(server);
      rmSync(dir, { recursive: true, force: true });
    });

    test('members create → adminListMembers shows the admin; create, update, delete; dashboard.stats', async () => {
      const made = runCartwright(['members', 'create', '--email', 'owner@example.com', '--role', 'admin'], {
        DATABASE_URL: databaseUrl,
      });
      expect(made.code, made.out).toBe(0);
      const admin = createAdminClient({ apiKey: SECRET, baseUrl: `${server!.url}/v1`, maxRetries: 0 });
      const first = await admin.organization.adminListMembers();
      expect(first.data.map((m) => [m.email, m.role, m.accepted_at])).toEqual([
        ['owner@example.com', 'admin', null],
      ]);
      const clerk = await admin.organization.adminCreateMember({
        email: 'clerk@example.com',
        user_id: 'u-clerk',
      });
      expect((await admin.organization.adminUpdateMember(clerk.id, { role: 'admin' })).role).toBe('admin');
      expect(await admin.organization.adminDeleteMember(clerk.id)).toEqual({ id: clerk.id, deleted: true });
      const owner = first.data[0]!;
      await expectSdkError(admin.organization.adminDeleteMember(owner.id), 409, 'last_admin');
      const stats = await admin.dashboard.stats({ period: '30' });
      expect(stats.revenue_chart).toHaveLength(30);
      expect(stats.kpi.today_orders).toEqual({ value: 0, change_pct: 0 });
      expect(stats.recent_orders).toEqual([]);
    }, 90_000);
  });
}
