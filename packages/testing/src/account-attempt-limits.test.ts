import { type AttemptOrigin, engineInternals, type RateLimitDecision } from '@cartwright/core/internal';
import { afterEach, describe, expect, test } from 'vitest';
import { rejection } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

// The customer-account limits (docs/contract.md#rate-limits, #sign-in) as the account service
// applies them to calls given an origin (what the HTTP API passes), on the in-memory engine with
// limits on and its fake clock: only failures count, per address and per e-mail; reset requests
// have their own per-e-mail budget; the owner's reset is never blocked by the e-mail's failures.

let t: TestEngine;
afterEach(async () => {
  await t?.close();
});

/** An origin at `address` that records the budgets the service shows. */
function from(address: string | undefined): AttemptOrigin & { seen: RateLimitDecision[] } {
  const seen: RateLimitDecision[] = [];
  return { address, observe: (decision) => seen.push(decision), seen };
}

const PASSWORD = 'analytical engine';

async function limited(rules: Parameters<typeof createTestEngine>[0] = {}) {
  t = await createTestEngine({
    rateLimits: { sign_in: { limit: 3, window_seconds: 60 }, ...(rules.rateLimits as object) },
  });
  const accounts = engineInternals(t.engine).accounts;
  const register = async (email: string) => {
    await t.store.customers.register({ email, password: PASSWORD });
    return email;
  };
  const signIn = (email: string, password: string, origin: AttemptOrigin | undefined) =>
    accounts.signIn(t.scope, { email, password }, origin);
  const requestReset = async (email: string, origin: AttemptOrigin | undefined) => {
    const before = t.events.list('customer.password_reset_requested').length;
    expect(await accounts.requestPasswordReset(t.scope, { email }, origin)).toEqual({ success: true });
    return t.events
      .list('customer.password_reset_requested')
      .slice(before)
      .map((e) => e.data.token as string);
  };
  return { accounts, register, signIn, requestReset };
}

