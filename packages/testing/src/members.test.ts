import { requiredRoleOf } from '@cartwright/core';
import { operations } from '@cartwright/core/operations';
import { afterEach, describe, expect, test } from 'vitest';
import { expectCode, rejection } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

// Organization members and staff sign-in (decisions §23) through the engine, on the in-memory
// SQLite of createTestEngine with its fake clock driving invitation and session expiry.

let t: TestEngine;
afterEach(async () => {
  await t?.close();
});

function inviteToken(e: TestEngine, email: string): string {
  const event = e.events
    .list('member.invited')
    .filter((ev) => ev.data.email === email)
    .at(-1);
  if (!event) throw new Error(`no invitation for ${email}`);
  return event.data.token;
}

describe('organization members (engine API)', () => {
  test('create: defaults, user_id = id, member.invited with a 7-day token; list newest first', async () => {
    t = await createTestEngine();
    const ada = await t.store.members.create({ email: 'Ada@Example.com' });
    expect(ada).toMatchObject({
      email: 'Ada@Example.com',
      role: 'member',
      user_id: ada.id,
      invited_at: '2025-01-01T00:00:00.000Z',
      accepted_at: null,
    });
    expect(ada.id).toMatch(/^mem_/);
    const grace = await t.store.members.create({
      email: 'grace@example.com',
      user_id: 'auth0|42',
      role: 'admin',
    });
    expect(grace).toMatchObject({ user_id: 'auth0|42', role: 'admin' });
    const event = t.events.last('member.invited');
    expect(event?.data).toMatchObject({ member_id: grace.id, email: 'grace@example.com', role: 'admin' });
    expect(event?.data.token).toMatch(/^mit_/);
    expect(event?.data.expires_at).toBe('2025-01-08T00:00:00.000Z');
    const list = await t.store.members.list({});
    expect(list.data.map((m) => m.id)).toEqual([grace.id, ada.id]);
    expect(list).toMatchObject({ total_count: 2, has_more: false, next_cursor: null });
    const page = await t.store.members.list({ limit: 1 });
    expect(page).toMatchObject({ has_more: true, next_cursor: grace.id });
    expect((await t.store.members.list({ limit: 1, starting_after: grace.id })).data[0]?.id).toBe(ada.id);
    expect(JSON.stringify(list)).not.toMatch(/scrypt|password/);
  });

  test('members are shared by both modes', async () => {
    t = await createTestEngine();
    const ada = await t.store.members.create({ email: 'ada@example.com' });
    const live = t.engine.forStore({ ...t.scope, mode: 'live' });
    expect((await live.members.list({})).data.map((m) => m.id)).toEqual([ada.id]);
  });

  test('409 duplicate_email (any case) and duplicate_user_id; bad input changes nothing', async () => {
    t = await createTestEngine();
    await t.store.members.create({ email: 'ada@example.com', user_id: 'u1' });
    await expectCode(t.store.members.create({ email: 'ADA@example.com' }), 'duplicate_email', 'email');
    await expectCode(
      t.store.members.create({ email: 'b@example.com', user_id: 'u1' }),
      'duplicate_user_id',
      'user_id',
    );
    await expectCode(
      t.store.members.create({ email: 'x@example.com', user_id: 'u'.repeat(256) }),
      'parameter_invalid',
      'user_id',
    );
    await expectCode(
      t.store.members.create({ email: 'x@example.com', role: 'owner' as never }),
      'parameter_invalid',
      'role',
    );
    await expectCode(t.store.members.create({ email: 'not-an-email' }), 'parameter_invalid', 'email');
    await expectCode(t.store.members.update('mem_nope', { role: 'admin' }), 'not_found');
    expect((await t.store.members.list({})).total_count).toBe(1);
    expect(t.events.list('member.invited')).toHaveLength(1);
  });

  test('the last admin can be neither demoted nor removed; with two admins one may go', async () => {
    t = await createTestEngine();
    const a = await t.store.members.create({ email: 'a@example.com', role: 'admin' });
    const m = await t.store.members.create({ email: 'm@example.com' });
    await expectCode(t.store.members.update(a.id, { role: 'member' }), 'last_admin');
    await expectCode(t.store.members.delete(a.id), 'last_admin');
    expect(await t.store.members.delete(m.id)).toEqual({ id: m.id, deleted: true });
    const b = await t.store.members.create({ email: 'b@example.com', role: 'admin' });
    expect((await t.store.members.update(a.id, { role: 'member' })).role).toBe('member');
    await expectCode(t.store.members.delete(b.id), 'last_admin');
    expect((await t.store.members.update(a.id, { role: 'admin' })).role).toBe('admin');
    expect(await t.store.members.delete(b.id)).toEqual({ id: b.id, deleted: true });
  });

  test('two demotions at once never leave zero admins', async () => {
    for (let round = 0; round < 3; round++) {
      const e = await createTestEngine();
      try {
        const a = await e.store.members.create({ email: 'a@example.com', role: 'admin' });
        const b = await e.store.members.create({ email: 'b@example.com', role: 'admin' });
        const results = await Promise.allSettled([
          e.store.members.update(a.id, { role: 'member' }),
          round === 2 ? e.store.members.delete(b.id) : e.store.members.update(b.id, { role: 'member' }),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason.code).toBe('last_admin');
        const admins = (await e.store.members.list({})).data.filter((x) => x.role === 'admin');
        expect(admins).toHaveLength(1);
      } finally {
        await e.close();
      }
    }
  });
});

describe('staff sign-in (engine)', () => {
  test("hostSession: the member of the host's identity (by id or user_id, the host's role), else one described from it", async () => {
    t = await createTestEngine();
    const scope = await t.engine.scopeFor('live');
    const grace = await t.store.members.create({ email: 'grace@example.com', user_id: 'auth0|42' });
    const byUserId = await t.engine.staff.hostSession(scope, { member_id: 'auth0|42', role: 'admin' });
    expect(byUserId).toEqual({ member: { ...grace, role: 'admin' }, expires_at: null });
    const byId = await t.engine.staff.hostSession(scope, { member_id: grace.id, role: 'member' });
    expect(byId.member).toEqual(grace);
    const unknown = await t.engine.staff.hostSession(scope, {
      member_id: 'auth0|7',
      role: 'member',
      email: 'guest@example.com',
    });
    expect(unknown).toEqual({
      member: {
        id: 'auth0|7',
        user_id: 'auth0|7',
        email: 'guest@example.com',
        role: 'member',
        invited_at: null,
        accepted_at: null,
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: '2025-01-01T00:00:00.000Z',
      },
      expires_at: null,
    });
  });

  test('accepting the invitation sets the password and accepted_at, signs in; the token is single-use', async () => {
    t = await createTestEngine();
    const ada = await t.store.members.create({ email: 'ada@example.com', role: 'admin' });
    const token = inviteToken(t, 'ada@example.com');
    t.clock.advance('1h');
    const opened = await t.engine.staff.acceptInvite(t.scope, { token, password: 'analytical engine' });
    expect(opened.token).toMatch(/^sst_/);
    expect(opened.session.member).toMatchObject({ id: ada.id, accepted_at: '2025-01-01T01:00:00.000Z' });
    expect(opened.session.expires_at).toBe('2025-01-01T13:00:00.000Z');
    await expectCode(
      t.engine.staff.acceptInvite(t.scope, { token, password: 'another password' }),
      'invite_token_invalid',
      'token',
    );
    const principal = await t.engine.staff.authenticate(opened.token);
    expect(principal).toMatchObject({ member_id: ada.id, role: 'admin' });
    const again = await t.engine.staff.signIn(t.scope, {
      email: 'ADA@example.com',
      password: 'analytical engine',
    });
    expect(again.session.member.id).toBe(ada.id);
  });

  test('an invitation expires after 7 days; a password may not be the e-mail', async () => {
    t = await createTestEngine();
    await t.store.members.create({ email: 'ada@example.com' });
    const token = inviteToken(t, 'ada@example.com');
    await expectCode(
      t.engine.staff.acceptInvite(t.scope, { token, password: 'ada@example.com' }),
      'parameter_invalid',
      'password',
    );
    t.clock.advance('7d');
    await t.store.members.create({ email: 'bob@example.com' });
    const bob = inviteToken(t, 'bob@example.com');
    t.clock.advance('1ms');
    await expectCode(
      t.engine.staff.acceptInvite(t.scope, { token: bob, password: 'short' }),
      'parameter_invalid',
      'password',
    );
    // The refused attempt rolled back, so Ada's token was not used up; it has expired now.
    await expectCode(
      t.engine.staff.acceptInvite(t.scope, { token, password: 'analytical engine' }),
      'invite_token_invalid',
    );
  });

  test('wrong password, unknown e-mail and a member without a password: one 401', async () => {
    t = await createTestEngine();
    await t.store.members.create({ email: 'ada@example.com' });
    for (const input of [
      { email: 'ada@example.com', password: 'whatever it is' },
      { email: 'nobody@example.com', password: 'whatever it is' },
    ]) {
      const error = await rejection(t.engine.staff.signIn(t.scope, input));
      expect([error.code, error.message]).toEqual(['invalid_credentials', 'Invalid e-mail or password']);
    }
  });

  test('a session lasts 12 hours; signing out or removing the member ends it', async () => {
    t = await createTestEngine();
    await t.store.members.create({ email: 'a@example.com', role: 'admin' });
    const m = await t.store.members.create({ email: 'm@example.com' });
    const admin = await t.engine.staff.acceptInvite(t.scope, {
      token: inviteToken(t, 'a@example.com'),
      password: 'pass word 1',
    });
    const member = await t.engine.staff.acceptInvite(t.scope, {
      token: inviteToken(t, 'm@example.com'),
      password: 'pass word 2',
    });
    const p = await t.engine.staff.authenticate(admin.token);
    await t.engine.staff.authenticate(member.token);
    await t.store.members.delete(m.id);
    await expectCode(t.engine.staff.authenticate(member.token), 'unauthenticated');
    t.clock.advance('11h');
    await t.engine.staff.authenticate(admin.token);
    t.clock.advance('1h');
    await expectCode(t.engine.staff.authenticate(admin.token), 'unauthenticated');
    const fresh = await t.engine.staff.signIn(t.scope, { email: 'a@example.com', password: 'pass word 1' });
    const q = await t.engine.staff.authenticate(fresh.token);
    expect(q.session_id).not.toBe(p.session_id);
    await t.engine.staff.signOut(q.session_id);
    await expectCode(t.engine.staff.authenticate(fresh.token), 'unauthenticated');
    await expectCode(t.engine.staff.authenticate('sst_not_a_real_session_token'), 'unauthenticated');
  });
});

describe('roles on every operation (engine.execute with a staff actor)', () => {
  test('a member is refused exactly the admin-only operations; an admin none', async () => {
    t = await createTestEngine();
    const adminOnly: string[] = [];
    for (const operation of operations) {
      if (operation.auth !== 'secret') continue;
      const params = Object.fromEntries(
        [...operation.http.path.matchAll(/:(\w+)/g)].map((m) => [m[1] as string, 'x_000000000000']),
      );
      const call = async (role: 'admin' | 'member') => {
        try {
          const staff = { member_id: 'mem_1', role };
          await t.engine.execute(operation, { scope: t.scope, staff, params, input: { __probe: 1 } });
          return null;
        } catch (error) {
          return (error as { code?: string }).code ?? 'error';
        }
      };
      const asMember = await call('member');
      const asAdmin = await call('admin');
      expect(asAdmin, operation.name).not.toBe('forbidden');
      if (requiredRoleOf(operation) === 'admin') {
        adminOnly.push(operation.name);
        expect(asMember, operation.name).toBe('forbidden');
      } else {
        expect(asMember, operation.name).not.toBe('forbidden');
      }
    }
    for (const name of [
      'apiKeys.create',
      'webhooks.create',
      'members.create',
      'settings.update',
      'locales.create',
    ]) {
      expect(adminOnly).toContain(name);
    }
    expect(adminOnly).not.toContain('products.create');
  });
});
