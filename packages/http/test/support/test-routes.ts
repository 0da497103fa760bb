import { CommerceError, ERROR_CODES, type ErrorCode } from '@cartwright/core';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from '../../src/route';
import { openApiRoute } from '../../src/routes/system';

const Thing = z
  .object({ id: z.string(), name: z.string(), quantity: z.number().int() })
  .meta({ id: 'Thing', description: 'A test resource.' });

const ThingList = z
  .object({
    data: z.array(Thing),
    limit: z.number().int(),
    tag: z.string().nullable(),
    mode: z.enum(['test', 'live']),
    key_type: z.enum(['secret', 'publishable']),
  })
  .meta({ id: 'ThingList' });

export const CreateThingBody = z
  .strictObject({
    name: z.string().min(1),
    quantity: z.number().int().min(1).default(1),
    lines: z.array(z.strictObject({ variant_id: z.string(), quantity: z.number().int().min(1) })).optional(),
    kind: z.enum(['physical', 'digital']).optional(),
  })
  .meta({ id: 'CreateThingBody' });

const CustomerView = z
  .object({ customer_id: z.string().nullable(), status: z.string().nullable() })
  .meta({ id: 'CustomerView' });

/** Errors a route throws on purpose, for the status-map round trip. */
export const throwableCodes: readonly ErrorCode[] = ERROR_CODES;

/** Every test route; `crashMessage` is what the crashing route throws (and must never leak). */
export const crashMessage = 'SELECT * FROM api_keys WHERE secret = $1 -- password=hunter2';

export const testRoutes: readonly AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/storefront/things',
    auth: 'any',
    customerToken: 'none',
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      tag: z.string().optional(),
    }),
    response: ThingList,
    summary: 'List things',
    tags: ['Things'],
    handler: async (ctx) => ({
      data: [{ id: 'thing_1', name: 'First', quantity: 1 }],
      limit: ctx.query.limit,
      tag: ctx.query.tag ?? null,
      mode: ctx.auth.mode,
      key_type: ctx.auth.key_type,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/things/:id',
    auth: 'secret',
    customerToken: 'none',
    params: z.object({ id: z.string().startsWith('thing_') }),
    response: Thing,
    summary: 'Get a thing',
    tags: ['Things'],
    handler: async (ctx) => {
      if (ctx.params.id === 'thing_missing')
        throw new CommerceError('not_found', `No such thing: '${ctx.params.id}'`);
      return { id: ctx.params.id, name: 'First', quantity: 1 };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/admin/things/:id',
    auth: 'secret',
    customerToken: 'none',
    response: z.object({ id: z.string(), deleted: z.literal(true) }),
    summary: 'Delete a thing',
    tags: ['Things'],
    handler: async (ctx) => ({ id: ctx.params.id as string, deleted: true }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/things',
    auth: 'secret',
    customerToken: 'none',
    body: CreateThingBody,
    response: Thing.extend({ lines: z.array(z.unknown()).optional(), kind: z.string().optional() }),
    summary: 'Create a thing',
    tags: ['Things'],
    errors: ['duplicate_slug'],
    handler: async (ctx) => ({ id: 'thing_new', ...ctx.body }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/orders',
    auth: 'secret',
    customerToken: 'none',
    body: z.strictObject({ note: z.string().optional() }),
    response: z.object({ id: z.string(), note: z.string().nullable() }),
    status: 201,
    summary: 'Create an order',
    tags: ['Orders'],
    handler: async (ctx) => ({ id: 'ord_1', note: ctx.body.note ?? null }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/echo',
    auth: 'secret',
    customerToken: 'none',
    body: z.looseObject({}),
    response: z.object({ body: z.unknown(), request_id: z.string(), idempotency_key: z.string().nullable() }),
    summary: 'Echo the request',
    tags: ['Test'],
    handler: async (ctx) => ({
      body: ctx.body,
      request_id: ctx.requestId,
      idempotency_key: ctx.idempotencyKey,
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/fail/:code',
    auth: 'secret',
    customerToken: 'none',
    params: z.object({ code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]) }),
    response: z.object({}),
    summary: 'Throw the given CommerceError',
    tags: ['Test'],
    handler: async (ctx) => {
      throw new CommerceError(ctx.params.code, `Failure: ${ctx.params.code}`, {
        param: 'field',
        data: { secret_detail: 'not on the wire' },
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/crash',
    auth: 'secret',
    customerToken: 'none',
    response: z.object({}),
    summary: 'Throw a plain Error',
    tags: ['Test'],
    handler: async () => {
      throw new Error(crashMessage);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/bad-response',
    auth: 'secret',
    customerToken: 'none',
    response: z.object({ id: z.string() }),
    summary: 'Return a body that breaks its schema',
    tags: ['Test'],
    handler: async () => ({ wrong: true }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/storefront/customers/me',
    auth: 'any',
    customerToken: 'required',
    response: CustomerView,
    summary: 'The signed-in customer',
    tags: ['Customers'],
    handler: async (ctx) => ({ customer_id: ctx.customer.customer_id, status: ctx.customer.status }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/storefront/products',
    auth: 'any',
    customerToken: 'optional',
    response: CustomerView,
    summary: 'Products (customer optional)',
    tags: ['Products'],
    handler: async (ctx) => ({
      customer_id: ctx.customer?.customer_id ?? null,
      status: ctx.customer?.status ?? null,
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/storefront/carts/:id/merge',
    auth: 'any',
    customerToken: 'required',
    response: z.object({ id: z.string(), customer_id: z.string() }),
    summary: 'Merge a cart (no body)',
    tags: ['Carts'],
    handler: async (ctx) => ({ id: ctx.params.id as string, customer_id: ctx.customer.customer_id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/customers/:id/token',
    aliases: ['/admin/customers/:id/token'],
    auth: 'secret',
    customerToken: 'none',
    params: z.object({ id: z.string() }),
    body: z.strictObject({ expires_in: z.number().int().min(1).max(2592000).default(86400) }),
    response: z.object({ token: z.string(), customer_id: z.string(), expires_in: z.number().int() }),
    summary: 'Issue a customer token',
    tags: ['Customers'],
    handler: async (ctx) => ({
      token: 'ct_new',
      customer_id: ctx.params.id,
      expires_in: ctx.body.expires_in,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/health',
    auth: 'none',
    customerToken: 'none',
    response: z.object({ ok: z.boolean(), auth: z.null() }),
    summary: 'Health',
    tags: ['System'],
    handler: async (ctx) => ({ ok: true, auth: ctx.auth }),
  }),
  openApiRoute,
];
