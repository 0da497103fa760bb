import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import { type CustomerAuthResponse, HeadlessCommerce } from '@headless-commerce/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  pnpmStart,
  type StartedServer as Started,
  stopServer as stop,
} from '../../../cli/test/support/pnpm-start';
import { API_TARGETS } from '../api/support/targets';
import { expectSdkError, isoDate } from './support';

/**
 * "The SDK's five account methods work against `pnpm start` unmodified": the command
 * of the root `pnpm start` script — `node … packages/cli/dist/bin.js serve`, the built JavaScript,
 * read from package.json here rather than copied — runs as a child process with nothing but
 * environment configuration (a SQLite file, or PostgreSQL; default rate limits and password
 * hashing), and `@headless-commerce/sdk` 0.2.0 drives `customers.register`, `login`,
 * `changePassword`, `requestPasswordReset` and `resetPassword` against it. The reset token comes
 * the way a separate service gets it from the ready-made server: a webhook that names
 * `customer.password_reset_requested`, to a receiver on 127.0.0.1 (loopback webhook URLs need
 * `COMMERCE_ALLOW_PRIVATE_WEBHOOKS=1`), verified with the `standardwebhooks` package.
 *
 * The built JavaScript comes from `pnpm install` (its postinstall `build:js`) or `pnpm build`, as
 * CI runs before the tests; after changing the sources, `pnpm build:js` refreshes it.
 * The SDK's declarations differ from docs/contract.md#customer-accounts in a few places (see `accounts.test.ts`).
 */

const SECRET = 'sk_test_accountsServeSecret000000000001';
const PUBLISHABLE = 'pk_test_accountsServePublishable0000001';

interface Delivery {
  type: string;
  data: { customer_id: string; email: string; token: string; expires_at: string };
  verified: boolean;
}

async function eventually<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// pnpm start serves SQLite and PostgreSQL (the HTTP targets of the run among them).
for (const target of (['sqlite', 'postgres'] as const).filter((t) => API_TARGETS.includes(t))) {
  describe(`the SDK's five account methods against pnpm start [${target}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-accounts-serve-'));
    let server: Started;
    let receiver: Server;
    let receiverUrl: string;
    let webhookSecret = '';
    const deliveries: Delivery[] = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        req.on('end', () => {
          let verified = false;
          try {
            new Webhook(webhookSecret).verify(body, req.headers as Record<string, string>);
            verified = true;
          } catch {
            // recorded as unverified
          }
          const event = JSON.parse(body) as Omit<Delivery, 'verified'>;
          deliveries.push({ type: event.type, data: event.data, verified });
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/reset-mails`;

      let databaseUrl = join(dir, 'shop.db');
      if (target === 'postgres') {
        const serverUrl = inject('cartwrightPgUrl');
        if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
        databaseUrl = await createTestDatabase(serverUrl);
      }
      server = await pnpmStart({
        DATABASE_URL: databaseUrl,
        COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
        COMMERCE_ALLOW_PRIVATE_WEBHOOKS: '1',
      });
    }, 90_000);

    afterAll(async () => {
      if (server) await stop(server.child);
      await new Promise<void>((r) => receiver.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    });

    test('register → login → changePassword → requestPasswordReset (token by webhook) → resetPassword → login', async () => {
      const baseUrl = `${server.url}/v1`;
      const admin = new HeadlessCommerce({ apiKey: SECRET, baseUrl, maxRetries: 0 });
      // A storefront uses the full client with its publishable key: `createStorefrontClient`'s type
      // leaves the account methods out (accounts.test.ts lists the SDK's differences).
      const shopper = (token: string | null = null) => {
        const client = new HeadlessCommerce({ apiKey: PUBLISHABLE, baseUrl, maxRetries: 0 });
        client.setCustomerToken(token);
        return client;
      };

      // The host's mailer subscribes by name (a ["*"] webhook would not receive this event).
      const hook = await admin.webhooks.adminCreate({
        url: receiverUrl,
        events: ['customer.password_reset_requested'],
      });
      webhookSecret = hook.secret as string;
      expect(webhookSecret).toMatch(/^whsec_/);

      const email = `ada.${target}.${Date.now().toString(36)}@example.com`;
      const registered: CustomerAuthResponse = await shopper().customers.register({
        email,
        password: 'correct horse battery',
        first_name: 'Ada',
      });
      expect(registered).toEqual({
        customer: expect.objectContaining({ email, first_name: 'Ada', status: 'active', has_password: true }),
        token: expect.stringMatching(/^ct_/),
        expires_at: isoDate,
      });
      const customerId = registered.customer.id;

      const second = await shopper().customers.login({ email, password: 'correct horse battery' });
      expect(second.customer.id).toBe(customerId);

      // changePassword: 200 Customer (the SDK declares void); the other token stops at once.
      const changed = await shopper(registered.token).customers.changePassword({
        current_password: 'correct horse battery',
        new_password: 'tr0ub4dor & 3 staples',
      });
      expect(changed).toMatchObject({ id: customerId, has_password: true });
      await expectSdkError(shopper(second.token).customers.me(), 401, 'invalid_customer_token');
      expect((await shopper(registered.token).customers.me()).id).toBe(customerId);

      // requestPasswordReset: { success: true } (declared void); the token arrives by webhook.
      expect(await shopper().customers.requestPasswordReset({ email })).toEqual({ success: true });
      const delivery = await eventually(
        () => deliveries.find((d) => d.data.email === email),
        20_000,
        'the customer.password_reset_requested delivery',
      );
      expect(delivery).toEqual({
        type: 'customer.password_reset_requested',
        data: { customer_id: customerId, email, token: expect.stringMatching(/^prt_/), expires_at: isoDate },
        verified: true,
      });
      const validFor = Date.parse(delivery.data.expires_at) - Date.now();
      expect(validFor).toBeGreaterThan(3_600_000 - 120_000);
      expect(validFor).toBeLessThanOrEqual(3_600_000);

      // resetPassword: signed in (declared void); every earlier token revoked.
      const reset = (await shopper().customers.resetPassword({
        token: delivery.data.token,
        new_password: 'a brand new passphrase',
      })) as unknown as CustomerAuthResponse;
      expect(reset).toMatchObject({ customer: { id: customerId }, token: expect.stringMatching(/^ct_/) });
      await expectSdkError(shopper(registered.token).customers.me(), 401, 'invalid_customer_token');
      expect((await shopper(reset.token).customers.me()).id).toBe(customerId);

      // login again, with the new password only.
      await expectSdkError(
        shopper().customers.login({ email, password: 'tr0ub4dor & 3 staples' }),
        401,
        'invalid_credentials',
      );
      const again = await shopper().customers.login({ email, password: 'a brand new passphrase' });
      expect(again.customer.id).toBe(customerId);

      // One delivery only, and the server logged no error.
      expect(deliveries.filter((d) => d.data.email === email)).toHaveLength(1);
      expect(server.output()).not.toMatch(/"level":50/);
    });
  });
}
