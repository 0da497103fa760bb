import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import {
  type ApiLog,
  type Category,
  type CheckoutResult,
  type Collection,
  type CreateCollectionInput,
  type Fulfillment,
  HeadlessCommerce,
  type Order,
  type Return,
  type TrackingInfo,
  type UpdateCategoryInput,
} from '@headless-commerce/sdk';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  pnpmStart,
  type StartedServer as Started,
  stopServer as stop,
} from '../../../cli/test/support/pnpm-start';
import { API_TARGETS } from '../api/support/targets';
import { ADDRESS, createSellable, expectSdkError, isoDate, unique, usd } from './support';

/**
 * Issues 38, 39 and 41: `@headless-commerce/sdk` 0.2.0, unmodified, against the root `pnpm start`
 * command — the built JavaScript (`node … packages/cli/dist/bin.js serve`, read from package.json
 * by `pnpmStart`) as a child process with nothing but environment configuration, one per engine
 * (SQLite, and PostgreSQL when the run targets it) — as `accounts-serve.test.ts` does for the
 * account methods. Covered: the 6 `categories.*` methods (and `adminListAutoPaginate`), every
 * `collections.*` method (7 endpoints, 9 methods with the auto-paginating forms), the 6 locale and
 * translation methods of `regions` (with `Content-Language` read by `fetch`, which the SDK hides),
 * the 12 `returns.*` methods (8 admin, 4 storefront with a customer token), `tracking.getOrderTracking`
 * and `logs.adminList` / `adminListAutoPaginate` / `adminGet`, on real flows: products made with
 * the admin SDK, an order placed through the storefront (cart, item, checkout with manual
 * payment, then paid), fulfilled and shipped by the admin SDK. The workarounds are those of the
 * `served-*.test.ts` files (fields beyond the SDK's types that its client forwards).
 *
 * The built JavaScript comes from `pnpm install` (its postinstall `build:js`) or `pnpm build`;
 * after changing the sources, `pnpm build:js` refreshes it.
 */

const SECRET = 'sk_test_catalogReturnsServeSecret000001';
const PUBLISHABLE = 'pk_test_catalogReturnsServePublish00001';

const slug = (prefix: string) => unique(prefix).toLowerCase();

/** Our Return beyond the SDK's type (served-returns.test.ts). */
type OurReturn = Return & {
  customer_id: string | null;
  rejected_at: string | null;
  cancelled_at: string | null;
  lines: NonNullable<Return['lines']>;
};

/** The SDK's CheckoutResult with the Order's `payments`, which our answer carries too (served-checkout.test.ts). */
type OurCheckoutResult = CheckoutResult & Pick<Order, 'payments'>;

type OurCollection = Collection & { product_ids: string[] | null };

