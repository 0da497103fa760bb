import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFastifyPlugin } from '../src/adapters/fastify';
import { createNodeListener } from '../src/adapters/node';
import { API_REFERENCE_CSP, API_REFERENCE_SCRIPT, API_REFERENCE_STYLE } from '../src/api-reference-assets';
import { renderApiReferenceHtml } from '../src/api-reference-html';
import { ifNoneMatchHits, negotiateEncoding } from '../src/api-reference-page';
import { type CartwrightHandler, createHandler } from '../src/create-handler';
import { buildOpenApiDocument } from '../src/openapi';
import { apiRoutes } from '../src/routes';
import { createServer, fetchListener, type Listening, listen } from './support/listen';
import { createTestEngine } from './support/test-engine';

// `/v1/docs` and `/v1/openapi.json` are served from memory with caching, compression and a
// content security policy. The routes never touch the engine, so the test engine serves the
// real page of the whole API.

/** The served document and page, built the way the routes build them. */
const documentText = JSON.stringify(buildOpenApiDocument(apiRoutes));
const page = renderApiReferenceHtml(JSON.parse(documentText) as object);

/** A response as it came over the wire: status, lower-case headers, the body bytes undecoded. */
interface WireResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

type Get = (path: string, headers?: Record<string, string>, method?: 'GET' | 'HEAD') => Promise<WireResponse>;

/** A GET with node:http, which (unlike fetch) neither adds Accept-Encoding nor decompresses. */
function wireGet(base: string): Get {
  return (path, headers = {}, method = 'GET') =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const flat: Record<string, string | undefined> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            flat[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}

/** A GET on the fetch handler in process, with real `Request`/`Response` objects. */
function inProcessGet(handler: CartwrightHandler): Get {
  return async (path, headers = {}, method = 'GET') => {
    const res = await handler(new Request(`http://shop.test${path}`, { headers, method }));
    const flat: Record<string, string | undefined> = {};
    res.headers.forEach((value, name) => {
      flat[name] = value;
    });
    return { status: res.status, headers: flat, body: Buffer.from(await res.arrayBuffer()) };
  };
}

function decode(res: WireResponse): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(res.body).toString('utf8');
  expect(coding).toBeUndefined();
  return res.body.toString('utf8');
}

const handler = createHandler(createTestEngine(), { routes: apiRoutes, onError: () => undefined });
const servers: Listening[] = [];
let fastify: FastifyInstance;
const transports: { name: string; get: Get; contentLength: boolean }[] = [];

beforeAll(async () => {
  const node = await listen(createServer(createNodeListener(handler)));
  const fetchOverHttp = await listen(createServer(fetchListener(handler)));
  servers.push(node, fetchOverHttp);
  fastify = Fastify();
  await fastify.register(createFastifyPlugin(handler));
  const fastifyUrl = await fastify.listen({ port: 0, host: '127.0.0.1' });
  transports.push(
    { name: 'node adapter', get: wireGet(node.url), contentLength: true },
    { name: 'fetch handler', get: inProcessGet(handler), contentLength: false },
    // The test bridge writes the Response's bytes chunked, without Content-Length.
    { name: 'fetch handler over node:http', get: wireGet(fetchOverHttp.url), contentLength: false },
    { name: 'fastify plugin', get: wireGet(fastifyUrl), contentLength: true },
  );
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await fastify.close();
});

