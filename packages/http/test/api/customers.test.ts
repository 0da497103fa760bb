import type { EventType } from '@cartwright/core';
import type { EventPayload } from '@cartwright/core/internal';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import { outboxEvent } from './support/outbox';

/**
 * Customers over real HTTP: the admin API (docs/contract.md#customers), the signed-in customer's profile and
 * address book (docs/contract.md#customer-tokens), events in the outbox (docs/contract.md#events), isolation by mode and
 * by customer.
 */

let counter = 0;
const uniqueEmail = (name = 'shopper') => `${name}.${Date.now().toString(36)}.${++counter}@example.com`;

const ADDRESS = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Row',
  city: 'London',
  postal_code: 'N1 9GU',
  country: 'gb',
};

/** Records the events of `type` published while `act` runs, and checks each is in the outbox. */
async function eventsDuring(
  api: TestApi,
  type: EventType,
  act: () => Promise<unknown>,
): Promise<EventPayload[]> {
  const seen: EventPayload[] = [];
  const off = api.engine.events.on(type, (event) => {
    if (event.mode === 'test') seen.push(event);
  });
  try {
    await act();
  } finally {
    off();
  }
  for (const event of seen) {
    const stored = await outboxEvent(api, event.id);
    expect(stored, `event ${event.id} is in the outbox`).not.toBeNull();
    expect(stored?.type).toBe(type);
    expect(stored?.data).toEqual(event.data);
  }
  return seen;
}

async function createCustomer(api: TestApi, body: Record<string, unknown> = {}, key?: string) {
  const r = await api.post('/v1/admin/customers', { email: uniqueEmail(), ...body }, key ? { key } : {});
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: string; email: string; [key: string]: unknown };
}

async function tokenFor(api: TestApi, customerId: string, key?: string): Promise<string> {
  const r = await api.post(`/v1/admin/customers/${customerId}/token`, undefined, key ? { key } : {});
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token as string;
}

/** A customer with a token, ready for the storefront endpoints. */
async function signedIn(api: TestApi, body: Record<string, unknown> = {}) {
  const customer = await createCustomer(api, body);
  return { customer, token: await tokenFor(api, customer.id) };
}

