import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteEngine } from './engine-port';
import { createPipeline } from './pipeline';
import type { BodySource, RawRequest } from './raw-http';
import { type AnyRoute, defineRoute } from './route';

const engine = {
  auth: {
    authenticateApiKey: () => {
      throw new Error('no keys in this test');
    },
    authenticateCustomerToken: () => {
      throw new Error('no tokens in this test');
    },
  },
} as unknown as RouteEngine;

const Echo = z.object({ raw: z.string().nullable() });

const routes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/hooks/raw',
    auth: 'none',
    customerToken: 'none',
    rawBody: true,
    response: Echo,
    summary: 'raw',
    tags: ['Test'],
    handler: async (ctx) => ({ raw: ctx.rawBody }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/hooks/plain',
    auth: 'none',
    customerToken: 'none',
    response: Echo,
    summary: 'plain',
    tags: ['Test'],
    handler: async (ctx) => ({ raw: ctx.rawBody }),
  }),
];

function request(path: string, body: BodySource, contentType: string | null): RawRequest {
  return {
    method: 'POST',
    path,
    query: '',
    headers: { get: (name) => (name === 'content-type' ? contentType : null) },
    readBody: async () => body,
  };
}

describe('routes with rawBody: true', () => {
  const pipeline = createPipeline(engine, { routes, onError: () => {} });

  it('get the exact body text, whatever its content type, unparsed', async () => {
    const text = '{"id": "evt_1",\n  "amount":  2500 }\n';
    for (const type of ['application/json', 'text/plain', null]) {
      const res = await pipeline.handle(request('/v1/hooks/raw', { kind: 'text', text }, type));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body as string)).toEqual({ raw: text });
    }
    const invalid = await pipeline.handle(
      request('/v1/hooks/raw', { kind: 'text', text: 'not json' }, 'application/json'),
    );
    expect(JSON.parse(invalid.body as string)).toEqual({ raw: 'not json' });
  });

  it('fail with 500 when a host framework already parsed the body (its bytes are gone)', async () => {
    const res = await pipeline.handle(
      request('/v1/hooks/raw', { kind: 'parsed', value: { id: 'evt_1' } }, 'application/json'),
    );
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body as string).error.code).toBe('internal_error');
  });

  it('other routes see rawBody null', async () => {
    const res = await pipeline.handle(
      request('/v1/hooks/plain', { kind: 'text', text: '{}' }, 'application/json'),
    );
    expect(JSON.parse(res.body as string)).toEqual({ raw: null });
  });
});
