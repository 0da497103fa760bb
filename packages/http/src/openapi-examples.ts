/**
 * Examples for the OpenAPI document, generated from its own JSON Schemas (which zod-to-openapi
 * wrote from the routes' zod schemas), so that they follow the schemas as they change:
 *
 * - an `example` on every JSON request body and on every JSON success response;
 * - an `example` on every path parameter and required query parameter;
 *
 * and, from those, a curl command per operation ({@link curlCommand}) for the HTML reference.
 *
 * The generator honours, in this order, a schema's own `example`/`examples` (a `.meta({ example })`
 * on a zod schema lands there), `const`, `default` and `enum`, then its `type`, `format`, `pattern`,
 * length and range limits, and the field's name (`currency` → `USD`, `country` → `US`,
 * `product_id` → `prod_…`, `id` inside a `Product` → `prod_…`). Request bodies get their required
 * fields plus the optional plain fields (strings, numbers, booleans, lists of them) that do not
 * point at other objects, so the example is small and can be sent as it is (no unknown ids);
 * responses get every field. The tests check each example against the route's zod schema, which
 * also holds the rules JSON Schema cannot say.
 */

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fixed tail of every example id: `prod_01JDX5Q8T3VZK7M2N4P6R8S0W2`. */
const ID_TAIL = '01JDX5Q8T3VZK7M2N4P6R8S0W2';

/** The timestamp every example uses. */
export const EXAMPLE_TIMESTAMP = '2025-01-15T09:30:00.000Z';

/** A later timestamp, for the end of a period (`ends_at`, `expires_at`). */
const EXAMPLE_END_TIMESTAMP = '2025-02-15T09:30:00.000Z';

/** The base URL of the curl examples (`cartwright serve` listens on port 3000 by default). */
export const EXAMPLE_BASE_URL = 'http://localhost:3000';

/** Placeholders of the curl examples, one per credential. */
export const EXAMPLE_CREDENTIALS = {
  secret: 'sk_test_…',
  publishable: 'pk_test_…',
  customerToken: 'ct_…',
} as const;

/** Id prefix (docs/contract.md#ids) by resource noun, as it appears in field names and path segments. */
const PREFIX_BY_NOUN: Readonly<Record<string, string>> = {
  product: 'prod',
  variant: 'var',
  option: 'opt',
  option_value: 'optval',
  image: 'img',
  inventory: 'inv',
  cart: 'cart',
  item: 'item',
  cart_item: 'item',
  order: 'ord',
  line: 'line',
  order_line: 'line',
  payment: 'pay',
  fulfillment: 'ful',
  refund: 'ref',
  discount: 'disc',
  applied_discount: 'disc',
  condition: 'cond',
  discount_condition: 'cond',
  customer: 'cus',
  address: 'addr',
  customer_address: 'addr',
  shipping_method: 'ship',
  webhook: 'wh',
  webhook_delivery: 'whd',
  delivery: 'whd',
  webhook_attempt: 'att',
  attempt: 'att',
  event: 'evt',
  key: 'key',
  api_key: 'key',
  notification: 'ntf',
  store: 'store',
  organization: 'org',
  request: 'req',
};

