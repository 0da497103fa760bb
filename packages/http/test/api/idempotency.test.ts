import { CommerceError, type Scope } from '@cartwright/core';
import { KyselyStorage } from '@cartwright/storage-kysely';
import { expect, test } from 'vitest';
import { statusForCode } from '../../src/status-map';
import { describeApi, type TestApi } from './support/harness';
import { createCustomer, createProduct, expectError, expectStatus, unique } from './support/order-fixtures';

/**
 * `Idempotency-Key` over real HTTP on every engine (docs/contract.md#idempotency): a key is scoped to
 * its caller (store, mode, API key, customer of the customer token); the same JSON value in
 * another key order or formatting is the same body; concurrent requests with one key make one
 * effect; the response is stored in the transaction of the effect, so a request that dies after
 * its effect committed is replayed, and a request whose claim was taken over commits nothing.
 * The harness runs with `validateResponses`, so every keyed request here also checks that the
 * response stored with its effect is the one it sent (pipeline.ts `checkCommitted`).
 */

async function ordersByEmail(api: TestApi, email: string) {
  const list = expectStatus(
    await api.get(`/v1/admin/orders?email=${encodeURIComponent(email)}&limit=100`),
    200,
  );
  return list.body.data as Array<{ id: string; status: string }>;
}

describeApi('idempotency keys', (api) => {
  test('a key is scoped to its caller: a secret key’s cart for customer X is not replayed to a publishable key', async () => {
    const x = await createCustomer(api());
    const key = unique('idem-cart-');
    const body = { customer_id: x.id, metadata: { via: 'admin' } };
    const created = expectStatus(
      await api().post('/v1/storefront/carts', body, { idempotencyKey: key }),
      200,
    );
    expect(created.body.customer_id).toBe(x.id);
    expect(created.headers.get('idempotent-replayed')).toBeNull();

    // Same key and body, publishable key without a token: a new request, refused by the cart rules.
    const stranger = await api().storefront.post('/v1/storefront/carts', body, { idempotencyKey: key });
    expectError(stranger, 403, 'forbidden');
    expect(stranger.headers.get('idempotent-replayed')).toBeNull();
    expect(JSON.stringify(stranger.body)).not.toContain(created.body.id);

    // The same caller replays.
    const again = await api().post('/v1/storefront/carts', body, { idempotencyKey: key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(created.body.id);

    // X's own token with the publishable key: another caller, so a new cart (not the secret key's).
    const own = await api().storefront.post('/v1/storefront/carts', body, {
      idempotencyKey: key,
      customerToken: x.token,
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
    expect(own.body.id).not.toBe(created.body.id);
    expect(own.body.customer_id).toBe(x.id);
  });

  test('API key create and rotate store their answer with the effect: a keyed retry replays the same key once made, masked', async () => {
    const key = unique('idem-keys');
    const body = { name: 'ci', key_type: 'secret', mode: 'test' };
    const first = expectStatus(await api().post('/v1/admin/api-keys', body, { idempotencyKey: key }), 200);
    const again = expectStatus(await api().post('/v1/admin/api-keys', body, { idempotencyKey: key }), 200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // The replay is the same answer with the new key masked (never stored in plaintext).
    expect(again.body).toEqual({ ...first.body, key: `${first.body.key_prefix}****` });
    const rotateKey = unique('idem-rotate');
    const path = `/v1/admin/api-keys/${first.body.id}/rotate`;
    const rotated = expectStatus(await api().post(path, {}, { idempotencyKey: rotateKey }), 200);
    const replayed = expectStatus(await api().post(path, {}, { idempotencyKey: rotateKey }), 200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual({ ...rotated.body, key: `${rotated.body.key.slice(0, 12)}****` });
    expect(rotated.body.id).toBe(first.body.id);
    expect(rotated.body.key).not.toBe(first.body.key);
    // Rotated once: the secret first answered is the one that works.
    expect((await api().get('/v1/admin/store', { key: rotated.body.key })).status).toBe(200);
    expect((await api().get('/v1/admin/store', { key: first.body.key })).status).toBe(401);
  });

  test('another customer token is a new request; the same customer (even with a new token) replays', async () => {
    const a = await createCustomer(api());
    const b = await createCustomer(api());
    const key = unique('idem-token-');
    const body = { metadata: { note: 'mine' } };
    const first = expectStatus(
      await api().storefront.post('/v1/storefront/carts', body, {
        idempotencyKey: key,
        customerToken: a.token,
      }),
      200,
    );
    const other = expectStatus(
      await api().storefront.post('/v1/storefront/carts', body, {
        idempotencyKey: key,
        customerToken: b.token,
      }),
      200,
    );
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.id).not.toBe(first.body.id);
    // No token at all: a third caller.
    const anonymous = expectStatus(
      await api().storefront.post('/v1/storefront/carts', body, { idempotencyKey: key }),
      200,
    );
    expect(anonymous.headers.get('idempotent-replayed')).toBeNull();
    expect(new Set([first.body.id, other.body.id, anonymous.body.id]).size).toBe(3);

    const replay = await api().storefront.post('/v1/storefront/carts', body, {
      idempotencyKey: key,
      customerToken: a.token,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // The key is scoped to the customer, not to the token: a fresh sign-in still replays.
    const token2 = expectStatus(await api().post(`/v1/admin/customers/${a.id}/token`, {}), 200).body.token;
    const fresh = await api().storefront.post('/v1/storefront/carts', body, {
      idempotencyKey: key,
      customerToken: token2,
    });
    expect(fresh.headers.get('idempotent-replayed')).toBe('true');
    expect(fresh.body.id).toBe(first.body.id);
  });

  test('the same JSON value with its keys in another order and other whitespace is replayed; another value → 409', async () => {
    const product = await createProduct(api());
    const email = `${unique('order')}@example.com`;
    const key = unique('idem-order-');
    const text = JSON.stringify({
      email,
      status: 'pending',
      lines: [{ variant_id: product.variant_id, quantity: 2 }],
      metadata: { a: 1, b: { c: [1, 2] } },
    });
    const reordered = `{
      "metadata" : { "b" : { "c" : [ 1, 2 ] }, "a" : 1 },
      "lines" : [ { "quantity" : 2, "variant_id" : "${product.variant_id}" } ],
      "status" : "pending", "email" : "${email}"
    }`;
    const json = { 'content-type': 'application/json' };
    const first = expectStatus(
      await api().request('POST', '/v1/admin/orders', { rawBody: text, headers: json, idempotencyKey: key }),
      201,
    );
    const replay = await api().request('POST', '/v1/admin/orders', {
      rawBody: reordered,
      headers: json,
      idempotencyKey: key,
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await ordersByEmail(api(), email)).toHaveLength(1);

    const changed = await api().request('POST', '/v1/admin/orders', {
      rawBody: reordered.replace('"quantity" : 2', '"quantity" : 3'),
      headers: json,
      idempotencyKey: key,
    });
    expectError(changed, 409, 'idempotency_key_reused', 'Idempotency-Key');
  });

  test('12 concurrent requests with one key make one order and all answer it', async () => {
    const product = await createProduct(api(), { on_hand: 50 });
    const email = `${unique('burst')}@example.com`;
    const key = unique('idem-burst-');
    const body = { email, status: 'pending', lines: [{ variant_id: product.variant_id, quantity: 1 }] };
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => api().post('/v1/admin/orders', body, { idempotencyKey: key })),
    );
    for (const r of responses) expectStatus(r, 201);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await ordersByEmail(api(), email)).toHaveLength(1);
    const inventory = expectStatus(await api().get(`/v1/admin/inventory/${product.inventory_id}`), 200).body;
    expect(inventory.reserved).toBe(1);
  });

  test('a checkout with a key stores its answer with the order; a domain error is stored and replayed', async () => {
    const product = await createProduct(api(), { on_hand: 1 });
    const cart = expectStatus(
      await api().storefront.post('/v1/storefront/carts', {
        items: [{ variant_id: product.variant_id, quantity: 1 }],
      }),
      200,
    ).body;
    const body = {
      email: `${unique('co')}@example.com`,
      payment_provider: 'manual',
      shipping_address: ADDRESS,
    };
    const key = unique('idem-co-');
    const order = expectStatus(
      await api().storefront.post(`/v1/storefront/carts/${cart.id}/checkout`, body, { idempotencyKey: key }),
      201,
    );
    const replay = await api().storefront.post(`/v1/storefront/carts/${cart.id}/checkout`, body, {
      idempotencyKey: key,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(order.body);
    // The cart is completed: a new key gets the domain error, which is then replayed as well.
    const key2 = unique('idem-co-');
    const refused = await api().storefront.post(`/v1/storefront/carts/${cart.id}/checkout`, body, {
      idempotencyKey: key2,
    });
    expectError(refused, 409, 'cart_not_active');
    const refusedAgain = await api().storefront.post(`/v1/storefront/carts/${cart.id}/checkout`, body, {
      idempotencyKey: key2,
    });
    expect(refusedAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(refusedAgain.body).toEqual(refused.body);
  });
});

const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

/** The engine's clock: real time plus an offset the tests advance (to expire a claim's lock). */
let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs };

/** What the pipeline supplies: the route's status and JSON, domain errors as their status. */
function render(outcome: { value: unknown } | { error: unknown }) {
  if ('value' in outcome) return { status: 201, body: JSON.stringify(outcome.value) };
  const error = outcome.error;
  if (!CommerceError.is(error) || statusForCode(error.code) >= 500) return null;
  return { status: statusForCode(error.code), body: JSON.stringify({ error: { code: error.code } }) };
}

describeApi(
  'idempotency claims (engine level)',
  (api) => {
    const orderInput = (variant_id: string, email: string) => ({
      lines: [{ variant_id, quantity: 1 }],
      email,
      status: 'pending' as const,
      metadata: {},
    });
    const request = (key: string) => ({
      scope: api().scope,
      caller: { key_id: 'key_test', customer_id: null },
      key,
      request: 'POST /v1/admin/orders',
      bodyHash: 'h',
    });

    test('a request that dies after its effect committed is replayed, not run again (response stored in the effect’s transaction)', async () => {
      const { engine } = api();
      const product = await createProduct(api());
      const email = `${unique('crash')}@example.com`;
      const key = unique('idem-crash-');
      let created: unknown;
      await expect(
        engine.idempotency.run(
          request(key),
          async (requestScope) => {
            created = await engine.orders.create(requestScope, orderInput(product.variant_id, email));
            throw new Error('the process died before answering');
          },
          render,
        ),
      ).rejects.toThrow('the process died');
      const retry = await engine.idempotency.run(
        request(key),
        async () => {
          throw new Error('a retry must not run the request again');
        },
        render,
      );
      expect(retry).toMatchObject({ status: 201, replayed: true });
      expect(JSON.parse(retry.body)).toEqual(JSON.parse(JSON.stringify(created)));
      expect(await ordersByEmail(api(), email)).toHaveLength(1);
    });

    test('a request whose lock expired and was taken over by a retry cannot commit a second effect', async () => {
      const { engine } = api();
      const product = await createProduct(api());
      const email = `${unique('stale')}@example.com`;
      const key = unique('idem-stale-');
      let started!: () => void;
      const claimed = new Promise<void>((resolve) => {
        started = resolve;
      });
      let proceed!: () => void;
      const gate = new Promise<void>((resolve) => {
        proceed = resolve;
      });
      const execute = async (requestScope: Scope) => {
        try {
          const order = await engine.orders.create(requestScope, orderInput(product.variant_id, email));
          return { status: 201, body: JSON.stringify(order) };
        } catch (error) {
          const response = render({ error });
          if (response === null) throw error;
          return response;
        }
      };
      const slow = engine.idempotency.run(
        request(key),
        async (requestScope) => {
          started();
          await gate;
          return execute(requestScope);
        },
        render,
      );
      await claimed;
      offsetMs += 31_000; // past the 30 s lock: the first holder looks dead
      const retry = await engine.idempotency.run(request(key), execute, render);
      expect(retry.status).toBe(201);
      proceed();
      const stale = await slow;
      expect(stale.status).toBe(409);
      expect(JSON.parse(stale.body).error.code).toBe('idempotency_key_in_use');
      const orders = await ordersByEmail(api(), email);
      expect(orders.map((o) => o.id)).toEqual([JSON.parse(retry.body).id]);
      const inventory = expectStatus(
        await api().get(`/v1/admin/inventory/${product.inventory_id}`),
        200,
      ).body;
      expect(inventory.reserved).toBe(1);
      const replay = await engine.idempotency.run(request(key), execute, render);
      expect(replay).toMatchObject({ status: 201, replayed: true, body: retry.body });
    });

    test('keys past their expiry are deleted by the next claim once ten minutes have passed, others stay', async () => {
      const { engine, scope } = api();
      const storage = engine.storage;
      if (!(storage instanceof KyselyStorage)) throw new Error('this test reads a Kysely storage');
      const keysOf = async (keys: string[]) =>
        (
          await storage.db
            .selectFrom('idempotency_keys')
            .select('key')
            .where('store_id', '=', scope.store_id)
            .where('mode', '=', scope.mode)
            .where('key', 'in', keys)
            .execute()
        )
          .map((row) => row.key)
          .sort();
      const answer = async () => ({ status: 201, body: '{}' });
      const old = unique('idem-old-');
      await engine.idempotency.run(request(old), answer, render);
      offsetMs += 12 * 60 * 60 * 1000;
      const recent = unique('idem-recent-');
      await engine.idempotency.run(request(recent), answer, render);
      expect(await keysOf([old, recent])).toEqual([old, recent].sort());
      offsetMs += 13 * 60 * 60 * 1000; // `old` is past its 24 h, `recent` is not
      const trigger = unique('idem-trigger-');
      await engine.idempotency.run(request(trigger), answer, render);
      expect(await keysOf([old, recent, trigger])).toEqual([recent, trigger].sort());
    });
  },
  { clock },
);
