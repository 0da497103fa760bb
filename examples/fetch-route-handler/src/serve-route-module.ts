import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** What a route module exports: one `(Request) => Response` function per HTTP method. */
export type RouteModule = Partial<Record<(typeof METHODS)[number], (request: Request) => Promise<Response>>>;

/**
 * Serves a route module on `node:http` the way a framework's router would: requests under
 * `basePath` go to the export named by their method (405 when there is none), everything else is
 * 404. A stand-in for Next.js, so the module can be run and tested without it.
 */
export function routeModuleListener(module: RouteModule, basePath = '/v1'): RequestListener {
  return (req, res) => {
    respond(module, basePath, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  };
}

async function respond(module: RouteModule, basePath: string, req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? '/';
  const path = url.split('?')[0] ?? '/';
  if (path !== basePath && !path.startsWith(`${basePath}/`)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const route = module[method as keyof RouteModule];
  if (route === undefined) {
    const allow = METHODS.filter((m) => module[m] !== undefined).join(', ');
    res.writeHead(405, { allow }).end();
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  const response = await route(new Request(`http://${req.headers.host ?? 'localhost'}${url}`, init));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
