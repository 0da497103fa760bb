import { ERROR_CODES } from '@cartwright/core';
import { ERROR_TYPES } from '@cartwright/core/internal';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../src/create-handler';
import { STATUS_BY_CODE } from '../src/status-map';
import { createTestEngine, KEYS, TOKENS } from './support/test-engine';
import { crashMessage, testRoutes } from './support/test-routes';
import { fetchTransport, nodeTransport, streamOf, type Transport } from './support/transports';

const REQUEST_ID = /^req_[0-9a-f]{32}$/;
const secret = { Authorization: `Bearer ${KEYS.secret}` };
const publishable = { Authorization: `Bearer ${KEYS.publishable}` };
const json = { 'Content-Type': 'application/json' };

const onError = vi.fn();
const handler = createHandler(createTestEngine(), { routes: testRoutes, validateResponses: true, onError });

describe.each([
  ['fetch handler', fetchTransport],
  ['node:http', nodeTransport],
])('pipeline over %s', (_name, makeTransport) => {
  let t: Transport;
  beforeAll(async () => {
    t = await makeTransport(handler);
  });
  afterAll(async () => t.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.request(path, {
      method: 'POST',
      headers: { ...secret, ...json, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  describe('success', () => {
    it('GET with a query schema: limit=5&tag=sale is coerced and answered 200 as JSON with a Request-Id', async () => {
      const res = await t.request('/v1/storefront/things?limit=5&tag=sale', { headers: secret });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('request-id')).toMatch(REQUEST_ID);
      expect(res.json).toMatchObject({ limit: 5, tag: 'sale', mode: 'test', key_type: 'secret' });
    });

    it('query defaults apply when absent (limit → 20) and each request gets its own id', async () => {
      const a = await t.request('/v1/storefront/things', { headers: publishable });
      const b = await t.request('/v1/storefront/things', { headers: publishable });
      expect(a.json).toMatchObject({ limit: 20, tag: null, key_type: 'publishable' });
      expect(a.headers.get('request-id')).not.toBe(b.headers.get('request-id'));
    });

    it('POST with a body schema answers 200 with the parsed body (defaults applied)', async () => {
      const res = await post('/v1/admin/things', { name: 'Mug' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ id: 'thing_new', name: 'Mug', quantity: 1 });
    });

    it('a route declaring status 201 answers 201', async () => {
      const res = await post('/v1/admin/orders', { note: 'gift' });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ id: 'ord_1', note: 'gift' });
    });

    it('an empty body counts as {} with or without Content-Type: application/json', async () => {
      const withType = await t.request('/v1/admin/orders', {
        method: 'POST',
        headers: { ...secret, ...json },
      });
      const withoutType = await t.request('/v1/admin/orders', { method: 'POST', headers: secret, body: '' });
      const whitespace = await t.request('/v1/admin/orders', {
        method: 'POST',
        headers: { ...secret, ...json },
        body: ' \n',
      });
      for (const res of [withType, withoutType, whitespace]) {
        expect(res.status).toBe(201);
        expect(res.json).toEqual({ id: 'ord_1', note: null });
      }
    });

    it('accepts JSON content types with parameters and +json suffixes', async () => {
      for (const type of [
        'application/json; charset=utf-8',
        'Application/JSON',
        'application/merge-patch+json',
      ]) {
        const res = await post('/v1/admin/orders', { note: type }, { 'Content-Type': type });
        expect(res.status, type).toBe(201);
        expect(res.json.note).toBe(type);
      }
    });

    it('captures Idempotency-Key and exposes the request id to the handler', async () => {
      const res = await post('/v1/admin/echo', { a: 1 }, { 'Idempotency-Key': 'key-123' });
      expect(res.json).toEqual({
        body: { a: 1 },
        request_id: res.headers.get('request-id'),
        idempotency_key: 'key-123',
      });
    });

    it('a route without a body schema refuses a body that is not JSON (415/400/413) and ignores a JSON one', async () => {
      const merge = (headers: Record<string, string>, body?: string) =>
        t.request('/v1/storefront/carts/cart_1/merge', {
          method: 'POST',
          headers: { ...publishable, 'X-Customer-Token': TOKENS.active, ...headers },
          ...(body === undefined ? {} : { body }),
        });
      const text = await merge({ 'Content-Type': 'text/plain' }, 'not json');
      expect(text.status).toBe(415);
      expect(text.json.error.code).toBe('unsupported_media_type');
      const malformed = await merge({ 'Content-Type': 'application/json' }, '{"a":');
      expect(malformed.status).toBe(400);
      expect(malformed.json.error.code).toBe('invalid_json');
      const huge = await merge({ 'Content-Type': 'application/json' }, `{"a":"${'x'.repeat(1024 * 1024)}"}`);
      expect(huge.status).toBe(413);
      expect(huge.json.error.code).toBe('body_too_large');
      const encoded = await merge({ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, '{}');
      expect(encoded.status).toBe(415);
      expect(encoded.json.error.code).toBe('unsupported_media_type');
      for (const body of [undefined, '', '{}', '{"ignored":true}']) {
        const ok = await merge({ 'Content-Type': 'application/json' }, body);
        expect(ok.status, String(body)).toBe(200);
        expect(ok.json).toEqual({ id: 'cart_1', customer_id: 'cus_active' });
      }
    });

    it('a Content-Encoding other than identity → 415 before the body is read; identity is accepted', async () => {
      const gz = await post('/admin/customers/cus_1/token', {}, { 'Content-Encoding': 'gzip' });
      expect(gz.status).toBe(415);
      expect(gz.json.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_media_type' });
      const identity = await post('/admin/customers/cus_1/token', {}, { 'Content-Encoding': 'identity' });
      expect(identity.status).toBe(200);
    });

    it("auth 'none' routes need no key and see auth = null", async () => {
      const res = await t.request('/v1/health');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ ok: true, auth: null });
    });

    it('serves aliases: POST /admin/customers/cus_1/token is the same route as /v1/admin/...', async () => {
      const alias = await post('/admin/customers/cus_1/token', { expires_in: 60 });
      const canonical = await post('/v1/admin/customers/cus_1/token', {});
      expect(alias.status).toBe(200);
      expect(alias.json).toEqual({ token: 'ct_new', customer_id: 'cus_1', expires_in: 60 });
      expect(canonical.json.expires_in).toBe(86400);
    });

    it('decodes percent-encoded path parameters (thing_a%20b → "thing_a b")', async () => {
      const res = await t.request('/v1/admin/things/thing_a%20b', { headers: secret });
      expect(res.json.id).toBe('thing_a b');
    });
  });

  describe('400', () => {
    it('malformed JSON → invalid_json, with the request id in body and header', async () => {
      const res = await post('/v1/admin/things', '{"name": ');
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: {
          type: 'invalid_request_error',
          code: 'invalid_json',
          message: expect.any(String),
          request_id: res.headers.get('request-id'),
        },
      });
      expect(res.json.error.request_id).toMatch(REQUEST_ID);
    });

    it('bytes that are not UTF-8 → invalid_json', async () => {
      const res = await t.request('/v1/admin/things', {
        method: 'POST',
        headers: { ...secret, ...json },
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      });
      expect(res.json.error.code).toBe('invalid_json');
    });

    it('a JSON body that is not an object → parameter_invalid', async () => {
      const res = await post('/v1/admin/things', '[1,2]');
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('parameter_invalid');
    });

    it('unknown body field colour → parameter_unknown with param "colour"', async () => {
      const res = await post('/v1/admin/things', { name: 'Mug', colour: 'red' });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        param: 'colour',
      });
    });

    it('nested unknown field → param in wire notation lines[0][colour]', async () => {
      const res = await post('/v1/admin/things', {
        name: 'Mug',
        lines: [{ variant_id: 'var_1', quantity: 1, colour: 'red' }],
      });
      expect(res.json.error).toMatchObject({ code: 'parameter_unknown', param: 'lines[0][colour]' });
    });

    it('missing required name → parameter_missing with param "name"', async () => {
      const res = await post('/v1/admin/things', { quantity: 2 });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'parameter_missing', param: 'name' });
    });

    it('lines[1][quantity] = 0 → parameter_invalid with param lines[1][quantity] and a readable message', async () => {
      const res = await post('/v1/admin/things', {
        name: 'Mug',
        lines: [
          { variant_id: 'var_1', quantity: 1 },
          { variant_id: 'var_2', quantity: 0 },
        ],
      });
      expect(res.json.error).toMatchObject({ code: 'parameter_invalid', param: 'lines[1][quantity]' });
      expect(res.json.error.message).toContain('lines[1][quantity]');
    });

    it('wrong type and unknown enum value → parameter_invalid; several issues are listed in details', async () => {
      const res = await post('/v1/admin/things', { name: 5, kind: 'gas' });
      expect(res.json.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
      expect(res.json.error.details).toEqual([
        { param: 'name', message: expect.stringContaining('name') },
        { param: 'kind', message: expect.stringContaining('kind') },
      ]);
    });

    it('query limit=0 → parameter_invalid param limit; unknown query name → parameter_unknown', async () => {
      const low = await t.request('/v1/storefront/things?limit=0', { headers: secret });
      expect(low.status).toBe(400);
      expect(low.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
      const unknown = await t.request('/v1/storefront/things?colour=red', { headers: secret });
      expect(unknown.json.error).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
    });

    it('path params are validated too: an id that cannot exist (must start with thing_) → 404 not_found (decisions §15)', async () => {
      const res = await t.request('/v1/admin/things/prod_1', { headers: secret });
      expect(res.status).toBe(404);
      expect(res.json.error).toMatchObject({ code: 'not_found', type: 'not_found_error', param: 'id' });
    });

    it('an Idempotency-Key longer than 255 characters → parameter_invalid', async () => {
      const res = await post('/v1/admin/echo', {}, { 'Idempotency-Key': 'k'.repeat(256) });
      expect(res.json.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
    });
  });

  describe('401 / 403', () => {
    it('no Authorization → 401 unauthenticated (authentication_error)', async () => {
      const res = await t.request('/v1/admin/things/thing_1');
      expect(res.status).toBe(401);
      expect(res.json.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
      expect(res.json.error.request_id).toBe(res.headers.get('request-id'));
    });

    it('malformed Authorization (Basic, bare Bearer, two tokens) → 401 unauthenticated', async () => {
      for (const value of ['Basic abc', 'Bearer', 'Bearer a b', KEYS.secret]) {
        const res = await t.request('/v1/admin/things/thing_1', { headers: { Authorization: value } });
        expect(res.status, value).toBe(401);
        expect(res.json.error.code, value).toBe('unauthenticated');
      }
    });

    it('unknown key → 401 invalid_api_key; the bearer scheme is case-insensitive', async () => {
      const res = await t.request('/v1/admin/things/thing_1', {
        headers: { Authorization: 'Bearer sk_test_nope' },
      });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('invalid_api_key');
      const lower = await t.request('/v1/admin/things/thing_1', {
        headers: { Authorization: `bearer ${KEYS.secret}` },
      });
      expect(lower.status).toBe(200);
    });

    it('a publishable key on a secret route → 403 forbidden (permission_error)', async () => {
      const res = await t.request('/v1/admin/things/thing_1', { headers: publishable });
      expect(res.status).toBe(403);
      expect(res.json.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
    });

    it('customer token required and missing → 401 customer_token_required', async () => {
      const res = await t.request('/v1/storefront/customers/me', { headers: publishable });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('customer_token_required');
    });

    it('bad token, or a token of the other mode → 401 invalid_customer_token', async () => {
      for (const token of ['ct_nope', TOKENS.live]) {
        const res = await t.request('/v1/storefront/customers/me', {
          headers: { ...publishable, 'X-Customer-Token': token },
        });
        expect(res.status).toBe(401);
        expect(res.json.error.code).toBe('invalid_customer_token');
      }
    });

    it("a disabled customer's token → 403 customer_disabled", async () => {
      const res = await t.request('/v1/storefront/customers/me', {
        headers: { ...publishable, 'X-Customer-Token': TOKENS.disabled },
      });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('customer_disabled');
    });

    it('a valid token resolves the customer; optional tokens may be absent', async () => {
      const me = await t.request('/v1/storefront/customers/me', {
        headers: { ...publishable, 'X-Customer-Token': TOKENS.active },
      });
      expect(me.json).toEqual({ customer_id: 'cus_active', status: 'active' });
      const anonymous = await t.request('/v1/storefront/products', { headers: publishable });
      expect(anonymous.json).toEqual({ customer_id: null, status: null });
      const signedIn = await t.request('/v1/storefront/products', {
        headers: { ...publishable, 'X-Customer-Token': TOKENS.active },
      });
      expect(signedIn.json.customer_id).toBe('cus_active');
    });
  });

  describe('404 / 405', () => {
    it('unknown path → 404 route_not_found (not_found_error)', async () => {
      const res = await t.request('/v1/admin/nothing-here', { headers: secret });
      expect(res.status).toBe(404);
      expect(res.json.error).toMatchObject({ type: 'not_found_error', code: 'route_not_found' });
      expect(res.headers.get('request-id')).toMatch(REQUEST_ID);
    });

    it('a known path with another method → 405 method_not_allowed and Allow: DELETE, GET, HEAD', async () => {
      const res = await t.request('/v1/admin/things/thing_1', { method: 'PUT', headers: secret });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD');
      expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed' });
    });

    it('a domain not_found from the handler → 404 not_found', async () => {
      const res = await t.request('/v1/admin/things/thing_missing', { headers: secret });
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('not_found');
    });
  });

  describe('413 / 415', () => {
    it('a body over 1 MiB with Content-Length → 413 body_too_large', async () => {
      const res = await post('/v1/admin/echo', JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }));
      expect(res.status).toBe(413);
      expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'body_too_large' });
    });

    it('a streamed body over 1 MiB without Content-Length → 413 body_too_large', async () => {
      const res = await t.request('/v1/admin/echo', {
        method: 'POST',
        headers: { ...secret, ...json },
        body: streamOf(1024 * 1024 + 10),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(res.json.error.code).toBe('body_too_large');
    });

    it('exactly 1 MiB is accepted', async () => {
      const body = JSON.stringify({ pad: '' });
      const pad = 'x'.repeat(1024 * 1024 - body.length);
      const res = await post('/v1/admin/echo', JSON.stringify({ pad }));
      expect(res.status).toBe(200);
      expect(res.json.body.pad.length).toBe(pad.length);
    });

    it('a non-empty body that is not JSON → 415 unsupported_media_type', async () => {
      const plain = await post('/v1/admin/things', 'name=Mug', {
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      expect(plain.status).toBe(415);
      expect(plain.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
      });
      const untyped = await t.request('/v1/admin/things', {
        method: 'POST',
        headers: secret,
        body: new Uint8Array(new TextEncoder().encode('{"name":"Mug"}')),
      });
      expect(untyped.status).toBe(415);
    });
  });

  describe('domain errors and 500', () => {
    it('every CommerceError code answers its STATUS_BY_CODE status, with type following the status', async () => {
      for (const code of ERROR_CODES) {
        const res = await post(`/v1/admin/fail/${code}`, {});
        expect(res.status, code).toBe(STATUS_BY_CODE[code]);
        expect(res.json, code).toEqual({
          error: {
            type: ERROR_TYPES[code],
            code,
            message: `Failure: ${code}`,
            param: 'field',
            request_id: res.headers.get('request-id'),
          },
        });
      }
    });

    it('a plain Error → 500 internal_error with a generic message: no SQL, no stack; onError gets it', async () => {
      onError.mockClear();
      const res = await post('/v1/admin/crash', {});
      expect(res.status).toBe(500);
      expect(res.json.error).toMatchObject({ type: 'api_error', code: 'internal_error' });
      expect(res.text).not.toMatch(/SELECT|hunter2|api_keys|at .*\.ts|Error:/);
      expect(onError).toHaveBeenCalledTimes(1);
      const [error, info] = onError.mock.calls[0] as [Error, { requestId: string; route: string }];
      expect(error.message).toBe(crashMessage);
      expect(info).toEqual({ requestId: res.json.error.request_id, route: 'POST /v1/admin/crash' });
    });

    it('validateResponses: a body that breaks the response schema → 500, reported to onError', async () => {
      onError.mockClear();
      const res = await t.request('/v1/admin/bad-response', { headers: secret });
      expect(res.status).toBe(500);
      expect(res.json.error.code).toBe('internal_error');
      expect(String((onError.mock.calls[0]?.[0] as Error | undefined)?.message)).toMatch(
        /does not match its schema/,
      );
    });
  });
});

