import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyRoute, defineRoute, type HttpMethod } from './route';
import { createRouter } from './router';

function route(method: HttpMethod, path: string, aliases?: string[]): AnyRoute {
  return defineRoute({
    method,
    path,
    ...(aliases ? { aliases } : {}),
    auth: 'secret',
    customerToken: 'none',
    response: z.object({}),
    summary: `${method} ${path}`,
    tags: [],
    handler: async () => ({}),
  });
}

const routes = [
  route('GET', '/v1/admin/products'),
  route('POST', '/v1/admin/products'),
  route('GET', '/v1/admin/products/:id'),
  route('PATCH', '/v1/admin/products/:id'),
  route('DELETE', '/v1/admin/products/:id'),
  route('GET', '/v1/storefront/products/by-slug/:slug'),
  route('POST', '/v1/admin/customers/:id/token', ['/admin/customers/:id/token']),
];

describe('createRouter', () => {
  const router = createRouter(routes);

  it('GET /v1/admin/products/prod_1 → the :id route with params { id: prod_1 }', () => {
    const match = router.match('GET', '/v1/admin/products/prod_1');
    expect(match.kind).toBe('found');
    if (match.kind !== 'found') return;
    expect(match.route).toBe(routes[2]);
    expect(match.params).toEqual({ id: 'prod_1' });
  });

  it('a static segment wins over a parameter: by-slug/:slug', () => {
    const match = router.match('GET', '/v1/storefront/products/by-slug/blue-mug');
    expect(match.kind === 'found' && match.params).toEqual({ slug: 'blue-mug' });
  });

  it('ignores a trailing slash', () => {
    expect(router.match('GET', '/v1/admin/products/').kind).toBe('found');
  });

  it('HEAD finds the GET route; allowed() lists HEAD wherever GET is, and nothing for an unknown path', () => {
    const head = router.match('HEAD', '/v1/admin/products/prod_1');
    expect(head.kind === 'found' && head.route).toBe(routes[2]);
    expect(router.allowed('/v1/admin/products')).toEqual(['GET', 'HEAD', 'POST']);
    expect(router.allowed('/v1/admin/customers/cus_1/token')).toEqual(['POST']);
    expect(router.allowed('/v1/admin/nothing')).toEqual([]);
  });

  it('PUT on an existing path → method_not_allowed with the sorted Allow list', () => {
    expect(router.match('PUT', '/v1/admin/products/prod_1')).toEqual({
      kind: 'method_not_allowed',
      allow: 'DELETE, GET, HEAD, PATCH',
    });
    // The router serves no OPTIONS (the pipeline answers preflights before matching).
    expect(router.match('OPTIONS', '/v1/admin/products')).toEqual({
      kind: 'method_not_allowed',
      allow: 'GET, HEAD, POST',
    });
  });

  it('unknown path → not_found', () => {
    expect(router.match('GET', '/v1/admin/nope')).toEqual({ kind: 'not_found' });
    expect(router.match('GET', '/v2/admin/products')).toEqual({ kind: 'not_found' });
  });

  it('aliases resolve to the same route', () => {
    const match = router.match('POST', '/admin/customers/cus_1/token');
    expect(match.kind === 'found' && match.route).toBe(routes[6]);
  });

  it('owns /v1 paths and aliases, nothing else', () => {
    expect(router.owns('/v1/anything')).toBe(true);
    expect(router.owns('/v1')).toBe(true);
    expect(router.owns('/admin/customers/cus_1/token')).toBe(true);
    expect(router.owns('/v10/x')).toBe(false);
    expect(router.owns('/health')).toBe(false);
  });

  it('mounts every route under a prefix', () => {
    const prefixed = createRouter(routes, '/api');
    expect(prefixed.match('GET', '/api/v1/admin/products').kind).toBe('found');
    expect(prefixed.match('POST', '/api/admin/customers/c/token').kind).toBe('found');
    expect(prefixed.match('GET', '/v1/admin/products').kind).toBe('not_found');
    expect(prefixed.owns('/api/v1/x')).toBe(true);
    expect(prefixed.owns('/v1/x')).toBe(false);
  });

  it('throws at start-up on a duplicate method + path', () => {
    expect(() => createRouter([...routes, route('GET', '/v1/admin/products')])).toThrow();
  });
});
