import type { Clock } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/** A JSON body of the API under test (checked against the route's schema by the harness). */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

/**
 * Shipping methods over real HTTP (docs/contract.md#shipping-methods, #shipping-price): admin CRUD, money inputs, the admin list's
 * filter, sorts and pages, the storefront list (active only, by position, also under
 * `/v1/storefront/shipping_methods`), mode isolation and key kinds.
 */

const usd = (amount: number) => ({ amount, currency: 'USD' });

/** Distinct `created_at` for methods created one after another (deterministic default sort). */
function tickingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}
const engineOptions = { clock: tickingClock() };

async function createMethod(api: TestApi, body: Record<string, unknown>, key?: string): Promise<Body> {
  const res = await api.post('/v1/admin/shipping-methods', body, key === undefined ? {} : { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describeApi(
  'shipping methods: admin',
  (api) => {
    test('create: defaults (active, position 0, no threshold, empty metadata); integer and Money inputs', async () => {
      const standard = await createMethod(api(), { name: 'Standard', price: 499 });
      expect(standard).toEqual({
        id: expect.stringMatching(/^ship_/),
        name: 'Standard',
        description: null,
        price: usd(499),
        free_shipping_threshold: null,
        is_active: true,
        position: 0,
        metadata: {},
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const express = await createMethod(api(), {
        name: 'Express',
        description: 'Next day',
        price: { amount: 1500, currency: 'USD' },
        free_shipping_threshold: { amount: 10000 },
        is_active: false,
        position: 3,
        metadata: { carrier: 'UPS' },
      });
      expect(express).toMatchObject({
        description: 'Next day',
        price: usd(1500),
        free_shipping_threshold: usd(10000),
        is_active: false,
        position: 3,
        metadata: { carrier: 'UPS' },
      });
      const fetched = await api().get(`/v1/admin/shipping-methods/${express.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(express);
    });

    test('create errors: currency_mismatch 422, unknown field / missing name / bad price / bad position 400', async () => {
      const euro = await api().post('/v1/admin/shipping-methods', {
        name: 'Euro',
        price: { amount: 5, currency: 'EUR' },
      });
      expect(euro.status).toBe(422);
      expect(euro.body.error).toMatchObject({ code: 'currency_mismatch', param: 'price' });
      const euroThreshold = await api().post('/v1/admin/shipping-methods', {
        name: 'Euro',
        price: 5,
        free_shipping_threshold: { amount: 5000, currency: 'EUR' },
      });
      expect(euroThreshold.status).toBe(422);
      expect(euroThreshold.body.error).toMatchObject({
        code: 'currency_mismatch',
        param: 'free_shipping_threshold',
      });

      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ name: 'X', price: 5, speed: 'fast' }, 'parameter_unknown', 'speed'],
        [{ price: 5 }, 'parameter_missing', 'name'],
        [{ name: 'X' }, 'parameter_missing', 'price'],
        [{ name: 'X', price: -1 }, 'parameter_invalid', 'price'],
        [{ name: 'X', price: 4.99 }, 'parameter_invalid', 'price'],
        [{ name: 'X', price: '499' }, 'parameter_invalid', 'price'],
        [{ name: 'X', price: 5, position: -1 }, 'parameter_invalid', 'position'],
        [{ name: '   ', price: 5 }, 'parameter_invalid', 'name'],
      ];
      for (const [body, code, param] of cases) {
        const res = await api().post('/v1/admin/shipping-methods', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toMatchObject({ code, param });
      }
    });

    test('PATCH: replaces given fields, metadata whole, null clears the threshold; errors', async () => {
      const method = await createMethod(api(), {
        name: 'Patchable',
        price: 500,
        free_shipping_threshold: 5000,
        metadata: { a: 1, b: 2 },
      });
      const res = await api().patch(`/v1/admin/shipping-methods/${method.id}`, {
        name: 'Patched',
        description: 'Now with words',
        price: 650,
        free_shipping_threshold: null,
        position: 2,
        is_active: false,
        metadata: { c: 3 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: method.id,
        name: 'Patched',
        description: 'Now with words',
        price: usd(650),
        free_shipping_threshold: null,
        position: 2,
        is_active: false,
        metadata: { c: 3 },
        created_at: method.created_at,
      });
      const partial = await api().patch(`/v1/admin/shipping-methods/${method.id}`, {
        free_shipping_threshold: 7500,
      });
      expect(partial.body).toMatchObject({
        name: 'Patched',
        price: usd(650),
        free_shipping_threshold: usd(7500),
      });
      const cleared = await api().patch(`/v1/admin/shipping-methods/${method.id}`, { description: null });
      expect(cleared.body.description).toBeNull();

      const euro = await api().patch(`/v1/admin/shipping-methods/${method.id}`, {
        price: { amount: 1, currency: 'EUR' },
      });
      expect(euro.status).toBe(422);
      expect(euro.body.error).toMatchObject({ code: 'currency_mismatch', param: 'price' });
      const unknown = await api().patch(`/v1/admin/shipping-methods/${method.id}`, { currency: 'USD' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'currency' });
      const missing = await api().patch('/v1/admin/shipping-methods/ship_nope', { name: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    });

    test('DELETE → { id, deleted: true }; then 404 and gone from lists', async () => {
      const method = await createMethod(api(), { name: 'Doomed', price: 1 });
      const res = await api().delete(`/v1/admin/shipping-methods/${method.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: method.id, deleted: true });
      expect((await api().get(`/v1/admin/shipping-methods/${method.id}`)).status).toBe(404);
      expect((await api().patch(`/v1/admin/shipping-methods/${method.id}`, { name: 'x' })).status).toBe(404);
      expect((await api().delete(`/v1/admin/shipping-methods/${method.id}`)).status).toBe(404);
      const list = await api().get('/v1/admin/shipping-methods?limit=100');
      expect(list.body.data.map((m: Body) => m.id)).not.toContain(method.id);
      const storefront = await api().storefront.get('/v1/storefront/shipping-methods?limit=100');
      expect(storefront.body.data.map((m: Body) => m.id)).not.toContain(method.id);
    });

    test('modes are isolated: test methods are 404 to live keys and absent from their lists', async () => {
      const method = await createMethod(api(), { name: 'Test only', price: 1 });
      const live = api().keys.liveSecret;
      expect((await api().get(`/v1/admin/shipping-methods/${method.id}`, { key: live })).status).toBe(404);
      expect(
        (await api().patch(`/v1/admin/shipping-methods/${method.id}`, { name: 'x' }, { key: live })).status,
      ).toBe(404);
      expect((await api().delete(`/v1/admin/shipping-methods/${method.id}`, { key: live })).status).toBe(404);
      const liveMethod = await createMethod(api(), { name: 'Live only', price: 1 }, live);
      expect((await api().get(`/v1/admin/shipping-methods/${liveMethod.id}`)).status).toBe(404);
      const liveList = await api().get('/v1/admin/shipping-methods?limit=100', { key: live });
      expect(liveList.body.data.map((m: Body) => m.id)).toEqual([liveMethod.id]);
      const liveStorefront = await api().get('/v1/storefront/shipping-methods', {
        key: api().keys.livePublishable,
      });
      expect(liveStorefront.body.data.map((m: Body) => m.id)).toEqual([liveMethod.id]);
    });

    test('a publishable key gets 403 on admin routes; no key → 401', async () => {
      const pk = api().keys.publishable;
      const calls = [
        api().post('/v1/admin/shipping-methods', { name: 'x', price: 1 }, { key: pk }),
        api().get('/v1/admin/shipping-methods', { key: pk }),
        api().get('/v1/admin/shipping-methods/ship_x', { key: pk }),
        api().patch('/v1/admin/shipping-methods/ship_x', { name: 'x' }, { key: pk }),
        api().delete('/v1/admin/shipping-methods/ship_x', { key: pk }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
      }
      const anonymous = await api().get('/v1/storefront/shipping-methods', { key: null });
      expect(anonymous.status).toBe(401);
    });
  },
  engineOptions,
);

describeApi(
  'shipping methods: lists',
  (api) => {
    test('admin list: newest first, is_active filter, position sort, starting_after walk, bad values 400', async () => {
      const specs: Array<[string, number, boolean]> = [
        ['Ground', 2, true],
        ['Pickup', 0, true],
        ['Freight', 5, false],
        ['Express', 1, true],
        ['Drone', 4, false],
      ];
      const ids: Record<string, string> = {};
      for (const [name, position, is_active] of specs) {
        ids[name] = (await createMethod(api(), { name, price: 100, position, is_active })).id;
      }
      const names = async (query: string) => {
        const res = await api().get(`/v1/admin/shipping-methods${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total_count).toBe(res.body.data.length);
        return res.body.data.map((m: Body) => m.name);
      };
      expect(await names('')).toEqual(['Drone', 'Express', 'Freight', 'Pickup', 'Ground']);
      expect(await names('?order=asc')).toEqual(['Ground', 'Pickup', 'Freight', 'Express', 'Drone']);
      expect(await names('?sort=position')).toEqual(['Pickup', 'Express', 'Ground', 'Drone', 'Freight']);
      expect(await names('?sort=position&order=desc')).toEqual([
        'Freight',
        'Drone',
        'Ground',
        'Express',
        'Pickup',
      ]);
      expect(await names('?is_active=true&sort=position')).toEqual(['Pickup', 'Express', 'Ground']);
      expect(await names('?is_active=false')).toEqual(['Drone', 'Freight']);

      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/v1/admin/shipping-methods?sort=position&limit=2${cursor ? `&starting_after=${cursor}` : ''}`;
        const page = await api().get(url);
        expect(page.body.total_count).toBe(5);
        walked.push(...page.body.data.map((m: Body) => m.name));
        cursor = page.body.next_cursor;
        expect(cursor === null).toBe(!page.body.has_more);
      } while (cursor !== null);
      expect(walked).toEqual(['Pickup', 'Express', 'Ground', 'Drone', 'Freight']);

      for (const [query, param] of [
        ['is_active=yes', 'is_active'],
        ['sort=price', 'sort'],
        ['order=random', 'order'],
        ['limit=0', 'limit'],
        ['starting_after=ship_unknown', 'starting_after'],
      ] as const) {
        const res = await api().get(`/v1/admin/shipping-methods?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param });
      }
      expect(Object.keys(ids)).toHaveLength(5);
    });

    test('storefront list: active only, by position; alias shipping_methods; sort=created_at; pages; publishable or secret key', async () => {
      const expected = ['Pickup', 'Express', 'Ground'];
      for (const path of ['/v1/storefront/shipping-methods', '/v1/storefront/shipping_methods']) {
        const res = await api().storefront.get(path);
        expect(res.status, path).toBe(200);
        expect(res.body).toMatchObject({ total_count: 3, has_more: false, next_cursor: null });
        expect(res.body.data.map((m: Body) => m.name)).toEqual(expected);
        expect(res.body.data.every((m: Body) => m.is_active)).toBe(true);
      }
      const bySecret = await api().get('/v1/storefront/shipping-methods');
      expect(bySecret.body.data.map((m: Body) => m.name)).toEqual(expected);

      const newest = await api().storefront.get('/v1/storefront/shipping-methods?sort=created_at');
      expect(newest.body.data.map((m: Body) => m.name)).toEqual(['Express', 'Pickup', 'Ground']);
      const reversed = await api().storefront.get('/v1/storefront/shipping-methods?order=desc');
      expect(reversed.body.data.map((m: Body) => m.name)).toEqual(['Ground', 'Express', 'Pickup']);

      const first = await api().storefront.get('/v1/storefront/shipping-methods?limit=2');
      expect(first.body).toMatchObject({ total_count: 3, has_more: true });
      expect(first.body.data.map((m: Body) => m.name)).toEqual(['Pickup', 'Express']);
      const second = await api().storefront.get(
        `/v1/storefront/shipping_methods?limit=2&starting_after=${first.body.next_cursor}`,
      );
      expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(second.body.data.map((m: Body) => m.name)).toEqual(['Ground']);

      // Deactivating hides a method at once; the storefront cannot ask for inactive ones.
      const ground = second.body.data[0].id;
      await api().patch(`/v1/admin/shipping-methods/${ground}`, { is_active: false });
      const after = await api().storefront.get('/v1/storefront/shipping-methods');
      expect(after.body.data.map((m: Body) => m.name)).toEqual(['Pickup', 'Express']);
      const bad = await api().storefront.get('/v1/storefront/shipping-methods?sort=price');
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('sort');
    });
  },
  engineOptions,
);