describe('Accept-Encoding negotiation (RFC 9110 §12.5.3)', () => {
  it.each([
    [null, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', 'identity'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0.8, gzip;q=0.9', 'gzip'],
    ['gzip;q=1.0, br;q=1', 'br'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip;q=0.001', 'gzip'],
    ['identity;q=1, gzip;q=0.5', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0', 'identity'],
    ['identity;q=0', 'identity'],
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.3', 'gzip'],
    [' gzip ; q=0.7 , br ; q=0.6 ', 'gzip'],
  ])('%j → %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });

  it('If-None-Match: exact, in a list, weak form, * — and not another tag', () => {
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('*', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abc-gzip"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits('"ab"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits(null, '"abc"')).toBe(false);
  });
});

describe('the content security policy of /v1/docs', () => {
  /** The directives of a policy, by name. */
  const directives = (policy: string) =>
    new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0] !== '')
        .map(([name, ...sources]) => [name as string, sources]),
    );

  it("allows exactly the page's inline <script> and <style> elements, by their SHA-256 hashes", () => {
    const csp = directives(API_REFERENCE_CSP);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    // Every element of the rendered page, found by parsing it (not by the constants).
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    const styles = [...page.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/gi)];
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(csp.get('script-src')).toEqual(scripts.map((m) => hash(m[2] as string)));
    expect(csp.get('style-src')).toEqual(styles.map((m) => hash(m[2] as string)));
    expect(scripts[0]?.[2]).toBe(API_REFERENCE_SCRIPT);
    expect(styles[0]?.[2]).toBe(API_REFERENCE_STYLE);
    for (const [, attributes] of [...scripts, ...styles]) expect(attributes).toBe('');
    for (const sources of csp.values()) expect(sources).not.toContain("'unsafe-inline'");
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
  });

  it('needs nothing else: no inline handlers or style attributes, no external resource, no javascript: URL', () => {
    const tags = [...page.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)(\s[^>]*)?>/g)];
    expect(tags.length).toBeGreaterThan(1000);
    const names = new Set(tags.map((m) => (m[1] as string).toLowerCase()));
    for (const loader of [
      'img',
      'link',
      'iframe',
      'object',
      'embed',
      'audio',
      'video',
      'source',
      'base',
      'form',
    ]) {
      expect(names.has(loader), loader).toBe(false);
    }
    const offending = tags
      .map((m) => m[2] ?? '')
      .filter((a) => /\s(on[a-z]+|style|src|srcset|action|formaction)\s*=|javascript:/i.test(a));
    expect(offending).toEqual([]);
    expect(API_REFERENCE_STYLE).not.toMatch(/url\(|@import/);
    // The script builds no element and loads nothing.
    expect(API_REFERENCE_SCRIPT).not.toMatch(
      /createElement|innerHTML|fetch\(|XMLHttpRequest|import\(|eval\(/,
    );
  });
});

describe.each([
  { path: '/v1/docs', type: 'text/html; charset=utf-8', content: page, csp: API_REFERENCE_CSP },
  {
    path: '/v1/openapi.json',
    type: 'application/json; charset=utf-8',
    content: documentText,
    csp: "default-src 'none'; frame-ancestors 'none'",
  },
])('GET $path', ({ path, type, content, csp }) => {
  const size = Buffer.byteLength(content);

  it('over every transport: identity, gzip and br bodies that decode to the document, with their headers', async () => {
    expect(size).toBeGreaterThan(150_000);
    for (const { name, get, contentLength } of transports) {
      const tags = new Set<string>();
      for (const [accept, coding] of [
        [undefined, undefined],
        ['gzip', 'gzip'],
        ['gzip, deflate, br', 'br'],
        ['br;q=0.1, gzip;q=0.9', 'gzip'],
      ] as const) {
        const res = await get(path, accept === undefined ? {} : { 'accept-encoding': accept });
        const label = `${name}, Accept-Encoding ${accept}`;
        expect(res.status, label).toBe(200);
        expect(res.headers['content-type'], label).toBe(type);
        expect(res.headers['content-encoding'], label).toBe(coding);
        expect(res.headers.vary, label).toBe('Accept-Encoding');
        expect(res.headers['cache-control'], label).toBe('public, max-age=300');
        expect(res.headers['x-content-type-options'], label).toBe('nosniff');
        expect(res.headers['content-security-policy'], label).toBe(csp);
        expect(res.headers['request-id'], label).toMatch(/^req_/);
        const etag = res.headers.etag as string;
        expect(etag, label).toMatch(/^"[A-Za-z0-9_-]{43}(-gzip|-br)?"$/); // strong: no W/
        tags.add(etag);
        if (contentLength) expect(res.headers['content-length'], label).toBe(String(res.body.length));
        expect(decode(res) === content, label).toBe(true);
        if (coding !== undefined) expect(res.body.length, label).toBeLessThan(size / 10);
      }
      expect(tags.size, `${name}: one tag per coding`).toBe(3);
    }
  });

  it('If-None-Match with the tag of the representation → 304, no body; another tag → 200', async () => {
    for (const { name, get } of transports) {
      for (const accept of [undefined, 'gzip', 'br']) {
        const encoding: Record<string, string> = accept === undefined ? {} : { 'accept-encoding': accept };
        const first = await get(path, encoding);
        const etag = first.headers.etag as string;
        const label = `${name}, Accept-Encoding ${accept}`;
        for (const match of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
          const again = await get(path, { ...encoding, 'if-none-match': match });
          expect(again.status, `${label}, If-None-Match ${match}`).toBe(304);
          expect(again.body.length, label).toBe(0);
          expect(again.headers.etag, label).toBe(etag);
          expect(again.headers['cache-control'], label).toBe('public, max-age=300');
          expect(again.headers.vary, label).toBe('Accept-Encoding');
          expect(again.headers['content-encoding'], label).toBeUndefined();
          expect(again.headers['content-length'] ?? '0', label).toBe('0');
        }
        const stale = await get(path, { ...encoding, 'if-none-match': '"not-the-current-tag"' });
        expect(stale.status, label).toBe(200);
        expect(decode(stale) === content, label).toBe(true);
      }
      // A tag of one coding does not validate another representation.
      const gzipTag = (await get(path, { 'accept-encoding': 'gzip' })).headers.etag as string;
      const br = await get(path, { 'accept-encoding': 'br', 'if-none-match': gzipTag });
      expect(br.status, name).toBe(200);
      expect(br.headers['content-encoding'], name).toBe('br');
    }
  });

  it('HEAD → the headers of the GET (Content-Length of that representation on Node), no body', async () => {
    for (const { name, get, contentLength } of transports) {
      for (const accept of [undefined, 'gzip', 'br']) {
        const encoding: Record<string, string> = accept === undefined ? {} : { 'accept-encoding': accept };
        const full = await get(path, encoding);
        const head = await get(path, encoding, 'HEAD');
        const label = `${name}, Accept-Encoding ${accept}`;
        expect(head.status, label).toBe(200);
        expect(head.body.length, label).toBe(0);
        for (const header of [
          'etag',
          'content-encoding',
          'content-type',
          'content-security-policy',
          'vary',
        ]) {
          expect(head.headers[header], `${label} ${header}`).toBe(full.headers[header]);
        }
        if (contentLength) expect(head.headers['content-length'], label).toBe(String(full.body.length));
      }
    }
  });

  it('an allowed browser origin adds Vary: Origin without losing Vary: Accept-Encoding', async () => {
    const withOrigins = createHandler(createTestEngine(), {
      routes: apiRoutes,
      cors: { storefrontOrigins: ['https://shop.example'] },
    });
    const res = await inProcessGet(withOrigins)(path, {
      'accept-encoding': 'br',
      origin: 'https://shop.example',
    });
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(res.headers.vary).toBe('Accept-Encoding, Origin');
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('is compressed once per encoding and kept: later requests get the very same bytes', async () => {
    const raw = (accept: string) => ({
      method: 'GET',
      path,
      query: '',
      headers: { get: (name: string) => (name === 'accept-encoding' ? accept : null) },
      readBody: () => Promise.reject(new Error('no body')),
    });
    for (const accept of ['br', 'gzip', 'identity']) {
      const [a, b] = await Promise.all([handler.handleRaw(raw(accept)), handler.handleRaw(raw(accept))]);
      const c = await handler.handleRaw(raw(accept));
      expect(a.body).toBeInstanceOf(Uint8Array);
      expect(b.body, accept).toBe(a.body); // the same object, not an equal copy
      expect(c.body, accept).toBe(a.body);
    }
  });
});
