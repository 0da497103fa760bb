import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumPath } from './support/chromium';
import {
  CLI_DIR,
  call,
  DATABASE_TARGETS,
  eventually,
  freshDatabaseUrl,
  type ServeProcess,
  startServe,
  stop,
} from './support/serve-process';

/**
 * The admin console (decisions §23) in a real browser: Debian's Chromium driven by playwright-core
 * against the real `cartwright serve` process, on SQLite and on PostgreSQL when the run has it.
 * The first admin is invited through the API (secret key; the `member.invited` token arrives at a
 * webhook receiver), accepts the invitation in the console, signs out and in again; then a product
 * with two variants is created in the console, an order is placed through the storefront API, and
 * the order is paid, fulfilled, shipped and refunded in the console; the dashboard shows it. Then
 * the pages of decisions §17, §19 and §21: categories and collections, Settings → Regions and
 * currency rates, a product's translations and region prices, and a customer's and a discount's
 * detail. Last, Settings → Shipping methods, a customer edited, API keys (created, rotated,
 * revoked, each secret tried on the API), a webhook's whole life, and locales (deactivated and
 * activated, made the default in place, deleted).
 * Screenshots of each page go to packages/cli/test-results/admin-console/ (gitignored).
 */

/**
 * `expect.poll` with the wait of a page step (10 s): its default of 1 s is shorter than one API
 * round trip on a loaded CI machine.
 */
const poll = <T>(probe: () => T | Promise<T>) => expect.poll(probe, { timeout: 10_000, interval: 100 });

const SECRET = 'sk_test_adminConsoleSecret00000000000001';
const PUBLISHABLE = 'pk_test_adminConsolePublishable000000001';
const ADMIN_EMAIL = 'owner@example.com';
const PASSWORD = 'console-password-1';
const SHOTS = resolve(CLI_DIR, 'test-results/admin-console');

/** A loopback webhook endpoint keeping each `member.invited` token, and answering GETs with a tiny PNG. */
async function startReceiver() {
  const tokens = new Map<string, string>();
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { email: string; token: string } };
      if (event.type === 'member.invited') tokens.set(event.data.email, event.data.token);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, tokens, close: () => new Promise<void>((r) => server.close(() => r())) };
}