/** `ShippingMethodCreate` → `shipping_method`; `ApiKeyCreated` → `api_key`. */
function nounOfComponent(name: string): string {
  const base = name.replace(/(Create|Created|Update|Input|List|Add|Apply|Rotated|Result)$/, '');
  return base.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** `shipping-methods` → `shipping_method`; `addresses` → `address`; `deliveries` → `delivery`. */
function nounOfSegment(segment: string): string {
  const noun = segment.replace(/-/g, '_');
  if (noun.endsWith('ies')) return `${noun.slice(0, -3)}y`;
  if (noun.endsWith('sses') || noun.endsWith('shes')) return noun.slice(0, -2);
  if (noun.endsWith('s')) return noun.slice(0, -1);
  return noun;
}

function exampleId(noun: string | undefined): string {
  const prefix = (noun === undefined ? undefined : PREFIX_BY_NOUN[noun]) ?? 'obj';
  return `${prefix}_${ID_TAIL}`;
}

/** Display names for a resource's `name`, by noun; otherwise `Example <noun>`. */
const NAME_BY_NOUN: Readonly<Record<string, string>> = {
  product: 'Classic T-Shirt',
  variant: 'Classic T-Shirt / M',
  option: 'Size',
  shipping_method: 'Standard shipping',
  discount: 'Summer sale',
  store: 'Example Store',
  organization: 'Example Inc.',
  customer: 'Jenny Rosen',
  webhook: 'Order events',
  api_key: 'Storefront key',
  open_api_document: 'Cartwright API',
};

/** `description` by noun; otherwise a generic sentence. */
const DESCRIPTION_BY_NOUN: Readonly<Record<string, string>> = {
  product: 'A soft cotton T-shirt.',
  shipping_method: 'Delivered in 3–5 business days.',
  discount: '10 % off everything in summer.',
};

/** String examples by field name (lower case). */
const STRING_BY_NAME: Readonly<Record<string, string>> = {
  currency: 'USD',
  default_currency: 'USD',
  country: 'US',
  email: 'jenny.rosen@example.com',
  phone: '+14155550123',
  first_name: 'Jenny',
  last_name: 'Rosen',
  company: 'Example Inc.',
  line1: '1 Market Street',
  line2: 'Suite 300',
  city: 'San Francisco',
  state: 'CA',
  province: 'CA',
  region: 'CA',
  postal_code: '94105',
  zip: '94105',
  sku: 'TSHIRT-M',
  barcode: '0012345678905',
  code: 'SUMMER10',
  slug: 'classic-t-shirt',
  description: 'A soft cotton T-shirt.',
  alt: 'Front view',
  label: 'Home',
  value: 'M',
  tag: 'summer',
  tags: 'summer',
  session_id: 'sess_4b1f0c2e9d',
  carrier: 'UPS',
  tracking_number: '1Z999AA10123456784',
  timezone: 'UTC',
  locale: 'en-US',
  provider: 'manual',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  token: 'ct_…',
  message: 'Example message.',
  note: 'Leave at the door.',
  notes: 'Leave at the door.',
  reason: 'Customer request.',
  number: '1001',
  type: 'example',
  alt_text: 'Front view',
  event_type: 'order.created',
  key_prefix: 'sk_test_4f0c',
  key: 'sk_test_4f0c1d2e3b4a5968c7d6e5f4',
  plan: 'standard',
  provider_id: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
  external_id: 'crm-1001',
  client_secret: 'pi_3MtwBwLkdIwHu7ix28a3tqPa_secret_YrKJUKribcBjcG8HVhfZluoGH',
  openapi: '3.1.0',
  version: '1.0.0',
};

/**
 * Request bodies given whole, by component, where the generated one would not work as pasted: a
 * checkout of physical goods needs a shipping address (an optional object, which generation
 * leaves out), and the deprecated `payment_method` has no place in an example. A guest's checkout:
 * the reference's line of it, sent to a cart with items, answers 201 with the order.
 */
const REQUEST_EXAMPLE_BY_COMPONENT: Readonly<Record<string, JsonObject>> = {
  Checkout: {
    email: 'jenny.rosen@example.com',
    payment_provider: 'manual',
    shipping_address: {
      name: 'Jenny Rosen',
      line1: '1 Market Street',
      city: 'San Francisco',
      state: 'CA',
      postal_code: '94105',
      country: 'US',
    },
    note: 'Leave at the door.',
  },
};

/** The whole request example of a body schema that is a component of {@link REQUEST_EXAMPLE_BY_COMPONENT}. */
function givenRequestExample(schema: unknown): JsonObject | undefined {
  const prefix = '#/components/schemas/';
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith(prefix))
    return undefined;
  const given = REQUEST_EXAMPLE_BY_COMPONENT[schema.$ref.slice(prefix.length)];
  return given === undefined ? undefined : structuredClone(given);
}

/** Fields shown as `null` in a response example when they may be null (nothing happened yet). */
const NULL_IN_RESPONSE = new Set(['next_cursor', 'error', 'client_secret']);

interface Context {
  doc: JsonObject;
  mode: 'request' | 'response';
  /** The field (or parameter) name the schema belongs to. */
  name: string | undefined;
  /** The resource noun of the enclosing component (`product` inside `Product`). */
  noun: string | undefined;
  /** Component names being expanded (cycle guard). */
  stack: readonly string[];
}

const MAX_DEPTH = 12;

function componentSchema(doc: JsonObject, ref: string): { name: string; schema: unknown } | undefined {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) return undefined;
  const name = ref.slice(prefix.length);
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  return name in schemas ? { name, schema: schemas[name] } : undefined;
}