describe('pipeline options', () => {
  it("prefix '/api' serves /api/v1/... and nothing at /v1/...", async () => {
    const prefixed = createHandler(createTestEngine(), { routes: testRoutes, prefix: '/api' });
    const ok = await prefixed(new Request('http://x/api/v1/health'));
    expect(ok.status).toBe(200);
    const alias = await prefixed(
      new Request('http://x/api/admin/customers/cus_9/token', { method: 'POST', headers: secret }),
    );
    expect(((await alias.json()) as { customer_id: string }).customer_id).toBe('cus_9');
    const outside = await prefixed(new Request('http://x/v1/health'));
    expect(outside.status).toBe(404);
    expect(prefixed.owns('/api/v1/anything')).toBe(true);
    expect(prefixed.owns('/v1/health')).toBe(false);
  });

  it('without validateResponses the handler result is sent as is', async () => {
    const lenient = createHandler(createTestEngine(), { routes: testRoutes });
    const res = await lenient(new Request('http://x/v1/admin/bad-response', { headers: secret }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ wrong: true });
  });

  it('maxBodyBytes lowers the limit (20 bytes → a 30-byte body is 413)', async () => {
    const small = createHandler(createTestEngine(), { routes: testRoutes, maxBodyBytes: 20 });
    const res = await small(
      new Request('http://x/v1/admin/echo', {
        method: 'POST',
        headers: { ...secret, ...json },
        body: JSON.stringify({ a: 'x'.repeat(20) }),
      }),
    );
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
  });

  it('the default onError writes one JSON line to stderr with the request id', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const quiet = createHandler(createTestEngine(), { routes: testRoutes });
      const res = await quiet(new Request('http://x/v1/admin/crash', { method: 'POST', headers: secret }));
      const body = (await res.json()) as { error: { request_id: string } };
      expect(spy).toHaveBeenCalledTimes(1);
      const line = JSON.parse(String(spy.mock.calls[0]?.[0]));
      expect(line).toMatchObject({
        level: 'error',
        request_id: body.error.request_id,
        route: 'POST /v1/admin/crash',
      });
      expect(line.err.message).toBe(crashMessage);
    } finally {
      spy.mockRestore();
    }
  });

  it('duplicate method + path throws at start-up', () => {
    expect(() => createHandler(createTestEngine(), { routes: [...testRoutes, testRoutes[0]!] })).toThrow();
  });
});
