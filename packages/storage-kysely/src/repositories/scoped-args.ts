import type { Scope } from '@cartwright/core';

/** The scope's two arguments (a type literal, so that it fits `Record<string, unknown>`). */
type ScopeArgs = { store_id: string; mode: Scope['mode'] };

/**
 * A statement's arguments: `extra` (a fresh object literal, which this fills in and returns) with
 * the scope's `store_id` and `mode` — for binding by name, the same as `{ ...scope, ...extra }`
 * when `extra` has neither key (the scope wins otherwise).
 *
 * Why not the spread: on Node 20, V8 builds `{ ...scope, id }` (a spread, then keys the source
 * lacks) on a slow path, ~1 µs per object, and nearly every statement of a request takes such
 * arguments; setting two known keys on a literal costs a few nanoseconds. Only for literals made
 * at the call site: the object passed in is changed.
 */
export function scoped<T extends object>(scope: Scope, extra: T): T & ScopeArgs {
  const args = extra as T & ScopeArgs;
  args.store_id = scope.store_id;
  args.mode = scope.mode;
  return args;
}