describe('customer-account limits (engine, calls with an origin)', () => {
  test('successes never count; three failures spend the address, and the fourth attempt is refused even with the right password', async () => {
    const { register, signIn } = await limited();
    const address = '203.0.113.7';
    for (let i = 0; i < 10; i++) {
      const email = await register(`shopper${i}@example.com`);
      const origin = from(address);
      expect((await signIn(email, PASSWORD, origin)).token).toMatch(/^ct_/);
      expect(origin.seen).toEqual([]);
    }
    for (let i = 0; i < 3; i++) {
      const origin = from(address);
      expect((await rejection(signIn(`nobody${i}@example.com`, 'guess', origin))).code).toBe(
        'invalid_credentials',
      );
      expect(origin.seen.at(-1)).toMatchObject({ allowed: true, limit: 3, remaining: 2 - i });
    }
    const refused = from('203.000.113.007');
    const error = await rejection(signIn('shopper0@example.com', PASSWORD, refused));
    expect(error.code).toBe('rate_limited');
    expect(error.data).toEqual({ retry_after_seconds: 60 });
    expect(refused.seen).toEqual([
      { allowed: false, limit: 3, remaining: 0, reset_seconds: 60, retry_after_seconds: 60 },
    ]);
    // Another address still signs in; the next window starts afresh.
    expect((await signIn('shopper0@example.com', PASSWORD, from('203.0.113.8'))).token).toMatch(/^ct_/);
    t.clock.advance('1m');
    expect((await signIn('shopper0@example.com', PASSWORD, from(address))).token).toMatch(/^ct_/);
  });

  test('failures for one e-mail from many addresses: its sign-in and password change are refused, its reset is not', async () => {
    const { accounts, register, signIn, requestReset } = await limited();
    const email = await register('ada@example.com');
    const session = await signIn(email, PASSWORD, from('198.51.100.1'));
    for (let i = 0; i < 3; i++) {
      expect(
        (await rejection(signIn('ADA@example.com', `guess ${i}`, from(`198.51.100.${10 + i}`)))).code,
      ).toBe('invalid_credentials');
    }
    expect((await rejection(signIn(email, PASSWORD, from('198.51.100.20')))).code).toBe('rate_limited');
    const caller = { customer_id: session.customer.id, token_id: (await tokenId(session.token)) as string };
    expect(
      (
        await rejection(
          accounts.changePassword(
            t.scope,
            caller,
            { current_password: PASSWORD, new_password: 'a new passphrase' },
            from('198.51.100.21'),
          ),
        )
      ).code,
    ).toBe('rate_limited');
    // The owner's way back: a reset token, and a confirmation that signs in.
    const [token] = await requestReset(email, from('198.51.100.22'));
    const reset = await accounts.confirmPasswordReset(
      t.scope,
      { token: token as string, new_password: 'a new passphrase' },
      from('198.51.100.22'),
    );
    expect(reset.customer.email).toBe(email);
    // The same e-mail in the other mode is another account with its own budget.
    const live = { ...t.scope, mode: 'live' as const };
    await engineInternals(t.engine).accounts.register(live, { email, password: PASSWORD });
    expect(
      (
        await engineInternals(t.engine).accounts.signIn(
          live,
          { email, password: PASSWORD },
          from('198.51.100.23'),
        )
      ).token,
    ).toMatch(/^ct_/);
  });

  test('a wrong current password is a failure of the address and of the e-mail', async () => {
    const { accounts, register, signIn } = await limited();
    const email = await register('grace@example.com');
    const session = await signIn(email, PASSWORD, undefined);
    const caller = { customer_id: session.customer.id, token_id: (await tokenId(session.token)) as string };
    for (let i = 0; i < 3; i++) {
      const error = await rejection(
        accounts.changePassword(
          t.scope,
          caller,
          { current_password: `wrong ${i}`, new_password: 'a new passphrase' },
          from(`192.0.2.${i + 1}`),
        ),
      );
      expect([error.code, error.param]).toEqual(['invalid_credentials', 'current_password']);
    }
    expect((await rejection(signIn(email, PASSWORD, from('192.0.2.50')))).code).toBe('rate_limited');
  });

  test('invalid reset tokens are failures of the address only: the e-mail still signs in from elsewhere', async () => {
    const { accounts, register, signIn, requestReset } = await limited();
    const email = await register('alan@example.com');
    const confirm = (token: string, address: string) =>
      accounts.confirmPasswordReset(t.scope, { token, new_password: 'a new passphrase' }, from(address));
    for (const token of ['prt_guessguessguessguess', 'not-a-token', 'prt_anotherguessanother']) {
      expect((await rejection(confirm(token, '203.0.113.50'))).code).toBe('reset_token_invalid');
    }
    const [token] = await requestReset(email, from('203.0.113.50'));
    expect((await rejection(confirm(token as string, '203.0.113.50'))).code).toBe('rate_limited');
    expect((await signIn(email, PASSWORD, from('203.0.113.51'))).token).toMatch(/^ct_/);
    // The refusal claimed nothing: the token still works from another address.
    expect((await confirm(token as string, '203.0.113.51')).customer.email).toBe(email);
  });

  test('reset requests: 3 an hour per e-mail create a token and an event, then nothing until the next hour', async () => {
    const { register, requestReset } = await limited();
    const email = await register('edsger@example.com');
    for (let i = 0; i < 3; i++) expect(await requestReset(email, from(`192.0.2.${i + 1}`))).toHaveLength(1);
    expect(await requestReset(email, from('192.0.2.9'))).toEqual([]);
    expect(await requestReset('EDSGER@example.com', from(undefined))).toEqual([]);
    t.clock.advance('1h');
    expect(await requestReset(email, from('192.0.2.9'))).toHaveLength(1);
  });

  test('without an origin (in process) nothing is limited; with limits off, nothing either', async () => {
    const { register, signIn, requestReset } = await limited();
    const email = await register('barbara@example.com');
    for (let i = 0; i < 5; i++) {
      expect((await rejection(signIn(email, 'guess', undefined))).code).toBe('invalid_credentials');
      expect(await requestReset(email, undefined)).toHaveLength(1);
    }
    expect((await signIn(email, PASSWORD, undefined)).token).toMatch(/^ct_/);
    await t.close();
    t = await createTestEngine();
    const accounts = engineInternals(t.engine).accounts;
    await t.store.customers.register({ email, password: PASSWORD });
    for (let i = 0; i < 5; i++) {
      expect(
        (await rejection(accounts.signIn(t.scope, { email, password: 'guess' }, from('203.0.113.9')))).code,
      ).toBe('invalid_credentials');
    }
    expect(
      (await accounts.signIn(t.scope, { email, password: PASSWORD }, from('203.0.113.9'))).token,
    ).toMatch(/^ct_/);
  });
});

/** The stored id of a customer token (what the HTTP API passes as the caller's `token_id`). */
async function tokenId(token: string): Promise<string | undefined> {
  return (await engineInternals(t.engine).auth.authenticateCustomerToken(t.scope, token)).token_id;
}
