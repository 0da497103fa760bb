import { createServer } from 'node:http';
import { createEngine, type Engine } from '@cartwright/core';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../src/adapters/node';
import { createApiHandler } from '../src/api';
import { escapeHtml, renderApiReferenceHtml } from '../src/api-reference-html';
import { buildOpenApiDocument } from '../src/openapi';
import { apiRoutes } from '../src/routes';
import { type Listening, listen } from './support/listen';

// biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
type Json = any;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The document as the route serves it: plain JSON. */
const doc: Json = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes)));
const html = renderApiReferenceHtml(doc);

/** `METHOD path` of every operation in a document. */
function documentOperations(document: Json): string[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** `METHOD path` of every operation section in a page, read from its heading. */
function pageOperations(page: string): string[] {
  const heading =
    /<section class="op" id="[^"]+"[^>]*>\s*<h3>.*?<span class="method [a-z]+">([A-Z]+)<\/span> <code class="path">([^<]+)<\/code>/g;
  return [...page.matchAll(heading)].map((m) => `${m[1]} ${m[2]?.replace(/&amp;/g, '&')}`);
}

/** The HTML of one operation section, by its anchor. */
function section(page: string, id: string): string {
  const start = page.indexOf(`<section class="op" id="${id}"`);
  expect(start, id).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</section>', start));
}

describe('renderApiReferenceHtml on the API’s own document', () => {
  it('lists every operation of the document, once each, by method and path', () => {
    const expected = documentOperations(doc);
    expect(expected.length).toBeGreaterThan(80);
    expect(pageOperations(html).sort()).toEqual([...expected].sort());
  });

  it('gives each operation an anchor that the navigation links to', () => {
    const ids = [...html.matchAll(/<section class="op" id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(html).toContain(`<a href="#${id}" data-op="${id}">`);
    expect(ids).toContain('post-v1-admin-orders-id-refunds');
  });

  it('resolves $refs into nested field rows: lines[].quantity of the admin order create body', () => {
    const create = section(html, 'post-v1-admin-orders');
    const body = create.slice(create.indexOf('<h4>Request body</h4>'), create.indexOf('<h4>Response'));
    expect(body).toContain('<code>AdminOrderCreate</code>');
    expect(body).toContain('<td><code>lines[].variant_id</code></td><td>string</td><td class="req">yes</td>');
    expect(body).toContain('<td><code>lines[].quantity</code></td><td>integer</td>');
    expect(body).toContain('<code>shipping_address.country</code>');
    expect(html).not.toContain('$ref');
    expect(html).not.toContain('#/components/');
  });

  it('shows the success response schema and the error statuses with their codes', () => {
    const create = section(html, 'post-v1-admin-orders');
    expect(create).toContain('<h4>Response <code>201</code></h4>');
    expect(create).toContain('<code>Order</code>');
    expect(create).toContain('<code>lines[].refunded_quantity</code>');
    expect(create).toMatch(/<td><code>422<\/code><\/td><td>[^\n]*<code>insufficient_inventory<\/code>/);
    expect(create).toMatch(/<td><code>403<\/code><\/td><td><code>forbidden<\/code>/);
  });

  it('shows path and query parameters with their constraints', () => {
    const list = section(html, 'get-v1-storefront-products');
    expect(list).toContain('<h4>Query parameters</h4>');
    expect(list).toMatch(/<td><code>limit<\/code><\/td><td>integer<\/td>.*≤ 100.*default: 20/);
    const refund = section(html, 'post-v1-admin-orders-id-refunds');
    expect(refund).toContain('<h4>Path parameters</h4>');
    expect(refund).toMatch(/<td><code>id<\/code><\/td><td>string<\/td><td class="req">yes<\/td>/);
  });

  it('labels who may call each operation: secret key, publishable key, customer token, no key', () => {
    expect(section(html, 'post-v1-admin-orders')).toContain('<span class="badge secret">secret key</span>');
    const me = section(html, 'get-v1-storefront-customers-me');
    expect(me).toContain('<span class="badge publishable">publishable key</span>');
    expect(me).toContain('<span class="badge customer">customer token</span>');
    expect(section(html, 'get-v1-storefront-carts-id')).toContain('customer token optional');
    expect(section(html, 'get-v1-openapi-json')).toContain('<span class="badge">no key</span>');
  });

  it('is self-contained: no external scripts, styles, images or fonts; one inline script, hidden search box', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<(script|img|iframe)[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).not.toMatch(/url\(\s*['"]?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('<input id="filter" type="search"');
    expect(html).toMatch(/<input id="filter"[^>]* hidden>/);
  });

  it('renders the same page for the same document (the committed static copy is reproducible)', () => {
    expect(renderApiReferenceHtml(JSON.parse(JSON.stringify(doc)))).toBe(html);
  });
});

describe('renderApiReferenceHtml escaping', () => {
  const hostile = '<script>alert("x")</script>';
  const page = renderApiReferenceHtml({
    openapi: '3.1.0',
    info: { title: `Shop ${hostile}`, version: '1', description: `About ${hostile}` },
    paths: {
      '/v1/things/{id}': {
        get: {
          summary: `Get <b>thing</b>`,
          description: `Reads a thing. ${hostile} Then \`<code>\` stays text.`,
          tags: [`Tag ${hostile}`],
          parameters: [
            { in: 'path', name: 'id', required: true, description: hostile, schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { name: { type: 'string', description: hostile, enum: ['<a>', 'b"c'] } },
                  },
                },
              },
            },
            '404': { description: `Error: not_found, ${hostile}` },
          },
        },
      },
    },
  });

  it('escapes a <script> in descriptions, summaries, tags, parameters, fields and codes', () => {
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).not.toContain('alert("x")</script>');
    expect(page).toContain(escapeHtml(hostile));
    expect(escapeHtml(hostile)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).toContain('<p class="summary">Get &lt;b&gt;thing&lt;/b&gt;</p>');
    expect(page).toContain('<code>&lt;code&gt;</code> stays text.');
    expect(page).toContain('one of: &lt;a&gt;, b&quot;c');
    expect(page).not.toContain('<b>thing');
  });
});

describe('GET /v1/docs over HTTP', () => {
  let engine: Engine;
  let server: Listening;

  beforeAll(async () => {
    engine = await createEngine({ storage: sqliteStorage({ filename: ':memory:' }) });
    server = await listen(createServer(createNodeListener(createApiHandler(engine))));
  });

  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });

  it('returns 200 text/html without a key: the page of the served OpenAPI document, built once', async () => {
    const res = await fetch(`${server.url}/v1/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page.startsWith('<!doctype html>')).toBe(true);

    const served: Json = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    expect(page).toBe(renderApiReferenceHtml(served));
    expect(pageOperations(page).sort()).toEqual(documentOperations(served).sort());
    expect(served.paths['/v1/docs']).toBeUndefined();
    expect(page).not.toContain('id="get-v1-docs"');

    const again = await fetch(`${server.url}/v1/docs`);
    expect(await again.text()).toBe(page);
  });

  it('GET /v1 (no key) is a small index naming the API and where its reference lives; not in the document', async () => {
    const res = await fetch(`${server.url}/v1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      object: 'api',
      name: 'Cartwright API',
      version: '1.0.0',
      docs: '/v1/docs',
      openapi: '/v1/openapi.json',
    });
    const served: Json = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    expect(served.paths['/v1']).toBeUndefined();
  });

  it('other methods are refused with the JSON error body: POST /v1/docs → 405', async () => {
    const res = await fetch(`${server.url}/v1/docs`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await res.json()) as Json).error.code).toBe('method_not_allowed');
  });
});
