import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, test } from 'vitest';
import { DATABASE_TARGETS, type ServeProcess, useServers } from './support/serve-process';

/**
 * The HTTP server against hostile clients (docs/security.md), through `cartwright serve` built
 * from source, two processes on one database: CORS judged by the route matched (percent-encoded
 * admin paths and the admin alias), `Expect: 100-continue` over the limit, a body that stalls
 * (408 after 30 s) and too many unfinished bodies from one address.
 */
const SECRET = 'sk_test_hostileHttpServerTests000000001';
const PUBLISHABLE = 'pk_test_hostileHttpServerTests000000001';
const ORIGIN = 'https://evil.example';

/** Sends `head` (and `body`) on a raw socket; resolves with everything the server sent until it closed or `ms` passed. */
function rawExchange(
  url: string,
  text: string,
  ms: number,
): Promise<{ reply: string; elapsed: number; socket: Socket }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let reply = '';
    const done = () => {
      clearTimeout(timer);
      resolve({ reply, elapsed: Date.now() - started, socket });
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (chunk) => {
      reply += chunk.toString();
    });
    socket.on('close', done);
    socket.on('error', reject);
    socket.write(text);
  });
}

const stalledUpload = (url: string, path: string, key: string) =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nAuthorization: Bearer ${key}\r\n` +
  'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"';

for (const target of DATABASE_TARGETS) {
  describe(`hostile HTTP clients against 2 server processes on one ${target} database`, () => {
    const { servers } = useServers(
      target,
      2,
      { COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` },
      'cartwright-hostile-',
    );

    test('CORS comes from the matched route on every process: /v1/%61dmin/… and the admin alias get none', async () => {
      for (const server of servers as ServeProcess[]) {
        for (const path of ['/v1/%61dmin/store', '/admin/customers/cus_missing/token']) {
          const pre = await fetch(server.url + path, {
            method: 'OPTIONS',
            headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
          });
          expect(pre.status, path).toBe(204);
          expect(pre.headers.get('access-control-allow-origin'), path).toBeNull();
        }
        const store = await fetch(`${server.url}/v1/%61dmin/store`, {
          headers: { origin: ORIGIN, authorization: `Bearer ${SECRET}` },
        });
        expect(store.status).toBe(200);
        expect(store.headers.get('access-control-allow-origin')).toBeNull();
        const token = await fetch(`${server.url}/admin/customers/cus_missing/token`, {
          method: 'POST',
          headers: { origin: ORIGIN, authorization: `Bearer ${SECRET}` },
        });
        expect(token.status).toBe(404);
        expect(token.headers.get('access-control-allow-origin')).toBeNull();
        const storefront = await fetch(`${server.url}/v1/storefront/products`, {
          headers: { origin: ORIGIN, authorization: `Bearer ${PUBLISHABLE}` },
        });
        expect(storefront.headers.get('access-control-allow-origin')).toBe('*');
      }
    });

    test('Expect: 100-continue with a Content-Length over the limit → 413 at once, never 100 Continue', async () => {
      const server = (servers as ServeProcess[])[0] as ServeProcess;
      const answer = await new Promise<{ status: number; continued: boolean; body: string }>(
        (resolve, reject) => {
          let continued = false;
          const req = httpRequest(
            `${server.url}/v1/admin/products`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${SECRET}`,
                'content-type': 'application/json',
                'content-length': String(999 * 1024 * 1024),
                expect: '100-continue',
              },
            },
            (res) => {
              let body = '';
              res.on('data', (chunk) => {
                body += chunk;
              });
              res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, body }));
            },
          );
          req.on('continue', () => {
            continued = true;
          });
          req.on('error', reject);
          req.flushHeaders();
        },
      );
      expect(answer.continued).toBe(false);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error).toMatchObject({
        type: 'invalid_request_error',
        code: 'body_too_large',
      });
      // Within the limit: told to continue, then served.
      const small = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        let continued = false;
        const req = httpRequest(
          `${server.url}/v1/storefront/carts`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${PUBLISHABLE}`,
              'content-type': 'application/json',
              'content-length': '2',
              expect: '100-continue',
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
          },
        );
        req.on('continue', () => {
          continued = true;
          req.end('{}');
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(small).toEqual({ status: 200, continued: true });
    });

    test('more than 16 unfinished bodies from one address → 429 at once; the first ones are still waited for', async () => {
      const server = (servers as ServeProcess[])[1] as ServeProcess;
      const held = await Promise.all(
        Array.from({ length: 16 }, () =>
          rawExchange(server.url, stalledUpload(server.url, '/v1/admin/products', SECRET), 500),
        ),
      );
      for (const { reply } of held) expect(reply).toBe('');
      const refused = await rawExchange(
        server.url,
        stalledUpload(server.url, '/v1/admin/products', SECRET),
        5_000,
      );
      expect(refused.reply).toMatch(/^HTTP\/1\.1 429 /);
      expect(refused.reply).toMatch(/retry-after: \d+/i);
      expect(refused.reply).toContain('"code":"rate_limited"');
      for (const { socket } of held) socket.destroy();
      await new Promise((r) => setTimeout(r, 200));
      const store = await fetch(`${server.url}/v1/admin/store`, {
        headers: { authorization: `Bearer ${SECRET}` },
      });
      expect(store.status).toBe(200);
    });

    test('a body that does not arrive within 30 s → 408 request_timeout and the connection closed', {
      timeout: 60_000,
    }, async () => {
      const server = (servers as ServeProcess[])[0] as ServeProcess;
      const stalled = await rawExchange(
        server.url,
        stalledUpload(server.url, '/v1/storefront/carts', PUBLISHABLE),
        45_000,
      );
      expect(stalled.reply).toMatch(/^HTTP\/1\.1 408 /);
      expect(stalled.reply).toContain('"code":"request_timeout"');
      expect(stalled.reply).toContain('"type":"invalid_request_error"');
      expect(stalled.elapsed).toBeGreaterThanOrEqual(29_000);
      expect(stalled.elapsed).toBeLessThan(40_000);
    });
  });
}
