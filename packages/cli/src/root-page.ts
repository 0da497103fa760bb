import type { RawResponse } from '@cartwright/http';

/** Where a person (or a script) that opens the server's address should go next. */
const POINTERS = {
  api: '/v1',
  api_reference: '/v1/docs',
  openapi: '/v1/openapi.json',
  admin_console: '/admin/',
} as const;

const HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Cartwright</title></head>
<body>
<h1>Cartwright</h1>
<p>This server answers the commerce API under <code>/v1</code>.</p>
<ul>
<li><a href="${POINTERS.api_reference}">API reference</a> (${POINTERS.api_reference})</li>
<li><a href="${POINTERS.openapi}">OpenAPI document</a> (${POINTERS.openapi})</li>
<li><a href="${POINTERS.admin_console}">Admin console</a> (${POINTERS.admin_console}): sign in as a member of the organization</li>
</ul>
<p>Requests need an API key: <code>Authorization: Bearer sk_test_…</code> (printed on the first start, or by <code>cartwright keys create</code>).</p>
</body>
</html>
`;

/**
 * `GET /` (and `HEAD /`) of `cartwright serve`: a pointer to the API reference and the OpenAPI
 * document instead of a 404 — HTML for a browser (`Accept: text/html`), JSON otherwise. Null for
 * every other request, which goes to the API handler. Only the CLI's server answers it: an app
 * that mounts the `/v1` handler keeps its own `/`.
 */
export function rootPage(method: string | undefined, url: string | undefined, accept: string | undefined) {
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (url === undefined || (url !== '/' && !url.startsWith('/?'))) return null;
  const response: RawResponse = accept?.includes('text/html')
    ? { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: HTML }
    : {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: 'cartwright',
          message: 'The commerce API is served under /v1; its reference is at /v1/docs.',
          ...POINTERS,
        }),
      };
  return response;
}
