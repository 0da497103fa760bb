import { afterEach, describe, expect, test } from 'vitest';
import { createNodeWebhookTransport } from '../src/node-webhook-transport';
import type { Resolver } from '../src/url-safety';
import { type Receiver, startReceiver } from './support/receiver';

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const request = (url: string, timeout_ms = 2000) => ({
  url,
  body: '{"id":"evt_1","type":"order.created"}',
  headers: {
    'content-type': 'application/json',
    'x-webhook-id': 'evt_1',
    'x-webhook-signature': 'ab'.repeat(32),
  },
  timeout_ms,
});

describe('createNodeWebhookTransport: send', () => {
  test('POSTs the exact body with the given headers and reports status and duration', async () => {
    const r = await receiver(() => ({ status: 204 }));
    const transport = createNodeWebhookTransport({ allowPrivate: true });
    const result = await transport.send(request(`${r.url}/hooks?src=test`));
    expect(result).toMatchObject({ status_code: 204, error: null });
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(r.receipts).toHaveLength(1);
    const [got] = r.receipts;
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe('/hooks?src=test');
    expect(got?.body).toBe('{"id":"evt_1","type":"order.created"}');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['content-length']).toBe(String(Buffer.byteLength(got?.body ?? '')));
    expect(got?.headers['x-webhook-id']).toBe('evt_1');
    expect(got?.headers['user-agent']).toBe('Cartwright-Webhooks/1');
  });

  test('reports a 500 as a response (the engine decides it is a failure)', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const result = await createNodeWebhookTransport({ allowPrivate: true }).send(request(r.url));
    expect(result).toMatchObject({ status_code: 500, error: null });
  });

  test('never follows a redirect: the 302 is returned and the Location target gets nothing', async () => {
    const target = await receiver();
    const redirector = await receiver(() => ({ status: 302, headers: { location: `${target.url}/stolen` } }));
    const result = await createNodeWebhookTransport({ allowPrivate: true }).send(request(redirector.url));
    expect(result.status_code).toBe(302);
    expect(redirector.receipts).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.receipts).toHaveLength(0);
  });

  test('gives up at the timeout with no status', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 2000 }));
    const started = Date.now();
    const result = await createNodeWebhookTransport({ allowPrivate: true }).send(request(r.url, 150));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.status_code).toBeNull();
    expect(result.error).toBe('timed out after 150 ms');
    expect(result.duration_ms).toBeGreaterThanOrEqual(140);
  });

  test('a refused connection is an error with no status', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    receivers.pop();
    const result = await createNodeWebhookTransport({ allowPrivate: true }).send(request(url));
    expect(result.status_code).toBeNull();
    expect(result.error).toContain('ECONNREFUSED');
  });

  test('refuses a private target at delivery when private targets are not allowed: nothing is sent', async () => {
    const r = await receiver();
    const transport = createNodeWebhookTransport();
    for (const url of [r.url, `http://localhost:${r.port}/`, `http://[::ffff:127.0.0.1]:${r.port}/`]) {
      const result = await transport.send(request(url));
      expect(result.status_code).toBeNull();
      expect(result.error).toMatch(/^url_not_allowed: /);
    }
    expect(r.receipts).toHaveLength(0);
  });

  test('a host name that resolves to loopback at delivery time is refused (DNS rebinding)', async () => {
    const r = await receiver();
    let answer = '93.184.216.34';
    const resolve: Resolver = async () => [{ address: answer, family: 4 }];
    const transport = createNodeWebhookTransport({ resolve });
    expect(await transport.checkUrl?.(`http://hooks.rebind.example:${r.port}/`)).toEqual({ allowed: true });
    answer = '127.0.0.1';
    const result = await transport.send(request(`http://hooks.rebind.example:${r.port}/`));
    expect(result.error).toContain('hooks.rebind.example resolves to a loopback address 127.0.0.1');
    expect(r.receipts).toHaveLength(0);
  });

  test('connects to the address that was checked, sending the original Host header', async () => {
    const r = await receiver();
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const transport = createNodeWebhookTransport({ allowPrivate: true, resolve });
    const result = await transport.send(request(`http://hooks.customer.example:${r.port}/in`));
    expect(result.status_code).toBe(200);
    expect(lookups).toBe(1);
    expect(r.receipts[0]?.headers.host).toBe(`hooks.customer.example:${r.port}`);
  });

  test('an unresolvable host name fails the attempt', async () => {
    const resolve: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const result = await createNodeWebhookTransport({ resolve }).send(request('https://nowhere.example/'));
    expect(result.status_code).toBeNull();
    expect(result.error).toBe('DNS lookup failed: nowhere.example does not resolve (ENOTFOUND)');
  });
});

describe('createNodeWebhookTransport: checkUrl', () => {
  test('refuses private targets unless allowed, accepts public and not-yet-resolvable ones', async () => {
    const resolve: Resolver = async (host) => {
      if (host === 'public.example') return [{ address: '93.184.216.34', family: 4 }];
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const strict = createNodeWebhookTransport({ resolve });
    expect(await strict.checkUrl?.('http://127.0.0.1/')).toMatchObject({ allowed: false });
    expect(await strict.checkUrl?.('https://public.example/x')).toEqual({ allowed: true });
    expect(await strict.checkUrl?.('https://not-live-yet.example/x')).toEqual({ allowed: true });
    expect(await createNodeWebhookTransport({ allowPrivate: true }).checkUrl?.('http://127.0.0.1/')).toEqual({
      allowed: true,
    });
  });

  test('a DNS lookup that hangs does not block registration past checkTimeoutMs', async () => {
    const resolve: Resolver = () => new Promise(() => undefined);
    const started = Date.now();
    const result = await createNodeWebhookTransport({ resolve, checkTimeoutMs: 100 }).checkUrl?.(
      'https://slow.example/',
    );
    expect(result).toEqual({ allowed: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
