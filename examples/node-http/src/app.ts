import { createServer, type Server } from 'node:http';
import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createNodeListener } from '@cartwright/http/node';

/**
 * A plain `node:http` server: Cartwright's `/v1` API through `createNodeListener(handler)`, plus one
 * route of the app's own. `handler.owns(path)` tells whether a path is the API's (under `/v1`, or
 * one of its aliases), so anything else can go to the rest of the app.
 */
export function createShopServer(engine: Engine): Server {
  const handler = createApiHandler(engine);
  const api = createNodeListener(handler);
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (handler.owns(path)) {
      api(req, res);
      return;
    }
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
}
