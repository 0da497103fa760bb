import { describe, expect, test } from 'vitest';
import {
  API_TARGETS,
  type ApiResponse,
  describeApi,
  type RequestOptions,
  startApi,
  type TestApi,
} from './support/harness';
import { expectError } from './support/order-fixtures';

/**
 * Organization members and staff sign-in over real HTTP (decisions §23, docs/back-office.md): an
 * invitation's token taken from the in-process `member.invited` event, accepted for a session
 * cookie (HttpOnly, SameSite=Strict, Path=/, Max-Age 12 h, Secure only over https); admin routes
 * with only that cookie; the CSRF header on every state-changing request; the roles; sign-out;
 * one 401 for every wrong credential; the failed-attempt limits; last-admin protection.
 */

const MEMBERS = '/v1/admin/organization/members';
const SESSION = '/v1/admin/session';
const ACCEPT = '/v1/admin/session/accept-invite';
const PASSWORD = 'correct horse battery';
const CSRF = { 'cartwright-csrf': '1' };

let counter = 0;
const uniqueEmail = (name = 'staff') => `${name}.${Date.now().toString(36)}.${++counter}@example.com`;
/** A client address of its own per call site, so the failure limits of one test never touch another. */
let addressCounter = 0;
const nextAddress = () => `198.51.100.${++addressCounter}`;

/** The wire member (the SDK's OrganizationMember). */
interface WireMember {
  id: string;
  user_id: string;
  email: string;
  role: 'admin' | 'member';
  accepted_at: string | null;
}

/** Creates a member with the secret key and answers it with the invitation token of `member.invited`. */
async function invite(
  api: TestApi,
  body: Record<string, unknown>,
): Promise<{ member: WireMember; token: string }> {
  const tokens: { member_id: string; token: string }[] = [];
  const off = api.engine.events.on('member.invited', (event) => {
    tokens.push({ member_id: event.data.member_id, token: event.data.token });
  });
  let res: ApiResponse;
  try {
    res = await api.post(MEMBERS, body);
    for (let i = 0; i < 40 && !tokens.some((t) => t.member_id === res.body?.id); i++)
      await new Promise((r) => setTimeout(r, 5));
  } finally {
    off();
  }
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const found = tokens.find((t) => t.member_id === res.body.id);
  expect(found?.token).toMatch(/^mit_/);
  return { member: res.body, token: (found as { token: string }).token };
}

/** A staff request: no API key, the session cookie, and the headers given. */
function staff(
  api: TestApi,
  method: string,
  path: string,
  cookie: string | null,
  options: RequestOptions = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (cookie !== null) headers.cookie = `cartwright_session=${cookie}`;
  return api.request(method, path, { ...options, key: null, headers });
}

/** The session cookie a response set, with its attributes. */
function setCookie(res: ApiResponse): { token: string; attributes: string[] } {
  const header = res.headers.get('set-cookie');
  expect(header, 'Set-Cookie').not.toBeNull();
  const [pair, ...attributes] = (header as string).split(';').map((s) => s.trim());
  const [name, token] = (pair as string).split('=');
  expect(name).toBe('cartwright_session');
  return { token: token as string, attributes };
}

