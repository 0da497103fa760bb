import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The transport lives in @cartwright/webhooks, which is not (yet) a devDependency of this package.
import { createNodeWebhookTransport } from '@cartwright/webhooks';
import { type Cart, HeadlessCommerce, type StorefrontClient } from '@headless-commerce/sdk';
import { afterAll, expect, test } from 'vitest';
import { describeApi, type TestApi } from '../api/support/harness';
import { ADDRESS, createSellable, expectSdkError, sdkClients, tickingClock, unique } from './support';

/**
 * decisions §22, as `@headless-commerce/sdk` 0.2.0 sends it:
 * - `storefront.carts.merge(targetId, { source_cart_id })`: the source (a guest cart, or another of
 *   the customer's) is merged into the customer's cart `targetId` as in §12 and abandoned;
 * - `webhooks.adminCreate({ …, is_active: false })` creates a webhook that receives nothing until
 *   activated; `webhooks.adminTest(id)` (no body) sends a sample of the webhook's first subscribed
 *   type (`order.created` for `*`) to a real receiver on 127.0.0.1.
 */

const quantities = (cart: Cart) => Object.fromEntries(cart.items.map((i) => [i.variant_id, i.quantity]));

interface Customer {
  id: string;
  token: string;
  /** A storefront client that sends the customer's token. */
  client: StorefrontClient;
}

/** A customer with a token, and a storefront client that sends it. */
async function signedInCustomer(api: TestApi): Promise<Customer> {
  const { admin, storefrontAs } = sdkClients(api);
  const customer = await admin.customers.adminCreate({ email: `${unique('merge')}@example.com` });
  const { token } = await admin.customers.adminCreateToken(customer.id);
  return { id: customer.id, token, client: storefrontAs(token) };
}

/** A guest cart holding `items` (added one by one, as a storefront does). */
async function guestCart(api: TestApi, items: Array<{ variant_id: string; quantity: number }>) {
  const { storefront } = sdkClients(api);
  const cart = await storefront.carts.create();
  for (const item of items) await storefront.carts.addItem(cart.id, item);
  return cart;
}

