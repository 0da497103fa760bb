/**
 * One operation of the API, declared once: its name in the in-process API, who may call it, its
 * input and output schemas, its HTTP method and path, its limits, and the handler. The HTTP router
 * (`@cartwright/http`), the in-process API (`engine.forStore(scope)`) and the OpenAPI document are
 * all derived from the table of these declarations (`./table.ts`) — as tRPC's router and
 * `createCaller` are derived from its procedures.
 */
import type { z } from 'zod';
import type { CartActor } from '../carts/cart-access';
import type { AttemptOrigin } from '../customers/attempt-limits';
import type { EngineServices } from '../engine-services';
import type { StaffRole } from '../members/roles';
import type { Scope } from '../ports/storage';
import type { ErrorCode } from '../shared/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `secret`: secret keys only (publishable → 403); `any`: secret or publishable; `none`: no key needed. */
export type AuthRequirement = 'secret' | 'any' | 'none';

/** Whether the operation reads `X-Customer-Token` (docs/contract.md#customer-tokens). */
export type CustomerTokenRequirement = 'none' | 'optional' | 'required';

/** The signed-in customer an operation acts for. `token_id` is null when named in process by id. */
export interface OperationCustomer {
  customer_id: string;
  token_id: string | null;
}

/**
 * Where the in-process method's leading string arguments come from: a path parameter's name,
 * `customer_id` (the customer acted for, which HTTP reads from `X-Customer-Token`), or `token` (a
 * raw customer token, authenticated in process as HTTP authenticates the header).
 */
export type ArgumentSource<Path extends string> = PathParams<Path> | 'customer_id' | 'token';

/** The HTTP binding of an operation. */
export interface HttpBinding<Path extends string = string> {
  method: HttpMethod;
  /** find-my-way pattern including `/v1`, e.g. `/v1/admin/products/:id`. */
  path: Path;
  /** Extra paths served by the same operation (e.g. the spec's `/admin/customers/:id/token`). */
  aliases?: readonly string[];
  /** Success status: 200 unless 201 (docs/contract.md#success-statuses). */
  status?: 200 | 201;
  /**
   * A strict per-client-address limit counted across processes before the body is read
   * (docs/contract.md#rate-limits): `order_lookup` for the guest order look-up. Implies `buyerIp`.
   */
  rateLimit?: 'order_lookup';
  /**
   * The use case counts per-address limits of its own (customer sign-in failures) with the
   * client's address; a secret-key caller may name the shopper's in `Commerce-Buyer-Ip`.
   */
  buyerIp?: boolean;
  /**
   * Request headers the use case reads (lower case, e.g. `accept-language`): HTTP hands the
   * values sent over in `call.headers`; the in-process API has none (its callers name what they
   * mean in the input, e.g. `locale`).
   */
  headers?: readonly string[];
  /**
   * Response headers the use case may set with `call.setHeader` (e.g. `Content-Language`), for
   * the OpenAPI document: HTTP sends them with a success; the in-process API ignores them.
   */
  responseHeaders?: readonly { name: string; description: string }[];
}

/** What a handler receives: the scope, who calls, and the validated input. */
export interface OperationCall<P, I> {
  /** The store and mode (a request's scope carries its idempotency claim, see `RequestScope`). */
  scope: Scope;
  /** Who acts on carts and checkouts: the key kind and the signed-in customer, if any. */
  actor: CartActor;
  /** The signed-in customer; never null on `customerToken: 'required'` operations. */
  customer: OperationCustomer | null;
  /** The path parameters, validated. */
  params: P;
  /** The request body or list query, validated (`{}` when the operation takes none). */
  input: I;
  /** The client, for the use cases that count per-address attempts (customer sign-in). */
  origin: AttemptOrigin | undefined;
  /** The request headers the operation declares (`http.headers`) that were sent; `{}` in process. */
  headers: Readonly<Record<string, string>>;
  /** Sets a header of the success response (`http.responseHeaders`); ignored in process. */
  setHeader(name: string, value: string): void;
}

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** Every `:name` segment of a path, in order. */
export type PathParamList<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...PathParamList<`/${Rest}`>]
  : Path extends `${string}:${infer Name}`
    ? [Name]
    : [];
