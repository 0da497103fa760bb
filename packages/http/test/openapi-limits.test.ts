import {
  MAX_AMOUNT,
  MAX_CART_LINES,
  MAX_IDENTIFIER_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_QUANTITY,
  MAX_TEXT_LENGTH,
} from '@cartwright/core/schemas';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/create-handler';
import { buildOpenApiDocument, DOCUMENTED_LIMITS, LIMITS_EXTENSION } from '../src/openapi';
import { apiRoutes } from '../src/routes';
import { STATUS_BY_CODE } from '../src/status-map';
import { createTestEngine, KEYS } from './support/test-engine';
import { testRoutes } from './support/test-routes';

// The document states what the API enforces (docs/contract.md#idempotency, #rate-limits, #input-limits): the
// Idempotency-Key header on POSTs, the 429 and RateLimit-* headers on counted operations, and
// the size limits — walked over the product's own document.

// biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
type Json = any;

const doc: Json = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes)));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  label: string;
  method: string;
  path: string;
  op: Json;
}

const operations: Operation[] = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m] !== undefined).map((m) => ({
    label: `${m.toUpperCase()} ${path}`,
    method: m,
    path,
    op: item[m],
  })),
);

/** A component by `$ref`, or the value itself. */
function resolve(value: Json): Json {
  if (value === null || typeof value !== 'object' || typeof value.$ref !== 'string') return value;
  const [, , kind, name] = (value.$ref as string).split('/');
  return doc.components[kind as string][name as string];
}

it("the product's document, with its shared parameter and header components, is valid OpenAPI 3.1", async () => {
  const result = await validate(structuredClone(doc));
  expect(result.valid ? [] : result.errors).toEqual([]);
});

describe('Idempotency-Key (decisions §12)', () => {
  const component = doc.components.parameters.IdempotencyKey;

  it('is one parameter component: an optional header string of at most 255 characters', () => {
    expect(component).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    expect(component.description).toContain('24 hours');
    expect(component.description).toContain('idempotency_key_reused');
    expect(component.description).toContain('key order and whitespace do not matter');
  });

  it('is on every POST and PUT that authenticates (decisions §19), and on no other operation', () => {
    const with_: string[] = [];
    const without: string[] = [];
    for (const { label, method, op } of operations) {
      const refs = (op.parameters ?? []).filter(
        (p: Json) => p.$ref === '#/components/parameters/IdempotencyKey',
      );
      const inline = (op.parameters ?? []).filter((p: Json) => resolve(p).name === 'Idempotency-Key');
      expect(inline.length, label).toBe(refs.length); // never written inline
      expect(refs.length, label).toBeLessThanOrEqual(1);
      if (method === 'post' || method === 'put') (refs.length === 1 ? with_ : without).push(label);
      else expect(refs, label).toEqual([]);
    }
    expect(with_.length).toBeGreaterThan(25);
    // The provider webhook and staff sign-in (decisions §23) have no API key, so no caller to
    // scope a key to (the pipeline ignores it).
    expect(without).toEqual([
      'POST /v1/admin/session',
      'POST /v1/admin/session/accept-invite',
      'POST /v1/webhooks/{provider}',
    ]);
    const webhook = doc.paths['/v1/webhooks/{provider}'].post;
    expect(webhook['x-cartwright-auth']).toBe('none');
    // A keyed POST may be a replay: its success response documents Idempotent-Replayed.
    for (const { label, method, op } of operations) {
      if ((method !== 'post' && method !== 'put') || without.includes(label)) continue;
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1] as Json;
      expect(success.headers?.['Idempotent-Replayed'], label).toEqual({
        $ref: '#/components/headers/Idempotent-Replayed',
      });
    }
  });

  it('states the length the pipeline enforces: 255 characters pass, 256 → 400 parameter_invalid', async () => {
    const handler = createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined });
    const post = (key: string) =>
      handler(
        new Request('http://shop.test/v1/admin/orders', {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEYS.secret}`, 'Idempotency-Key': key },
        }),
      );
    const max = component.schema.maxLength as number;
    expect((await post('k'.repeat(max))).status).toBe(201);
    const over = await post('k'.repeat(max + 1));
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({
      error: { code: 'parameter_invalid', param: 'Idempotency-Key' },
    });
  });
});

describe('rate limits (decisions §15)', () => {
  const HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

  it('defines each header once, as a component: non-negative integers (Reset and Retry-After in seconds)', () => {
    for (const name of [...HEADERS, 'Retry-After']) {
      expect(doc.components.headers[name], name).toMatchObject({ schema: { type: 'integer', minimum: 0 } });
    }
    expect(doc.components.headers['RateLimit-Reset'].description).toMatch(/seconds/i);
    expect(doc.components.headers['Retry-After'].description).toMatch(/seconds/i);
    expect(doc.components.headers['Retry-After'].required).toBe(true);
  });

  it('every authenticated operation: a 429 rate_limited (the error body, Retry-After) and RateLimit-* on every response', () => {
    expect(STATUS_BY_CODE.rate_limited).toBe(429);
    const errorTypes = doc.components.schemas.ErrorResponse.properties.error.properties;
    expect(errorTypes.type.enum).toContain('rate_limit_error');
    expect(errorTypes.code.enum).toContain('rate_limited');
    let counted = 0;
    for (const { label, op } of operations) {
      if (op['x-cartwright-auth'] === 'none') continue;
      counted++;
      const tooMany = op.responses['429'];
      expect(tooMany, label).toBeDefined();
      expect(tooMany.description, label).toBe('Error: rate_limited');
      expect(tooMany.content['application/json'].schema, label).toEqual({
        $ref: '#/components/schemas/ErrorResponse',
      });
      expect(tooMany.headers['Retry-After'], label).toEqual({ $ref: '#/components/headers/Retry-After' });
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        for (const name of HEADERS) {
          expect(response.headers?.[name], `${label} ${status} ${name}`).toEqual({
            $ref: `#/components/headers/${name}`,
          });
        }
        if (status !== '429') expect(response.headers?.['Retry-After'], `${label} ${status}`).toBeUndefined();
      }
    }
    expect(counted).toBeGreaterThan(80);
  });

  it('the guest order lookup (its own stricter budget) has them; operations without a key and no budget do not', () => {
    expect(doc.paths['/v1/storefront/orders/lookup'].get.responses['429']).toBeDefined();
    // Staff sign-in and accepting an invitation limit failed attempts (decisions §23, §15).
    const limitedFailures = ['POST /v1/admin/session', 'POST /v1/admin/session/accept-invite'];
    for (const { label, op } of operations) {
      if (op['x-cartwright-auth'] !== 'none') continue;
      if (limitedFailures.includes(label)) expect(op.responses['429'], label).toBeDefined();
      else expect(op.responses['429'], label).toBeUndefined();
    }
  });
});

