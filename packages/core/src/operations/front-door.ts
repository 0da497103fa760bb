import type { z } from 'zod';
import type { CartActor } from '../carts/cart-access';
import type { Scope } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { executeOperation, SECRET_ACTOR } from './execute';
import type { AnyOperation, Operation, OperationCustomer, OperationServices } from './operation';

// ------------------------------------------------------------------------------------- types

type InputArg<I> = I extends z.ZodType
  ? // biome-ignore lint/complexity/noBannedTypes: `{}` is "an empty input is valid", i.e. the argument may be left out.
    {} extends z.input<I>
    ? [input?: z.input<I>]
    : [input: z.input<I>]
  : [];

type StringArgs<A extends readonly string[]> = { [K in keyof A]: string };

/** The in-process method of an operation: its leading string arguments, then its input. */
export type OperationMethod<Op> =
  Op extends Operation<string, string, infer Args, z.ZodType | undefined, infer I, infer R>
    ? (...args: [...StringArgs<Args>, ...InputArg<I>]) => Promise<z.output<R>>
    : never;

type Nest<Name extends string, V> = Name extends `${infer Head}.${infer Tail}`
  ? { [K in Head]: Nest<Tail, V> }
  : { [K in Name]: V };

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/**
 * The in-process API of a table of operations: `products.create` becomes
 * `api.products.create(input)`, with its path parameters (or `args`) as leading strings.
 */
export type ApiOf<Ops extends readonly AnyOperation[]> = UnionToIntersection<
  { [K in keyof Ops]: Nest<Ops[K]['name'], OperationMethod<Ops[K]>> }[number]
>;

// ----------------------------------------------------------------------------------- runtime

const PATH_PARAM = /:([A-Za-z0-9_]+)/g;

/** The leading string arguments of an operation's in-process method, in order. */
export function argumentsOf(operation: AnyOperation): readonly string[] {
  let names = argumentNames.get(operation);
  if (names === undefined) {
    names = operation.args ?? [...operation.http.path.matchAll(PATH_PARAM)].map((m) => m[1] as string);
    argumentNames.set(operation, names);
  }
  return names;
}

/** Worked out once per operation, not at every `forStore` call. */
const argumentNames = new WeakMap<AnyOperation, readonly string[]>();

type Authenticate = (scope: Scope, token: string) => Promise<{ customer_id: string; token_id: string }>;

interface Binding {
  readonly services: OperationServices;
  readonly scope: Scope;
  readonly actor: CartActor;
  readonly authenticate: Authenticate;
}

function methodOf(operation: AnyOperation, binding: Binding) {
  const names = argumentsOf(operation);
  return async (...args: unknown[]) => {
    const params: Record<string, string> = {};
    let actor = binding.actor;
    let customer: OperationCustomer | null =
      actor.customer_id === null ? null : { customer_id: actor.customer_id, token_id: null };
    for (const [i, name] of names.entries()) {
      const value = String(args[i] ?? '');
      if (name === 'customer_id') {
        customer = { customer_id: value, token_id: null };
        actor = { key_type: actor.key_type, customer_id: value };
      } else if (name === 'token') {
        const principal = await binding.authenticate(binding.scope, value);
        customer = { customer_id: principal.customer_id, token_id: principal.token_id };
        actor = { key_type: actor.key_type, customer_id: principal.customer_id };
      } else {
        params[name] = value;
      }
    }
    if (operation.customerToken === 'required' && customer === null) {
      throw new CommerceError('invalid_customer_token', `${operation.name} acts for a signed-in customer`);
    }
    return executeOperation(binding.services, operation, {
      scope: binding.scope,
      actor,
      customer,
      params,
      input: args[names.length],
    });
  };
}

type Tree = { [name: string]: Tree | AnyOperation };

function isOperation(node: Tree | AnyOperation): node is AnyOperation {
  return typeof (node as AnyOperation).run === 'function';
}

function treeOf(operations: readonly AnyOperation[]): Tree {
  const root: Tree = {};
  for (const operation of operations) {
    const parts = operation.name.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part] ?? {};
      node[part] = next;
      if (isOperation(next)) throw new Error(`Operation name ${operation.name} is below another operation`);
      node = next;
    }
    const last = parts[parts.length - 1] as string;
    if (node[last] !== undefined) throw new Error(`Two operations are named ${operation.name}`);
    node[last] = operation;
  }
  return root;
}

function bind(tree: Tree, binding: Binding): Record<string, unknown> {
  const api: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(tree)) {
    api[name] = isOperation(node) ? methodOf(node, binding) : bind(node, binding);
  }
  return api;
}

/**
 * Makes `forStore` for a table of operations: the scope-bound in-process API, one method per
 * operation, each validating its input with the operation's schema and answering the wire object.
 */
export function createFrontDoor<const Ops extends readonly AnyOperation[]>(
  operations: Ops,
  services: OperationServices,
  authenticate: Authenticate,
) {
  const tree = treeOf(operations);
  return (scope: Scope, actor: CartActor = SECRET_ACTOR) =>
    ({ scope, actor, ...bind(tree, { services, scope, actor, authenticate }) }) as {
      readonly scope: Scope;
      readonly actor: CartActor;
    } & ApiOf<Ops>;
}
