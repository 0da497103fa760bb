import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type Engine } from '@cartwright/core';
import { createAdminConsole, createApiHandler, type StaffAuthorize } from '@cartwright/http';
import { createNodeListener, toRawRequest, writeNodeResponse } from '@cartwright/http/node';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nodeCrypto, openStorage } from '../src/index';
import { chromiumPath } from './support/chromium';

/**
 * The admin console under an embedding host's own login (decisions §23, docs/back-office.md): the
 * host mounts the API with an `authorize` hook (here: its own cookie `host_session=<user>:<role>`)
 * and the console beside it, as docs/back-office.md shows. In Debian's Chromium the console opens
 * signed in — no sign-in page, no sign-out button (the host ends its sessions) — shows who the
 * host says is calling, changes the store as an admin, and keeps a `member` out of the settings.
 */

const OWNER_EMAIL = 'owner@host.example';

const authorize: StaffAuthorize = ({ headers }) => {
  const cookie = /(?:^|;\s*)host_session=([^;]*)/.exec(headers.get('cookie') ?? '')?.[1];
  if (cookie === undefined) return null;
  const [user = '', role] = decodeURIComponent(cookie).split(':');
  return {
    member_id: `host|${user}`,
    role: role === 'admin' ? 'admin' : 'member',
    ...(user === 'owner' && { email: OWNER_EMAIL }),
  };
};

let engine: Engine;
let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  engine = await createEngine({ storage: await openStorage(':memory:'), crypto: nodeCrypto });
  const api = createApiHandler(engine, { authorize });
  const admin = createAdminConsole();
  const apiListener = createNodeListener(api);
  server = createServer(async (req, res) => {
    const raw = toRawRequest(req);
    if (admin.owns(raw.path)) writeNodeResponse(res, await admin.handleRaw(raw));
    else apiListener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await engine?.close();
});

async function signedInAs(session: string) {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'host_session', value: session, url: base }]);
  const page = await context.newPage();
  return { context, page };
}

describe("the admin console under the host's authorize hook", () => {
  test('opens signed in as the host says, without a sign-out; an admin changes the store; a member is kept out of the settings', async () => {
    const { context, page } = await signedInAs('owner:admin');
    await page.goto(`${base}/admin/`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 })
      .toBe('Dashboard');
    expect(await page.getByTestId('who').textContent()).toBe(`${OWNER_EMAIL} (admin)`);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

    await page.goto(`${base}/admin/#/settings`);
    const storeForm = page.locator('form[aria-labelledby="store-title"]');
    await storeForm.getByLabel('Name').fill('Hosted shop');
    await storeForm.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => storeForm.getByRole('status').textContent(), { timeout: 10_000 }).toBe('Saved.');
    const store = await fetch(`${base}/v1/admin/store`, { headers: { cookie: 'host_session=owner:admin' } });
    expect(((await store.json()) as { name: string }).name).toBe('Hosted shop');
    await context.close();

    const clerk = await signedInAs('clerk:member');
    await clerk.page.goto(`${base}/admin/#/settings`);
    await expect
      .poll(() => clerk.page.getByText('Only an admin manages').count(), { timeout: 10_000 })
      .toBe(1);
    expect(await clerk.page.getByTestId('who').textContent()).toBe('host|clerk (member)');
    await clerk.context.close();

    // No host session: the console shows its sign-in page (the API answers 401).
    const anonymous = await browser.newContext();
    const signedOut = await anonymous.newPage();
    await signedOut.goto(`${base}/admin/`);
    await expect
      .poll(() => signedOut.getByRole('button', { name: 'Sign in' }).count(), { timeout: 10_000 })
      .toBe(1);
    await anonymous.close();
  }, 120_000);
});
