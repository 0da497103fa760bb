import FindMyWay from 'find-my-way';
import type { AnyRoute, HttpMethod } from './route';

/** The outcome of matching a method and path. */
export type RouteMatch =
  | { kind: 'found'; route: AnyRoute; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string }
  | { kind: 'not_found' };

export interface Router {
  /** The route for a method and path; `HEAD` finds the `GET` route (docs/contract.md#browsers). */
  match(method: string, path: string): RouteMatch;
  /**
   * The methods a path is served with, sorted (`HEAD` wherever `GET`; `OPTIONS` is not listed);
   * empty when the path is not a route.
   */
  allowed(path: string): readonly string[];
  /**
   * Whether a path belongs to this API: it is under `<prefix>/v1` or matches a route (an alias) with
   * any method. Framework adapters pass other paths on to the host application.
   */
  owns(path: string): boolean;
}

const EMPTY_QUERY = Object.freeze({});
const noop = () => undefined;

/**
 * Builds the route tree once (find-my-way, a radix tree: lookups do not scan the route list).
 * Each route is registered under `prefix + path` and `prefix + alias`; a duplicate method + path
 * throws at start-up. A method that is not registered for a path that exists yields
 * `method_not_allowed` with the `Allow` list (`HEAD` is served wherever `GET` is). Trailing slashes are ignored. Query strings are parsed
 * by the pipeline, not here, so the router's own query parser is disabled.
 */
export function createRouter(routes: readonly AnyRoute[], prefix = ''): Router {
  const tree = FindMyWay({
    ignoreTrailingSlash: true,
    maxParamLength: 500,
    querystringParser: () => EMPTY_QUERY,
  });
  const methods = new Set<HttpMethod>();
  for (const route of routes) {
    methods.add(route.method);
    for (const path of [route.path, ...(route.aliases ?? [])]) {
      tree.on(route.method, prefix + path, noop, route);
    }
  }
  const sortedMethods = [...methods].sort();
  const apiRoot = `${prefix}/v1`;

  const allowed = (path: string): string[] => {
    const found: string[] = sortedMethods.filter((m) => tree.find(m, path) !== null);
    if (found.includes('GET')) found.push('HEAD');
    return found.sort();
  };

  return {
    match(method, path) {
      const lookup = method === 'HEAD' ? 'GET' : method;
      const found = methods.has(lookup as HttpMethod) ? tree.find(lookup as HttpMethod, path) : null;
      if (found !== null) {
        return {
          kind: 'found',
          route: found.store as AnyRoute,
          params: found.params as Record<string, string>,
        };
      }
      const allow = allowed(path);
      return allow.length > 0
        ? { kind: 'method_not_allowed', allow: allow.join(', ') }
        : { kind: 'not_found' };
    },
    allowed,
    owns(path) {
      return path === apiRoot || path.startsWith(`${apiRoot}/`) || allowed(path).length > 0;
    },
  };
}