describeApi('sdk: carts.merge with source_cart_id (decisions §22)', (api) => {
  test('the source goes into the target {id} (not the newest cart): same variant summed and capped by stock, valid codes carried, source abandoned', async () => {
    const { admin, storefront } = sdkClients(api());
    const shared = await createSellable(admin, { price: 1000, on_hand: 5 });
    const only = await createSellable(admin, { price: 500, on_hand: 10 });
    const code = unique('MERGE').toUpperCase();
    await admin.discounts.adminCreate({
      name: 'Ten off',
      code,
      type: 'code',
      value_type: 'percentage',
      value: 10,
    });
    const ada = await signedInCustomer(api());
    const mine = await ada.client.carts.create();
    await ada.client.carts.addItem(mine.id, { variant_id: shared.variant.id, quantity: 3 });
    // A newer cart of hers: a merge without a body would pick it; with { source_cart_id } {id} decides.
    const newer = await ada.client.carts.create();

    const guest = await guestCart(api(), [
      { variant_id: shared.variant.id, quantity: 4 },
      { variant_id: only.variant.id, quantity: 2 },
    ]);
    await storefront.carts.applyDiscount(guest.id, { code });

    const merged = await ada.client.carts.merge(mine.id, { source_cart_id: guest.id });
    expect(merged).toMatchObject({ id: mine.id, customer_id: ada.id, status: 'active' });
    // 3 + 4 capped at the 5 available; the new variant copied.
    expect(quantities(merged)).toEqual({ [shared.variant.id]: 5, [only.variant.id]: 2 });
    expect(merged.discount_codes).toEqual([code]);
    expect(merged.summary).toMatchObject({
      subtotal: { amount: 6000, currency: 'USD' },
      discount_total: { amount: 600, currency: 'USD' },
    });

    expect((await storefront.carts.get(guest.id)).status).toBe('abandoned');
    const untouched = await ada.client.carts.get(newer.id);
    expect(untouched).toMatchObject({ status: 'active', items: [] });
    // The merged cart reads back as answered.
    expect(quantities(await ada.client.carts.get(mine.id))).toEqual(quantities(merged));
  });

  test("another of the customer's own carts can be the source: its items and its code go into the target", async () => {
    const { admin } = sdkClients(api());
    const item = await createSellable(admin, { price: 2000 });
    const ada = await signedInCustomer(api());
    const code = unique('BIG').toUpperCase();
    await admin.discounts.adminCreate({
      name: 'Big baskets',
      code,
      type: 'code',
      value_type: 'fixed',
      value: 100,
      minimum_amount: 5000,
    });
    const target = await ada.client.carts.create();
    await ada.client.carts.addItem(target.id, { variant_id: item.variant.id, quantity: 1 });
    const source = await ada.client.carts.create();
    await ada.client.carts.addItem(source.id, { variant_id: item.variant.id, quantity: 2 });
    // 4000 < 5000: the code does not qualify on the source alone, so it cannot be applied there…
    await expectSdkError(ada.client.carts.applyDiscount(source.id, { code }), 422, 'discount_not_applicable');
    await ada.client.carts.addItem(source.id, { variant_id: item.variant.id, quantity: 1 });
    await ada.client.carts.applyDiscount(source.id, { code });

    const merged = await ada.client.carts.merge(target.id, { source_cart_id: source.id });
    expect(merged).toMatchObject({ id: target.id, customer_id: ada.id });
    expect(quantities(merged)).toEqual({ [item.variant.id]: 4 });
    // …and on the merged cart (8000) it does: carried over.
    expect(merged.discount_codes).toEqual([code]);
    expect(merged.summary.discount_total.amount).toBe(100);
    expect((await ada.client.carts.get(source.id)).status).toBe('abandoned');
  });

  test('errors: source = target → 400; unknown or another customer’s source, a target not hers → 404; a non-active cart → 409; nothing changes', async () => {
    const { admin, storefront } = sdkClients(api());
    const item = await createSellable(admin, { price: 700 });
    const ada = await signedInCustomer(api());
    const bob = await signedInCustomer(api());
    const mine = await ada.client.carts.create();
    const bobs = await bob.client.carts.create();
    await bob.client.carts.addItem(bobs.id, { variant_id: item.variant.id, quantity: 1 });
    const guest = await guestCart(api(), [{ variant_id: item.variant.id, quantity: 2 }]);

    const self = await expectSdkError(
      ada.client.carts.merge(mine.id, { source_cart_id: mine.id }),
      400,
      'parameter_invalid',
    );
    expect(self.message).toContain('source_cart_id');
    await expectSdkError(ada.client.carts.merge(mine.id, { source_cart_id: 'cart_nope' }), 404, 'not_found');
    // Bob's cart is neither a source nor a target for Ada, whatever the key.
    await expectSdkError(ada.client.carts.merge(mine.id, { source_cart_id: bobs.id }), 404, 'not_found');
    await expectSdkError(ada.client.carts.merge(bobs.id, { source_cart_id: guest.id }), 404, 'not_found');
    const secretAsAda = new HeadlessCommerce({
      apiKey: api().keys.secret,
      baseUrl: `${api().baseUrl}/v1`,
      maxRetries: 0,
      customerToken: ada.token,
    });
    await expectSdkError(
      secretAsAda.request('POST', `/storefront/carts/${bobs.id}/merge`, { source_cart_id: guest.id }),
      404,
      'not_found',
    );
    await expectSdkError(
      secretAsAda.request('POST', `/storefront/carts/${mine.id}/merge`, { source_cart_id: bobs.id }),
      404,
      'not_found',
    );
    // A guest cart is not the customer's cart: as a target → 404 (a merge without a body gives it to her).
    await expectSdkError(ada.client.carts.merge(guest.id, { source_cart_id: mine.id }), 404, 'not_found');
    // Without the customer token → 401.
    await expectSdkError(
      storefront.carts.merge(mine.id, { source_cart_id: guest.id }),
      401,
      'customer_token_required',
    );

    // The param of the source's 400 and 404, over the wire.
    const raw = (body: unknown, id = mine.id) =>
      api().storefront.post(`/v1/storefront/carts/${id}/merge`, body, { customerToken: ada.token });
    expect((await raw({ source_cart_id: mine.id })).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'source_cart_id',
    });
    expect((await raw({ source_cart_id: bobs.id })).body.error).toMatchObject({
      code: 'not_found',
      param: 'source_cart_id',
    });
    expect((await raw({ source_cart_id: guest.id, target: 'x' })).body.error).toMatchObject({
      code: 'parameter_unknown',
      param: 'target',
    });
    expect((await raw({ source_cart_id: 42 })).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'source_cart_id',
    });

    // Nothing changed by the refusals.
    expect(await storefront.carts.get(guest.id)).toMatchObject({ status: 'active', customer_id: null });
    expect(quantities(await storefront.carts.get(guest.id))).toEqual({ [item.variant.id]: 2 });
    expect((await bob.client.carts.get(bobs.id)).status).toBe('active');
    expect((await ada.client.carts.get(mine.id)).items).toEqual([]);

    // A source already merged away (abandoned) → 409; a checked-out target → 409.
    await ada.client.carts.merge(mine.id, { source_cart_id: guest.id });
    await expectSdkError(
      ada.client.carts.merge(mine.id, { source_cart_id: guest.id }),
      409,
      'cart_not_active',
    );
    const other = await guestCart(api(), [{ variant_id: item.variant.id, quantity: 1 }]);
    await ada.client.checkout.create(mine.id, { email: 'ada@example.com', shipping_address: ADDRESS });
    await expectSdkError(
      ada.client.carts.merge(mine.id, { source_cart_id: other.id }),
      409,
      'cart_not_active',
    );
    expect(await storefront.carts.get(other.id)).toMatchObject({ status: 'active', customer_id: null });
  });

  test('merges racing for one guest cart (three customers, with and without source_cart_id): one takes it, the others get 409; nothing is counted twice', async () => {
    const { admin, storefront } = sdkClients(api());
    const item = await createSellable(admin, { price: 300, on_hand: 100 });
    /** The status and error code of a merge, however it was sent. */
    const outcome = (call: Promise<unknown>) =>
      call.then(
        () => ({ status: 200, code: null }),
        (error: { status: number; code: string }) => ({ status: error.status, code: error.code }),
      );
    for (let round = 0; round < 3; round++) {
      const customers = await Promise.all([0, 1, 2].map(() => signedInCustomer(api())));
      const carts = await Promise.all(
        customers.map(async (c) => {
          const cart = await c.client.carts.create();
          await c.client.carts.addItem(cart.id, { variant_id: item.variant.id, quantity: 1 });
          return cart;
        }),
      );
      const guest = await guestCart(api(), [{ variant_id: item.variant.id, quantity: 4 }]);
      const [ada, bob, cyd] = customers as [Customer, Customer, Customer];
      const outcomes = await Promise.all([
        outcome(ada.client.carts.merge((carts[0] as Cart).id, { source_cart_id: guest.id })),
        outcome(bob.client.carts.merge((carts[1] as Cart).id, { source_cart_id: guest.id })),
        // Cyd's merge without a body: the guest cart goes into her active cart.
        api()
          .storefront.post(`/v1/storefront/carts/${guest.id}/merge`, undefined, { customerToken: cyd.token })
          .then((r) => ({ status: r.status, code: r.status === 200 ? null : r.body.error.code })),
      ]);
      expect(outcomes.filter((o) => o.status === 200)).toHaveLength(1);
      for (const o of outcomes.filter((x) => x.status !== 200)) {
        expect(o).toEqual({ status: 409, code: 'cart_not_active' });
      }
      const totals = await Promise.all(
        customers.map(async (c, i) =>
          (await c.client.carts.get((carts[i] as Cart).id)).items.reduce((sum, x) => sum + x.quantity, 0),
        ),
      );
      // The winner's cart holds 1 + 4, the others still 1.
      expect(totals.map((t, i) => (outcomes[i]?.status === 200 ? t === 5 : t === 1))).toEqual([
        true,
        true,
        true,
      ]);
      expect((await storefront.carts.get(guest.id)).status).toBe('abandoned');
    }
  });

  test('two merges of one customer in opposite directions at once: one wins, the other gets 409 (no deadlock)', async () => {
    const { admin } = sdkClients(api());
    const item = await createSellable(admin, { price: 300, on_hand: 100 });
    for (let round = 0; round < 3; round++) {
      const ada = await signedInCustomer(api());
      const a = await ada.client.carts.create();
      const b = await ada.client.carts.create();
      await ada.client.carts.addItem(a.id, { variant_id: item.variant.id, quantity: 1 });
      await ada.client.carts.addItem(b.id, { variant_id: item.variant.id, quantity: 2 });
      const outcomes = await Promise.allSettled([
        ada.client.carts.merge(a.id, { source_cart_id: b.id }),
        ada.client.carts.merge(b.id, { source_cart_id: a.id }),
      ]);
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(won).toHaveLength(1);
      expect(quantities(won[0] as Cart)).toEqual({ [item.variant.id]: 3 });
      const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ status: 409, code: 'cart_not_active' });
      const statuses = [(await ada.client.carts.get(a.id)).status, (await ada.client.carts.get(b.id)).status];
      expect(statuses.sort()).toEqual(['abandoned', 'active']);
    }
  });

  test('without a body (or with {}), §12 as before: the guest cart goes into her active cart', async () => {
    const { admin, storefront } = sdkClients(api());
    const item = await createSellable(admin, { price: 300 });
    const ada = await signedInCustomer(api());
    const mine = await ada.client.carts.create();
    const guest = await guestCart(api(), [{ variant_id: item.variant.id, quantity: 2 }]);
    const merged = await api().storefront.post(
      `/v1/storefront/carts/${guest.id}/merge`,
      {},
      {
        customerToken: ada.token,
      },
    );
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: mine.id, customer_id: ada.id });
    expect((await storefront.carts.get(guest.id)).status).toBe('abandoned');
  });
});

