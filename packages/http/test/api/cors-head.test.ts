import { expect, it } from 'vitest';
import { describeApi } from './support/harness';

const ORIGIN = 'https://shop.example';

describeApi('browsers: CORS, HEAD and nosniff with the defaults', (api) => {
  const preflight = (path: string, origin = ORIGIN, method = 'POST') =>
    fetch(api().baseUrl + path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type, idempotency-key, x-customer-token',
      },
    });

  it('a storefront preflight from any origin → 204 with the methods and the headers a storefront sends', async () => {
    const res = await preflight('/v1/storefront/carts/cart_1/items');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-customer-token']),
    );
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    const products = await preflight('/v1/storefront/products', ORIGIN, 'GET');
    expect(products.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('an admin preflight is not opened to browsers by default (no Access-Control-Allow-Origin)', async () => {
    const res = await preflight('/v1/admin/products');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('admin routes are judged by the route matched: a percent-encoded path or an alias gets no CORS (preflight and request)', async () => {
    for (const path of ['/v1/%61dmin/store', '/v1/adm%69n/products', '/admin/customers/cus_missing/token']) {
      const pre = await preflight(path);
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('access-control-allow-origin'), path).toBeNull();
    }
    const store = await api().get('/v1/%61dmin/store', { headers: { origin: ORIGIN } });
    expect(store.status).toBe(200);
    expect(store.headers.get('access-control-allow-origin')).toBeNull();
    const token = await api().post('/admin/customers/cus_missing/token', {}, { headers: { origin: ORIGIN } });
    expect(token.status).toBe(404);
    expect(token.headers.get('access-control-allow-origin')).toBeNull();
    // Not a route, but under the admin root once decoded: no CORS either.
    const unknown = await fetch(`${api().baseUrl}/v1/%61dmin/nothing-here`, { headers: { origin: ORIGIN } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBeNull();
    // A storefront route spelled with escapes keeps the storefront answer.
    const products = await preflight('/v1/st%6Frefront/products', ORIGIN, 'GET');
    expect(products.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('OPTIONS on a path that is not a route → 404 route_not_found', async () => {
    const res = await preflight('/v1/storefront/nothing-here');
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('route_not_found');
  });

  it('an actual storefront response to a browser carries Access-Control-Allow-Origin and exposes the API headers', async () => {
    const res = await api().storefront.get('/v1/storefront/products', { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['Request-Id', 'RateLimit-Remaining', 'Retry-After', 'Idempotent-Replayed']),
    );
    const error = await api().storefront.get('/v1/storefront/products/prod_missing', {
      headers: { origin: ORIGIN },
    });
    expect(error.status).toBe(404);
    expect(error.headers.get('access-control-allow-origin')).toBe('*');
    const admin = await api().get('/v1/admin/products', { headers: { origin: ORIGIN } });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('HEAD is served wherever GET is: the same status and headers, no body', async () => {
    const get = await fetch(`${api().baseUrl}/v1/storefront/products`, {
      headers: { authorization: `Bearer ${api().keys.publishable}` },
    });
    const getBody = await get.text();
    const head = await fetch(`${api().baseUrl}/v1/storefront/products`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${api().keys.publishable}` },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(getBody));
    expect(head.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await fetch(`${api().baseUrl}/v1/admin/products/prod_missing`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${api().keys.secret}` },
    });
    expect(missing.status).toBe(404);
    // HEAD where only POST is served: 405, and the Allow list names no HEAD.
    const postOnly = await fetch(`${api().baseUrl}/v1/storefront/carts`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${api().keys.publishable}` },
    });
    expect(postOnly.status).toBe(405);
    expect(postOnly.headers.get('allow')).toBe('POST');
  });

  it('JSON errors before authentication carry nosniff too', async () => {
    const res = await api().get('/v1/admin/products', { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describeApi(
  'browsers: configured origins',
  (api) => {
    const preflight = (path: string, origin: string) =>
      fetch(api().baseUrl + path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });

    it('only the configured storefront origins are answered, echoed with Vary: Origin', async () => {
      const allowed = await preflight('/v1/storefront/products', ORIGIN);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(allowed.headers.get('vary')).toBe('Origin');
      const other = await preflight('/v1/storefront/products', 'https://evil.example');
      expect(other.status).toBe(204);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('admin routes open to the configured admin origin only', async () => {
      const admin = await preflight('/v1/admin/orders', 'https://admin.example');
      expect(admin.headers.get('access-control-allow-origin')).toBe('https://admin.example');
      expect(
        (await preflight('/v1/admin/orders', ORIGIN)).headers.get('access-control-allow-origin'),
      ).toBeNull();
      const res = await api().get('/v1/admin/orders', { headers: { origin: 'https://admin.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    });
  },
  {},
  { cors: { storefrontOrigins: [ORIGIN], adminOrigins: ['https://admin.example'] } },
);
