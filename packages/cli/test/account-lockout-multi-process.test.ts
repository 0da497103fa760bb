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
 * "Guesses from anywhere can slow an account's sign-in but never lock its owner out"
 * (decisions §15, docs/security.md): two `cartwright serve` processes on one database (a SQLite
 * file, or PostgreSQL) with the CLI's default sign-in limit. Wrong passwords from 10 client
 * addresses (named with `Commerce-Buyer-Ip` and the secret key), split over both processes, spend
 * the e-mail's sign-in budget (10 failures; a 24 h window here so that the fixed window cannot end
 * mid-test), so even the right password → 429; the owner still requests a reset
 * on B (200), and confirms it on A (200, signed in, the new token working on both processes)
 * while the guesses go on. The reset token reaches the test as it reaches a mailer: a webhook
 * naming `customer.password_reset_requested`, delivered to a receiver on 127.0.0.1 by the
 * processes' workers (`COMMERCE_ALLOW_PRIVATE_WEBHOOKS=1`).
 */
const SECRET = 'sk_test_accountLockoutMultiProcess00001';
const PUBLISHABLE = 'pk_test_accountLockoutMultiProcess00001';
const PASSWORD = 'correct horse battery';

for (const target of DATABASE_TARGETS) {
  describe(`account lockout across 2 server processes on one ${target} database`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-lockout-'));
    const servers: ServeProcess[] = [];
    let receiver: ResetTokenReceiver;

    beforeAll(async () => {
      receiver = await startResetTokenReceiver();
      // Both processes run their webhook worker ([] = no --no-worker). The sign-in budget keeps the
      // CLI's default limit (10 failures per address and per e-mail) over a 24 h window instead of a
      // minute: windows are fixed, so the test's ~20 s must not straddle a window's end (a minute
      // boundary inside the 10 guesses split them 6 + 4 and let the owner in, on a slow CI run).
      servers.push(
        ...(await startServers(
          await freshDatabaseUrl(target, dir),
          2,
          {
            COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
            COMMERCE_ALLOW_PRIVATE_WEBHOOKS: '1',
            COMMERCE_RATE_LIMIT_SIGN_IN: '10/24h',
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

    /** A sign-in through `server` on behalf of a shopper at `ip` (the secret key's buyer-IP header). */
    const signIn = (server: ServeProcess, email: string, password: string, ip: string) =>
      call(
        server,
        'POST',
        '/v1/storefront/customer-auth/login',
        SECRET,
        { email, password },
        {
          'commerce-buyer-ip': ip,
        },
      );

    test('10 wrong guesses from 10 addresses over both processes → even the right password 429; the reset requested on B and confirmed on A still signs the owner in', {
      timeout: 180_000,
    }, async () => {
      // The 24 h window ends at UTC midnight: a run starting within 90 s of it waits it out.
      const untilMidnight = 86_400_000 - (Date.now() % 86_400_000);
      if (untilMidnight < 90_000) await new Promise((resolve) => setTimeout(resolve, untilMidnight + 1000));
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const email = `owner.${target}.${Date.now().toString(36)}@example.com`;
      const created = await call(a, 'POST', '/v1/admin/customers', SECRET, { email, password: PASSWORD });
      expect(created.status).toBe(200);

      // 10 failures, each from its own address, alternating between the processes.
      for (let i = 0; i < 10; i++) {
        const guess = await signIn(i % 2 === 0 ? a : b, email, `wrong guess ${i}`, `198.51.100.${i + 1}`);
        expect(guess.status, `guess ${i}`).toBe(401);
        expect(guess.body.error.code).toBe('invalid_credentials');
      }
      // The e-mail's budget is spent on both processes: the right password from a fresh address → 429.
      for (const [server, ip] of [
        [a, '203.0.113.7'],
        [b, '203.0.113.8'],
      ] as const) {
        const owner = await signIn(server, email, PASSWORD, ip);
        expect(owner.status).toBe(429);
        expect(owner.body.error.code).toBe('rate_limited');
        expect(owner.headers.get('retry-after')).toMatch(/^\d+$/);
      }

      // The owner asks for a reset on B while the guesses go on on both processes.
      const guesses: Promise<{ status: number }>[] = [];
      const keepGuessing = (n: number) => {
        for (let i = 0; i < n; i++)
          guesses.push(signIn(i % 2 === 0 ? a : b, email, `another guess ${i}`, `198.51.100.${20 + i}`));
      };
      keepGuessing(4);
      const requested = await call(b, 'POST', '/v1/storefront/customers/password-reset', PUBLISHABLE, {
        email,
      });
      expect(requested.status).toBe(200);
      expect(requested.body).toEqual({ success: true });
      const resetToken = await eventually(
        async () => receiver.tokens.get(email),
        20_000,
        'the reset token at the webhook receiver',
      );
      expect(resetToken).toMatch(/^prt_/);

      // Confirmed on A: signed in, while more guesses arrive.
      keepGuessing(4);
      const confirmed = await call(
        a,
        'POST',
        '/v1/storefront/customers/password-reset/confirm',
        PUBLISHABLE,
        { token: resetToken, new_password: 'a brand new passphrase' },
      );
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.token).toEqual(expect.any(String));
      expect(confirmed.body.customer.email).toBe(email);
      for (const server of [a, b]) {
        const me = await call(server, 'GET', '/v1/storefront/customers/me', PUBLISHABLE, undefined, {
          'x-customer-token': confirmed.body.token,
        });
        expect(me.status).toBe(200);
        expect(me.body.email).toBe(email);
      }
      // The guesses were refused all along (the e-mail's budget is still spent): none got in.
      for (const guess of await Promise.all(guesses)) expect(guess.status).toBe(429);
    });
  });
}