/** A schema with its `$ref` followed (one component deep), for looking at its kind. */
function resolved(doc: JsonObject, schema: unknown): JsonObject {
  if (isObject(schema) && typeof schema.$ref === 'string') {
    const target = componentSchema(doc, schema.$ref)?.schema;
    return isObject(target) ? target : {};
  }
  return isObject(schema) ? schema : {};
}

/** The non-null alternative of a nullable schema (`anyOf: [X, {type: null}]`), or the schema itself. */
function nonNull(doc: JsonObject, schema: unknown): JsonObject {
  const s = resolved(doc, schema);
  const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (branches !== undefined) {
    const first = branches.find((b) => !(isObject(b) && b.type === 'null'));
    return first === undefined ? s : resolved(doc, first);
  }
  return s;
}

function types(schema: JsonObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** Whether an optional request field is shown: plain values that point at nothing else. */
function showOptionalInRequest(doc: JsonObject, name: string, schema: unknown): boolean {
  if (name === 'metadata' || name === 'attributes') return false;
  // A locale points at one the store configured (decisions §21), as an id points at a record.
  if (name === 'locale') return false;
  if (/(^|_)ids?$/.test(name) && name !== 'session_id') return false;
  const s = nonNull(doc, schema);
  if (s.enum !== undefined || s.const !== undefined) return true;
  const kind = types(s).filter((t) => t !== 'null');
  if (kind.some((t) => t === 'string' || t === 'integer' || t === 'number' || t === 'boolean')) return true;
  if (kind.includes('array')) {
    const items = nonNull(doc, s.items);
    return types(items).some((t) => t === 'string' || t === 'integer' || t === 'number');
  }
  return false;
}

function generate(schema: unknown, ctx: Context, depth: number): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = componentSchema(ctx.doc, schema.$ref);
    if (target === undefined || ctx.stack.includes(target.name)) return undefined;
    return generate(
      target.schema,
      { ...ctx, noun: nounOfComponent(target.name), stack: [...ctx.stack, target.name] },
      depth + 1,
    );
  }
  if ('example' in schema) return structuredClone(schema.example);
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return structuredClone(schema.examples[0]);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return schema.default !== undefined && schema.enum.includes(schema.default)
      ? schema.default
      : schema.enum.find((v) => v !== null);
  }
  const branches = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : [];
  if (branches.length > 0) {
    const isNull = (b: unknown) => isObject(b) && b.type === 'null';
    if (ctx.mode === 'response' && branches.some(isNull) && isLaterTimestamp(ctx.name)) return null;
    for (const branch of branches.filter((b) => !isNull(b))) {
      const value = generate(branch, ctx, depth + 1);
      if (value !== undefined) return value;
    }
    return branches.some(isNull) ? null : undefined;
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => generate(part, ctx, depth + 1));
    if (parts.every(isObject)) return Object.assign({}, ...parts);
    return parts.find((part) => part !== undefined);
  }
  const kinds = types(schema);
  if (kinds.includes('null') && ctx.mode === 'response' && isLaterTimestamp(ctx.name)) return null;
  const kind = kinds.find((t) => t !== 'null') ?? (isObject(schema.properties) ? 'object' : undefined);
  switch (kind) {
    case 'object':
      return objectExample(schema, ctx, depth);
    case 'array':
      return arrayExample(schema, ctx, depth);
    case 'string':
      return stringExample(schema, ctx);
    case 'integer':
    case 'number':
      return numberExample(schema, ctx, kind);
    case 'boolean':
      return typeof schema.default === 'boolean' ? schema.default : ctx.name !== 'has_more';
    case 'null':
      return null;
    default:
      if (schema.default !== undefined) return structuredClone(schema.default);
      return kinds.includes('null') ? null : undefined;
  }
}

/**
 * `shipped_at`, `cancelled_at`, `next_cursor`…: null in a response example when the schema allows
 * it (the event has not happened yet, there is no next page).
 */
function isLaterTimestamp(name: string | undefined): boolean {
  if (name === undefined) return false;
  if (NULL_IN_RESPONSE.has(name)) return true;
  return name.endsWith('_at') && name !== 'created_at' && name !== 'updated_at';
}

function objectExample(schema: JsonObject, ctx: Context, depth: number): JsonObject | undefined {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: JsonObject = {};
  for (const [name, property] of Object.entries(properties)) {
    const needed = required.has(name);
    if (!needed && ctx.mode === 'request' && !showOptionalInRequest(ctx.doc, name, property)) continue;
    const value = generate(property, { ...ctx, name }, depth + 1);
    if (value !== undefined) out[name] = value;
    else if (needed) return undefined;
  }
  return out;
}