// ---------------------------------------------------------------- webhooks

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A real receiver on 127.0.0.1 answering `status` and recording what it got. */
async function startReceiver(status = 200): Promise<{ url: string; receipts: Receipt[] }> {
  const receipts: Receipt[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receipts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, receipts };
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describeApi(
  'sdk: webhooks.adminCreate({ is_active }) and webhooks.adminTest(id) without a body (decisions §22)',
  (api) => {
    test('adminTest(id) sends a signed sample of the first subscribed type → { success, status_code }', async () => {
      const { admin } = sdkClients(api());
      const receiver = await startReceiver(200);
      const webhook = await admin.webhooks.adminCreate({
        url: receiver.url,
        events: ['payment.failed', 'order.created'],
      });
      const result = await admin.webhooks.adminTest(webhook.id);
      expect(result).toEqual({ success: true, status_code: 200, response_time_ms: expect.any(Number) });
      expect(receiver.receipts).toHaveLength(1);
      const [got] = receiver.receipts;
      const event = JSON.parse(got?.body ?? '{}');
      expect(event).toMatchObject({ type: 'payment.failed', store_id: api().scope.store_id });
      expect(event.data.id).toMatch(/^pay_/);
      expect(got?.headers['x-webhook-signature']).toBe(sign(webhook.secret as string, got?.body ?? ''));
      expect(got?.headers['x-webhook-id']).toBe(event.id);

      // An explicit event_type still wins; `{}` is the same as no body.
      await admin.request('POST', `/admin/webhooks/${webhook.id}/test`, { event_type: 'order.created' });
      await admin.request('POST', `/admin/webhooks/${webhook.id}/test`, {});
      expect(receiver.receipts.map((r) => JSON.parse(r.body).type)).toEqual([
        'payment.failed',
        'order.created',
        'payment.failed',
      ]);
      // A test send is not a delivery: nothing recorded, no failure counted.
      expect(await admin.webhooks.adminGet(webhook.id)).toMatchObject({ consecutive_failures: 0 });
    });

    test("adminTest(id) of a ['*'] webhook sends order.created; a failing receiver → success false with its status", async () => {
      const { admin } = sdkClients(api());
      const receiver = await startReceiver(503);
      const webhook = await admin.webhooks.adminCreate({ url: receiver.url, events: ['*'] });
      expect(await admin.webhooks.adminTest(webhook.id)).toMatchObject({ success: false, status_code: 503 });
      const event = JSON.parse(receiver.receipts[0]?.body ?? '{}');
      expect(event.type).toBe('order.created');
      expect(event.data.id).toMatch(/^ord_/);
      expect(await admin.webhooks.adminGet(webhook.id)).toMatchObject({ consecutive_failures: 0 });
      // Unknown ids and bad types are still refused.
      await expectSdkError(admin.webhooks.adminTest('wh_nope'), 404, 'not_found');
      await expectSdkError(
        admin.request('POST', `/admin/webhooks/${webhook.id}/test`, { event_type: 'order.teleported' }),
        400,
        'parameter_invalid',
      );
      expect(receiver.receipts).toHaveLength(1);
    });

    test('adminCreate({ is_active: false }): shown inactive, receives nothing; once activated, only events created from then on', async () => {
      const { admin } = sdkClients(api());
      const receiver = await startReceiver(200);
      const webhook = await admin.webhooks.adminCreate({
        url: receiver.url,
        events: ['customer.created'],
        is_active: false,
      });
      expect(webhook).toMatchObject({ is_active: false, consecutive_failures: 0 });
      expect(webhook.secret).toMatch(/^whsec_/);
      expect((await admin.webhooks.adminGet(webhook.id)).is_active).toBe(false);
      expect(
        (await admin.webhooks.adminList({ limit: 100 })).data.find((w) => w.id === webhook.id),
      ).toMatchObject({
        is_active: false,
      });

      const before = await admin.customers.adminCreate({ email: `${unique('before')}@example.com` });
      await api().engine.webhooks.deliverDue();
      expect(receiver.receipts).toEqual([]);
      expect((await api().get(`/v1/admin/webhooks/${webhook.id}/deliveries`)).body.data).toEqual([]);
      // A test send works while inactive (it is how one checks the endpoint before activating).
      expect(await admin.webhooks.adminTest(webhook.id)).toMatchObject({ success: true, status_code: 200 });
      receiver.receipts.length = 0;

      expect((await admin.webhooks.adminUpdate(webhook.id, { is_active: true })).is_active).toBe(true);
      const after = await admin.customers.adminCreate({ email: `${unique('after')}@example.com` });
      await api().engine.webhooks.deliverDue();
      const delivered = receiver.receipts.map((r) => JSON.parse(r.body).data.id);
      expect(delivered).toEqual([after.id]);
      expect(delivered).not.toContain(before.id);

      // is_active must be a boolean; true (the default) creates an active webhook.
      await expectSdkError(
        admin.request('POST', '/admin/webhooks', { url: receiver.url, events: ['*'], is_active: 'no' }),
        400,
        'parameter_invalid',
      );
      const active = await admin.webhooks.adminCreate({ url: receiver.url, events: ['*'], is_active: true });
      expect(active.is_active).toBe(true);
      await admin.webhooks.adminDelete(active.id);
    });
  },
  {
    clock: tickingClock(),
    webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
    config: { allow_private_webhooks: true },
  },
);
