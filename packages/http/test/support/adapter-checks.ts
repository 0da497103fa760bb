import { expect, it } from 'vitest';
import { KEYS } from './test-engine';

const secret = { Authorization: `Bearer ${KEYS.secret}` };
const json = { 'Content-Type': 'application/json' };

/**
 * The HTTP behaviour every adapter must keep, over real requests. `base()` is the server URL plus
 * the mount path (e.g. `http://127.0.0.1:1234/shop`).
 */
export function adapterChecks(base: () => string): void {
  it('GET → 200 JSON with Content-Type and Request-Id headers', async () => {
    const res = await fetch(`${base()}/v1/storefront/things?limit=3`, { headers: secret });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(await res.json()).toMatchObject({ limit: 3, mode: 'test' });
  });

  it('POST with a JSON body → 201 and the parsed body', async () => {
    const res = await fetch(`${base()}/v1/admin/orders`, {
      method: 'POST',
      headers: { ...secret, ...json },
      body: JSON.stringify({ note: 'via adapter' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: 'ord_1', note: 'via adapter' });
  });

  it('POST without a body → the empty body counts as {}', async () => {
    const res = await fetch(`${base()}/v1/admin/orders`, { method: 'POST', headers: secret });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: 'ord_1', note: null });
  });

  it('malformed JSON → 400 invalid_json with the request id in body and header', async () => {
    const res = await fetch(`${base()}/v1/admin/orders`, {
      method: 'POST',
      headers: { ...secret, ...json },
      body: '{"note":',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.request_id).toBe(res.headers.get('request-id'));
  });

  it('unknown field → 400 parameter_unknown with param', async () => {
    const res = await fetch(`${base()}/v1/admin/orders`, {
      method: 'POST',
      headers: { ...secret, ...json },
      body: JSON.stringify({ colour: 'red' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'parameter_unknown', param: 'colour' } });
  });

  it('a body over 1 MiB → 413 body_too_large', async () => {
    const res = await fetch(`${base()}/v1/admin/echo`, {
      method: 'POST',
      headers: { ...secret, ...json },
      body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'body_too_large' },
    });
  });

  it('a non-JSON body → 415 unsupported_media_type', async () => {
    const res = await fetch(`${base()}/v1/admin/orders`, {
      method: 'POST',
      headers: { ...secret, 'Content-Type': 'text/plain' },
      body: 'note=hello',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });

  it('unknown /v1 path → 404 route_not_found; wrong method → 405 with Allow', async () => {
    const missing = await fetch(`${base()}/v1/nope`, { headers: secret });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'route_not_found' } });
    const wrong = await fetch(`${base()}/v1/admin/things/thing_1`, { method: 'PATCH', headers: secret });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('DELETE, GET, HEAD');
  });

  it('missing key → 401 unauthenticated; publishable key on admin → 403 forbidden', async () => {
    const none = await fetch(`${base()}/v1/admin/things/thing_1`);
    expect(none.status).toBe(401);
    const pk = await fetch(`${base()}/v1/admin/things/thing_1`, {
      headers: { Authorization: `Bearer ${KEYS.publishable}` },
    });
    expect(pk.status).toBe(403);
  });

  it('serves the spec alias outside /v1 (POST /admin/customers/cus_1/token)', async () => {
    const res = await fetch(`${base()}/admin/customers/cus_1/token`, {
      method: 'POST',
      headers: { ...secret, ...json },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ customer_id: 'cus_1' });
  });
}