function arrayExample(schema: JsonObject, ctx: Context, depth: number): unknown[] | undefined {
  const item = generate(schema.items, { ...ctx, name: singular(ctx.name) }, depth + 1);
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  if (item === undefined) return min === 0 ? [] : undefined;
  const count = Math.max(1, min);
  return Array.from({ length: count }, () => structuredClone(item));
}

/** `option_value_ids` → `option_value_id`; `tags` → `tag`. */
function singular(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (name.endsWith('_ids')) return name.slice(0, -1);
  return name.endsWith('s') && !name.endsWith('ss') ? name.slice(0, -1) : name;
}

function stringExample(schema: JsonObject, ctx: Context): string {
  if (typeof schema.default === 'string') return schema.default;
  const name = ctx.name?.toLowerCase();
  const candidates: string[] = [];
  if (name !== undefined) {
    if (name === 'id') candidates.push(exampleId(ctx.noun));
    else if (name.endsWith('_id') && name !== 'session_id' && !(name in STRING_BY_NAME)) {
      candidates.push(exampleId(name.slice(0, -3)));
    }
    if (name === 'url' || name.endsWith('_url')) candidates.push(urlFor(name, ctx.noun));
    if (/^(ends|expires|until)_at$/.test(name)) candidates.push(EXAMPLE_END_TIMESTAMP);
    if (name.endsWith('_at')) candidates.push(EXAMPLE_TIMESTAMP);
    if (name.endsWith('email')) candidates.push('jenny.rosen@example.com');
    if (name === 'name' || name === 'title') candidates.push(nameFor(ctx.noun));
    else if (name.endsWith('_name') && NAME_BY_NOUN[name.slice(0, -5)] !== undefined) {
      candidates.push(nameFor(name.slice(0, -5)));
    }
    if (name === 'description')
      candidates.push(DESCRIPTION_BY_NOUN[ctx.noun ?? ''] ?? 'A short description.');
    const known = STRING_BY_NAME[name];
    if (known !== undefined) candidates.push(known);
    if (name.endsWith('_code')) candidates.push('SUMMER10');
  }
  switch (schema.format) {
    case 'date-time':
      candidates.push(EXAMPLE_TIMESTAMP);
      break;
    case 'date':
      candidates.push(EXAMPLE_TIMESTAMP.slice(0, 10));
      break;
    case 'email':
      candidates.push('jenny.rosen@example.com');
      break;
    case 'uri':
    case 'url':
      candidates.push(urlFor(name, ctx.noun));
      break;
    case 'uuid':
      candidates.push('3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f');
      break;
  }
  candidates.push('example', 'EXAMPLE', 'example-1', exampleId(ctx.noun));
  const fits = (value: string) =>
    (typeof schema.minLength !== 'number' || value.length >= schema.minLength) &&
    (typeof schema.maxLength !== 'number' || value.length <= schema.maxLength) &&
    (typeof schema.pattern !== 'string' || matches(schema.pattern, value));
  const fit = candidates.find(fits);
  if (fit !== undefined) return fit;
  const first = candidates[0] as string;
  return typeof schema.minLength === 'number' && first.length < schema.minLength
    ? first.padEnd(schema.minLength, 'x')
    : first;
}

/** Whether `value` matches a JSON Schema `pattern` (ECMA-262, unicode mode when it compiles so). */
function matches(pattern: string, value: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(value);
    } catch {
      // not valid in this mode: try the next
    }
  }
  return true; // a pattern no engine here compiles constrains nothing we can check
}

function nameFor(noun: string | undefined): string {
  return (noun === undefined ? undefined : NAME_BY_NOUN[noun]) ?? `Example ${words(noun)}`;
}

function urlFor(name: string | undefined, noun: string | undefined): string {
  if (name === 'tracking_url') return 'https://www.ups.com/track?tracknum=1Z999AA10123456784';
  if (name === 'url' && noun?.startsWith('webhook')) return 'https://example.com/webhooks/cartwright';
  if (name === 'url' || name === 'image_url') return 'https://example.com/images/t-shirt.jpg';
  return `https://example.com/${(name ?? 'page').replace(/_url$/, '').replace(/_/g, '-')}`;
}

function words(noun: string | undefined): string {
  return (noun ?? 'object').replace(/_/g, ' ');
}

