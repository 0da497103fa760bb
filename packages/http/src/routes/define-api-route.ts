import type { ZodType } from 'zod';
import type { RouteEngine } from '../engine-port';
import type { AuthRequirement, CustomerTokenRequirement, RouteDefinition } from '../route';

/**
 * Declares one of the API's own routes: `defineRoute` with `ctx.engine` typed as the engine with
 * its internals, whose services take the input the route has already validated. Not exported
 * from the package: routes of an application see the public `Engine` and its front door.
 */
export function defineApiRoute<
  const A extends AuthRequirement,
  const C extends CustomerTokenRequirement,
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  R extends ZodType = ZodType,
>(definition: RouteDefinition<A, C, P, Q, B, R, RouteEngine>): RouteDefinition<A, C, P, Q, B, R> {
  // The pipeline hands every route the engine createEngine made, internals included.
  return Object.freeze(definition) as unknown as RouteDefinition<A, C, P, Q, B, R>;
}