describeApi('customers', (api) => {
  // ------------------------------------------------------------------ admin: create

  test('POST /v1/admin/customers creates a customer with the spec fields and zero totals', async () => {
    const email = uniqueEmail('grace');
    const r = await api().post('/v1/admin/customers', {
      email,
      first_name: 'Grace',
      last_name: 'Hopper',
      phone: '+1 555 0100',
      external_id: 'crm-42',
      tags: ['vip'],
      metadata: { source: 'import' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^cus_/),
      email,
      first_name: 'Grace',
      last_name: 'Hopper',
      phone: '+1 555 0100',
      external_id: 'crm-42',
      status: 'active',
      total_orders: 0,
      total_spent: { amount: 0, currency: 'USD' },
      tags: ['vip'],
      addresses: [],
      metadata: { source: 'import' },
      has_password: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  test('POST /v1/admin/customers leaves optional fields null and may create a disabled customer', async () => {
    const r = await api().post('/v1/admin/customers', { email: uniqueEmail(), status: 'disabled' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      first_name: null,
      last_name: null,
      phone: null,
      external_id: null,
      status: 'disabled',
      tags: [],
      metadata: {},
    });
  });

  test('customer.created is written to the outbox with the customer as data', async () => {
    let created: { id: string } | undefined;
    const events = await eventsDuring(api(), 'customer.created', async () => {
      created = await createCustomer(api(), { first_name: 'Evented' });
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: created?.id, first_name: 'Evented', status: 'active' });
    expect(events[0]?.store_id).toBe(api().scope.store_id);
  });

  test('the same e-mail in another case → 409 duplicate_email on email', async () => {
    const email = uniqueEmail('dup');
    await createCustomer(api(), { email });
    const r = await api().post('/v1/admin/customers', { email: email.toUpperCase() });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ type: 'conflict_error', code: 'duplicate_email', param: 'email' });
  });

  test('the same e-mail in live mode is another customer (uniqueness is per mode)', async () => {
    const email = uniqueEmail('modes');
    await createCustomer(api(), { email });
    const r = await api().post('/v1/admin/customers', { email }, { key: api().keys.liveSecret });
    expect(r.status).toBe(200);
  });

  test('validation: missing email → 400 parameter_missing, bad email and status → parameter_invalid, unknown field → parameter_unknown', async () => {
    const missing = await api().post('/v1/admin/customers', { first_name: 'Nobody' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'email' });

    const badEmail = await api().post('/v1/admin/customers', { email: 'not-an-email' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error).toMatchObject({ code: 'parameter_invalid', param: 'email' });

    const badStatus = await api().post('/v1/admin/customers', { email: uniqueEmail(), status: 'banned' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });

    const unknown = await api().post('/v1/admin/customers', { email: uniqueEmail(), nickname: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'nickname' });
  });

  test('a publishable key on the admin customer endpoints → 403 forbidden', async () => {
    const customer = await createCustomer(api());
    const create = await api().storefront.post('/v1/admin/customers', { email: uniqueEmail() });
    expect(create.status).toBe(403);
    expect(create.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
    for (const r of [
      await api().storefront.get('/v1/admin/customers'),
      await api().storefront.get(`/v1/admin/customers/${customer.id}`),
      await api().storefront.patch(`/v1/admin/customers/${customer.id}`, { first_name: 'X' }),
      await api().storefront.delete(`/v1/admin/customers/${customer.id}`),
      await api().storefront.post(`/v1/admin/customers/${customer.id}/token`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
    }
  });

  // ------------------------------------------------------------------ admin: read, list

  test('GET /v1/admin/customers/{id} returns the customer; unknown id → 404 not_found', async () => {
    const customer = await createCustomer(api(), { first_name: 'Readable' });
    const r = await api().get(`/v1/admin/customers/${customer.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(customer);

    const missing = await api().get('/v1/admin/customers/cus_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
  });

  test('a live-mode customer is 404 for the test key (get, patch, delete, token) and absent from its list', async () => {
    const live = await createCustomer(api(), { first_name: 'LiveOnly' }, api().keys.liveSecret);
    for (const r of [
      await api().get(`/v1/admin/customers/${live.id}`),
      await api().patch(`/v1/admin/customers/${live.id}`, { first_name: 'Hacked' }),
      await api().delete(`/v1/admin/customers/${live.id}`),
      await api().post(`/v1/admin/customers/${live.id}/token`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const list = await api().get(`/v1/admin/customers?q=${encodeURIComponent(live.email)}`);
    expect(list.body.data).toEqual([]);
    const fromLive = await api().get(`/v1/admin/customers/${live.id}`, { key: api().keys.liveSecret });
    expect(fromLive.body.first_name).toBe('LiveOnly');
  });

  test('GET /v1/admin/customers lists newest first with cursor pagination', async () => {
    const tag = `page-${++counter}`;
    const a = await createCustomer(api(), { tags: [tag] });
    const b = await createCustomer(api(), { tags: [tag] });
    const c = await createCustomer(api(), { tags: [tag] });

    // Newest first: created_at desc, id desc as the tie-breaker (two may share a millisecond).
    const newestFirst = [a, b, c]
      .sort((x, y) => String(y.created_at).localeCompare(String(x.created_at)) || y.id.localeCompare(x.id))
      .map((x) => x.id);

    const first = await api().get(`/v1/admin/customers?tag=${tag}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body).toMatchObject({ total_count: 3, has_more: true, next_cursor: newestFirst[1] });

    const second = await api().get(
      `/v1/admin/customers?tag=${tag}&limit=2&starting_after=${first.body.next_cursor}`,
    );
    expect(second.body.data.map((x: { id: string }) => x.id)).toEqual(newestFirst.slice(2));
    expect(second.body).toMatchObject({ total_count: 3, has_more: false, next_cursor: null });

    const ascending = await api().get(`/v1/admin/customers?tag=${tag}&order=asc`);
    expect(ascending.body.data.map((x: { id: string }) => x.id)).toEqual([...newestFirst].reverse());
  });

  test('list filters: q matches name or e-mail partially and case-insensitively; status; tag', async () => {
    const marker = `zq${Date.now().toString(36)}${++counter}`;
    const byName = await createCustomer(api(), { first_name: `Mar${marker}ie` });
    const byEmail = await createCustomer(api(), { email: `${marker}.x@example.com`, status: 'disabled' });
    await createCustomer(api(), { first_name: 'Unrelated' });

    const q = await api().get(`/v1/admin/customers?q=${marker.toUpperCase()}`);
    expect(q.status).toBe(200);
    expect(q.body.data.map((x: { id: string }) => x.id).sort()).toEqual([byName.id, byEmail.id].sort());
    expect(q.body.total_count).toBe(2);

    const disabled = await api().get(`/v1/admin/customers?q=${marker}&status=disabled`);
    expect(disabled.body.data.map((x: { id: string }) => x.id)).toEqual([byEmail.id]);

    const tag = `tag-${marker}`;
    const tagged = await createCustomer(api(), { tags: ['other', tag] });
    const byTag = await api().get(`/v1/admin/customers?tag=${tag}`);
    expect(byTag.body.data.map((x: { id: string }) => x.id)).toEqual([tagged.id]);
  });

  test('list query errors: unknown status → 400 parameter_invalid; limit 0 and 101 → 400', async () => {
    const status = await api().get('/v1/admin/customers?status=banned');
    expect(status.status).toBe(400);
    expect(status.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
    for (const limit of ['0', '101']) {
      const r = await api().get(`/v1/admin/customers?limit=${limit}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    }
  });

  test('list items carry totals and saved addresses like GET', async () => {
    const { customer, token } = await signedIn(api(), { tags: [`withaddr-${++counter}`] });
    await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS, { customerToken: token });
    const list = await api().get(`/v1/admin/customers?q=${encodeURIComponent(customer.email)}`);
    const one = await api().get(`/v1/admin/customers/${customer.id}`);
    expect(list.body.data).toEqual([one.body]);
    expect(one.body.addresses).toHaveLength(1);
  });

  // ------------------------------------------------------------------ admin: update, delete

  test('PATCH /v1/admin/customers/{id} changes fields, replaces metadata and may disable; emits customer.updated', async () => {
    const customer = await createCustomer(api(), { first_name: 'Old', metadata: { a: 1, b: 2 }, phone: '1' });
    let r: Awaited<ReturnType<TestApi['patch']>> | undefined;
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      r = await api().patch(`/v1/admin/customers/${customer.id}`, {
        first_name: 'New',
        phone: null,
        metadata: { c: 3 },
        status: 'disabled',
        tags: ['x', 'y'],
      });
    });
    expect(r?.status).toBe(200);
    expect(r?.body).toMatchObject({
      id: customer.id,
      first_name: 'New',
      phone: null,
      metadata: { c: 3 },
      status: 'disabled',
      tags: ['x', 'y'],
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual(r?.body);

    const back = await api().patch(`/v1/admin/customers/${customer.id}`, { status: 'active' });
    expect(back.body.status).toBe('active');
  });

  test('PATCH that repeats the current values → 200 and no customer.updated', async () => {
    const customer = await createCustomer(api(), { first_name: 'Same', metadata: { k: 'v' } });
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      const r = await api().patch(`/v1/admin/customers/${customer.id}`, {
        first_name: 'Same',
        metadata: { k: 'v' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(customer);
    });
    expect(events).toEqual([]);
  });

  test('PATCH to an e-mail another customer has → 409 duplicate_email; unknown id → 404', async () => {
    const taken = await createCustomer(api());
    const other = await createCustomer(api());
    const r = await api().patch(`/v1/admin/customers/${other.id}`, { email: taken.email.toUpperCase() });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'duplicate_email', param: 'email' });
    expect((await api().get(`/v1/admin/customers/${other.id}`)).body.email).toBe(other.email);

    const missing = await api().patch('/v1/admin/customers/cus_missing', { first_name: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  test('PATCH validation: unknown field → 400 parameter_unknown; bad status → 400 parameter_invalid', async () => {
    const customer = await createCustomer(api());
    const unknown = await api().patch(`/v1/admin/customers/${customer.id}`, { total_orders: 5 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'total_orders' });
    const status = await api().patch(`/v1/admin/customers/${customer.id}`, { status: 'gone' });
    expect(status.status).toBe(400);
    expect(status.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
  });

  test('DELETE /v1/admin/customers/{id} → { id, deleted: true }; then 404, and the e-mail is free again', async () => {
    const customer = await createCustomer(api());
    const r = await api().delete(`/v1/admin/customers/${customer.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: customer.id, deleted: true });

    expect((await api().get(`/v1/admin/customers/${customer.id}`)).status).toBe(404);
    const again = await api().delete(`/v1/admin/customers/${customer.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');

    const reused = await api().post('/v1/admin/customers', { email: customer.email });
    expect(reused.status).toBe(200);
    expect(reused.body.id).not.toBe(customer.id);
  });

  // ------------------------------------------------------------------ storefront profile

  test("GET /v1/storefront/customers/me returns the token's customer, with a publishable or a secret key", async () => {
    const { customer, token } = await signedIn(api(), { first_name: 'Me' });
    const pub = await api().storefront.get('/v1/storefront/customers/me', { customerToken: token });
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual(customer);
    const secret = await api().get('/v1/storefront/customers/me', { customerToken: token });
    expect(secret.status).toBe(200);
    expect(secret.body.id).toBe(customer.id);
  });

  test('storefront customer endpoints without a token → 401 customer_token_required', async () => {
    for (const r of [
      await api().storefront.get('/v1/storefront/customers/me'),
      await api().storefront.patch('/v1/storefront/customers/me', { first_name: 'X' }),
      await api().storefront.get('/v1/storefront/customers/me/addresses'),
      await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS),
      await api().storefront.patch('/v1/storefront/customers/me/addresses/addr_x', ADDRESS),
      await api().storefront.delete('/v1/storefront/customers/me/addresses/addr_x'),
    ]) {
      expect(r.status).toBe(401);
      expect(r.body.error).toMatchObject({ type: 'authentication_error', code: 'customer_token_required' });
    }
  });

  test('PATCH /v1/storefront/customers/me updates the profile; status is accepted but never applied', async () => {
    const { customer, token } = await signedIn(api(), { first_name: 'Before' });
    let r: Awaited<ReturnType<TestApi['patch']>> | undefined;
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      r = await api().storefront.patch(
        '/v1/storefront/customers/me',
        {
          first_name: 'After',
          last_name: 'Person',
          phone: '+44 20',
          tags: ['newsletter'],
          metadata: { size: 'M' },
          status: 'disabled',
        },
        { customerToken: token },
      );
    });
    expect(r?.status).toBe(200);
    expect(r?.body).toMatchObject({
      id: customer.id,
      first_name: 'After',
      last_name: 'Person',
      phone: '+44 20',
      tags: ['newsletter'],
      metadata: { size: 'M' },
      status: 'active',
    });
    expect(events).toHaveLength(1);
    const admin = await api().get(`/v1/admin/customers/${customer.id}`);
    expect(admin.body.status).toBe('active');
    expect(admin.body.first_name).toBe('After');
  });

  test('PATCH /v1/storefront/customers/me with only status → 200, unchanged, no event', async () => {
    const { customer, token } = await signedIn(api());
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      const r = await api().storefront.patch(
        '/v1/storefront/customers/me',
        { status: 'disabled' },
        { customerToken: token },
      );
      expect(r.status).toBe(200);
      expect(r.body).toEqual(customer);
    });
    expect(events).toEqual([]);
  });

  test('PATCH /v1/storefront/customers/me cannot change the e-mail (400 parameter_unknown) nor take a bad status (400)', async () => {
    const { token } = await signedIn(api());
    const email = await api().storefront.patch(
      '/v1/storefront/customers/me',
      { email: uniqueEmail() },
      { customerToken: token },
    );
    expect(email.status).toBe(400);
    expect(email.body.error).toMatchObject({ code: 'parameter_unknown', param: 'email' });
    const status = await api().storefront.patch(
      '/v1/storefront/customers/me',
      { status: 'banned' },
      { customerToken: token },
    );
    expect(status.status).toBe(400);
    expect(status.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
  });

  // ------------------------------------------------------------------ storefront addresses

  test('GET …/me/addresses of a new customer → { data: [] } without paging fields', async () => {
    const { token } = await signedIn(api());
    const r = await api().storefront.get('/v1/storefront/customers/me/addresses', { customerToken: token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [] });
  });

  test('POST …/me/addresses applies defaults (type both, is_default false), upper-cases the country, nulls the rest', async () => {
    const { token } = await signedIn(api());
    const r = await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS, {
      customerToken: token,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^addr_/),
      name: 'Ada Lovelace',
      first_name: null,
      last_name: null,
      company: null,
      line1: '12 Analytical Row',
      line2: null,
      city: 'London',
      state: null,
      postal_code: 'N1 9GU',
      country: 'GB',
      phone: null,
      label: null,
      receiver_name: null,
      type: 'both',
      is_default: false,
      created_at: expect.stringMatching(/^\d{4}-/),
    });
    const list = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: token,
    });
    expect(list.body).toEqual({ data: [r.body] });
  });

  test('address validation: each required field missing → 400 parameter_missing; bad country, type → parameter_invalid; unknown → parameter_unknown', async () => {
    const { token } = await signedIn(api());
    for (const field of ['name', 'line1', 'city', 'postal_code', 'country'] as const) {
      const { [field]: _dropped, ...body } = ADDRESS;
      const r = await api().storefront.post('/v1/storefront/customers/me/addresses', body, {
        customerToken: token,
      });
      expect(r.status, field).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'parameter_missing', param: field });
    }
    const country = await api().storefront.post(
      '/v1/storefront/customers/me/addresses',
      { ...ADDRESS, country: 'XX' },
      { customerToken: token },
    );
    expect(country.status).toBe(400);
    expect(country.body.error).toMatchObject({ code: 'parameter_invalid', param: 'country' });
    const type = await api().storefront.post(
      '/v1/storefront/customers/me/addresses',
      { ...ADDRESS, type: 'home' },
      { customerToken: token },
    );
    expect(type.status).toBe(400);
    expect(type.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
    const unknown = await api().storefront.post(
      '/v1/storefront/customers/me/addresses',
      { ...ADDRESS, floor: 3 },
      { customerToken: token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'floor' });
  });

  test('a new default address clears the previous default', async () => {
    const { token } = await signedIn(api());
    const post = (body: object) =>
      api().storefront.post(
        '/v1/storefront/customers/me/addresses',
        { ...ADDRESS, ...body },
        { customerToken: token },
      );
    const first = await post({ is_default: true, type: 'shipping' });
    expect(first.body).toMatchObject({ is_default: true, type: 'shipping' });
    const second = await post({ is_default: true, line1: '2 Other St', type: 'billing' });
    expect(second.body.is_default).toBe(true);

    const list = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: token,
    });
    const flags = Object.fromEntries(
      list.body.data.map((a: { id: string; is_default: boolean }) => [a.id, a.is_default]),
    );
    expect(flags).toEqual({ [first.body.id]: false, [second.body.id]: true });
  });

  test('PATCH …/me/addresses/{id} updates the address; is_default clears the others; emits customer.updated', async () => {
    const { customer, token } = await signedIn(api());
    const a = await api().storefront.post(
      '/v1/storefront/customers/me/addresses',
      { ...ADDRESS, is_default: true, company: 'Engines Ltd' },
      { customerToken: token },
    );
    const b = await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS, {
      customerToken: token,
    });

    let r: Awaited<ReturnType<TestApi['patch']>> | undefined;
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      r = await api().storefront.patch(
        `/v1/storefront/customers/me/addresses/${b.body.id}`,
        { ...ADDRESS, city: 'Cambridge', state: 'Cambs', type: 'shipping', is_default: true },
        { customerToken: token },
      );
    });
    expect(r?.status).toBe(200);
    expect(r?.body).toMatchObject({
      id: b.body.id,
      city: 'Cambridge',
      state: 'Cambs',
      type: 'shipping',
      is_default: true,
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: customer.id });

    const list = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: token,
    });
    const byId = Object.fromEntries(list.body.data.map((x: { id: string }) => [x.id, x]));
    expect(byId[a.body.id]).toMatchObject({ is_default: false, company: 'Engines Ltd' });
    expect(byId[b.body.id]).toMatchObject({ is_default: true, city: 'Cambridge' });

    // The update is partial (decisions §22): fields left out stay as they are; null clears.
    const kept = await api().storefront.patch(`/v1/storefront/customers/me/addresses/${a.body.id}`, ADDRESS, {
      customerToken: token,
    });
    expect(kept.body).toMatchObject({ company: 'Engines Ltd', is_default: false, type: 'both' });
    const cleared = await api().storefront.patch(
      `/v1/storefront/customers/me/addresses/${a.body.id}`,
      { company: null },
      { customerToken: token },
    );
    expect(cleared.body).toEqual({ ...kept.body, company: null });
  });

  test('PATCH …/me/addresses/{id} is partial; one that would leave the address invalid → 400, nothing changed', async () => {
    const { token } = await signedIn(api());
    const path = (id: string) => `/v1/storefront/customers/me/addresses/${id}`;
    const a = await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS, {
      customerToken: token,
    });
    const r = await api().storefront.patch(path(a.body.id), { city: 'Paris' }, { customerToken: token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...a.body, city: 'Paris' });
    // A first_name without a last_name (the stored address has only a name).
    const half = await api().storefront.patch(
      path(a.body.id),
      { first_name: 'Ada' },
      { customerToken: token },
    );
    expect(half.status).toBe(400);
    expect(half.body.error).toMatchObject({ code: 'parameter_missing', param: 'last_name' });
    // A required field cannot be cleared.
    const cleared = await api().storefront.patch(path(a.body.id), { line1: null }, { customerToken: token });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error).toMatchObject({ code: 'parameter_invalid', param: 'line1' });
    const list = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: token,
    });
    expect(list.body.data).toEqual([r.body]);
  });

  test('DELETE …/me/addresses/{id} → { id, deleted: true }; the address is gone from list and customer', async () => {
    const { customer, token } = await signedIn(api());
    const a = await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS, {
      customerToken: token,
    });
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      const r = await api().storefront.delete(`/v1/storefront/customers/me/addresses/${a.body.id}`, {
        customerToken: token,
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: a.body.id, deleted: true });
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: customer.id, addresses: [] });
    const list = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: token,
    });
    expect(list.body).toEqual({ data: [] });
    const again = await api().storefront.delete(`/v1/storefront/customers/me/addresses/${a.body.id}`, {
      customerToken: token,
    });
    expect(again.status).toBe(404);
  });

  test("another customer's address → 404 on PATCH and DELETE, and it stays unchanged", async () => {
    const owner = await signedIn(api());
    const intruder = await signedIn(api());
    const a = await api().storefront.post('/v1/storefront/customers/me/addresses', ADDRESS, {
      customerToken: owner.token,
    });
    const patch = await api().storefront.patch(
      `/v1/storefront/customers/me/addresses/${a.body.id}`,
      { ...ADDRESS, city: 'Stolen' },
      { customerToken: intruder.token },
    );
    expect(patch.status).toBe(404);
    expect(patch.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
    const del = await api().storefront.delete(`/v1/storefront/customers/me/addresses/${a.body.id}`, {
      customerToken: intruder.token,
    });
    expect(del.status).toBe(404);
    const intruderList = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: intruder.token,
    });
    expect(intruderList.body.data).toEqual([]);
    const ownerList = await api().storefront.get('/v1/storefront/customers/me/addresses', {
      customerToken: owner.token,
    });
    expect(ownerList.body.data).toEqual([a.body]);
  });

  test('the Customer shows saved addresses as plain Address objects (no id, type, default flag)', async () => {
    const { customer, token } = await signedIn(api());
    const events = await eventsDuring(api(), 'customer.updated', async () => {
      await api().storefront.post(
        '/v1/storefront/customers/me/addresses',
        { ...ADDRESS, line2: 'Flat 3', phone: '+44 1', is_default: true, type: 'billing', label: 'Home' },
        { customerToken: token },
      );
    });
    const expected = {
      name: 'Ada Lovelace',
      first_name: null,
      last_name: null,
      company: null,
      line1: '12 Analytical Row',
      line2: 'Flat 3',
      city: 'London',
      state: null,
      postal_code: 'N1 9GU',
      country: 'GB',
      phone: '+44 1',
      label: 'Home',
      receiver_name: null,
    };
    const admin = await api().get(`/v1/admin/customers/${customer.id}`);
    expect(admin.body.addresses).toEqual([expected]);
    const me = await api().storefront.get('/v1/storefront/customers/me', { customerToken: token });
    expect(me.body.addresses).toEqual([expected]);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: customer.id, addresses: [expected] });
  });
});