function numberExample(schema: JsonObject, ctx: Context, kind: 'integer' | 'number'): number {
  if (typeof schema.default === 'number') return schema.default;
  const name = ctx.name ?? '';
  let value = 1;
  if (/stock|available|on_hand|reserved/.test(name)) value = 10;
  else if (/(^|_)(amount|price|subtotal|cost|balance|total|threshold|discount)$|^amount/.test(name))
    value = 2500;
  else if (/percent|rate/.test(name)) value = 10;
  else if (/weight/.test(name)) value = 250;
  else if (/(^|_)(width|height)$/.test(name)) value = 800;
  else if (/(^|_)(position|index|offset|failures|usage_count)$/.test(name)) value = 0;
  else if (/(^|_)(limit|count)$/.test(name)) value = name === 'total_count' ? 1 : 10;
  else if (name === 'status_code') value = 200;
  else if (name.endsWith('_ms')) value = 120;
  const lower =
    typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum + (kind === 'integer' ? 1 : 0.5)
      : typeof schema.minimum === 'number'
        ? schema.minimum
        : Number.NEGATIVE_INFINITY;
  const upper =
    typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum - (kind === 'integer' ? 1 : 0.5)
      : typeof schema.maximum === 'number'
        ? schema.maximum
        : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(value, lower), upper);
}

/** An example of `schema` (JSON Schema of `doc`), for a request or a response; `name` is its field. */
export function exampleForSchema(
  doc: object,
  schema: unknown,
  mode: 'request' | 'response',
  name?: string,
  noun?: string,
): unknown {
  return generate(schema, { doc: doc as JsonObject, mode, name, noun, stack: [] }, 0);
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The example of a path parameter: an id whose prefix follows the segment before it. */
function pathParameterExample(doc: JsonObject, path: string, parameter: JsonObject): unknown {
  const name = typeof parameter.name === 'string' ? parameter.name : '';
  const segments = path.split('/');
  const at = segments.indexOf(`{${name}}`);
  const before = at > 0 ? segments[at - 1] : undefined;
  const noun = before === undefined ? undefined : nounOfSegment(before);
  return exampleForSchema(doc, parameter.schema, 'request', name, noun);
}

/**
 * Adds the examples to `document` in place (see the module comment) and returns it: request
 * bodies, JSON success responses, path parameters and required query parameters. An `example`
 * already present is kept.
 */
export function addOpenApiExamples<T>(document: T): T {
  const doc = document as JsonObject;
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      for (const parameter of Array.isArray(op.parameters) ? op.parameters : []) {
        if (!isObject(parameter) || '$ref' in parameter || 'example' in parameter) continue;
        if (parameter.in === 'path') parameter.example = pathParameterExample(doc, path, parameter);
        else if (parameter.in === 'query' && parameter.required === true) {
          parameter.example = exampleForSchema(doc, parameter.schema, 'request', String(parameter.name));
        }
      }
      const body = isObject(op.requestBody) ? op.requestBody : undefined;
      const json =
        body !== undefined && isObject(body.content) ? body.content['application/json'] : undefined;
      if (isObject(json) && !('example' in json)) {
        const example = givenRequestExample(json.schema) ?? exampleForSchema(doc, json.schema, 'request');
        if (example !== undefined) json.example = example;
      }
      const responses = isObject(op.responses) ? op.responses : {};
      for (const [status, response] of Object.entries(responses)) {
        if (!/^2/.test(status) || !isObject(response) || !isObject(response.content)) continue;
        const media = response.content['application/json'];
        if (!isObject(media) || 'example' in media) continue;
        const example = exampleForSchema(doc, media.schema, 'response');
        if (example === undefined) continue;
        // An object of no known kind (`{ id, deleted }`) is the one the path names last.
        if (isObject(example) && typeof example.id === 'string' && example.id.startsWith('obj_')) {
          const last = (Array.isArray(op.parameters) ? op.parameters : [])
            .filter((p): p is JsonObject => isObject(p) && p.in === 'path' && typeof p.example === 'string')
            .at(-1);
          if (last !== undefined) example.id = last.example;
        }
        media.example = example;
      }
    }
  }
  return document;
}

/** What {@link curlCommand} needs to know about an operation. */
export interface CurlOperation {
  method: string;
  path: string;
  /** The operation object of the document (with its examples). */
  op: object;
  /** Parameters declared on the path item. */
  shared?: readonly unknown[];
}

