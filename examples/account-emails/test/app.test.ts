import type { AddressInfo } from 'node:net';
import type { Engine } from '@cartwright/core';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app';
import { createStubMailer } from '../src/mailer';
import { sendPasswordResetEmails } from '../src/reset-emails';
import { createShopEngine, PUBLISHABLE_KEY } from '../src/shop';

const RESET_PAGE = 'https://shop.example/account/reset-password';

let engine: Engine;
let server: ServerType;
let baseUrl: string;
const mailer = createStubMailer();

beforeAll(async () => {
  engine = await createShopEngine();
  const app = createApp({ engine, mailer, resetPageUrl: RESET_PAGE });
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await engine.close();
});

/** A storefront request: the publishable key, JSON in and out, an optional customer token. */
async function storefront(method: string, path: string, body?: unknown, customerToken?: string) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${PUBLISHABLE_KEY}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(customerToken && { 'x-customer-token': customerToken }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies checked field by field.
  return { status: res.status, body: (await res.json()) as any };
}

/** Listeners run after the commit, and the mailer in the background: wait until the message is there. */
async function mailTo(email: string) {
  for (let i = 0; i < 100; i++) {
    const messages = mailer.outbox.filter((m) => m.to === email);
    if (messages.length > 0) return messages;
    await new Promise((r) => setTimeout(r, 10));
  }
  return [];
}

describe('password reset e-mails wired in process (Hono + createHonoApp)', () => {
  test('register → request a reset → the stub mailbox has the link → confirm with its token → sign in with the new password', async () => {
    const email = 'ada@example.com';
    const registered = await storefront('POST', '/v1/storefront/customer-auth/register', {
      email,
      password: 'correct horse battery',
      first_name: 'Ada',
    });
    expect(registered.status).toBe(200);

    const requested = await storefront('POST', '/v1/storefront/customers/password-reset', { email });
    expect(requested).toEqual({ status: 200, body: { success: true } });

    const [message, ...more] = await mailTo(email);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ to: email, subject: 'Reset your password' });
    const link = message?.text.match(/https:\/\/\S+/)?.[0] as string;
    expect(link.startsWith(`${RESET_PAGE}?token=prt_`)).toBe(true);
    const token = new URL(link).searchParams.get('token');

    // What the storefront's reset page does with the token and the new password.
    const confirmed = await storefront('POST', '/v1/storefront/customers/password-reset/confirm', {
      token,
      new_password: 'a brand new passphrase',
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.customer.id).toBe(registered.body.customer.id);

    const signedIn = await storefront('POST', '/v1/storefront/customer-auth/login', {
      email,
      password: 'a brand new passphrase',
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.customer.id).toBe(registered.body.customer.id);
    // The old password and the session from before the reset no longer work; the link is used up.
    const oldPassword = await storefront('POST', '/v1/storefront/customer-auth/login', {
      email,
      password: 'correct horse battery',
    });
    expect([oldPassword.status, oldPassword.body.error.code]).toEqual([401, 'invalid_credentials']);
    const oldSession = await storefront(
      'GET',
      '/v1/storefront/customers/me',
      undefined,
      registered.body.token,
    );
    expect([oldSession.status, oldSession.body.error.code]).toEqual([401, 'invalid_customer_token']);
    const reused = await storefront('POST', '/v1/storefront/customers/password-reset/confirm', {
      token,
      new_password: 'yet another passphrase',
    });
    expect([reused.status, reused.body.error.code]).toEqual([422, 'reset_token_invalid']);
  });

  test('an e-mail without an account: the same answer, and no e-mail', async () => {
    const requested = await storefront('POST', '/v1/storefront/customers/password-reset', {
      email: 'nobody@example.com',
    });
    expect(requested).toEqual({ status: 200, body: { success: true } });
    expect(await mailTo('nobody@example.com')).toEqual([]);
  });

  test('a mailer that fails does not fail the request: the error goes to onError', async () => {
    const email = 'grace@example.com';
    expect(
      (
        await storefront('POST', '/v1/storefront/customer-auth/register', {
          email,
          password: 'correct horse battery',
        })
      ).status,
    ).toBe(200);
    const errors: unknown[] = [];
    const off = sendPasswordResetEmails(
      engine,
      { send: async () => Promise.reject(new Error('mail service down')) },
      { resetPageUrl: RESET_PAGE, onError: (error) => errors.push(error) },
    );
    try {
      const requested = await storefront('POST', '/v1/storefront/customers/password-reset', { email });
      expect(requested).toEqual({ status: 200, body: { success: true } });
      for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(errors).toEqual([new Error('mail service down')]);
      // The app's own mailer still sent its link.
      expect(await mailTo(email)).toHaveLength(1);
    } finally {
      off();
    }
  });
});
