import type { HeaderReader } from './raw-http';

/**
 * Which browser origins may call the API (docs/contract.md#browsers). Storefront routes (everything outside
 * `/v1/admin`) answer any origin by default (`'*'`): a publishable key is meant for browsers.
 * Admin routes answer none unless configured: a secret key has no business in a browser.
 */
export interface CorsOptions {
  /** Origins allowed on storefront routes: `'*'` (default) or exact origins (`https://shop.example`). */
  storefrontOrigins?: '*' | readonly string[];
  /** Origins allowed on admin routes: none by default. */
  adminOrigins?: '*' | readonly string[];
}

/** Request headers a browser may send (the preflight's `Access-Control-Allow-Headers`). */
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Customer-Token';
/** Response headers a browser script may read. */
const EXPOSE_HEADERS =
  'Request-Id, Idempotent-Replayed, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';
/** How long a browser may cache a preflight answer (seconds). */
const MAX_AGE = '600';

export interface Cors {
  /**
   * The answer to `OPTIONS` on a path served with `allowed` methods: 204 with the CORS headers
   * when the request's origin is allowed there, 204 with `Allow` only otherwise (the browser then
   * refuses the call).
   */
  preflight(admin: boolean, headers: HeaderReader, allowed: readonly string[]): Record<string, string>;
  /** Headers added to an actual response for an allowed origin (none when not allowed). */
  responseHeaders(admin: boolean, headers: HeaderReader): Record<string, string> | null;
  /**
   * Whether a path not matched by any route is an admin one, judged on its decoded form
   * (`/v1/%61dmin/…` is `/v1/admin/…`). A matched request is judged by its route instead.
   */
  isAdminPath(path: string): boolean;
}

export function createCors(options: CorsOptions = {}, prefix = ''): Cors {
  const storefront = originSet(options.storefrontOrigins ?? '*');
  const admin = originSet(options.adminOrigins ?? []);
  const adminRoot = `${prefix}/v1/admin`;

  const allowOrigin = (isAdmin: boolean, headers: HeaderReader): string | null => {
    const origin = headers.get('origin');
    if (origin === null) return null;
    const set = isAdmin ? admin : storefront;
    if (set === '*') return '*';
    return set.has(origin) ? origin : null;
  };

  return {
    preflight(isAdmin, headers, allowed) {
      const methods = [...allowed, 'OPTIONS'].join(', ');
      const origin = allowOrigin(isAdmin, headers);
      if (origin === null) return { Allow: methods };
      const out: Record<string, string> = {
        Allow: methods,
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': methods,
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': MAX_AGE,
      };
      if (origin !== '*') out.Vary = 'Origin';
      return out;
    },
    responseHeaders(isAdmin, headers) {
      const origin = allowOrigin(isAdmin, headers);
      if (origin === null) return null;
      const out: Record<string, string> = {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': EXPOSE_HEADERS,
      };
      if (origin !== '*') out.Vary = 'Origin';
      return out;
    },
    isAdminPath(path) {
      let decoded = path;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        // A malformed escape: judged as sent.
      }
      // Any path under the admin root, whatever its spelling: the stricter answer when unsure.
      return decoded === adminRoot || decoded.startsWith(`${adminRoot}/`);
    },
  };
}

/** Whether a route's canonical path (without the mount prefix; its aliases are judged by it) is an admin one. */
export function isAdminRoute(routePath: string): boolean {
  return routePath === '/v1/admin' || routePath.startsWith('/v1/admin/');
}

function originSet(value: '*' | readonly string[]): '*' | ReadonlySet<string> {
  if (value === '*') return '*';
  if (value.includes('*')) return '*';
  return new Set(value.map((origin) => origin.replace(/\/+$/, '')));
}
