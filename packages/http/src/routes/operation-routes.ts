import { type AnyOperation, type OperationCustomer, requiredRoleOf } from '@cartwright/core/operations';
import { type AnyRoute, defineRoute, jsonText, withHeaders } from '../route';
import { scopeOf } from './scope';

/**
 * The route of one operation of core's table (`@cartwright/core/operations`): its HTTP binding,
 * schemas and documentation as declared there. The pipeline authenticates, limits and validates
 * with the operation's own schemas, then calls `engine.execute` — the same entry point
 * `engine.forStore(scope)`'s methods use — with the input already validated.
 */
export function routeOf(operation: AnyOperation): AnyRoute {
  const inQuery = operation.inputIn === 'query';
  const json = operation.runJson !== undefined;
  return defineRoute({
    method: operation.http.method,
    path: operation.http.path,
    ...(operation.http.aliases === undefined ? {} : { aliases: operation.http.aliases }),
    auth: operation.auth,
    customerToken: operation.customerToken,
    params: operation.params,
    query: inQuery ? operation.input : undefined,
    body: inQuery ? undefined : operation.input,
    response: operation.response,
    ...(operation.http.status === undefined ? {} : { status: operation.http.status }),
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    tags: operation.tags,
    ...(operation.operationId === undefined ? {} : { operationId: operation.operationId }),
    ...(operation.http.rateLimit === undefined ? {} : { rateLimit: operation.http.rateLimit }),
    ...(operation.http.buyerIp === undefined ? {} : { buyerIp: operation.http.buyerIp }),
    ...(operation.auth === 'secret' ? { staffRole: requiredRoleOf(operation) } : {}),
    ...(operation.errors === undefined ? {} : { errors: operation.errors }),
    ...(operation.http.responseHeaders === undefined
      ? {}
      : { responseHeaders: operation.http.responseHeaders }),
    handler: async (ctx) => {
      const scope = scopeOf(ctx); // every operation takes an API key
      const customer: OperationCustomer | null =
        ctx.customer === null
          ? null
          : { customer_id: ctx.customer.customer_id, token_id: ctx.customer.token_id };
      // The request headers the operation reads, and the response headers it sets.
      const headers: Record<string, string> = {};
      for (const name of operation.http.headers ?? []) {
        const value = ctx.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const responseHeaders: Record<string, string> = {};
      const result = await ctx.engine.execute(
        operation,
        {
          scope,
          actor: {
            key_type: ctx.auth!.key_type,
            customer_id: customer?.customer_id ?? null,
          },
          customer,
          staff: ctx.auth!.staff ?? null,
          params: ctx.params as Record<string, string>,
          input: inQuery ? ctx.query : ctx.body,
          origin: { address: ctx.clientAddress, observe: ctx.observeRateLimit },
          headers,
          responseHeaders,
        },
        { validated: true, json },
      );
      // Prepared text (the storefront read model), byte-identical to the object's serialisation.
      const body = json ? jsonText(result as string) : result;
      return Object.keys(responseHeaders).length > 0 ? withHeaders(body, responseHeaders) : body;
    },
  });
}
