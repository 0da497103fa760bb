import type { z } from 'zod';
import type { PageRequest } from '../ports/storage';
import { parseInput } from '../schemas';

/** What a facade method accepts: the request body or query of the matching HTTP endpoint, as written. */
export type In<S extends z.ZodType> = z.input<S>;

export type { CartActor } from '../carts/cart-access';

/**
 * Validates a body exactly as the HTTP pipeline does (same defaults, same `parameter_*` errors
 * with wire params); a missing body counts as `{}` (docs/contract.md#requests).
 */
export function body<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parseInput(schema, value ?? {});
}

/** Validates a list query as the HTTP pipeline does; strings such as `'true'` or `'5'` are accepted too. */
export function query<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parseInput(schema, value ?? {}, { location: 'query' });
}

/** The storage page of a parsed list query (its `sort` and `order` are always filled in). */
export function pageOf<S extends string>(parsed: {
  limit: number;
  starting_after?: string | undefined;
  sort: S;
  order: 'asc' | 'desc';
}): PageRequest<S> {
  return {
    limit: parsed.limit,
    starting_after: parsed.starting_after,
    sort: parsed.sort,
    order: parsed.order,
  };
}

/** `GET /v1/admin/products/{id}/variants` (the one query schema, also the HTTP route's). */
export { VariantListQuerySchema } from '../catalog/schemas';