/** Shell single-quoting: `it's` → `'it'\''s'`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function quoteIfNeeded(value: string): string {
  return /^[A-Za-z0-9/:._~%=-]+$/.test(value) ? value : shellQuote(value);
}

/** A stable UUID-shaped key per operation, so that running the same example twice is one request. */
function idempotencyKeyFor(method: string, path: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const char of `${method} ${path}`) {
    const code = char.codePointAt(0) ?? 0;
    h1 = Math.imul(h1 ^ code, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ code, 0x5bd1e995) >>> 0;
  }
  const hex = (h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).repeat(2);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The curl command of an operation, from the document alone: method, URL (path parameters and
 * required query parameters from their examples), `Authorization` with a secret or publishable
 * key placeholder as `x-cartwright-auth` says, `X-Customer-Token` when the operation requires a
 * customer token (every security requirement names it; where the token is optional — carts,
 * checkout — the line is a guest's request and works as pasted), `Idempotency-Key` when the operation declares it, and the request
 * body example as compact JSON (`-d`, with `Content-Type`). Lines are joined with ` \` + newline.
 */
export function curlCommand(
  document: object,
  operation: CurlOperation,
  baseUrl: string = EXAMPLE_BASE_URL,
): string {
  const doc = document as JsonObject;
  const op = operation.op as JsonObject;
  const parameters = [...(operation.shared ?? []), ...(Array.isArray(op.parameters) ? op.parameters : [])]
    .map((p) => resolveParameter(doc, p))
    .filter(isObject);
  let path = operation.path;
  const query: string[] = [];
  for (const parameter of parameters) {
    const name = String(parameter.name);
    if (parameter.in === 'path') {
      path = path.replace(`{${name}}`, encodeURIComponent(String(parameter.example ?? name)));
    } else if (parameter.in === 'query' && parameter.required === true && parameter.example !== undefined) {
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(parameter.example))}`);
    }
  }
  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isObject) : [];
  const prefix = typeof servers[0]?.url === 'string' ? servers[0].url.replace(/\/$/, '') : '';
  const url = `${baseUrl}${prefix}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;

  const method = operation.method.toUpperCase();
  const lines = [`curl ${method === 'GET' ? '' : `-X ${method} `}${quoteIfNeeded(url)}`];
  const auth = op['x-cartwright-auth'];
  if (auth === 'secret') lines.push(`-H "Authorization: Bearer ${EXAMPLE_CREDENTIALS.secret}"`);
  else if (auth === 'any') lines.push(`-H "Authorization: Bearer ${EXAMPLE_CREDENTIALS.publishable}"`);
  if (requiresCustomerToken(doc, op))
    lines.push(`-H "X-Customer-Token: ${EXAMPLE_CREDENTIALS.customerToken}"`);
  if (parameters.some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key')) {
    lines.push(`-H "Idempotency-Key: ${idempotencyKeyFor(method, operation.path)}"`);
  }
  const body = isObject(op.requestBody) ? op.requestBody : undefined;
  const json = body !== undefined && isObject(body.content) ? body.content['application/json'] : undefined;
  const example = isObject(json) ? json.example : undefined;
  const empty = isObject(example) && Object.keys(example).length === 0;
  if (example !== undefined && !(empty && body?.required !== true)) {
    lines.push('-H "Content-Type: application/json"', `-d ${shellQuote(JSON.stringify(example))}`);
  }
  return lines.join(' \\\n  ');
}

function resolveParameter(doc: JsonObject, parameter: unknown): unknown {
  if (!isObject(parameter) || typeof parameter.$ref !== 'string') return parameter;
  const prefix = '#/components/parameters/';
  if (!parameter.$ref.startsWith(prefix)) return parameter;
  const components = isObject(doc.components) ? doc.components : {};
  const group = isObject(components.parameters) ? components.parameters : {};
  return group[parameter.$ref.slice(prefix.length)];
}

/** Whether every security requirement of the operation names the `X-Customer-Token` scheme. */
function requiresCustomerToken(doc: JsonObject, op: JsonObject): boolean {
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const tokenSchemes = Object.entries(schemes)
    .filter(
      ([, s]) =>
        isObject(s) &&
        s.type === 'apiKey' &&
        typeof s.name === 'string' &&
        s.name.toLowerCase() === 'x-customer-token',
    )
    .map(([name]) => name);
  const security = Array.isArray(op.security) ? op.security : [];
  return security.length > 0 && security.every((r) => isObject(r) && tokenSchemes.some((name) => name in r));
}