/**
 * Every schema node of the request side (bodies, path and query parameters), with its place:
 * `$ref`s resolved, each component walked once per place.
 */
function requestNodes(): { at: string; node: Json }[] {
  const out: { at: string; node: Json }[] = [];
  const walk = (node: Json, at: string, seen: Set<string>): void => {
    if (node === null || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) return;
      walk(resolve(node), at, new Set([...seen, node.$ref]));
      return;
    }
    out.push({ at, node });
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const part of node[key] ?? []) walk(part, at, seen);
    }
    if (node.items !== undefined) walk(node.items, `${at}[]`, seen);
    for (const [name, value] of Object.entries(node.properties ?? {})) walk(value, `${at}.${name}`, seen);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${at}{}`, seen);
  };
  for (const { label, op } of operations) {
    for (const parameter of op.parameters ?? []) {
      const p = resolve(parameter);
      walk(p.schema, `${label} ${p.in}:${p.name}`, new Set());
    }
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body !== undefined) walk(body, `${label} body`, new Set());
  }
  return out;
}

const typeOf = (node: Json): string[] => (Array.isArray(node.type) ? node.type : [node.type]);

describe('size limits (decisions §15) in the document', () => {
  const nodes = requestNodes();

  it(`names every limit at the root (${LIMITS_EXTENSION}), from core's limits, and in the description`, () => {
    expect(doc[LIMITS_EXTENSION]).toEqual({ ...DOCUMENTED_LIMITS });
    expect(doc[LIMITS_EXTENSION]).toMatchObject({
      metadata_keys: 50,
      metadata_key_length: 40,
      metadata_value_length: 500,
      identifier_length: 255,
      name_length: 255,
      text_length: 10_000,
      cart_lines: 250,
      quantity: 10_000,
      amount: 999_999_999,
      idempotency_key_length: 255,
    });
    const description = doc.info.description as string;
    for (const figure of [
      '50 keys',
      '40 characters',
      '500 characters',
      '250 lines',
      '10,000 units',
      '999,999,999',
    ]) {
      expect(description).toContain(figure);
    }
    expect(description).toContain('`rate_limited`');
  });

  it('every metadata object of a request: maxProperties 50, keys ≤ 40, and its 500-character strings described', () => {
    const metadata = nodes.filter(({ at }) => /\.(metadata|attributes)$/.test(at));
    expect(metadata.length).toBeGreaterThan(20);
    for (const { at, node } of metadata) {
      expect(node.maxProperties, at).toBe(MAX_METADATA_KEYS);
      expect(node.propertyNames, at).toEqual({ minLength: 1, maxLength: MAX_METADATA_KEY_LENGTH });
      // Strings at any depth are checked by code (a refinement): the description says so.
      expect(node.description, at).toContain(`strings at most ${MAX_METADATA_VALUE_LENGTH} characters`);
    }
  });

  it('every quantity ≤ 10,000 and every money amount ≤ 999,999,999; a new cart at most 250 lines', () => {
    // Line quantities (carts, orders, fulfillments, refunds); stock adjustments are counts (int4).
    const quantities = nodes.filter(
      ({ at, node }) =>
        /\.quantity$/.test(at) && !at.includes('/inventory/') && typeOf(node).includes('integer'),
    );
    expect(quantities.length).toBeGreaterThan(5);
    for (const { at, node } of quantities) expect(node.maximum, at).toBe(MAX_QUANTITY);

    const prices = nodes.filter(
      ({ at, node }) =>
        /\.(price|compare_at_price|cost_price|minimum_amount|maximum_discount|free_shipping_threshold)(\.amount)?$/.test(
          at,
        ) && typeOf(node).includes('integer'),
    );
    expect(prices.length).toBeGreaterThan(10);
    for (const { at, node } of prices) expect(node.maximum, at).toBe(MAX_AMOUNT);
    // Payments and refunds too (decisions §15: money in any request, admin payments included).
    const amounts = nodes.filter(
      ({ at, node }) =>
        /\/(payments|refunds) body\.amount(\.amount)?$/.test(at) && typeOf(node).includes('integer'),
    );
    expect(amounts.length).toBeGreaterThanOrEqual(2);
    for (const { at, node } of amounts) expect(node.maximum, at).toBe(MAX_AMOUNT);

    const cartItems = nodes.find(({ at }) => at === 'POST /v1/storefront/carts body.items');
    expect(cartItems?.node.maxItems).toBe(MAX_CART_LINES);
  });

  it('ids, codes and session ids ≤ 255; descriptions and notes ≤ 10,000', () => {
    const identifiers = nodes.filter(
      ({ at, node }) =>
        /\.(session_id|sku|code|variant_id|customer_id|email)$/.test(at) && typeOf(node).includes('string'),
    );
    expect(identifiers.length).toBeGreaterThan(10);
    for (const { at, node } of identifiers) {
      // A region's code is 1–32 of [a-z0-9_-] (decisions §19).
      expect(node.maxLength, at).toBe(at === 'POST /v1/admin/regions body.code' ? 32 : MAX_IDENTIFIER_LENGTH);
    }
    const texts = nodes.filter(
      ({ at, node }) => /\.(description|note)$/.test(at) && typeOf(node).includes('string'),
    );
    expect(texts.length).toBeGreaterThan(5);
    for (const { at, node } of texts) expect(node.maxLength, at).toBe(MAX_TEXT_LENGTH);
  });

  it('no request string, number, list or map is unbounded, but for the ones a rule bounds (each named)', () => {
    // Bounded by a rule the schema cannot express, each checked by code:
    const RULES: [RegExp, string][] = [
      [/\.country$/, 'an ISO 3166-1 alpha-2 code from the list (two letters)'],
      [/\/discounts(\/\{id\})? body\.value$/, 'by value_type: percentage 0 < v ≤ 100, fixed ≤ MAX_AMOUNT'],
      [/\.options$/, "a variant's option names must be the product's options (≤ 250)"],
      [/ query:price_(min|max)$|orders\/lookup query:number$/, 'a filter, never stored'],
      [/ path:(slug|session_id|code|provider)$/, 'a path segment looked up, never stored'],
    ];
    const unbounded: string[] = [];
    const used = new Set<RegExp>();
    const exempt = new Set<string>();
    for (const { at, node } of nodes) {
      const types = typeOf(node);
      const open =
        (types.includes('string') &&
          node.maxLength === undefined &&
          node.enum === undefined &&
          node.const === undefined &&
          node.pattern === undefined &&
          node.format === undefined) ||
        ((types.includes('integer') || types.includes('number')) && node.maximum === undefined) ||
        (types.includes('array') && node.maxItems === undefined) ||
        (typeof node.additionalProperties === 'object' && node.maxProperties === undefined);
      if (!open) continue;
      const rule = RULES.find(([pattern]) => pattern.test(at));
      if (rule === undefined) unbounded.push(at);
      else {
        used.add(rule[0]);
        exempt.add(at);
      }
    }
    expect(unbounded).toEqual([]);
    expect(exempt.size).toBeLessThan(40);
    expect([...used].length).toBe(RULES.length); // every exception is still needed
  });
});
