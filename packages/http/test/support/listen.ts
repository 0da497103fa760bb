import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Starts a node:http server on 127.0.0.1 with an ephemeral port. */
export async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A minimal Node → fetch bridge for frameworks that are only a fetch handler (Hono), the way
 * `@hono/node-server` does it: IncomingMessage → Request, Response → ServerResponse.
 */
export function fetchListener(fetchHandler: (request: Request) => Response | Promise<Response>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(hasBody ? { body: req as unknown as ReadableStream, duplex: 'half' } : {}),
    } as RequestInit);
    Promise.resolve(fetchHandler(request))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  };
}

export { createServer };
