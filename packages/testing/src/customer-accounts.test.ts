import { type CommerceError, createEngine, DEFAULT_PASSWORD_HASH_PARAMS } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { rejection } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

// Customer accounts through the engine API (docs/contract.md#customer-accounts), on the in-memory SQLite of
// createTestEngine with its fake clock driving token and reset expiry.

let t: TestEngine;
afterEach(async () => {
  await t?.close();
});

/** The reset token the engine handed to in-process listeners for this e-mail. */
function lastResetToken(e: TestEngine, email: string): string {
  const event = e.events
    .list('customer.password_reset_requested')
    .filter((ev) => ev.data.email === email)
    .at(-1);
  if (!event) throw new Error(`no reset requested for ${email}`);
  return event.data.token as string;
}

const ADA = { email: 'ada@example.com', password: 'analytical engine', first_name: 'Ada' };
const ADA_LOGIN = { email: ADA.email, password: ADA.password };

describe('customer accounts (engine API)', () => {
  test('register signs in: a working token, has_password, customer.created', async () => {
    t = await createTestEngine();
    const session = await t.store.customers.register(ADA);
    expect(session.token).toMatch(/^ct_/);
    expect(session.expires_at).toBe('2025-01-02T00:00:00.000Z'); // 24 h on the fake clock
    expect(session.customer).toMatchObject({
      email: 'ada@example.com',
      first_name: 'Ada',
      has_password: true,
      status: 'active',
    });
    expect(JSON.stringify(session.customer)).not.toMatch(/scrypt|password_hash/);
    const principal = await t.engine.auth.authenticateCustomerToken(t.scope, session.token);
    expect(principal.customer_id).toBe(session.customer.id);
    expect(t.events.types()).toEqual(['customer.created']);
  });

  test('register refuses a taken e-mail (any case, also an admin-made customer) and bad passwords', async () => {
    t = await createTestEngine();
    await t.store.customers.create({ email: 'grace@example.com' });
    expect(
      (await rejection(t.store.customers.register({ email: 'GRACE@example.com', password: 'cobol rules!' })))
        .code,
    ).toBe('duplicate_email');
    const short = await rejection(t.store.customers.register({ email: 'x@example.com', password: 'short' }));
    expect([short.code, short.param]).toEqual(['parameter_invalid', 'password']);
    const long = await rejection(
      t.store.customers.register({ email: 'x@example.com', password: 'x'.repeat(129) }),
    );
    expect([long.code, long.param]).toEqual(['parameter_invalid', 'password']);
    const email = await rejection(
      t.store.customers.register({ email: 'Same@Example.com', password: 'same@example.com' }),
    );
    expect([email.code, email.param]).toEqual(['parameter_invalid', 'password']);
    expect((await t.store.customers.list()).data).toHaveLength(1);
  });

  test('sign-in: right password → session; wrong password and unknown e-mail → the same invalid_credentials', async () => {
    t = await createTestEngine();
    const { customer } = await t.store.customers.register(ADA);
    const session = await t.store.customers.signIn({ email: 'ADA@example.com', password: ADA.password });
    expect(session.customer.id).toBe(customer.id);
    const wrong = await rejection(
      t.store.customers.signIn({ email: ADA.email, password: 'analytical enginE' }),
    );
    const unknown = await rejection(
      t.store.customers.signIn({ email: 'nobody@example.com', password: ADA.password }),
    );
    expect([wrong.code, wrong.message, wrong.param]).toEqual([unknown.code, unknown.message, unknown.param]);
    expect(wrong.code).toBe('invalid_credentials');
    // A customer without a password cannot sign in, and is told the same.
    await t.store.customers.create({ email: 'nopass@example.com' });
    const none = await rejection(
      t.store.customers.signIn({ email: 'nopass@example.com', password: 'anything at all' }),
    );
    expect([none.code, none.message]).toEqual([wrong.code, wrong.message]);
  });

  test('a disabled customer is told so only with the right password', async () => {
    t = await createTestEngine();
    const { customer } = await t.store.customers.register(ADA);
    await t.store.customers.update(customer.id, { status: 'disabled' });
    expect(
      (await rejection(t.store.customers.signIn({ email: ADA.email, password: 'wrong password' }))).code,
    ).toBe('invalid_credentials');
    expect((await rejection(t.store.customers.signIn(ADA_LOGIN))).code).toBe('customer_disabled');
  });

  test('tokens expire on the fake clock after 24 hours', async () => {
    t = await createTestEngine();
    const { token } = await t.store.customers.register(ADA);
    t.clock.advance('23h');
    await t.engine.auth.authenticateCustomerToken(t.scope, token);
    t.clock.advance('1h');
    expect((await rejection(t.engine.auth.authenticateCustomerToken(t.scope, token))).code).toBe(
      'invalid_customer_token',
    );
  });

  test('sign-out revokes that token only', async () => {
    t = await createTestEngine();
    const first = await t.store.customers.register(ADA);
    const second = await t.store.customers.signIn(ADA_LOGIN);
    expect(await t.store.customers.signOut(first.token)).toEqual({ success: true });
    expect((await rejection(t.engine.auth.authenticateCustomerToken(t.scope, first.token))).code).toBe(
      'invalid_customer_token',
    );
    await t.engine.auth.authenticateCustomerToken(t.scope, second.token);
  });

  test('password change: wrong current → invalid_credentials on current_password; success keeps only the caller signed in', async () => {
    t = await createTestEngine();
    const mine = await t.store.customers.register(ADA);
    const other = await t.store.customers.signIn(ADA_LOGIN);
    const admin = await t.store.customers.issueToken(mine.customer.id);
    const wrong = await rejection(
      t.store.customers.changePassword(mine.token, {
        current_password: 'nope nope',
        new_password: 'difference engine',
      }),
    );
    expect([wrong.code, wrong.param]).toEqual(['invalid_credentials', 'current_password']);
    const asEmail = await rejection(
      t.store.customers.changePassword(mine.token, {
        current_password: ADA.password,
        new_password: ADA.email,
      }),
    );
    expect([asEmail.code, asEmail.param]).toEqual(['parameter_invalid', 'new_password']);

    const customer = await t.store.customers.changePassword(mine.token, {
      current_password: ADA.password,
      new_password: 'difference engine',
    });
    expect(customer).toMatchObject({ id: mine.customer.id, has_password: true });
    await t.engine.auth.authenticateCustomerToken(t.scope, mine.token);
    for (const revoked of [other.token, admin.token]) {
      expect((await rejection(t.engine.auth.authenticateCustomerToken(t.scope, revoked))).code).toBe(
        'invalid_customer_token',
      );
    }
    expect((await rejection(t.store.customers.signIn(ADA_LOGIN))).code).toBe('invalid_credentials');
    await t.store.customers.signIn({ email: ADA.email, password: 'difference engine' });
  });

  test('reset: always success; a single-use token through the event; a newer request voids the older', async () => {
    t = await createTestEngine();
    const { customer, token: before } = await t.store.customers.register(ADA);
    expect(await t.store.customers.requestPasswordReset({ email: 'nobody@example.com' })).toEqual({
      success: true,
    });
    expect(t.events.list('customer.password_reset_requested')).toHaveLength(0);

    expect(await t.store.customers.requestPasswordReset({ email: 'ADA@example.com' })).toEqual({
      success: true,
    });
    const older = lastResetToken(t, ADA.email);
    const event = t.events.last('customer.password_reset_requested');
    expect(event?.data).toEqual({
      customer_id: customer.id,
      email: ADA.email,
      token: older,
      expires_at: '2025-01-01T01:00:00.000Z',
    });
    expect(older).toMatch(/^prt_[A-Za-z0-9_-]{43}$/);

    await t.store.customers.requestPasswordReset({ email: ADA.email });
    const newer = lastResetToken(t, ADA.email);
    expect(newer).not.toBe(older);
    const voided = await rejection(
      t.store.customers.resetPassword({ token: older, new_password: 'babbage and co' }),
    );
    expect(voided.code).toBe('reset_token_invalid');

    const session = await t.store.customers.resetPassword({ token: newer, new_password: 'babbage and co' });
    expect(session.customer.id).toBe(customer.id);
    await t.engine.auth.authenticateCustomerToken(t.scope, session.token);
    expect((await rejection(t.engine.auth.authenticateCustomerToken(t.scope, before))).code).toBe(
      'invalid_customer_token',
    );
    expect(
      (await rejection(t.store.customers.resetPassword({ token: newer, new_password: 'again and again' })))
        .code,
    ).toBe('reset_token_invalid');
    await t.store.customers.signIn({ email: ADA.email, password: 'babbage and co' });
  });

  test('a reset token expires after one hour on the fake clock; an expired one stays refused', async () => {
    t = await createTestEngine();
    await t.store.customers.register(ADA);
    await t.store.customers.requestPasswordReset({ email: ADA.email });
    const token = lastResetToken(t, ADA.email);
    t.clock.advance('1h');
    expect(
      (await rejection(t.store.customers.resetPassword({ token, new_password: 'too late now' }))).code,
    ).toBe('reset_token_invalid');
    await t.store.customers.signIn(ADA_LOGIN);
  });

  test('an admin-made customer without a password sets one through reset (customer.updated: has_password)', async () => {
    t = await createTestEngine();
    const created = await t.store.customers.create({ email: 'grace@example.com' });
    expect(created.has_password).toBe(false);
    await t.store.customers.requestPasswordReset({ email: 'grace@example.com' });
    const token = lastResetToken(t, 'grace@example.com');
    t.events.clear();
    const session = await t.store.customers.resetPassword({
      token,
      new_password: 'cobol forever',
    });
    expect(session.customer.has_password).toBe(true);
    expect(t.events.types()).toEqual(['customer.updated']);
    expect(t.events.last('customer.updated')?.data.has_password).toBe(true);
  });

  test('no reset for a disabled customer; a password given at admin creation signs in', async () => {
    t = await createTestEngine();
    const made = await t.store.customers.create({ email: 'grace@example.com', password: 'cobol forever' });
    expect(made.has_password).toBe(true);
    await t.store.customers.signIn({ email: 'grace@example.com', password: 'cobol forever' });
    await t.store.customers.update(made.id, { status: 'disabled' });
    await t.store.customers.requestPasswordReset({ email: 'grace@example.com' });
    expect(t.events.list('customer.password_reset_requested')).toHaveLength(0);
    const asEmail = await rejection(
      t.store.customers.create({ email: 'x@example.com', password: 'X@example.com' }),
    );
    expect([asEmail.code, asEmail.param]).toEqual(['parameter_invalid', 'password']);
  });

  test('deleting a customer voids their reset token', async () => {
    t = await createTestEngine();
    const { customer } = await t.store.customers.register(ADA);
    await t.store.customers.requestPasswordReset({ email: ADA.email });
    const token = lastResetToken(t, ADA.email);
    await t.store.customers.delete(customer.id);
    expect(
      (await rejection(t.store.customers.resetPassword({ token, new_password: 'ghost password' }))).code,
    ).toBe('reset_token_invalid');
  });

  test('a hash made with older parameters is upgraded on the next sign-in', async () => {
    t = await createTestEngine({ passwordHashing: { ln: 6, r: 8, p: 1 } });
    const { customer } = await t.store.customers.register(ADA);
    const stored = async () =>
      (await t.engine.storage.read((tx) => tx.customers.get(t.scope, customer.id)))?.password_hash;
    expect(await stored()).toMatch(/^\$scrypt\$ln=6,/);
    // The same database, a newer engine configuration: sign in once, and the hash is upgraded.
    const newer = await createEngine({
      storage: t.engine.storage,
      migrate: false,
      clock: t.clock,
      passwordHashing: { ln: 7, r: 8, p: 1 },
    });
    const store = newer.forStore(t.scope);
    await store.customers.signIn(ADA_LOGIN);
    expect(await stored()).toMatch(/^\$scrypt\$ln=7,/);
    await store.customers.signIn(ADA_LOGIN);
    expect(DEFAULT_PASSWORD_HASH_PARAMS.ln).toBe(15);
  });

  test('concurrent sign-ups of one e-mail make exactly one account', async () => {
    t = await createTestEngine();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        t.store.customers.register({
          email: i % 2 ? 'Twin@example.com' : 'twin@example.com',
          password: `password ${i}`,
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) =>
      r.status === 'rejected' ? [(r.reason as CommerceError).code] : [],
    );
    expect(ok).toHaveLength(1);
    expect(refused).toEqual(Array(9).fill('duplicate_email'));
  });

  test('concurrent confirmations of one reset token: exactly one succeeds', async () => {
    t = await createTestEngine();
    await t.store.customers.register(ADA);
    await t.store.customers.requestPasswordReset({ email: ADA.email });
    const token = lastResetToken(t, ADA.email);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        t.store.customers.resetPassword({ token, new_password: `new password ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as CommerceError).code] : [])),
    ).toEqual(Array(5).fill('reset_token_invalid'));
  });
});