for (const target of DATABASE_TARGETS) {
  // Each step waits at most 10 s for the page (setDefaultTimeout); a whole test, 60 s on a loaded CI machine.
  describe(`the admin console in Chromium, served by cartwright serve on ${target}`, {
    timeout: 60_000,
  }, () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-admin-console-'));
    const pageErrors: string[] = [];
    const shot = (name: string) =>
      page.screenshot({ path: join(SHOTS, `${target}-${name}.png`), fullPage: true });

    beforeAll(async () => {
      const executablePath = chromiumPath();
      mkdirSync(SHOTS, { recursive: true });
      receiver = await startReceiver();
      // The webhook worker runs in the process ([] = no --no-worker): it delivers member.invited.
      server = await startServe(
        await freshDatabaseUrl(target, dir),
        { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`, COMMERCE_ALLOW_PRIVATE_WEBHOOKS: '1' },
        [],
      );
      browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(10_000);
      page.on('pageerror', (error) => pageErrors.push(error.message));
      // Deleting asks first (window.confirm): the tests say yes.
      page.on('dialog', (dialog) => void dialog.accept());
      // Content-Security-Policy violations and failed loads show as console errors (the browser's
      // own favicon request is not the console's). The API's 400, 401 and 422 answers that the
      // tests provoke (a wrong password, a bad discount, deleting a category that has children) are expected.
      page.on('console', (message) => {
        const text = `${message.text()} (${message.location().url})`;
        if (message.type() !== 'error' || /favicon|status of (400|401|409|422) .*\/v1\//.test(text)) return;
        pageErrors.push(text);
      });
    });

    afterAll(async () => {
      await browser?.close();
      if (server) await stop(server);
      await receiver?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('serves the console at /admin/ as static files with a strict CSP; /admin redirects there', async () => {
      const redirect = await fetch(`${server.url}/admin`, { redirect: 'manual' });
      expect(redirect.status).toBe(308);
      expect(redirect.headers.get('location')).toBe('/admin/');
      const html = await fetch(`${server.url}/admin/`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
      const text = await html.text();
      expect(text).toContain('src="/admin/app.js"');
      expect(text).toContain('<meta name="cartwright-api" content="">');
      const js = await fetch(`${server.url}/admin/app.js`, { headers: { 'accept-encoding': 'gzip' } });
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      const etag = js.headers.get('etag')!;
      expect(
        (
          await fetch(`${server.url}/admin/app.js`, {
            headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' },
          })
        ).status,
      ).toBe(304);
      expect((await fetch(`${server.url}/admin/nope.js`)).status).toBe(404);
      expect((await fetch(`${server.url}/admin/`, { method: 'POST' })).status).toBe(405);
    });

    test('the first admin accepts the invitation, signs out, and signs in through the page; a wrong password shows the API message', async () => {
      const hook = await call(server, 'POST', '/v1/admin/webhooks', SECRET, {
        url: `${receiver.base}/hooks`,
        events: ['member.invited'],
      });
      expect(hook.status).toBe(200);
      const member = await call(server, 'POST', '/v1/admin/organization/members', SECRET, {
        email: ADMIN_EMAIL,
        role: 'admin',
      });
      expect(member.status).toBe(200);
      const token = await eventually(
        async () => receiver.tokens.get(ADMIN_EMAIL),
        15_000,
        'the member.invited token at the webhook receiver',
      );

      await page.goto(`${server.url}/admin/#/accept-invite?token=${encodeURIComponent(token)}`);
      await page.getByLabel('New password (8 characters or more)').fill(PASSWORD);
      await page.getByLabel('Repeat the password').fill(PASSWORD);
      await shot('accept-invite');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(await page.getByTestId('who').textContent()).toBe(`${ADMIN_EMAIL} (admin)`);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to Cartwright' }).waitFor();
      await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await poll(() => page.getByRole('alert').first().textContent()).toMatch(/\S/);
      const message = await page.getByRole('alert').first().textContent();
      const direct = await fetch(`${server.url}/v1/admin/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cartwright-csrf': '1' },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: 'not-the-password' }),
      });
      expect(message).toBe(((await direct.json()) as { error: { message: string } }).error.message);
      await page.getByLabel('Password').fill(PASSWORD);
      await shot('sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      // The keys of this server are test-mode keys: work in test mode.
      await page.locator('#mode').selectOption('test');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    });

    test('a product with two variants created in the console, then an image by URL, a stock adjustment and a category', async () => {
      const category = await call(server, 'POST', '/v1/admin/categories', SECRET, { name: 'Shirts' });
      expect(category.status).toBe(200);
      await page.getByRole('link', { name: 'Products', exact: true }).click();
      await page.getByRole('link', { name: 'New product' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Console Tee <b>bold</b>');
      await page.getByLabel('Option 1 name').fill('Size');
      await page.getByLabel('Option 1 values').fill('S, M');
      for (const [i, size] of ['S', 'M'].entries()) {
        await page.getByLabel(`Variant ${i + 1} SKU`).fill(`TEE-${size}-${target}`);
        await page.getByLabel(`Variant ${i + 1} price`).fill('25.00');
        await page.getByLabel(`Variant ${i + 1} option 1 value`).fill(size);
        await page.getByLabel(`Variant ${i + 1} stock on hand`).fill('10');
      }
      await shot('product-new');
      await page.getByRole('button', { name: 'Create product' }).click();
      // The name is shown as text, never parsed as HTML.
      await page.getByRole('heading', { name: 'Console Tee <b>bold</b>' }).waitFor();
      expect(await page.locator('main b').count()).toBe(0);
      const list = await call(server, 'GET', '/v1/admin/products?q=Console', SECRET);
      const product = list.body.data[0];
      expect(
        product.variants.map((v: { sku: string; price: { amount: number } }) => [v.sku, v.price.amount]),
      ).toEqual([
        [`TEE-S-${target}`, 2500],
        [`TEE-M-${target}`, 2500],
      ]);
      expect(product.options[0].values.map((v: { value: string }) => v.value)).toEqual(['S', 'M']);

      await page.getByLabel('Image URL').fill(`${receiver.base}/tee.png`);
      await page.getByLabel('Alt text').fill('A tee');
      await page.getByRole('button', { name: 'Add image' }).click();
      await page.getByRole('img', { name: 'A tee' }).waitFor();
      await page.getByLabel(`Stock change of TEE-S-${target}`).fill('5');
      await page
        .getByRole('row', { name: new RegExp(`TEE-S-${target}`) })
        .getByRole('button', { name: 'Adjust stock' })
        .click();
      await poll(() => page.getByTestId(`stock-TEE-S-${target}`).textContent()).toBe(
        '15 on hand, 15 available',
      );
      await page.getByLabel('Shirts').check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(
        (await call(server, 'GET', `/v1/admin/products/${product.id}`, SECRET)).body.category_ids,
      ).toEqual([category.body.id]);
      await shot('product');
    });

    test('an order placed through the storefront API is paid, fulfilled, shipped, partly returned and refunded in the console; the dashboard shows it', async () => {
      const product = (await call(server, 'GET', '/v1/admin/products?q=Console', SECRET)).body.data[0];
      const variant = product.variants.find((v: { sku: string }) => v.sku === `TEE-M-${target}`);
      const cart = await call(server, 'POST', '/v1/storefront/carts', PUBLISHABLE, {
        shipping_address: {
          name: 'Ada',
          line1: '1 Main St',
          city: 'London',
          postal_code: 'EC1A 1BB',
          country: 'GB',
        },
      });
      expect(cart.status).toBe(200);
      const item = await call(server, 'POST', `/v1/storefront/carts/${cart.body.id}/items`, PUBLISHABLE, {
        variant_id: variant.id,
        quantity: 2,
      });
      expect(item.status).toBe(200);
      const checkout = await call(
        server,
        'POST',
        `/v1/storefront/carts/${cart.body.id}/checkout`,
        PUBLISHABLE,
        {
          email: 'buyer@example.com',
          payment_provider: 'manual',
        },
      );
      expect(checkout.status).toBe(201);
      const order = checkout.body;

      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByLabel('Search').fill('buyer@example.com');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('link', { name: `#${order.number}` }).waitFor();
      await shot('orders');
      await page.getByRole('link', { name: `#${order.number}` }).click();
      await page.getByRole('heading', { name: `Order #${order.number}` }).waitFor();

      // The manual provider's payment is pending until the shop marks it received.
      // Each action re-renders the page once the API answered: the next button is clicked on the
      // page that follows (a click on the page being replaced could ask for a fulfilment of an
      // order whose payment is not completed yet).
      await page.getByRole('button', { name: 'Mark completed' }).click();
      await page.getByRole('button', { name: 'Mark completed' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Create fulfilment' }).click();
      await page.getByRole('button', { name: 'Mark shipped' }).click();
      await page.getByRole('button', { name: 'Mark delivered' }).waitFor();
      // One of the two units comes back: the return (approved, as the shop creates it) is received
      // and completed in the console; completing a refund-type return refunds that unit.
      const ret = await call(server, 'POST', `/v1/admin/orders/${order.id}/returns`, SECRET, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
      });
      expect(ret.status).toBe(200);
      await page.reload();
      await page.getByRole('button', { name: 'Mark received' }).click();
      await page.getByRole('button', { name: 'Complete' }).click();
      await page.getByRole('heading', { name: 'Returns' }).waitFor();
      await poll(() => page.getByTestId('order-refunded').textContent()).toBe('$25.00');
      // The rest is refunded by hand.
      await page.getByLabel('Reason (optional)').fill('customer changed their mind');
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      await poll(() => page.getByTestId('order-refunded').textContent()).toBe(
        await page.getByTestId('order-total').textContent(),
      );
      await shot('order');

      const after = (await call(server, 'GET', `/v1/admin/orders/${order.id}`, SECRET)).body;
      expect(after.payment_status).toBe('refunded');
      expect(after.fulfillments.map((f: { status: string }) => f.status)).toEqual(['shipped']);
      expect(after.lines[0].fulfilled_quantity).toBe(2);
      expect(after.refunds).toHaveLength(2);
      expect(after.refunds.map((r: { amount: { amount: number } }) => r.amount.amount)).toEqual([2500, 2500]);
      expect(after.refunds.map((r: { reason: string | null }) => r.reason)).toContain(
        'customer changed their mind',
      );
      const returns = (await call(server, 'GET', `/v1/admin/returns?order_id=${order.id}`, SECRET)).body.data;
      expect(returns.map((r: { status: string }) => r.status)).toEqual(['completed']);

      // A second order, paid in full through the API, so that today has revenue.
      const second = await call(server, 'POST', '/v1/admin/orders', SECRET, {
        lines: [{ variant_id: variant.id, quantity: 1 }],
        email: 'second@example.com',
        status: 'pending',
      });
      expect(second.status).toBe(201);
      const paid = await call(server, 'POST', `/v1/admin/orders/${second.body.id}/payments`, SECRET, {
        amount: second.body.total.amount,
        provider: 'cash',
      });
      expect(paid.status).toBe(200);

      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByRole('heading', { name: 'Recent orders' }).waitFor();
      await page.getByRole('link', { name: `#${order.number}` }).waitFor();
      await page.getByRole('link', { name: `#${second.body.number}` }).waitFor();
      expect(await page.getByTestId("kpi-today's-orders").locator('.value').textContent()).toBe('2');
      expect(await page.getByTestId("kpi-today's-revenue").locator('.value').textContent()).toBe('$25.00');
      // The chart: one bar per day of the period, today's (the last) the highest.
      const chart = page.getByRole('img', { name: /^Revenue per day, 7 days, \$25\.00 in all$/ });
      await chart.waitFor();
      expect(await chart.locator('rect').count()).toBe(7);
      expect(await chart.locator('rect').last().locator('title').textContent()).toMatch(/: \$25\.00$/);
      await shot('dashboard');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await page.getByRole('link', { name: `#${order.number}` }).click();
      await page.getByRole('heading', { name: `Order #${order.number}` }).waitFor();
      await shot('order-390px');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    test('customers; a discount created and deactivated in the console (a refused one shows the API message, and is in the API logs); settings with webhook deliveries', async () => {
      await page.getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('heading', { name: 'Customers' }).waitFor();
      await shot('customers');
      await page.getByRole('link', { name: 'Discounts' }).click();
      await page.getByRole('heading', { name: 'Discounts' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Ten off');
      await page.getByLabel('Code').fill(`TEN-${target}`);
      await page.getByLabel('Value').fill('200');
      await page.getByRole('button', { name: 'Create discount' }).click();
      const tooMuch = await call(server, 'POST', '/v1/admin/discounts', SECRET, {
        name: 'Ten off',
        code: `TEN-${target}`,
        value_type: 'percentage',
        value: 200,
      });
      expect(tooMuch.status).toBe(400);
      await poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).first().textContent()).toBe(
        tooMuch.body.error.message,
      );
      await page.getByLabel('Value').fill('10');
      await page.getByRole('button', { name: 'Create discount' }).click();
      await page
        .getByRole('row', { name: new RegExp(`Ten off TEN-${target} percentage 10% active`) })
        .waitFor();
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page
        .getByRole('row', { name: new RegExp(`Ten off TEN-${target} percentage 10% inactive`) })
        .waitFor();
      await shot('discounts');

      // The refused request in the API logs (written off the request path, so polled for).
      await page.getByRole('link', { name: 'API logs' }).click();
      await page.getByRole('heading', { name: 'API logs' }).waitFor();
      await page.getByLabel('Status').fill('400');
      await page.getByLabel('Path starts with').fill('/v1/admin/discounts');
      await page.getByRole('button', { name: 'Apply' }).click();
      const logged = page.getByRole('row', { name: /POST \/v1\/admin\/discounts 400/ }).first();
      await poll(async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'API logs' }).waitFor();
        return logged.count();
      }).toBe(1);
      await shot('logs');
      await logged.getByRole('link').click();
      await page.getByRole('heading', { name: 'POST /v1/admin/discounts' }).waitFor();
      expect(await page.locator('pre.json').last().textContent()).toContain(tooMuch.body.error.code);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      await page.getByRole('cell', { name: ADMIN_EMAIL }).waitFor();
      await page.getByRole('button', { name: 'Deliveries' }).click();
      await page.getByRole('row', { name: /member\.invited succeeded/ }).waitFor();
      await shot('settings');
      expect(pageErrors).toEqual([]);
    });

    test('a member invited from Settings accepts in another browser and works on orders, but not on settings', async () => {
      await page.getByLabel('E-mail').fill('clerk@example.com');
      await page.getByLabel('Role').selectOption('member');
      await page.getByRole('button', { name: 'Invite' }).click();
      await page.getByRole('row', { name: /clerk@example\.com member invited/ }).waitFor();
      const token = await eventually(
        async () => receiver.tokens.get('clerk@example.com'),
        15_000,
        "the clerk's member.invited token",
      );
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const clerk = await context.newPage();
        await clerk.goto(`${server.url}/admin/#/accept-invite?token=${encodeURIComponent(token)}`);
        await clerk.getByLabel('New password (8 characters or more)').fill(PASSWORD);
        await clerk.getByLabel('Repeat the password').fill('something-else');
        await clerk.getByRole('button', { name: 'Set password and sign in' }).click();
        await poll(() => clerk.getByRole('alert').first().textContent()).toBe('The two passwords differ.');
        await clerk.getByLabel('Repeat the password').fill(PASSWORD);
        await clerk.getByRole('button', { name: 'Set password and sign in' }).click();
        await clerk.getByRole('heading', { name: 'Dashboard' }).waitFor();
        expect(await clerk.getByTestId('who').textContent()).toBe('clerk@example.com (member)');
        await clerk.locator('#mode').selectOption('test');
        await clerk.getByRole('link', { name: 'Orders', exact: true }).click();
        await clerk.getByRole('heading', { name: 'Orders' }).waitFor();
        await clerk.getByRole('link', { name: 'Settings' }).click();
        await clerk.getByText('Only an admin manages store settings, keys, webhooks and members.').waitFor();
        // The same invitation link a second time: the API's message, shown as it is.
        await clerk.getByRole('button', { name: 'Sign out' }).click();
        await clerk.getByRole('heading', { name: 'Sign in to Cartwright' }).waitFor();
        await clerk.goto(`${server.url}/admin/#/accept-invite?token=${encodeURIComponent(token)}`);
        await clerk.getByLabel('New password (8 characters or more)').fill(PASSWORD);
        await clerk.getByLabel('Repeat the password').fill(PASSWORD);
        await clerk.getByRole('button', { name: 'Set password and sign in' }).click();
        const reused = await fetch(`${server.url}/v1/admin/session/accept-invite`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cartwright-csrf': '1' },
          body: JSON.stringify({ token, password: PASSWORD }),
        });
        expect(reused.status).toBe(422);
        const { error } = (await reused.json()) as { error: { message: string } };
        await poll(() => clerk.getByRole('alert').first().textContent()).toBe(error.message);
      } finally {
        await context.close();
      }
    });

    test('catalog: a category tree (a parent with children refuses deletion with the API message) and collections, manual with products added and removed, automatic by rules', async () => {
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.getByRole('heading', { name: 'Categories', exact: true }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Clothing');
      await page.getByLabel('Description').fill('Everything to wear');
      await page.getByRole('button', { name: 'Create category' }).click();
      await page.getByRole('link', { name: 'Clothing' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Tees <i>x</i>');
      await page.getByLabel('Parent').selectOption({ label: 'Clothing' });
      await page.getByRole('button', { name: 'Create category' }).click();
      // Nested under its parent, its name shown as text.
      await page.locator('ul.tree ul.tree').getByRole('link', { name: 'Tees <i>x</i>' }).waitFor();
      await shot('categories');
      const categories = (await call(server, 'GET', '/v1/admin/categories?limit=100', SECRET)).body.data;
      const clothing = categories.find((c: { name: string }) => c.name === 'Clothing');
      const tees = categories.find((c: { name: string }) => c.name === 'Tees <i>x</i>');
      expect(tees.parent_id).toBe(clothing.id);
      expect(clothing.description).toBe('Everything to wear');

      await page.getByRole('link', { name: 'Clothing' }).click();
      await page.getByRole('heading', { name: 'Clothing' }).waitFor();
      await page.getByRole('button', { name: 'Delete category' }).click();
      const refused = await call(server, 'DELETE', `/v1/admin/categories/${clothing.id}`, SECRET);
      expect([refused.status, refused.body.error.code]).toEqual([409, 'category_has_children']);
      await poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).first().textContent()).toBe(
        refused.body.error.message,
      );
      await page.getByLabel('Slug').fill(`clothing-${target}`);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await shot('category');
      expect((await call(server, 'GET', `/v1/admin/categories/${clothing.id}`, SECRET)).body.slug).toBe(
        `clothing-${target}`,
      );
      // A leaf goes.
      await page.getByRole('link', { name: '← All categories' }).click();
      await page.getByRole('link', { name: 'Tees <i>x</i>' }).click();
      await page.getByRole('button', { name: 'Delete category' }).click();
      await page.getByRole('heading', { name: 'All categories (2)' }).waitFor();
      expect((await call(server, 'GET', `/v1/admin/categories/${tees.id}`, SECRET)).status).toBe(404);

      // A manual collection: created, then a product found and added, then removed.
      await page.getByRole('link', { name: 'Collections', exact: true }).click();
      await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Summer picks');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.getByRole('heading', { name: 'Summer picks' }).waitFor();
      await page.getByLabel('Find a product to add').fill('Console');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('button', { name: 'Add Console Tee <b>bold</b>' }).click();
      await page.getByRole('heading', { name: 'Products (1)' }).waitFor();
      await shot('collection');
      const product = (await call(server, 'GET', '/v1/admin/products?q=Console', SECRET)).body.data[0];
      const collections = (await call(server, 'GET', '/v1/admin/collections', SECRET)).body.data;
      const picks = collections.find((c: { name: string }) => c.name === 'Summer picks');
      expect([picks.type, picks.product_ids]).toEqual(['manual', [product.id]]);
      await page.getByRole('button', { name: 'Remove Console Tee <b>bold</b>' }).click();
      await page.getByRole('heading', { name: 'Products (0)' }).waitFor();
      expect(
        (await call(server, 'GET', `/v1/admin/collections/${picks.id}`, SECRET)).body.product_ids,
      ).toEqual([]);

      // An automatic one: a tag rule and a price rule (in the store currency's decimals).
      await page.getByRole('link', { name: '← All collections' }).click();
      // The list's own form, not the collection page's Name field still shown while it loads.
      await page.getByRole('heading', { name: 'New collection' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Cheap tees');
      await page.getByLabel('Type').selectOption('auto');
      await page.getByLabel('Match').selectOption('all');
      await page.getByLabel('Condition 1 values').fill('summer, tees');
      await page.getByRole('button', { name: 'Add a condition' }).click();
      await page.getByLabel('Condition 2', { exact: true }).selectOption('price');
      await page.getByLabel('Condition 2 operator').selectOption('lte');
      await page.getByLabel('Condition 2 values').fill('30.00');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.getByRole('heading', { name: 'Products matching now' }).waitFor();
      const cheap = (await call(server, 'GET', '/v1/admin/collections?type=auto', SECRET)).body.data[0];
      expect(cheap.rules).toEqual({
        match: 'all',
        conditions: [
          { type: 'product_tag', operator: 'in', values: ['summer', 'tees'] },
          { type: 'price', operator: 'lte', value: 3000 },
        ],
      });
      await page.getByRole('link', { name: '← All collections' }).click();
      await page.getByRole('link', { name: 'Cheap tees' }).waitFor();
      await shot('collections');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('link', { name: 'Cheap tees' }).click();
      await page.getByRole('heading', { name: 'Products matching now' }).waitFor();
      await shot('collection-auto-390px');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    test('Settings → Regions: a region created and edited, a currency rate; on the product, a translation and region prices in the region currency’s decimals (JPY 0, KWD 3); a member translates but sees no region prices', async () => {
      for (const locale of [
        { locale: 'en', name: 'English', is_default: true },
        { locale: 'fr', name: 'Français' },
      ]) {
        expect((await call(server, 'POST', '/v1/admin/locales', SECRET, locale)).status).toBe(200);
      }
      const kuwait = await call(server, 'POST', '/v1/admin/regions', SECRET, {
        name: 'Kuwait',
        code: 'kw',
        currency: 'KWD',
      });
      expect(kuwait.status).toBe(200);

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('link', { name: 'Regions and currency rates' }).click();
      await page.getByRole('heading', { name: 'Regions and currency rates' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Japan');
      await page.getByLabel('Code (a-z, 0-9, _ and -; fixed)').fill('jp');
      await page.getByLabel('Currency (ISO 4217)').fill('jpy');
      await page.getByLabel('Tax rate (%)').fill('10');
      await page.getByRole('button', { name: 'Create region' }).click();
      await page.getByRole('row', { name: /Japan jp JPY 10%/ }).waitFor();
      await page.getByLabel('To currency').fill('JPY');
      await page.getByLabel('Rate (1 from = rate to)').fill('150.25');
      await page.getByRole('button', { name: 'Save rate' }).click();
      await page.getByRole('row', { name: /USD JPY 150\.25/ }).waitFor();
      await shot('regions');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot('regions-390px');
      await page.setViewportSize({ width: 1280, height: 900 });
      const rates = (await call(server, 'GET', '/v1/admin/currency-rates', SECRET)).body.data;
      expect(
        rates.map((r: { from_currency: string; to_currency: string; rate: number }) => [
          r.from_currency,
          r.to_currency,
          r.rate,
        ]),
      ).toEqual([['USD', 'JPY', 150.25]]);

      await page.getByRole('link', { name: 'Japan' }).click();
      await page.getByRole('heading', { name: 'Japan' }).waitFor();
      await page.getByLabel('Tax rate (%)').fill('8');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await shot('region');
      const regions = (await call(server, 'GET', '/v1/admin/regions', SECRET)).body.data;
      const japan = regions.find((r: { code: string }) => r.code === 'jp');
      expect([japan.currency, japan.tax_rate]).toEqual(['JPY', 8]);
      await page.getByRole('link', { name: '← All regions' }).click();
      await page
        .getByRole('row', { name: /USD JPY 150\.25/ })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByText('No rates.').waitFor();
      expect((await call(server, 'GET', '/v1/admin/currency-rates', SECRET)).body.data).toEqual([]);

      // The product: its French name, and its prices in Japan and Kuwait.
      const product = (await call(server, 'GET', '/v1/admin/products?q=Console', SECRET)).body.data[0];
      await page.goto(`${server.url}/admin/#/products/${product.id}`);
      await page.getByRole('heading', { name: 'Translations', exact: true }).waitFor();
      await page.getByLabel('Name (fr)').fill('T-shirt de la console');
      await page.getByRole('button', { name: 'Save Français' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const translated = (await call(server, 'GET', `/v1/admin/translations/product/${product.id}`, SECRET))
        .body.data;
      expect(
        translated.map((t: { locale: string; field: string; value: string }) => [t.locale, t.field, t.value]),
      ).toEqual([['fr', 'name', 'T-shirt de la console']]);
      // An option value's French text, in its option's disclosure (loaded when opened).
      const medium = product.options[0].values.find((v: { value: string }) => v.value === 'M');
      await page.getByText('Size (2 values)').click();
      await page.getByLabel('Size: M (fr)').fill('Moyen');
      await page
        .getByRole('form', { name: 'Size: M: translation into Français' })
        .getByRole('button', { name: 'Save Français' })
        .click();
      await poll(async () =>
        (await call(server, 'GET', `/v1/admin/translations/option_value/${medium.id}`, SECRET)).body.data.map(
          (t: { locale: string; field: string; value: string }) => [t.locale, t.field, t.value],
        ),
      ).toEqual([['fr', 'value', 'Moyen']]);
      await shot('product-option-translations');

      const sku = `TEE-S-${target}`;
      const variant = product.variants.find((v: { sku: string }) => v.sku === sku);
      const priceIn = async (region: string, amount: string) => {
        const row = page.locator('details', { hasText: region }).getByRole('row', { name: new RegExp(sku) });
        await row.getByLabel(/^Price of /).fill(amount);
        await row.getByRole('button', { name: 'Set price' }).click();
      };
      await priceIn('Japan', '38.5');
      await poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).first().textContent()).toBe(
        'Price: enter an amount in JPY with at most 0 decimals, e.g. 1200.',
      );
      await priceIn('Japan', '3800');
      await poll(() => page.getByTestId(`region-price-jp-${sku}`).textContent()).toBe('¥3,800');
      await priceIn('Kuwait', '12.345');
      await poll(() => page.getByTestId(`region-price-kw-${sku}`).textContent()).toMatch(/^KWD\s12\.345$/);
      await shot('product-regions');
      const priceOf = async (regionId: string) =>
        (await call(server, 'GET', `/v1/admin/regions/${regionId}/prices?variant_id=${variant.id}`, SECRET))
          .body.data[0]?.price;
      expect([await priceOf(japan.id), await priceOf(kuwait.body.id)]).toEqual([3800, 12345]);
      // Removed again: the region then prices the variant by conversion.
      await page
        .locator('details', { hasText: 'Kuwait' })
        .getByRole('row', { name: new RegExp(sku) })
        .getByRole('button', { name: 'Remove' })
        .click();
      await poll(() => page.getByTestId(`region-price-kw-${sku}`).textContent()).toBe('not set');
      expect(await priceOf(kuwait.body.id)).toBeUndefined();

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('heading', { name: 'Region prices' }).scrollIntoViewIfNeeded();
      await shot('product-390px');
      await page.setViewportSize({ width: 1280, height: 900 });

      // A member translates too, without the admin-only list of locales; region prices are the admins'.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const clerk = await context.newPage();
        clerk.setDefaultTimeout(10_000);
        // A link opened while signed out shows its page after the sign-in.
        await clerk.goto(`${server.url}/admin/#/products/${product.id}`);
        await clerk.getByLabel('E-mail').fill('clerk@example.com');
        await clerk.getByLabel('Password').fill(PASSWORD);
        await clerk.getByRole('button', { name: 'Sign in' }).click();
        await clerk
          .getByText(/^Only an admin of the organization may call GET \/v1\/admin\/regions/)
          .waitFor();
        expect(await clerk.getByLabel('Name (fr)').inputValue()).toBe('T-shirt de la console');
        await clerk.getByLabel('Description (fr)').fill('Un t-shirt');
        await clerk.getByRole('button', { name: 'Save fr' }).click();
        await clerk.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      } finally {
        await context.close();
      }
      const byMember = (
        await call(server, 'GET', `/v1/admin/translations/product/${product.id}?locale=fr`, SECRET)
      ).body.data;
      expect(byMember.map((t: { field: string; value: string }) => [t.field, t.value])).toEqual([
        ['description', 'Un t-shirt'],
        ['name', 'T-shirt de la console'],
      ]);
    });

    test('a customer’s detail (orders, addresses, total spent) and a discount’s detail (edited, a condition added)', async () => {
      const customer = await call(server, 'POST', '/v1/admin/customers', SECRET, {
        email: 'grace@example.com',
        first_name: 'Grace',
        last_name: 'Hopper',
        tags: ['vip'],
      });
      expect(customer.status).toBe(200);
      const token = await call(server, 'POST', `/v1/admin/customers/${customer.body.id}/token`, SECRET, {});
      const address = await call(
        server,
        'POST',
        '/v1/storefront/customers/me/addresses',
        PUBLISHABLE,
        { name: 'Grace Hopper', line1: '1 Navy Way', city: 'Arlington', postal_code: '22201', country: 'US' },
        { 'x-customer-token': token.body.token },
      );
      expect(address.status).toBe(200);
      const product = (await call(server, 'GET', '/v1/admin/products?q=Console', SECRET)).body.data[0];
      const order = await call(server, 'POST', '/v1/admin/orders', SECRET, {
        lines: [{ variant_id: product.variants[0].id, quantity: 1 }],
        customer_id: customer.body.id,
        status: 'pending',
      });
      expect(order.status).toBe(201);
      const paid = await call(server, 'POST', `/v1/admin/orders/${order.body.id}/payments`, SECRET, {
        amount: order.body.total.amount,
        provider: 'cash',
      });
      expect(paid.status).toBe(200);

      await page.getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('link', { name: 'grace@example.com' }).click();
      await page.getByRole('heading', { name: 'Grace Hopper (grace@example.com)' }).waitFor();
      await page.getByRole('link', { name: `#${order.body.number}` }).waitFor();
      await page.getByText('Grace Hopper, 1 Navy Way, 22201 Arlington, US').waitFor();
      expect(await page.getByTestId('customer-orders').textContent()).toBe('1');
      expect(await page.getByTestId('customer-spent').textContent()).toBe(
        new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
          order.body.total.amount / 100,
        ),
      );
      await shot('customer');

      await page.getByRole('link', { name: 'Discounts' }).click();
      await page.getByRole('link', { name: 'Ten off' }).click();
      await page.getByRole('heading', { name: 'Ten off' }).waitFor();
      await page.getByLabel('Usage limit').fill('100');
      await page.getByLabel('Minimum order (USD)').fill('50');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('definition').filter({ hasText: '$50.00' }).waitFor();
      await page.getByLabel('Condition', { exact: true }).selectOption('product_tag');
      await page.getByLabel('Values').fill('summer');
      await page.getByRole('button', { name: 'Add condition' }).click();
      await page.getByRole('row', { name: /product tag is one of summer/ }).waitFor();
      await shot('discount');
      const discount = (await call(server, 'GET', `/v1/admin/discounts?limit=100`, SECRET)).body.data.find(
        (d: { code: string }) => d.code === `TEN-${target}`,
      );
      expect([discount.usage_limit, discount.minimum_amount.amount, discount.is_active]).toEqual([
        100,
        5000,
        false,
      ]);
      expect(discount.conditions.map((c: { type: string; values: string[] }) => [c.type, c.values])).toEqual([
        ['product_tag', ['summer']],
      ]);
      expect(pageErrors).toEqual([]);
    });

    test('Settings → Shipping methods: created (a bad amount refused before the request), edited, offered at checkout, one deleted; a customer edited, only the changed field sent', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('link', { name: 'Shipping methods' }).click();
      await page.getByRole('heading', { name: 'Shipping methods', exact: true }).waitFor();
      const create = async (name: string, price: string, free = '', position = '0') => {
        await page.getByLabel('Name', { exact: true }).fill(name);
        await page.getByLabel('Price (USD)').fill(price);
        await page.getByLabel('Free from (USD, optional)').fill(free);
        await page.getByLabel('Position').fill(position);
        await page.getByRole('button', { name: 'Create shipping method' }).click();
      };
      await create('Express <i>x</i>', '7.555', '100', '1');
      await poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).first().textContent()).toBe(
        'Price: enter an amount in USD with at most 2 decimals, e.g. 12.50.',
      );
      await create('Express <i>x</i>', '7.5', '100', '1');
      await page.getByRole('row', { name: /^Express <i>x<\/i> \$7\.50 \$100\.00 1 active$/ }).waitFor();
      await create('Pickup', '0');
      await page.getByRole('row', { name: /^Pickup \$0\.00 never 0 active$/ }).waitFor();
      expect(await page.locator('main i').count()).toBe(0);
      await shot('shipping-methods');
      const methods = (await call(server, 'GET', '/v1/admin/shipping-methods?sort=position', SECRET)).body
        .data;
      expect(
        methods.map((m: { name: string; price: { amount: number }; free_shipping_threshold: unknown }) => [
          m.name,
          m.price.amount,
          m.free_shipping_threshold,
        ]),
      ).toEqual([
        ['Pickup', 0, null],
        ['Express <i>x</i>', 750, { amount: 10000, currency: 'USD' }],
      ]);

      await page.getByRole('link', { name: 'Express <i>x</i>' }).click();
      await page.getByRole('heading', { name: 'Express <i>x</i>' }).waitFor();
      await page.getByLabel('Price (USD)').fill('8.25');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await poll(
        async () =>
          (await call(server, 'GET', `/v1/admin/shipping-methods/${methods[1].id}`, SECRET)).body.price
            .amount,
      ).toBe(825);
      await shot('shipping-method');
      // Its French name (the store has en, the default, and fr), read by a French checkout.
      await page.getByLabel('Name (fr)').fill('Express (fr)');
      await page.getByRole('button', { name: 'Save Français' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      // Checkout offers it at its new price; the list shows it after a reload.
      const offered = (await call(server, 'GET', '/v1/storefront/shipping-methods', PUBLISHABLE)).body.data;
      expect(
        offered.map((m: { name: string; price: { amount: number } }) => [m.name, m.price.amount]),
      ).toEqual([
        ['Pickup', 0],
        ['Express <i>x</i>', 825],
      ]);
      const french = (await call(server, 'GET', '/v1/storefront/shipping-methods?locale=fr', PUBLISHABLE))
        .body.data;
      expect(french.map((m: { name: string }) => m.name)).toEqual(['Pickup', 'Express (fr)']);
      await page.getByRole('link', { name: '← All shipping methods' }).click();
      await page.reload();
      await page.getByRole('row', { name: /^Express <i>x<\/i> \$8\.25 \$100\.00 1 active$/ }).waitFor();
      await page.getByRole('link', { name: 'Pickup' }).click();
      await page.getByRole('button', { name: 'Delete shipping method' }).click();
      await page.getByRole('heading', { name: 'Shipping methods', exact: true }).waitFor();
      await page.getByRole('row', { name: /^Express <i>x<\/i>/ }).waitFor();
      expect(await page.getByRole('row', { name: /^Pickup/ }).count()).toBe(0);
      expect((await call(server, 'GET', `/v1/admin/shipping-methods/${methods[0].id}`, SECRET)).status).toBe(
        404,
      );

      // A customer edited: a bad metadata text is refused in the page, then only the first name is sent.
      const grace = (await call(server, 'GET', '/v1/admin/customers?q=grace%40example.com', SECRET)).body
        .data[0];
      await page.getByRole('link', { name: 'Customers', exact: true }).click();
      await page.getByRole('link', { name: 'grace@example.com' }).click();
      await page.getByRole('heading', { name: 'Grace Hopper (grace@example.com)' }).waitFor();
      await page.getByLabel('First name').fill('Amazing Grace');
      await page.getByLabel('Metadata (a JSON object)').fill('not json');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).first().textContent()).toMatch(
        /^Metadata: enter a JSON object/,
      );
      await page.getByLabel('Metadata (a JSON object)').fill('{}');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('heading', { name: 'Amazing Grace Hopper (grace@example.com)' }).waitFor();
      const logged = await eventually(
        async () =>
          (
            await call(
              server,
              'GET',
              `/v1/admin/logs?method=PATCH&path=${encodeURIComponent(`/v1/admin/customers/${grace.id}`)}`,
              SECRET,
            )
          ).body.data[0],
        15_000,
        "the customer's PATCH in the API logs",
      );
      expect(logged.request_body).toEqual({ first_name: 'Amazing Grace' });
      const after = (await call(server, 'GET', `/v1/admin/customers/${grace.id}`, SECRET)).body;
      expect([after.first_name, after.last_name, after.tags]).toEqual(['Amazing Grace', 'Hopper', ['vip']]);
      await page.getByRole('link', { name: 'Customers', exact: true }).click();
      await page.getByRole('row', { name: /^grace@example\.com Amazing Grace Hopper active/ }).waitFor();
      expect(pageErrors).toEqual([]);
    });

    test('Settings: an API key created (its secret shown once works), rotated and revoked; a webhook created, tested, its secret rotated, edited and deleted; a locale added, deactivated and activated, another made the default in place (same id, translations kept), a third deleted', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      await page.getByLabel('Key name').fill('Console key');
      await page.getByLabel('Key type').selectOption('secret');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = page.getByTestId('secret');
      await poll(() => secret.textContent()).toMatch(/^sk_test_/);
      const key = (await secret.textContent())!;
      await page.getByText('Copy it now: it will not be shown again.').waitFor();
      await shot('settings-api-key');
      expect((await call(server, 'GET', '/v1/admin/store', key)).status).toBe(200);

      await page.getByRole('button', { name: 'Rotate Console key' }).click();
      await poll(async () => (await secret.count()) === 1 && (await secret.textContent()) !== key).toBe(true);
      const rotated = (await secret.textContent())!;
      expect(rotated).toMatch(/^sk_test_/);
      expect((await call(server, 'GET', '/v1/admin/store', key)).status).toBe(401);
      expect((await call(server, 'GET', '/v1/admin/store', rotated)).status).toBe(200);
      await page.getByRole('button', { name: 'Revoke Console key' }).click();
      await poll(async () => (await call(server, 'GET', '/v1/admin/store', rotated)).status).toBe(401);
      // A revoked key leaves the list (the API no longer lists it).
      await poll(() => page.getByRole('button', { name: 'Revoke Console key' }).count()).toBe(0);
      const listedKeys = (await call(server, 'GET', '/v1/admin/api-keys?limit=100', SECRET)).body.data;
      expect(listedKeys.map((k: { name: string }) => k.name)).not.toContain('Console key');
      // The page shows the list again, without the secret: it was shown once.
      await poll(() => secret.count()).toBe(0);

      // A webhook: its signing secret shown once, then on its own page tested, rotated, edited, deleted.
      const url = `${receiver.base}/console-hook`;
      await page.getByLabel('Endpoint URL').fill(url);
      // An event type the API does not know: its 400 message, shown as it is.
      await page.getByLabel('Events').fill('order.created, order.paid');
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const unknown = await call(server, 'POST', '/v1/admin/webhooks', SECRET, {
        url,
        events: ['order.created', 'order.paid'],
        is_active: true,
      });
      expect(unknown.status).toBe(400);
      await poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).first().textContent()).toBe(
        unknown.body.error.message,
      );
      await page.getByLabel('Events').fill('order.created, payment.completed');
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await poll(() => secret.textContent()).toMatch(/^whsec_/);
      const signing = (await secret.textContent())!;
      const hooks = (await call(server, 'GET', '/v1/admin/webhooks', SECRET)).body.data;
      const hook = hooks.find((w: { url: string }) => w.url === url);
      expect([hook.events, hook.is_active, hook.secret]).toEqual([
        ['order.created', 'payment.completed'],
        true,
        null,
      ]);
      await page.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { name: url, exact: true }).waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Test event delivered\. The endpoint answered 200 after \d+ ms\.$/ })
        .waitFor();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await poll(async () => (await secret.count()) === 1 && (await secret.textContent()) !== signing).toBe(
        true,
      );
      expect(await secret.textContent()).toMatch(/^whsec_/);
      await page.getByLabel('Endpoint URL').fill(`${url}-2`);
      await page.getByLabel('Events').fill('*');
      await page.getByLabel('Active (receives deliveries)').uncheck();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('heading', { name: `${url}-2`, exact: true }).waitFor();
      await shot('webhook');
      const edited = (await call(server, 'GET', `/v1/admin/webhooks/${hook.id}`, SECRET)).body;
      expect([edited.url, edited.events, edited.is_active]).toEqual([`${url}-2`, ['*'], false]);
      await page.getByRole('button', { name: 'Delete webhook' }).click();
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      expect(await page.getByRole('link', { name: `${url}-2` }).count()).toBe(0);
      expect((await call(server, 'GET', `/v1/admin/webhooks/${hook.id}`, SECRET)).status).toBe(404);

      // Locales (en, the default, and fr with the product's French translations come from the regions
      // test): de added, deactivated and activated again; fr made the default in place (same id, its
      // translations kept); en deleted.
      type Locale = { id: string; locale: string; is_default: boolean; is_active: boolean };
      const localeRecords = async () =>
        (await call(server, 'GET', '/v1/admin/locales', SECRET)).body.data as Locale[];
      const locales = async () => (await localeRecords()).map((l) => [l.locale, l.is_default, l.is_active]);
      const fr = (await localeRecords()).find((l) => l.locale === 'fr') as Locale;
      const tee = (await call(server, 'GET', '/v1/admin/products?q=Console', SECRET)).body.data[0];
      const frenchOfTee = async () =>
        (await call(server, 'GET', `/v1/admin/translations/product/${tee.id}?locale=fr`, SECRET)).body.data;
      const french = await frenchOfTee();
      expect(french.map((t: { field: string }) => t.field)).toEqual(['description', 'name']);

      await page.getByLabel('Locale tag').fill('de');
      await page.getByLabel('Locale name').fill('Deutsch');
      await page.getByRole('button', { name: 'Add locale' }).click();
      await page.getByRole('row', { name: /^de Deutsch\s+active Make Deutsch/ }).waitFor();
      await page.getByRole('button', { name: 'Deactivate Deutsch (de)' }).click();
      await page.getByRole('row', { name: /^de Deutsch\s+inactive Activate Deutsch/ }).waitFor();
      expect((await call(server, 'GET', '/v1/storefront/products?locale=de', PUBLISHABLE)).status).toBe(404);
      await page.getByRole('button', { name: 'Activate Deutsch (de)' }).click();
      await page.getByRole('row', { name: /^de Deutsch\s+active Make Deutsch/ }).waitFor();
      expect((await call(server, 'GET', '/v1/storefront/products?locale=de', PUBLISHABLE)).status).toBe(200);

      await page.getByRole('button', { name: 'Make Français (fr) the default' }).click();
      await page.getByRole('row', { name: /^fr Français yes active Delete/ }).waitFor();
      // The default offers neither "Make default" nor "Deactivate" (the API keeps it active).
      expect(await page.getByRole('button', { name: 'Deactivate Français (fr)' }).count()).toBe(0);
      expect(await locales()).toEqual([
        ['en', false, true],
        ['fr', true, true],
        ['de', false, true],
      ]);
      expect((await localeRecords()).find((l) => l.locale === 'fr')).toEqual({ ...fr, is_default: true });
      expect(await frenchOfTee()).toEqual(french);
      await page
        .getByRole('row', { name: /^en English/ })
        .getByRole('button', { name: 'Delete' })
        .click();
      await poll(() => page.getByRole('row', { name: /^en English/ }).count()).toBe(0);
      expect(await locales()).toEqual([
        ['fr', true, true],
        ['de', false, true],
      ]);
      await shot('settings-locales');
      // The storefront reads in the new default: its Content-Language.
      const storefront = await call(server, 'GET', '/v1/storefront/products?limit=1', PUBLISHABLE);
      expect(storefront.headers.get('content-language')).toBe('fr');
      expect(pageErrors).toEqual([]);
    });
  });
}