export type PathParams<Path extends string> = PathParamList<Path>[number];

/** An operation, as {@link defineOperation} declares it. */
export interface Operation<
  Name extends string = string,
  Path extends string = string,
  Args extends readonly string[] = readonly string[],
  P extends z.ZodType | undefined = z.ZodType | undefined,
  I extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  /** The method in the in-process API: `products.create` is `engine.forStore(scope).products.create`. */
  name: Name;
  auth: AuthRequirement;
  customerToken: CustomerTokenRequirement;
  /**
   * The least staff role that may call it through a staff session or the `authorize` hook
   * (decisions §23; secret API keys keep every right). Default from the name's group
   * (`requiredRoleOf`): `admin` for apiKeys, webhooks, members, regions, locales and settings,
   * `member` for the rest.
   */
  role?: StaffRole;
  http: HttpBinding<Path>;
  /**
   * The in-process method's leading string arguments (default: the path's parameters in order);
   * the input object, when the operation takes one, comes after them.
   */
  args?: Args;
  /** The path parameters' schema (default: none; they arrive as strings). */
  params?: P;
  /** Where the input is read over HTTP: the JSON body (default) or the query string. */
  inputIn?: 'body' | 'query';
  /** The input's schema: the request body, or the list query with `inputIn: 'query'`. */
  input?: I;
  response: R;
  summary: string;
  description?: string;
  tags: readonly string[];
  operationId?: string;
  /** Domain error codes beyond the pipeline's own, for the OpenAPI document. */
  errors?: readonly ErrorCode[];
  /** The use case: the response body. */
  run(services: OperationServices, call: OperationCall<Out<P>, Out<I>>): Promise<z.output<R>>;
  /**
   * The same answer as prepared JSON text, byte-identical to `JSON.stringify` of `run`'s value,
   * where the storage keeps it ready (the storefront read model): HTTP sends it as is.
   */
  runJson?(services: OperationServices, call: OperationCall<Out<P>, Out<I>>): Promise<string>;
}

declare const SERVICES: unique symbol;

/**
 * The engine's use cases as a handler receives them: opaque outside core (the operations of the
 * table are run through `engine.execute`, which supplies them), so the published declarations do
 * not carry every service's type.
 */
export interface OperationServices {
  readonly [SERVICES]: true;
}

/** How an operation is written: {@link Operation} with its handlers typed against the engine's services. */
export type OperationDeclaration<
  Name extends string,
  Path extends string,
  Args extends readonly string[],
  P extends z.ZodType | undefined,
  I extends z.ZodType | undefined,
  R extends z.ZodType,
> = Omit<Operation<Name, Path, Args, P, I, R>, 'run' | 'runJson'> & {
  run(services: EngineServices, call: OperationCall<Out<P>, Out<I>>): Promise<z.output<R>>;
  runJson?(services: EngineServices, call: OperationCall<Out<P>, Out<I>>): Promise<string>;
};

/**
 * Declares an operation: an identity function that infers the handler's types from the schemas
 * and the path, and freezes the declaration.
 */
export function defineOperation<
  const Name extends string,
  const Path extends string,
  const Args extends readonly ArgumentSource<Path>[] = PathParamList<Path>,
  P extends z.ZodType | undefined = undefined,
  I extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(operation: OperationDeclaration<Name, Path, Args, P, I, R>): Operation<Name, Path, Args, P, I, R> {
  // The handlers take the services `executeOperation` passes, published as `OperationServices`.
  return Object.freeze(operation) as unknown as Operation<Name, Path, Args, P, I, R>;
}

/** Any operation, for lists. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list needs the widest schema types.
export type AnyOperation = Operation<string, string, readonly string[], any, any, z.ZodType>;

/** The services as the operations' handlers receive them (core only: the engine passes its own). */
export function operationServices(services: EngineServices): OperationServices {
  return services as unknown as OperationServices;
}
