import { describe, expect, it } from 'vitest';
import { renderApiReferenceHtml } from '../src/api-reference-html';
import { buildOpenApiDocument, toOpenApiPath } from '../src/openapi';
import {
  addOpenApiExamples,
  curlCommand,
  EXAMPLE_CREDENTIALS,
  exampleForSchema,
  shellQuote,
} from '../src/openapi-examples';
import type { AnyRoute } from '../src/route';
import { apiRoutes } from '../src/routes';

// The examples of the document and the reference page are generated from the
// document's JSON Schemas; the routes' zod schemas, which also hold the rules JSON Schema cannot
// say, must accept every one of them.

// biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
type Json = any;

const doc: Json = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes)));
const documented = apiRoutes.filter((route) => route.excludeFromOpenApi !== true);

function operationOf(route: AnyRoute): Json {
  return doc.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
}

const label = (route: AnyRoute) => `${route.method} ${route.path}`;

/** A zod error as `path: message` lines, for a readable failure. */
function problems(result: { success: boolean; error?: { issues: Json[] } }): string[] {
  return result.success
    ? []
    : (result.error?.issues ?? []).map((issue: Json) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('examples in the OpenAPI document', () => {
  it('every request body example passes the route body schema', () => {
    const failures: Record<string, string[]> = {};
    let checked = 0;
    for (const route of documented) {
      if (route.body === undefined) continue;
      const example = operationOf(route).requestBody?.content?.['application/json']?.example;
      if (example === undefined) {
        failures[label(route)] = ['no example'];
        continue;
      }
      checked++;
      const found = problems(route.body.safeParse(example));
      if (found.length > 0) failures[label(route)] = found;
    }
    expect(failures).toEqual({});
    expect(checked).toBeGreaterThan(40);
  });

  it('every success response example passes the route response schema', () => {
    const failures: Record<string, string[]> = {};
    let checked = 0;
    for (const route of documented) {
      const op = operationOf(route);
      const status = String(route.status ?? 200);
      const example = op.responses[status]?.content?.['application/json']?.example;
      if (example === undefined) {
        failures[label(route)] = ['no example'];
        continue;
      }
      checked++;
      const found = problems(route.response.safeParse(example));
      if (found.length > 0) failures[label(route)] = found;
    }
    expect(failures).toEqual({});
    expect(checked).toBe(documented.length);
  });

  it('every path parameter example passes the route params schema', () => {
    const failures: Record<string, string[]> = {};
    for (const route of documented) {
      const op = operationOf(route);
      const params = Object.fromEntries(
        (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => [p.name, p.example]),
      );
      if (Object.keys(params).length === 0) continue;
      if (Object.values(params).some((v) => typeof v !== 'string')) failures[label(route)] = ['no example'];
      else if (route.params !== undefined) {
        const found = problems(route.params.safeParse(params));
        if (found.length > 0) failures[label(route)] = found;
      }
    }
    expect(failures).toEqual({});
  });
});

const page = renderApiReferenceHtml(doc);
const unescapeHtml = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The HTML of each operation section of the page, by `METHOD path`. */
function sections(): Map<string, string> {
  const found = new Map<string, string>();
  const heading =
    /<section class="op" id="[^"]+"[^>]*>\s*<h3>.*?<span class="method [a-z]+">([A-Z]+)<\/span> <code class="path">([^<]+)<\/code>/g;
  for (const m of page.matchAll(heading)) {
    const end = page.indexOf('</section>', m.index);
    found.set(`${m[1]} ${unescapeHtml(m[2] as string)}`, page.slice(m.index, end));
  }
  return found;
}

describe('examples on the reference page', () => {
  const bySection = sections();
  const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Json>).map(([method, op]) => ({ method, path, op })),
  );

  it('shows one curl line per operation, the one curlCommand makes from the document', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(bySection.size).toBe(operations.length);
    for (const { method, path, op } of operations) {
      const html = bySection.get(`${method.toUpperCase()} ${path}`) as string;
      const lines = [...html.matchAll(/<pre class="curl"><code>([\s\S]*?)<\/code><\/pre>/g)];
      expect(lines, `${method} ${path}`).toHaveLength(1);
      expect(unescapeHtml(lines[0]?.[1] as string)).toBe(curlCommand(doc, { method, path, op }));
    }
  });

  it('a curl line states the method, the filled path, the key the route needs, its headers and the body', () => {
    for (const { method, path, op } of operations) {
      const line = curlCommand(doc, { method, path, op });
      const label = `${method.toUpperCase()} ${path}`;
      const start = method === 'get' ? 'curl ' : `curl -X ${method.toUpperCase()} `;
      expect(line.startsWith(`${start}http`) || line.startsWith(`${start}'http`), label).toBe(true);
      expect(line, label).not.toMatch(/\{[a-z_]+\}/);
      const auth = op['x-cartwright-auth'];
      expect(line.includes(`Authorization: Bearer ${EXAMPLE_CREDENTIALS.secret}`), label).toBe(
        auth === 'secret',
      );
      expect(line.includes(`Authorization: Bearer ${EXAMPLE_CREDENTIALS.publishable}`), label).toBe(
        auth === 'any',
      );
      const idempotent = (op.parameters ?? []).some(
        (p: Json) => p.$ref === '#/components/parameters/IdempotencyKey',
      );
      expect(/-H "Idempotency-Key: [0-9a-f-]{36}"/.test(line), label).toBe(idempotent);
      // Only where the token is required: a line of a route that reads one when sent (carts,
      // checkout) is a guest's request, which works as pasted.
      const security = op.security ?? [];
      const token = security.length > 0 && security.every((r: Json) => 'CustomerToken' in r);
      expect(line.includes(`X-Customer-Token: ${EXAMPLE_CREDENTIALS.customerToken}`), label).toBe(token);
      const example = op.requestBody?.content?.['application/json']?.example;
      const sendsBody =
        example !== undefined && (op.requestBody.required === true || Object.keys(example).length > 0);
      expect(line.includes(`-d '${JSON.stringify(example)}'`), label).toBe(sendsBody);
      expect(line.includes('Content-Type: application/json'), label).toBe(sendsBody);
    }
  });

  it('shows the request body example and, on demand, the response example of the document', () => {
    const data = /<pre id="examples" hidden>([\s\S]*?)<\/pre>/.exec(page);
    expect(data).not.toBeNull();
    const examples = JSON.parse(unescapeHtml(data?.[1] as string)) as unknown[];
    for (const { method, path, op } of operations) {
      const html = bySection.get(`${method.toUpperCase()} ${path}`) as string;
      const label = `${method.toUpperCase()} ${path}`;
      const request = op.requestBody?.content?.['application/json']?.example;
      const shown = /<summary>Example request body<\/summary><pre><code>([\s\S]*?)<\/code><\/pre>/.exec(html);
      if (request === undefined) expect(shown, label).toBeNull();
      else expect(JSON.parse(unescapeHtml(shown?.[1] as string)), label).toEqual(request);
      const [status, response] = Object.entries(op.responses as Record<string, Json>).find(([s]) =>
        s.startsWith('2'),
      ) as [string, Json];
      const index = new RegExp(
        `<details class="example" data-example="(\\d+)" hidden><summary>Example response ${status}</summary>`,
      ).exec(html);
      const expected = response.content?.['application/json']?.example;
      if (expected === undefined) expect(index, label).toBeNull();
      else expect(examples[Number(index?.[1])], label).toEqual(expected);
    }
    // Each distinct response example is embedded once.
    expect(new Set(examples.map((e) => JSON.stringify(e))).size).toBe(examples.length);
  });
});