async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// pnpm start serves SQLite and PostgreSQL (the HTTP targets of the run among them).
for (const target of (['sqlite', 'postgres'] as const).filter((t) => API_TARGETS.includes(t))) {
  describe(`the SDK's catalog, locale, returns, tracking and logs methods against pnpm start [${target}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-catalog-returns-serve-'));
    let server: Started;
    let baseUrl: string;
    let admin: HeadlessCommerce;
    const storefront = (token: string | null = null) => {
      const client = new HeadlessCommerce({ apiKey: PUBLISHABLE, baseUrl, maxRetries: 0 });
      client.setCustomerToken(token);
      return client;
    };

    beforeAll(async () => {
      let databaseUrl = join(dir, 'shop.db');
      if (target === 'postgres') {
        const serverUrl = inject('cartwrightPgUrl');
        if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
        databaseUrl = await createTestDatabase(serverUrl);
      }
      server = await pnpmStart({
        DATABASE_URL: databaseUrl,
        COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
      });
      baseUrl = `${server.url}/v1`;
      admin = new HeadlessCommerce({ apiKey: SECRET, baseUrl, maxRetries: 0 });
    }, 90_000);

    afterAll(async () => {
      if (server) await stop(server.child);
      rmSync(dir, { recursive: true, force: true });
    });

    test('categories: adminCreate, adminList (+AutoPaginate), adminUpdate, adminDelete, list, getBySlug', async () => {
      const clothing = await admin.categories.adminCreate({ name: 'Clothing', slug: slug('clothing') });
      const mens = await admin.categories.adminCreate({
        name: "Men's",
        slug: slug('mens'),
        parent_id: clothing.id,
        position: 1,
        description: 'For men',
        metadata: { menu: true },
      });
      const womens = await admin.categories.adminCreate({
        name: "Women's",
        slug: slug('womens'),
        parent_id: clothing.id,
        position: 0,
      });
      expect(mens).toMatchObject({
        id: expect.stringMatching(/^cat_/),
        name: "Men's",
        parent_id: clothing.id,
        position: 1,
        description: 'For men',
        metadata: { menu: true },
        children: [],
      } satisfies Partial<Category>);

      const tree = await storefront().categories.list();
      const root = tree.data.find((c) => c.id === clothing.id) as Category;
      expect(root.children.map((c) => c.id)).toEqual([womens.id, mens.id]);
      expect(await storefront().categories.getBySlug(mens.slug)).toEqual(mens);
      await expectSdkError(storefront().categories.getBySlug('no-such-category'), 404, 'not_found');

      const page = await admin.categories.adminList({ parent_id: clothing.id, limit: 1 });
      expect(page).toMatchObject({ total_count: 2, has_more: true, next_cursor: womens.id });
      expect(page.data.map((c) => c.id)).toEqual([womens.id]);
      const walked: string[] = [];
      for await (const c of admin.categories.adminListAutoPaginate({ parent_id: clothing.id, limit: 1 }))
        walked.push(c.id);
      expect(walked).toEqual([womens.id, mens.id]);

      const renamed = await admin.categories.adminUpdate(mens.id, { name: 'Men', position: 5 });
      expect(renamed).toMatchObject({ id: mens.id, name: 'Men', position: 5, parent_id: clothing.id });
      await expectSdkError(
        admin.categories.adminUpdate(clothing.id, { parent_id: mens.id }),
        422,
        'invalid_parent',
      );
      // The SDK types `parent_id` as a string; JSON null moves to the root.
      const moved = await admin.categories.adminUpdate(mens.id, {
        parent_id: null,
      } as unknown as UpdateCategoryInput);
      expect(moved.parent_id).toBeNull();

      await expectSdkError(admin.categories.adminDelete(clothing.id), 409, 'category_has_children');
      expect(await admin.categories.adminDelete(womens.id)).toEqual({ id: womens.id, deleted: true });
      await expectSdkError(storefront().categories.getBySlug(womens.slug), 404, 'not_found');
      expect((await storefront().categories.list()).data.map((c) => c.id).sort()).toEqual(
        [clothing.id, mens.id].sort(),
      );
    });

    test('collections: adminCreate, adminList (+AutoPaginate), adminUpdate, adminDelete, list (+AutoPaginate), get, getBySlug', async () => {
      const [a, b] = [
        (await createSellable(admin, { price: 1100 })).product,
        (await createSellable(admin, { price: 1200 })).product,
      ];
      // `product_ids` is beyond the SDK's input; its client forwards it.
      const created = (await admin.collections.adminCreate({
        name: 'Summer Sale',
        slug: slug('summer'),
        position: 2,
        metadata: { hero: true },
        product_ids: [b!.id, a!.id],
      } as CreateCollectionInput)) as OurCollection;
      expect(created).toMatchObject({
        id: expect.stringMatching(/^col_/),
        name: 'Summer Sale',
        type: 'manual',
        position: 2,
        metadata: { hero: true },
        product_ids: [b!.id, a!.id],
      });
      const other = await admin.collections.adminCreate({ name: 'Front', slug: slug('front'), position: 0 });

      const detail = await storefront().collections.get(created.id);
      expect(detail.products.map((p) => [p.id, p.variants[0]?.price])).toEqual([
        [b!.id, usd(1200)],
        [a!.id, usd(1100)],
      ]);
      expect(await storefront().collections.getBySlug(created.slug)).toEqual(detail);
      await expectSdkError(storefront().collections.get('col_missing'), 404, 'not_found');

      const listed = await storefront().collections.list();
      expect(listed.data.map((c) => c.id)).toEqual([other.id, created.id]);
      const walked: string[] = [];
      for await (const c of storefront().collections.listAutoPaginate({ limit: 1 })) walked.push(c.id);
      expect(walked).toEqual([other.id, created.id]);

      const newest = await admin.collections.adminList({ limit: 1 });
      expect(newest).toMatchObject({ total_count: 2, has_more: true });
      expect(newest.data.map((c) => c.id)).toEqual([other.id]);
      const all: string[] = [];
      for await (const c of admin.collections.adminListAutoPaginate({ limit: 1 })) all.push(c.id);
      expect(all).toEqual([other.id, created.id]);

      const updated = (await admin.collections.adminUpdate(created.id, {
        name: 'Staff picks',
        product_ids: [a!.id],
      } as never)) as OurCollection;
      expect(updated).toMatchObject({ id: created.id, name: 'Staff picks', product_ids: [a!.id] });
      expect((await storefront().collections.get(created.id)).products.map((p) => p.id)).toEqual([a!.id]);

      expect(await admin.collections.adminDelete(other.id)).toEqual({ id: other.id, deleted: true });
      await expectSdkError(admin.collections.adminDelete(other.id), 404, 'not_found');
      expect((await admin.collections.adminList()).data.map((c) => c.id)).toEqual([created.id]);
    });

    test('locales and translations: the six regions methods; the storefront reads it with Content-Language', async () => {
      expect(await admin.regions.adminListLocales()).toEqual({ data: [] });
      const en = await admin.regions.adminCreateLocale({
        locale: 'en-us',
        name: 'English',
        is_default: true,
      });
      expect(en).toEqual({
        id: expect.stringMatching(/^lcl_/),
        locale: 'en-US',
        name: 'English',
        is_default: true,
        is_active: true,
        created_at: isoDate,
      });
      const ko = await admin.regions.adminCreateLocale({ locale: 'ko', name: '한국어' });
      const ja = await admin.regions.adminCreateLocale({ locale: 'ja', name: '日本語' });
      expect(await admin.regions.adminDeleteLocale(ja.id)).toEqual({ id: ja.id, deleted: true });
      expect((await admin.regions.adminListLocales()).data.map((l) => [l.id, l.locale])).toEqual([
        [en.id, 'en-US'],
        [ko.id, 'ko'],
      ]);

      const { product } = await createSellable(admin, { name: 'Plain tee' });
      const upsert = {
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: '셔츠',
      };
      const first = await admin.regions.adminUpsertTranslation(upsert);
      expect(first).toEqual({
        ...upsert,
        id: expect.stringMatching(/^tr_/),
        created_at: isoDate,
        updated_at: isoDate,
      });
      const second = await admin.regions.adminUpsertTranslation({ ...upsert, value: '티셔츠' });
      expect(second).toMatchObject({ id: first.id, value: '티셔츠' });
      const description = await admin.regions.adminUpsertTranslation({
        ...upsert,
        field: 'description',
        value: '유기농 면',
      });
      expect(
        (await admin.regions.adminGetTranslations('product', product.id)).data.map((t) => [t.field, t.value]),
      ).toEqual([
        ['description', '유기농 면'],
        ['name', '티셔츠'],
      ]);
      expect((await admin.regions.adminGetTranslations('product', product.id, 'en-US')).data).toEqual([]);
      await expectSdkError(
        admin.regions.adminUpsertTranslation({ ...upsert, locale: 'fr-FR' }),
        422,
        'locale_unavailable',
      );

      // The SDK forwards `locale`; the Content-Language it hides is read with fetch.
      expect((await storefront().products.get(product.id, { locale: 'ko' } as never)).name).toBe('티셔츠');
      const read = await fetch(`${baseUrl}/storefront/products/${product.id}?locale=ko`, {
        headers: { Authorization: `Bearer ${PUBLISHABLE}` },
      });
      expect(read.status).toBe(200);
      expect(read.headers.get('content-language')).toBe('ko');
      expect(((await read.json()) as { name: string }).name).toBe('티셔츠');
      const base = await fetch(`${baseUrl}/storefront/products/${product.id}`, {
        headers: { Authorization: `Bearer ${PUBLISHABLE}` },
      });
      expect(base.headers.get('content-language')).toBe('en-US');
      expect(((await base.json()) as { name: string }).name).toBe('Plain tee');

      expect(await admin.regions.adminDeleteTranslation(second.id)).toEqual({ id: second.id, deleted: true });
      await expectSdkError(admin.regions.adminDeleteTranslation(second.id), 404, 'not_found');
      expect((await admin.regions.adminGetTranslations('product', product.id, 'ko')).data).toEqual([
        description,
      ]);
      expect((await storefront().products.get(product.id, { locale: 'ko' } as never)).name).toBe('Plain tee');
    });

    test('a storefront order, shipped: tracking.getOrderTracking, then the 12 returns methods', async () => {
      // The order: products by the admin SDK, a customer and token by the admin SDK, the cart and
      // checkout through the storefront (manual payment), paid and shipped through the admin SDK.
      const { variant, inventory_id } = await createSellable(admin, { price: 1500, on_hand: 10 });
      const customer = await admin.customers.adminCreate({ email: `${unique('ret')}@example.com` });
      const { token } = await admin.customers.adminCreateToken(customer.id);
      const shopper = storefront(token);
      const cart = await shopper.carts.create();
      await shopper.carts.addItem(cart.id, { variant_id: variant.id, quantity: 4 });
      const placed = (await shopper.checkout.create(cart.id, {
        email: customer.email,
        shipping_address: ADDRESS,
        payment_method: 'manual',
      })) as OurCheckoutResult;
      expect(placed).toMatchObject({ customer_id: customer.id, total: usd(6000), payment_status: 'unpaid' });
      const payment = await admin.payments.adminComplete(placed.payments![0]!.id);
      expect(payment).toMatchObject({ status: 'completed', amount: usd(6000) });
      const line = placed.lines[0]!;
      expect(line).toMatchObject({ variant_id: variant.id, quantity: 4 });

      await expectSdkError(shopper.tracking.getOrderTracking(placed.id), 404, 'not_found');
      const fulfillment: Fulfillment = await admin.fulfillments.adminCreate(placed.id, {
        lines: [{ order_line_id: line.id, quantity: 4 }],
        carrier: 'UPS',
        tracking_number: '1Z-SERVE-1',
        tracking_url: 'https://ups.example/1Z-SERVE-1',
      });
      const shipped = await admin.fulfillments.adminShip(fulfillment.id);
      expect(shipped).toMatchObject({ status: 'shipped', shipped_at: isoDate });
      const tracking: TrackingInfo = await shopper.tracking.getOrderTracking(placed.id);
      expect(tracking).toMatchObject({
        order_id: placed.id,
        fulfillment_id: fulfillment.id,
        carrier: 'UPS',
        tracking_number: '1Z-SERVE-1',
        tracking_url: 'https://ups.example/1Z-SERVE-1',
        status: 'in_transit',
        events: [
          {
            status: 'pending',
            description: 'Fulfillment created',
            location: null,
            timestamp: fulfillment.created_at,
          },
          { status: 'in_transit', description: 'Shipped', location: null, timestamp: shipped.shipped_at },
        ],
      });
      await expectSdkError(storefront().tracking.getOrderTracking(placed.id), 401, 'customer_token_required');

      // Storefront create → admin approve → receive → complete: one unit refunded, restocked.
      const requested = (await shopper.returns.create(placed.id, {
        return_type: 'refund',
        reason: 'Wrong size',
        reason_category: 'wrong_item',
        lines: [{ order_line_id: line.id, quantity: 1, condition: 'unopened' }],
      })) as OurReturn;
      expect(requested).toMatchObject({
        id: expect.stringMatching(/^ret_/),
        order_id: placed.id,
        customer_id: customer.id,
        status: 'requested',
        return_type: 'refund',
        reason: 'Wrong size',
        refund_id: null,
        lines: [{ order_line_id: line.id, quantity: 1, condition: 'unopened' }],
      });
      expect(await shopper.returns.get(requested.id)).toEqual(requested);
      expect((await shopper.returns.list()).data.map((r) => r.id)).toEqual([requested.id]);
      expect(await admin.returns.adminApprove(requested.id, { admin_notes: 'OK' })).toMatchObject({
        status: 'approved',
        admin_notes: 'OK',
        approved_at: isoDate,
      });
      expect(await admin.returns.adminReceive(requested.id)).toMatchObject({
        status: 'received',
        received_at: isoDate,
      });
      const completed = await admin.returns.adminComplete(requested.id);
      expect(completed).toMatchObject({
        status: 'completed',
        completed_at: isoDate,
        refund_id: expect.stringMatching(/^ref_/),
      });
      expect(await admin.returns.adminGet(requested.id)).toEqual(completed);
      const order = await admin.orders.adminGet(placed.id);
      expect(order.refunds?.map((r) => [r.id, r.amount])).toEqual([[completed.refund_id, usd(1500)]]);
      expect(await admin.inventory.adminGet(inventory_id)).toMatchObject({ on_hand: 7, reserved: 0 });

      // adminCreate (approved at once) → receive → adminReject.
      const byAdmin = await admin.returns.adminCreate(placed.id, {
        reason: 'Defective',
        lines: [{ order_line_id: line.id, quantity: 1 }],
      });
      expect(byAdmin).toMatchObject({ status: 'approved', approved_at: byAdmin.created_at });
      await admin.returns.adminReceive(byAdmin.id);
      expect(await admin.returns.adminReject(byAdmin.id, { admin_notes: 'Used' })).toMatchObject({
        status: 'rejected',
        admin_notes: 'Used',
        rejected_at: isoDate,
      });
      // adminCreate → adminCancel; storefront create → cancel.
      const dropped = await admin.returns.adminCreate(placed.id, {
        lines: [{ order_line_id: line.id, quantity: 1 }],
      });
      expect(await admin.returns.adminCancel(dropped.id)).toMatchObject({
        id: dropped.id,
        status: 'cancelled',
        cancelled_at: isoDate,
      });
      const mine = await shopper.returns.create(placed.id, {
        lines: [{ order_line_id: line.id, quantity: 1 }],
      });
      expect(await shopper.returns.cancel(mine.id)).toMatchObject({ id: mine.id, status: 'cancelled' });
      await expectSdkError(shopper.returns.cancel(mine.id), 409, 'invalid_state_transition');

      const completedOnly = await admin.returns.adminList({ status: 'completed', order_id: placed.id });
      expect(completedOnly.data.map((r) => r.id)).toEqual([requested.id]);
      const everyone = await admin.returns.adminList({ order_id: placed.id });
      expect(everyone.data.map((r) => [r.id, r.status])).toEqual([
        [mine.id, 'cancelled'],
        [dropped.id, 'cancelled'],
        [byAdmin.id, 'rejected'],
        [requested.id, 'completed'],
      ]);
      expect(server.output()).not.toMatch(/"level":50/);
    });

    test('logs: adminList, adminListAutoPaginate, adminGet read what this server logged', async () => {
      const made = await admin.categories.adminCreate({ name: 'Logged', slug: slug('logged') });
      // API logs are written after the response (COMMERCE_API_LOGS=writes, the default).
      const logged = await eventually(
        async () =>
          (await admin.logs.adminList({ method: 'POST', path: '/v1/admin/categories' })).data.find(
            (log) => (log.response_body as { id?: string } | null)?.id === made.id,
          ),
        10_000,
        'the log of POST /v1/admin/categories',
      );
      const expected: ApiLog = {
        id: expect.stringMatching(/^log_/),
        method: 'POST',
        path: '/v1/admin/categories',
        status_code: 200,
        latency_ms: expect.any(Number),
        request_body: { name: 'Logged', slug: made.slug },
        response_body: expect.objectContaining({ id: made.id, name: 'Logged' }),
        api_key_id: expect.stringMatching(/^key_/),
        ip: '127.0.0.1',
        user_agent: expect.any(String),
        created_at: isoDate,
      };
      expect(logged).toEqual(expected);
      expect(await admin.logs.adminGet(logged.id)).toEqual(logged);
      await expectSdkError(admin.logs.adminGet('log_missing'), 404, 'not_found');

      const page = await admin.logs.adminList({ method: 'POST', path: '/v1/admin/categories', limit: 2 });
      expect(page.total_count).toBeGreaterThanOrEqual(4);
      expect(page.data[0]!.id).toBe(logged.id);
      const walked: string[] = [];
      for await (const log of admin.logs.adminListAutoPaginate({
        method: 'POST',
        path: '/v1/admin/categories',
        limit: 2,
      }))
        walked.push(log.id);
      expect(walked).toHaveLength(page.total_count);
      expect(walked[0]).toBe(logged.id);
      // Under `writes` a GET is logged only when it fails: every logged GET is a 4xx.
      const missing = await eventually(
        async () =>
          (await admin.logs.adminList({ method: 'GET', path: '/v1/admin/logs/log_missing' })).data[0],
        10_000,
        'the log of the 404',
      );
      expect(missing).toMatchObject({ status_code: 404, response_body: { error: { code: 'not_found' } } });
      const gets = await admin.logs.adminList({ method: 'GET', limit: 100 });
      expect(gets.data.every((log) => log.status_code >= 400)).toBe(true);
    });
  });
}
