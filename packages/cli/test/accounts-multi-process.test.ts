import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ResetTokenReceiver, startResetTokenReceiver } from './support/reset-token-receiver';
import {
  call,
  DATABASE_TARGETS,
  eventually,
  freshDatabaseUrl,
  type ServeProcess,
  startServers,
  stop,
} from './support/serve-process';

/**
 * "A password change or reset revokes every other token of that customer, at once in every
 * process" (docs/contract.md#password-reset): two `cartwright serve` processes share one database — a
 * SQLite file, or PostgreSQL. A customer signs in several times through process A and every token
 * is used on process B first (so B has seen it); then the password changes, or a reset is
 * confirmed, through A — and B refuses the other tokens on the very next request (401
 * `invalid_customer_token`), while the token that changed the password (or the new session of the
 * reset) works on B. The reset token reaches the test as it reaches a separate service: a webhook
 * that names `customer.password_reset_requested`, to a receiver on 127.0.0.1
 * (`COMMERCE_ALLOW_PRIVATE_WEBHOOKS=1`), delivered by the processes' in-process workers.
 */
const SECRET = 'sk_test_accountsMultiProcess00000000001';
const PUBLISHABLE = 'pk_test_accountsMultiProcess00000000001';
const PASSWORD = 'correct horse battery';

let counter = 0;
const uniqueEmail = (target: string) => `multi.${target}.${Date.now().toString(36)}.${++counter}@example.com`;

for (const target of DATABASE_TARGETS) {
  describe(`customer token revocation across 2 server processes on one ${target} database`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-accounts-'));
    const servers: ServeProcess[] = [];
    let receiver: ResetTokenReceiver;

    beforeAll(async () => {
      receiver = await startResetTokenReceiver();
      // Both processes run their webhook worker ([] = no --no-worker); the default password
      // hashing and rate limits (successful sign-ins are not counted, however many come from one
      // address).
      servers.push(
        ...(await startServers(
          await freshDatabaseUrl(target, dir),
          2,
          {
            COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
            COMMERCE_ALLOW_PRIVATE_WEBHOOKS: '1',
          },
          [],
        )),
      );
      const hook = await call(servers[0]!, 'POST', '/v1/admin/webhooks', SECRET, {
        url: receiver.url,
        events: ['customer.password_reset_requested'],
      });
      expect(hook.status).toBe(200);
    });

    afterAll(async () => {
      await Promise.all(servers.map(stop));
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const me = (server: ServeProcess, token: string) =>
      call(server, 'GET', '/v1/storefront/customers/me', PUBLISHABLE, undefined, {
        'x-customer-token': token,
      });

    /** Registers through A and signs in twice more through A: three tokens, each used on B once. */
    async function signedInThrice(a: ServeProcess, b: ServeProcess) {
      const email = uniqueEmail(target);
      const registered = await call(a, 'POST', '/v1/storefront/customer-auth/register', PUBLISHABLE, {
        email,
        password: PASSWORD,
      });
      expect(registered.status).toBe(200);
      const tokens: string[] = [registered.body.token];
      for (let i = 0; i < 2; i++) {
        const login = await call(a, 'POST', '/v1/storefront/customer-auth/login', PUBLISHABLE, {
          email,
          password: PASSWORD,
        });
        expect(login.status).toBe(200);
        tokens.push(login.body.token);
      }
      for (const token of tokens) expect((await me(b, token)).status).toBe(200);
      return { email, customerId: registered.body.customer.id as string, tokens };
    }

    const expectRefused = async (server: ServeProcess, token: string) => {
      const res = await me(server, token);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_customer_token');
    };

    test('password changed on A with token 1: tokens 0 and 2 → 401 invalid_customer_token on B at once; token 1 still works on B', async () => {
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const { customerId, tokens } = await signedInThrice(a, b);
      const [t0, t1, t2] = tokens as [string, string, string];
      const changed = await call(
        a,
        'POST',
        '/v1/storefront/customers/me/password',
        PUBLISHABLE,
        {
          current_password: PASSWORD,
          new_password: 'tr0ub4dor & 3 staples',
        },
        { 'x-customer-token': t1 },
      );
      expect(changed.status).toBe(200);
      expect(changed.body.id).toBe(customerId);
      await expectRefused(b, t2);
      await expectRefused(b, t0);
      expect((await me(b, t1)).body.id).toBe(customerId);
      await expectRefused(a, t2);
    });

    test('reset confirmed on A: every earlier token → 401 invalid_customer_token on B at once; the new session works on B', async () => {
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const { email, customerId, tokens } = await signedInThrice(a, b);
      const requested = await call(a, 'POST', '/v1/storefront/customers/password-reset', PUBLISHABLE, {
        email,
      });
      expect(requested.body).toEqual({ success: true });
      const resetToken = await eventually(
        async () => receiver.tokens.get(email),
        20_000,
        'the reset token at the webhook receiver',
      );
      expect(resetToken).toMatch(/^prt_/);
      const confirmed = await call(
        a,
        'POST',
        '/v1/storefront/customers/password-reset/confirm',
        PUBLISHABLE,
        { token: resetToken, new_password: 'a brand new passphrase' },
      );
      expect(confirmed.status).toBe(200);
      for (const token of tokens) await expectRefused(b, token);
      expect((await me(b, confirmed.body.token)).body.id).toBe(customerId);
      // Single use, in every process.
      const again = await call(b, 'POST', '/v1/storefront/customers/password-reset/confirm', PUBLISHABLE, {
        token: resetToken,
        new_password: 'yet another passphrase',
      });
      expect(again.status).toBe(422);
      expect(again.body.error.code).toBe('reset_token_invalid');
    });
  });
}
