import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener, toNodeListener } from '../../src/adapters/node';
import { createHandler } from '../../src/create-handler';
import { adapterChecks } from '../support/adapter-checks';
import { type Listening, listen } from '../support/listen';
import { createTestEngine } from '../support/test-engine';
import { testRoutes } from '../support/test-routes';

describe('node:http adapter (createNodeListener)', () => {
  let server: Listening;
  beforeAll(async () => {
    const handler = createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined });
    server = await listen(createServer(createNodeListener(handler)));
  });
  afterAll(async () => server.close());

  adapterChecks(() => server.url);

  it('sets Content-Length to the byte length of the body', async () => {
    const res = await fetch(`${server.url}/v1/health`);
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  it('after a 413 the connection is closed (Connection: close)', async () => {
    const res = await fetch(`${server.url}/v1/admin/echo`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_4f0c1d2e3b4a5968', 'Content-Type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    await res.text();
  });

  it('the deprecated toNodeListener(handler) is the same listener factory', async () => {
    expect(toNodeListener).toBe(createNodeListener);
    const handler = createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined });
    const old = await listen(createServer(toNodeListener(handler)));
    try {
      const res = await fetch(`${old.url}/v1/health`);
      expect(res.status).toBe(200);
    } finally {
      await old.close();
    }
  });
});
