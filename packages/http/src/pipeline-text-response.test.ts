import { CommerceError } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IdempotencyRunner, RouteEngine, StoredResponse } from './engine-port';
import { buildOpenApiDocument } from './openapi';
import { createPipeline } from './pipeline';
import type { RawRequest } from './raw-http';
import { type AnyRoute, defineRoute, readTextResponse, textResponse } from './route';

const HTML = 'text/html; charset=utf-8';

function engineWith(idempotency?: IdempotencyRunner): RouteEngine {
  return {
    auth: {
      authenticateApiKey: () => ({ key_id: 'key_1', store_id: 'store_1', mode: 'test', key_type: 'secret' }),
      authenticateCustomerToken: () => {
        throw new Error('no tokens in this test');
      },
    },
    ...(idempotency === undefined ? {} : { idempotency }),
  } as unknown as RouteEngine;
}

const routes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/page',
    auth: 'none',
    customerToken: 'none',
    response: z.string(),
    responseContentType: HTML,
    summary: 'An HTML page',
    tags: ['Test'],
    handler: async () => textResponse(HTML, '<p>caf\u00e9</p>'),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/page/missing',
    auth: 'none',
    customerToken: 'none',
    response: z.string(),
    responseContentType: HTML,
    summary: 'A page that is never there',
    tags: ['Test'],
    handler: async () => {
      throw new CommerceError('not_found', 'No such page.');
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/report',
    auth: 'secret',
    customerToken: 'none',
    body: z.object({ n: z.number() }),
    response: z.string(),
    responseContentType: 'text/csv',
    summary: 'A CSV report',
    tags: ['Test'],
    handler: async (ctx) => textResponse('text/csv', `n\n${ctx.body.n}\n`),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/json',
    auth: 'none',
    customerToken: 'none',
    response: z.object({ ok: z.boolean() }),
    summary: 'Plain JSON',
    tags: ['Test'],
    handler: async () => ({ ok: true }),
  }),
];

function request(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): RawRequest {
  const all: Record<string, string> = { authorization: 'Bearer sk_test_1', ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  return {
    method,
    path,
    query: '',
    headers: { get: (name) => all[name] ?? null },
    readBody: async () => ({ kind: 'text', text: body ?? '' }),
  };
}

describe('textResponse', () => {
  it('wraps a media type and text that readTextResponse gives back; other values → undefined', () => {
    expect(readTextResponse(textResponse('text/plain', 'hi'))).toEqual({
      contentType: 'text/plain',
      body: 'hi',
    });
    const bytes = new Uint8Array([1, 2, 3]);
    expect(
      readTextResponse(textResponse('text/plain', bytes, { headers: { ETag: '"x"' }, status: 304 })),
    ).toEqual({ contentType: 'text/plain', body: bytes, headers: { ETag: '"x"' }, status: 304 });
    expect(readTextResponse({ contentType: 'text/plain', text: 'hi' })).toBeUndefined();
    expect(readTextResponse('hi')).toBeUndefined();
    expect(readTextResponse(null)).toBeUndefined();
  });

  it('GET /v1/page → 200 with Content-Type text/html; charset=utf-8 and the text as is (not JSON-quoted)', async () => {
    const pipeline = createPipeline(engineWith(), { routes, validateResponses: true, onError: () => {} });
    const res = await pipeline.handle(request('GET', '/v1/page'));
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe(HTML);
    expect(res.headers['Request-Id']).toMatch(/^req_/);
    expect(res.body).toBe('<p>caf\u00e9</p>');
  });

  it('errors of a text route stay JSON: GET /v1/page/missing → 404 application/json', async () => {
    const pipeline = createPipeline(engineWith(), { routes, onError: () => {} });
    const res = await pipeline.handle(request('GET', '/v1/page/missing'));
    expect(res.status).toBe(404);
    expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body as string).error.code).toBe('not_found');
  });

  it('JSON routes are unchanged: GET /v1/json → application/json {"ok":true}', async () => {
    const pipeline = createPipeline(engineWith(), { routes, onError: () => {} });
    const res = await pipeline.handle(request('GET', '/v1/json'));
    expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe('{"ok":true}');
  });

  it('an idempotent replay (status and body only) takes the route’s responseContentType; a replayed error stays JSON', async () => {
    const stored = new Map<string, StoredResponse>();
    const runner: IdempotencyRunner = {
      async run({ scope, key }, execute) {
        const first = stored.get(key);
        if (first !== undefined) return { ...first, replayed: true };
        const response = await execute(scope);
        stored.set(key, { status: response.status, body: response.body });
        return response;
      },
    };
    const pipeline = createPipeline(engineWith(runner), { routes, onError: () => {} });
    const first = await pipeline.handle(
      request('POST', '/v1/report', '{"n":7}', { 'idempotency-key': 'k1' }),
    );
    const again = await pipeline.handle(
      request('POST', '/v1/report', '{"n":7}', { 'idempotency-key': 'k1' }),
    );
    expect(first.headers['Content-Type']).toBe('text/csv');
    expect(again.headers).toMatchObject({ 'Content-Type': 'text/csv', 'Idempotent-Replayed': 'true' });
    expect(again.body).toBe('n\n7\n');

    stored.set('k2', { status: 409, body: '{"error":{"code":"cart_not_active"}}' });
    const error = await pipeline.handle(
      request('POST', '/v1/report', '{"n":7}', { 'idempotency-key': 'k2' }),
    );
    expect(error.status).toBe(409);
    expect(error.headers['Content-Type']).toBe('application/json; charset=utf-8');
  });

  it('the OpenAPI document lists the declared media type without parameters (text/html, text/csv)', () => {
    // biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
    const doc = buildOpenApiDocument(routes) as any;
    expect(Object.keys(doc.paths['/v1/page'].get.responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(doc.paths['/v1/report'].post.responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(doc.paths['/v1/json'].get.responses['200'].content)).toEqual(['application/json']);
    expect(doc.paths['/v1/report'].post['x-cartwright-auth']).toBe('secret');
    expect(doc.paths['/v1/page'].get['x-cartwright-auth']).toBe('none');
  });

  it('a route with excludeFromOpenApi is served but left out of the document', async () => {
    const hidden = defineRoute({
      method: 'GET',
      path: '/v1/hidden',
      auth: 'none',
      customerToken: 'none',
      response: z.string(),
      responseContentType: HTML,
      excludeFromOpenApi: true,
      summary: 'Hidden page',
      tags: ['Test'],
      handler: async () => textResponse(HTML, 'hidden'),
    });
    // biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
    const doc = buildOpenApiDocument([...routes, hidden]) as any;
    expect(doc.paths['/v1/hidden']).toBeUndefined();
    expect(doc.paths['/v1/page']).toBeDefined();
    const pipeline = createPipeline(engineWith(), { routes: [...routes, hidden], onError: () => {} });
    const res = await pipeline.handle(request('GET', '/v1/hidden'));
    expect([res.status, res.body]).toEqual([200, 'hidden']);
  });
});
