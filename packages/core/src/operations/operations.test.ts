import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { EngineServices } from '../engine-services';
import type { Product, ProductCreateSchema } from '../schemas';
import { CommerceError } from '../shared/errors';
import { executeOperation } from './execute';
import { argumentsOf, createFrontDoor } from './front-door';
import { type AnyOperation, defineOperation, operationServices, type PathParamList } from './operation';
import { operations, type StoreApi } from './table';

const SCOPE = { store_id: 'store_1', mode: 'test' } as const;
const PATH_PARAM = /:([A-Za-z0-9_]+)/g;
const pathParams = (op: AnyOperation) => [...op.http.path.matchAll(PATH_PARAM)].map((m) => m[1]);

describe('the operation table', () => {
  it('names each operation, path and operationId once', () => {
    const names = operations.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = operations.flatMap((op) =>
      [op.http.path, ...(op.http.aliases ?? [])].map((path) => `${op.http.method} ${path}`),
    );
    expect(new Set(routes).size).toBe(routes.length);
    const ids = operations.flatMap((op) => (op.operationId === undefined ? [] : [op.operationId]));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every in-process method each path parameter, and only known sources', () => {
    for (const op of operations) {
      const args = argumentsOf(op);
      for (const param of pathParams(op)) expect(args, op.name).toContain(param);
      for (const arg of args) expect([...pathParams(op), 'customer_id', 'token'], op.name).toContain(arg);
      if (args.includes('customer_id') || args.includes('token'))
        expect(op.customerToken, op.name).toBe('required');
    }
  });

  it('reads a list query from the query string and everything else from the body', () => {
    for (const op of operations) {
      if (op.inputIn === 'query') expect(op.http.method, op.name).toBe('GET');
      if (op.http.method === 'GET') expect(op.inputIn ?? 'query', op.name).toBe('query');
    }
  });

  it('derives the in-process types from the table', () => {
    expectTypeOf<StoreApi['products']['create']>().parameters.toEqualTypeOf<
      [input: z.input<typeof ProductCreateSchema>]
    >();
    expectTypeOf<StoreApi['products']['create']>().returns.resolves.toEqualTypeOf<Product>();
    expectTypeOf<StoreApi['products']['deleteImage']>().parameters.toEqualTypeOf<[string, string]>();
    expectTypeOf<StoreApi['orders']['payments']['complete']>().toBeFunction();
    expectTypeOf<StoreApi['checkout']>().toBeFunction();
    expectTypeOf<PathParamList<'/v1/a/:id/b/:image_id'>>().toEqualTypeOf<['id', 'image_id']>();
  });
});

describe('the front door', () => {
  // A table of two echoing operations: what the front door hands `run` is the rule under test.
  const echo = defineOperation({
    name: 'things.update',
    http: { method: 'PATCH', path: '/v1/admin/things/:id/parts/:part_id' },
    auth: 'secret',
    customerToken: 'none',
    input: z.object({ name: z.string(), size: z.int().default(1) }),
    response: z.unknown(),
    summary: 'Echo',
    tags: ['Test'],
    run: async (_s, c) => ({ params: c.params, input: c.input, actor: c.actor, customer: c.customer }),
  });
  const mine = defineOperation({
    name: 'me.get',
    http: { method: 'GET', path: '/v1/storefront/me/:id' },
    args: ['token', 'id'],
    auth: 'any',
    customerToken: 'required',
    response: z.unknown(),
    summary: 'Echo',
    tags: ['Test'],
    run: async (_s, c) => ({ params: c.params, customer: c.customer, actor: c.actor }),
  });
  const services = operationServices({} as EngineServices);
  const authenticate = async (_scope: unknown, token: string) => {
    if (token !== 'tok_good') throw new CommerceError('invalid_customer_token', 'bad');
    return { customer_id: 'cus_1', token_id: 'ctk_1' };
  };
  const forStore = createFrontDoor([echo, mine] as const, services, authenticate);

  it('takes path parameters as leading strings, validates the input and fills its defaults', async () => {
    const api = forStore(SCOPE);
    expect(await api.things.update('thg_1', 'prt_2', { name: 'x' })).toEqual({
      params: { id: 'thg_1', part_id: 'prt_2' },
      input: { name: 'x', size: 1 },
      actor: { key_type: 'secret', customer_id: null },
      customer: null,
    });
  });

  it('refuses a bad input with the wire error and never runs the operation', async () => {
    const api = forStore(SCOPE);
    const error = await api.things
      .update('thg_1', 'prt_2', { size: 'big' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommerceError);
    expect((error as CommerceError).code).toBe('parameter_missing');
  });

  it('authenticates a token argument, and acts for the customer it names', async () => {
    const api = forStore(SCOPE, { key_type: 'publishable', customer_id: null });
    expect(await api.me.get('tok_good', 'thg_1')).toEqual({
      params: { id: 'thg_1' },
      customer: { customer_id: 'cus_1', token_id: 'ctk_1' },
      actor: { key_type: 'publishable', customer_id: 'cus_1' },
    });
    const error = await api.me.get('tok_bad', 'thg_1').catch((e: unknown) => e);
    expect((error as CommerceError).code).toBe('invalid_customer_token');
  });

  it('passes validated input through as is when the caller validated it (HTTP)', async () => {
    const raw = { name: 'x' };
    const result = (await executeOperation(
      services,
      echo,
      { scope: SCOPE, input: raw },
      { validated: true },
    )) as {
      input: unknown;
    };
    expect(result.input).toBe(raw);
  });
});
