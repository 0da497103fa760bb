/**
 * The admin console (decisions §23; docs/back-office.md#the-admin-console): a browser app for the
 * people who run the shop, served as three static files (`index.html`, `app.js`, `style.css`,
 * embedded in this package: src/admin-console-assets.generated.ts, built from
 * packages/http/admin-console/ by `pnpm admin:build`). The app talks only to the public `/v1` API
 * with the staff session cookie (POST /v1/admin/session), so it needs nothing of the server but
 * these files and the API on the same origin.
 *
 * `cartwright serve` mounts it at `/admin`. An embedding host mounts {@link createAdminConsole}'s
 * fetch handler (or its `handleRaw` on Node) beside the API handler, e.g. with Hono:
 * `app.all('/admin/*', (c) => admin(c.req.raw))`.
 */
import { ADMIN_CONSOLE_ASSETS } from './admin-console-assets.generated';
import { type PreparedDocument, prepareDocument, serveDocument } from './api-reference-page';
import type { HeaderReader, RawResponse } from './raw-http';
import { readTextResponse } from './route';

/** Options of {@link createAdminConsole}. */
export interface AdminConsoleOptions {
  /** Where the console is served (no trailing slash). Default `/admin`. */
  path?: string;
  /**
   * The mount prefix of the `/v1` API on the same origin, as given to `createApiHandler`
   * (`prefix: '/shop'` → the console calls `/shop/v1/…`). Default `''`.
   */
  apiPrefix?: string;
}

/** What the console handler needs of a request. */
export interface AdminConsoleRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  headers: HeaderReader;
}

/** The console as a fetch handler (`Request → Response`), plus a light entry for Node servers. */
export interface AdminConsole {
  /** Answers a request under {@link AdminConsole.path}; any other path → 404. */
  (request: Request): Promise<Response>;
  /** The same on a light request (what `cartwright serve` uses on node:http). */
  handleRaw(request: AdminConsoleRequest): Promise<RawResponse>;
  /**
   * Whether a path is the console's: `/admin`, `/admin/` and its files (`/admin/app.js`, …).
   * Any other path under it belongs to the API (route it there).
   */
  owns(path: string): boolean;
  readonly path: string;
}

/**
 * The page's `Content-Security-Policy`: its own script and style sheet only, API calls to its own
 * origin, images (product images by URL) from anywhere over http(s), no frames, no plugins.
 */
export const ADMIN_CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: http: data:; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Revalidated on every load (a strong `ETag`, 304 when unchanged): an upgrade shows at once. */
const CACHE_CONTROL = 'no-cache';

const TYPES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

/** Escapes text for a double-quoted HTML attribute value. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function normalisePrefix(value: string, name: string): string {
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed !== '' && (!trimmed.startsWith('/') || /[?#\s]/.test(trimmed))) {
    throw new TypeError(
      `createAdminConsole: ${name} must be a path such as /admin, got ${JSON.stringify(value)}`,
    );
  }
  return trimmed;
}

/**
 * Creates the console's handler. The files are prepared once (compressed with brotli or gzip on
 * first request per encoding, `ETag`, `Cache-Control: no-cache`); `path` alone redirects to
 * `path/`, so the app's relative links resolve.
 *
 * @example
 * // Bun, Deno, Workers: the console beside the API, on one origin
 * const api = createApiHandler(engine);
 * const admin = createAdminConsole();
 * export default { fetch: (req) => (admin.owns(new URL(req.url).pathname) ? admin(req) : api(req)) };
 */
export function createAdminConsole(options: AdminConsoleOptions = {}): AdminConsole {
  const path = normalisePrefix(options.path ?? '/admin', 'path');
  if (path === '') throw new TypeError('createAdminConsole: path cannot be the root');
  const apiPrefix = normalisePrefix(options.apiPrefix ?? '', 'apiPrefix');
  const documents = new Map<string, PreparedDocument>();
  for (const [name, text] of Object.entries(ADMIN_CONSOLE_ASSETS)) {
    const body =
      name === 'index.html'
        ? text.replaceAll('%API_PREFIX%', attribute(apiPrefix)).replaceAll('%BASE%', attribute(path))
        : text;
    documents.set(
      name,
      prepareDocument(TYPES[name]!, body, {
        contentSecurityPolicy: ADMIN_CONSOLE_CSP,
        cacheControl: CACHE_CONTROL,
      }),
    );
  }
  // Its own paths only: the API keeps every other path under the prefix (the `/admin/customers/
  // {id}/token` alias of the spec among them), and answers unknown ones in its error shape.
  const owns = (requestPath: string) =>
    requestPath === path ||
    (requestPath.startsWith(`${path}/`) &&
      (requestPath.length === path.length + 1 || documents.has(requestPath.slice(path.length + 1))));

  const handleRaw = async (request: AdminConsoleRequest): Promise<RawResponse> => {
    if (!owns(request.path)) return plain(404, 'Not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return { ...plain(405, 'Method not allowed'), headers: { ...TEXT_HEADERS, Allow: 'GET, HEAD' } };
    }
    if (request.path === path) return { status: 308, headers: { Location: `${path}/` }, body: '' };
    const rest = request.path.slice(path.length + 1);
    const document = documents.get(rest === '' ? 'index.html' : rest);
    if (document === undefined) return plain(404, 'Not found');
    const parts = readTextResponse(await serveDocument(document, request.headers))!;
    return {
      status: parts.status ?? 200,
      headers: { 'Content-Type': parts.contentType, ...parts.headers },
      body: parts.body,
    };
  };

  const fetchHandler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const raw = await handleRaw({ method: request.method, path: url.pathname, headers: request.headers });
    const empty = request.method === 'HEAD' || raw.status === 304 || raw.status === 308;
    return new Response(empty ? null : (raw.body as ConstructorParameters<typeof Response>[0]), {
      status: raw.status,
      headers: raw.headers,
    });
  };
  return Object.assign(fetchHandler, { handleRaw, owns, path });
}

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

function plain(status: number, text: string): RawResponse {
  return { status, headers: { ...TEXT_HEADERS }, body: text };
}