describe('the example generator on its own', () => {
  const components = {
    schemas: {
      Node: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          parent: { anyOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }] },
        },
        required: ['id', 'parent'],
      },
      ProductCreate: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          kind: { type: 'string', enum: ['a', 'b'], default: 'b' },
          size: { type: 'integer', minimum: 3, maximum: 5 },
          quantity: { type: 'integer', minimum: 1, maximum: 10 },
          code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2}$', examples: ['ABC-12'] },
          variant_id: { type: 'string' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
          shipped_at: { type: ['string', 'null'], format: 'date-time' },
        },
        required: ['name', 'size'],
        additionalProperties: false,
      },
    },
  };
  const doc = { openapi: '3.1.0', components };

  it('honours examples, enum defaults, ranges and names; leaves optional references out of requests', () => {
    expect(exampleForSchema(doc, { $ref: '#/components/schemas/ProductCreate' }, 'request')).toEqual({
      name: 'Classic T-Shirt',
      kind: 'b',
      size: 3,
      quantity: 1,
      code: 'ABC-12',
      shipped_at: '2025-01-15T09:30:00.000Z',
    });
  });

  it('gives responses every field, ids by their prefix, and null for events yet to happen', () => {
    const response = exampleForSchema(
      doc,
      { $ref: '#/components/schemas/ProductCreate' },
      'response',
    ) as Json;
    expect(response).toMatchObject({
      variant_id: 'var_01JDX5Q8T3VZK7M2N4P6R8S0W2',
      metadata: {},
      shipped_at: null,
    });
  });

  it('stops at a cycle: a nullable self-reference becomes null', () => {
    expect(exampleForSchema(doc, { $ref: '#/components/schemas/Node' }, 'response')).toEqual({
      id: 'obj_01JDX5Q8T3VZK7M2N4P6R8S0W2',
      parent: null,
    });
  });

  it('finds a candidate that fits a pattern; keeps an example already present', () => {
    expect(exampleForSchema(doc, { type: 'string', pattern: '^[a-z]+-[0-9]+$' }, 'request')).toBe(
      'example-1',
    );
    const document = addOpenApiExamples({
      ...doc,
      paths: {
        '/things/{id}': {
          post: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: {
              content: { 'application/json': { schema: { type: 'object' }, example: { kept: true } } },
            },
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
            },
          },
        },
      },
    }) as Json;
    const op = document.paths['/things/{id}'].post;
    expect(op.requestBody.content['application/json'].example).toEqual({ kept: true });
    expect(op.parameters[0].example).toBe('obj_01JDX5Q8T3VZK7M2N4P6R8S0W2');
    expect(op.responses[200].content['application/json'].example).toEqual({});
  });

  it('quotes a body for the shell, single quotes included', () => {
    expect(shellQuote(`{"note":"it's"}`)).toBe(`'{"note":"it'\\''s"}'`);
  });
});