/** Invites `role`, accepts the invitation, answers the member and its session cookie. */
async function signedIn(api: TestApi, role: 'admin' | 'member', email = uniqueEmail(role)) {
  const { member, token } = await invite(api, { email, role });
  const res = await api.request('POST', ACCEPT, {
    key: null,
    body: { token, password: PASSWORD },
    headers: { ...CSRF, 'x-forwarded-for': nextAddress() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { member, email, cookie: setCookie(res).token };
}

describeApi(
  'staff sign-in: invitation, cookie, CSRF, roles, sign-out, limits',
  (api) => {
    test('accept-invite → 200 { member, expires_at } and the session cookie (HttpOnly, SameSite=Strict, Path=/, Max-Age 12 h, not Secure over http); single use', async () => {
      const email = uniqueEmail('ada');
      const { member, token } = await invite(api(), { email, role: 'admin' });
      expect(member).toMatchObject({ email, role: 'admin', accepted_at: null, user_id: member.id });

      // Without the CSRF header: 403, and the token is still unused.
      const refused = await api().request('POST', ACCEPT, { key: null, body: { token, password: PASSWORD } });
      expectError(refused, 403, 'forbidden');
      expect(refused.headers.get('set-cookie')).toBeNull();

      const res = await api().request('POST', ACCEPT, {
        key: null,
        body: { token, password: PASSWORD },
        headers: CSRF,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'member']);
      expect(res.body.member).toMatchObject({ id: member.id, email, role: 'admin' });
      expect(res.body.member.accepted_at).not.toBeNull();
      const lifetime = Date.parse(res.body.expires_at) - Date.now();
      expect(lifetime).toBeGreaterThan(12 * 3_600_000 - 60_000);
      expect(lifetime).toBeLessThanOrEqual(12 * 3_600_000);
      const cookie = setCookie(res);
      expect(cookie.token).toMatch(/^sst_[A-Za-z0-9_-]{22,}$/);
      expect(cookie.attributes).toEqual(
        expect.arrayContaining(['Path=/', 'Max-Age=43200', 'HttpOnly', 'SameSite=Strict']),
      );
      expect(cookie.attributes).not.toContain('Secure');
      expect(JSON.stringify(res.body)).not.toContain(cookie.token);

      // Who am I.
      const me = await staff(api(), 'GET', SESSION, cookie.token);
      expect(me.status).toBe(200);
      expect(me.body.member.id).toBe(member.id);

      // The token is single use; a made-up one is refused the same way.
      const again = await api().request('POST', ACCEPT, {
        key: null,
        body: { token, password: 'another password 1' },
        headers: CSRF,
      });
      expectError(again, 422, 'invite_token_invalid');
      expectError(
        await api().request('POST', ACCEPT, {
          key: null,
          body: { token: `mit_${'x'.repeat(43)}`, password: PASSWORD },
          headers: CSRF,
        }),
        422,
        'invite_token_invalid',
      );
      // The password set by the invitation signs in.
      const signIn = await api().request('POST', SESSION, {
        key: null,
        body: { email, password: PASSWORD },
        headers: CSRF,
      });
      expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
      expect(setCookie(signIn).token).not.toBe(cookie.token);
    });

    test('admin routes work with only the cookie; Cartwright-Mode: test selects the test mode, live by default', async () => {
      const { cookie } = await signedIn(api(), 'admin');
      const name = `Test-mode product ${Date.now()}`;
      const created = await api().post('/v1/admin/products', { name, status: 'active' }); // test-mode secret key
      expect(created.status, JSON.stringify(created.body)).toBe(200);

      const live = await staff(api(), 'GET', '/v1/admin/products?limit=100', cookie);
      expect(live.status, JSON.stringify(live.body)).toBe(200);
      expect(live.body.data.map((p: { id: string }) => p.id)).not.toContain(created.body.id);

      const test = await staff(api(), 'GET', '/v1/admin/products?limit=100', cookie, {
        headers: { 'cartwright-mode': 'test' },
      });
      expect(test.status).toBe(200);
      expect(test.body.data.map((p: { id: string }) => p.id)).toContain(created.body.id);
      expect(
        (
          await staff(api(), 'GET', `/v1/admin/products/${created.body.id}`, cookie, {
            headers: { 'cartwright-mode': 'test' },
          })
        ).body.name,
      ).toBe(name);

      expectError(
        await staff(api(), 'GET', '/v1/admin/products', cookie, {
          headers: { 'cartwright-mode': 'sandbox' },
        }),
        400,
        'parameter_invalid',
        'Cartwright-Mode',
      );
      // No cookie, or an unknown one: 401.
      expectError(await staff(api(), 'GET', '/v1/admin/products', null), 401, 'unauthenticated');
      expectError(
        await staff(api(), 'GET', '/v1/admin/products', `sst_${'A'.repeat(43)}`),
        401,
        'unauthenticated',
      );
      expectError(await staff(api(), 'GET', SESSION, null), 401, 'unauthenticated');
    });

    test('a state-changing request with the cookie but without Cartwright-Csrf → 403 forbidden and changes nothing', async () => {
      const { cookie } = await signedIn(api(), 'admin');
      const name = `CSRF probe ${Date.now()}`;
      const countNamed = async () =>
        (await api().get('/v1/admin/products?limit=100', { key: api().keys.liveSecret })).body.data.filter(
          (p: { name: string }) => p.name === name,
        ).length;
      const before = await countNamed();
      for (const method of ['POST'] as const) {
        const res = await staff(api(), method, '/v1/admin/products', cookie, { body: { name } });
        expectError(res, 403, 'forbidden');
        expect(res.body.error.message).toContain('Cartwright-Csrf');
      }
      expect(await countNamed()).toBe(before);
      // An empty header is no header.
      expectError(
        await staff(api(), 'POST', '/v1/admin/products', cookie, {
          body: { name },
          headers: { 'cartwright-csrf': ' ' },
        }),
        403,
        'forbidden',
      );
      expect(await countNamed()).toBe(before);
      // With the header it works (live mode: the default of a staff request).
      const ok = await staff(api(), 'POST', '/v1/admin/products', cookie, { body: { name }, headers: CSRF });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(await countNamed()).toBe(before + 1);
      const patch = await staff(api(), 'PATCH', `/v1/admin/products/${ok.body.id}`, cookie, {
        body: { name: `${name} renamed` },
      });
      expectError(patch, 403, 'forbidden');
      const del = await staff(api(), 'DELETE', `/v1/admin/products/${ok.body.id}`, cookie);
      expectError(del, 403, 'forbidden');
      expect(await countNamed()).toBe(before + 1);
      // The sign-in and sign-out routes need it too.
      expectError(await staff(api(), 'DELETE', SESSION, cookie), 403, 'forbidden');
      expect((await staff(api(), 'GET', SESSION, cookie)).status).toBe(200);
    });

    test('a member gets 403 forbidden on keys, webhooks, members, locales and store settings; catalog, orders, returns, customers, discounts are allowed', async () => {
      const { cookie } = await signedIn(api(), 'member');
      const as = (method: string, path: string, body?: unknown) =>
        staff(api(), method, path, cookie, { headers: CSRF, ...(body !== undefined && { body }) });
      const storeBefore = (await api().get('/v1/admin/store', { key: api().keys.liveSecret })).body;
      const refused: [string, string, unknown?][] = [
        ['GET', '/v1/admin/api-keys'],
        ['POST', '/v1/admin/api-keys', { name: 'stolen', type: 'secret' }],
        ['GET', '/v1/admin/webhooks'],
        ['POST', '/v1/admin/webhooks', { url: 'https://example.com/hook', events: ['order.created'] }],
        ['GET', MEMBERS],
        ['POST', MEMBERS, { email: uniqueEmail('sneaky'), role: 'admin' }],
        ['GET', '/v1/admin/locales'],
        ['POST', '/v1/admin/locales', { locale: 'fr-FR' }],
        ['PATCH', '/v1/admin/store', { name: 'Hijacked' }],
        ['PATCH', '/v1/admin/organization', { name: 'Hijacked' }],
      ];
      for (const [method, path, body] of refused) {
        const res = await as(method, path, body);
        expect({ route: `${method} ${path}`, status: res.status, code: res.body?.error?.code }).toEqual({
          route: `${method} ${path}`,
          status: 403,
          code: 'forbidden',
        });
      }
      // Nothing changed.
      expect((await api().get('/v1/admin/store', { key: api().keys.liveSecret })).body).toEqual(storeBefore);
      const members = (await api().get(`${MEMBERS}?limit=100`)).body.data as { email: string }[];
      expect(members.some((m) => m.email.startsWith('sneaky'))).toBe(false);

      for (const path of [
        '/v1/admin/products',
        '/v1/admin/orders',
        '/v1/admin/returns',
        '/v1/admin/customers',
        '/v1/admin/discounts',
        '/v1/admin/inventory',
        '/v1/admin/store',
        '/v1/admin/dashboard/stats',
      ]) {
        const res = await as('GET', path);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
      const product = await as('POST', '/v1/admin/products', { name: 'By a member', status: 'active' });
      expect(product.status, JSON.stringify(product.body)).toBe(200);
      const customer = await as('POST', '/v1/admin/customers', { email: uniqueEmail('shopper') });
      expect(customer.status, JSON.stringify(customer.body)).toBe(200);
    });

    test('sign-out ends the session at once and clears the cookie', async () => {
      const { cookie } = await signedIn(api(), 'admin');
      expect((await staff(api(), 'GET', '/v1/admin/products', cookie)).status).toBe(200);
      const out = await staff(api(), 'DELETE', SESSION, cookie, { headers: CSRF });
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect(out.body).toEqual({ success: true });
      const cleared = setCookie(out);
      expect(cleared.token).toBe('');
      expect(cleared.attributes).toContain('Max-Age=0');
      expectError(await staff(api(), 'GET', '/v1/admin/products', cookie), 401, 'unauthenticated');
      expectError(await staff(api(), 'GET', SESSION, cookie), 401, 'unauthenticated');
      expectError(await staff(api(), 'DELETE', SESSION, cookie, { headers: CSRF }), 401, 'unauthenticated');
    });

    test('removing a member ends its sessions; a new password (a second invitation is not possible) keeps the others working', async () => {
      const { cookie: adminCookie } = await signedIn(api(), 'admin');
      const { member, cookie } = await signedIn(api(), 'member');
      expect((await staff(api(), 'GET', '/v1/admin/orders', cookie)).status).toBe(200);
      const removed = await staff(api(), 'DELETE', `${MEMBERS}/${member.id}`, adminCookie, { headers: CSRF });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(removed.body).toEqual({ id: member.id, deleted: true });
      expectError(await staff(api(), 'GET', '/v1/admin/orders', cookie), 401, 'unauthenticated');
      expect((await staff(api(), 'GET', '/v1/admin/orders', adminCookie)).status).toBe(200);
    });

    test('a wrong password, an unknown e-mail and a member who never accepted all → one 401 invalid_credentials', async () => {
      const { email } = await signedIn(api(), 'member');
      const pending = uniqueEmail('pending');
      await invite(api(), { email: pending });
      const answers: ApiResponse[] = [];
      for (const body of [
        { email, password: 'not the password' },
        { email: uniqueEmail('nobody'), password: PASSWORD },
        { email: pending, password: PASSWORD },
      ]) {
        const res = await api().request('POST', SESSION, {
          key: null,
          body,
          headers: { ...CSRF, 'x-forwarded-for': nextAddress() },
        });
        expectError(res, 401, 'invalid_credentials');
        expect(res.headers.get('set-cookie')).toBeNull();
        answers.push(res);
      }
      const messages = new Set(answers.map((r) => r.body.error.message));
      expect(messages.size).toBe(1);
      // Sign-in without the CSRF header: 403 before any password is checked.
      expectError(
        await api().request('POST', SESSION, { key: null, body: { email, password: PASSWORD } }),
        403,
        'forbidden',
      );
      // Bad input: 400 with its param.
      expectError(
        await api().request('POST', SESSION, {
          key: null,
          body: { email: 'not-an-email', password: 'x' },
          headers: CSRF,
        }),
        400,
        'parameter_invalid',
        'email',
      );
      // The e-mail is matched in any case.
      const ok = await api().request('POST', SESSION, {
        key: null,
        body: { email: email.toUpperCase(), password: PASSWORD },
        headers: { ...CSRF, 'x-forwarded-for': nextAddress() },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    });

    test('failed sign-ins are limited per address and per e-mail (429 rate_limited with Retry-After), successes are not', async () => {
      const { email } = await signedIn(api(), 'member');
      const signIn = (address: string, mail: string, password: string) =>
        api().request('POST', SESSION, {
          key: null,
          body: { email: mail, password },
          headers: { ...CSRF, 'x-forwarded-for': address },
        });
      // Successes never count.
      const friendly = nextAddress();
      for (let i = 0; i < 4; i++) expect((await signIn(friendly, email, PASSWORD)).status).toBe(200);

      // Per address: 3 failures (any e-mail), then even the right password from there is refused.
      const attacker = nextAddress();
      for (let i = 0; i < 3; i++)
        expectError(await signIn(attacker, uniqueEmail('guess'), 'wrong'), 401, 'invalid_credentials');
      const limited = await signIn(attacker, email, PASSWORD);
      expectError(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('set-cookie')).toBeNull();

      // Per e-mail: 3 failures from 3 addresses, then a 4th address is refused for that e-mail only.
      const victim = (await signedIn(api(), 'member')).email;
      for (let i = 0; i < 3; i++)
        expectError(await signIn(nextAddress(), victim, `guess ${i}`), 401, 'invalid_credentials');
      expectError(await signIn(nextAddress(), victim, PASSWORD), 429, 'rate_limited');
      expect((await signIn(nextAddress(), email, PASSWORD)).status).toBe(200);
    });

    test('unknown invitation tokens count as failures of the address', async () => {
      const address = nextAddress();
      const accept = (token: string) =>
        api().request('POST', ACCEPT, {
          key: null,
          body: { token, password: PASSWORD },
          headers: { ...CSRF, 'x-forwarded-for': address },
        });
      for (let i = 0; i < 3; i++)
        expectError(await accept(`mit_${String(i).repeat(43)}`), 422, 'invite_token_invalid');
      const { token } = await invite(api(), { email: uniqueEmail('late') });
      expectError(await accept(token), 429, 'rate_limited');
    });
  },
  {
    rateLimits: { sign_in: { limit: 3, window_seconds: 3600 } },
    passwordHashing: { ln: 10, r: 8, p: 1 },
  },
  { trustProxy: true },
);

describeApi('organization members with a secret key', (api) => {
  test('create → the SDK OrganizationMember; list newest first with total_count; both modes see the same members', async () => {
    const first = await api().post(MEMBERS, { email: 'first@example.com', role: 'admin' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(
      ['accepted_at', 'created_at', 'email', 'id', 'invited_at', 'role', 'updated_at', 'user_id'].sort(),
    );
    expect(first.body).toMatchObject({ role: 'admin', user_id: first.body.id, accepted_at: null });
    expect(first.body.id).toMatch(/^mem_/);
    await new Promise((r) => setTimeout(r, 5));
    const second = await api().post(MEMBERS, { email: 'second@example.com', user_id: 'auth0|second' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ role: 'member', user_id: 'auth0|second' });
    const list = await api().get(MEMBERS);
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body).toMatchObject({ total_count: 2, has_more: false });
    const live = await api().get(MEMBERS, { key: api().keys.liveSecret });
    expect(live.body.data.map((m: { id: string }) => m.id)).toEqual([second.body.id, first.body.id]);
    const page = await api().get(`${MEMBERS}?limit=1`);
    expect(page.body).toMatchObject({ has_more: true });
    expect(page.body.data).toHaveLength(1);
  });

  test('409 duplicate_email (any case) and duplicate_user_id; 400 on bad input; nothing is created', async () => {
    expectError(await api().post(MEMBERS, { email: 'FIRST@example.com' }), 409, 'duplicate_email', 'email');
    expectError(
      await api().post(MEMBERS, { email: 'third@example.com', user_id: 'auth0|second' }),
      409,
      'duplicate_user_id',
      'user_id',
    );
    expectError(
      await api().post(MEMBERS, { email: 'x@example.com', role: 'owner' }),
      400,
      'parameter_invalid',
      'role',
    );
    expectError(await api().post(MEMBERS, { email: 'nope' }), 400, 'parameter_invalid', 'email');
    expect((await api().get(MEMBERS)).body.total_count).toBe(2);
  });

  test('the last admin cannot be removed or demoted (409 last_admin); with a second admin it can', async () => {
    const list = (await api().get(MEMBERS)).body.data as { id: string; role: string; email: string }[];
    const admin = list.find((m) => m.role === 'admin') as { id: string };
    const member = list.find((m) => m.role === 'member') as { id: string };
    expectError(await api().delete(`${MEMBERS}/${admin.id}`), 409, 'last_admin');
    expectError(await api().patch(`${MEMBERS}/${admin.id}`, { role: 'member' }), 409, 'last_admin');
    expect((await api().get(MEMBERS)).body.data.find((m: { id: string }) => m.id === admin.id).role).toBe(
      'admin',
    );
    // Removing or demoting a plain member is fine; an unknown id is 404.
    expectError(await api().delete(`${MEMBERS}/mem_doesnotexist`), 404, 'not_found');
    const promoted = await api().patch(`${MEMBERS}/${member.id}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('admin');
    const demoted = await api().patch(`${MEMBERS}/${admin.id}`, { role: 'member' });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    expectError(await api().delete(`${MEMBERS}/${member.id}`), 409, 'last_admin');
    const removed = await api().delete(`${MEMBERS}/${admin.id}`);
    expect(removed.body).toEqual({ id: admin.id, deleted: true });
    expect((await api().get(MEMBERS)).body.total_count).toBe(1);
  });

  test('a publishable key gets 403', async () => {
    expectError(await api().storefront.get(MEMBERS), 403, 'forbidden');
  });
});

describe.each(API_TARGETS)('staff sign-in: Secure only over https [%s]', (target) => {
  test('X-Forwarded-Proto: https sets Secure behind a trusted proxy, and is ignored without one', async () => {
    for (const trustProxy of [true, false]) {
      const api = await startApi(target, { passwordHashing: { ln: 10, r: 8, p: 1 } }, { trustProxy });
      try {
        const { token } = await invite(api, { email: uniqueEmail('secure'), role: 'admin' });
        const res = await api.request('POST', ACCEPT, {
          key: null,
          body: { token, password: PASSWORD },
          headers: { ...CSRF, 'x-forwarded-proto': 'https' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(setCookie(res).attributes.includes('Secure')).toBe(trustProxy);
      } finally {
        await api.close();
      }
    }
  });
});

describeApi(
  "staff sign-in: the host's authorize hook replaces the cookie",
  (api) => {
    const asHost = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      api().request(method, path, { key: null, headers, ...(body !== undefined && { body }) });

    test('the hook names the identity and role; null → 401; roles and CSRF still apply; a session cookie is never read', async () => {
      expectError(await asHost('GET', '/v1/admin/products', {}), 401, 'unauthenticated');
      const member = { 'x-host-user': 'host|clerk', 'x-host-role': 'member' };
      const admin = { 'x-host-user': 'host|owner', 'x-host-role': 'admin' };
      expect((await asHost('GET', '/v1/admin/orders', member)).status).toBe(200);
      expectError(await asHost('GET', '/v1/admin/api-keys', member), 403, 'forbidden');
      expect((await asHost('GET', '/v1/admin/api-keys', admin)).status).toBe(200);
      // The mode the hook gives wins; else Cartwright-Mode.
      const made = await asHost(
        'POST',
        '/v1/admin/products',
        { ...admin, ...CSRF, 'x-host-mode': 'test' },
        {
          name: 'Made through the hook',
        },
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect((await api().get(`/v1/admin/products/${made.body.id}`)).status).toBe(200); // test-mode key
      expectError(
        await asHost('POST', '/v1/admin/products', admin, { name: 'No CSRF header' }),
        403,
        'forbidden',
      );
      // A staff session cookie means nothing here.
      const { token } = await invite(api(), { email: uniqueEmail('hooked'), role: 'admin' });
      const accepted = await api().request('POST', ACCEPT, {
        key: null,
        body: { token, password: PASSWORD },
        headers: CSRF,
      });
      expect(accepted.status).toBe(200);
      expectError(
        await staff(api(), 'GET', '/v1/admin/products', setCookie(accepted).token),
        401,
        'unauthenticated',
      );
    });

    test("GET /v1/admin/session answers who the hook names: a member by user_id (the hook's role), else one described from the identity; no sign-in → 401", async () => {
      expectError(await asHost('GET', SESSION, {}), 401, 'unauthenticated');
      const email = uniqueEmail('host-known');
      const userId = `host|${email}`;
      const { member } = await invite(api(), { email, user_id: userId, role: 'member' });
      const known = await asHost('GET', SESSION, { 'x-host-user': userId, 'x-host-role': 'admin' });
      expect(known.status, JSON.stringify(known.body)).toBe(200);
      expect(known.body).toEqual({ member: { ...member, role: 'admin' }, expires_at: null });
      // By the member's own id too.
      const byId = await asHost('GET', SESSION, { 'x-host-user': member.id, 'x-host-role': 'member' });
      expect(byId.body.member.id).toBe(member.id);
      expect(byId.body.member.role).toBe('member');
      // No member has the identity: described from the hook.
      const unknown = await asHost('GET', SESSION, {
        'x-host-user': 'host|nobody',
        'x-host-role': 'member',
        'x-host-email': 'nobody@example.com',
      });
      expect(unknown.status).toBe(200);
      expect(unknown.body.expires_at).toBeNull();
      expect(unknown.body.member).toMatchObject({
        id: 'host|nobody',
        user_id: 'host|nobody',
        email: 'nobody@example.com',
        role: 'member',
        invited_at: null,
        accepted_at: null,
      });
    });
  },
  { passwordHashing: { ln: 10, r: 8, p: 1 } },
  {
    authorize: (request) => {
      const user = request.headers.get('x-host-user');
      if (user === null) return null;
      const mode = request.headers.get('x-host-mode');
      const email = request.headers.get('x-host-email');
      return {
        member_id: user,
        ...(email !== null && { email }),
        role: request.headers.get('x-host-role') === 'admin' ? 'admin' : 'member',
        ...(mode === 'test' && { mode: 'test' as const }),
      };
    },
  },
);
