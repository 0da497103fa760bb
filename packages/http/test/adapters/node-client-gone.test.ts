import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { handleNodeRequest } from '../../src/adapters/node';
import { createHandler } from '../../src/create-handler';
import type { RouteEngine } from '../../src/engine-port';
import type { ErrorHookInfo } from '../../src/error-response';
import { type AnyRoute, defineRoute } from '../../src/route';

const engine = {} as unknown as RouteEngine;

const Echo = z.object({ ok: z.boolean() });

/** Answers once the body is read; the handler records whether it ran. */
function echoRoute(ran: string[]): AnyRoute {
  return defineRoute({
    method: 'POST',
    path: '/v1/echo',
    auth: 'none',
    customerToken: 'none',
    body: z.object({ a: z.number().optional() }),
    response: Echo,
    summary: 'echo',
    tags: ['Test'],
    handler: async () => {
      ran.push('handler');
      return { ok: true };
    },
  });
}

test('a client that leaves mid-body settles without being reported as a server failure (no onError, handler never runs)', async () => {
  const ran: string[] = [];
  const reported: Array<{ error: unknown; info: ErrorHookInfo }> = [];
  const handler = createHandler(engine, {
    routes: [echoRoute(ran)],
    onError: (error, info) => reported.push({ error, info }),
  });
  const served: Array<Promise<void>> = [];
  const server = createServer((req, res) => {
    served.push(handleNodeRequest(handler, req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    // the request settles without hanging, and nothing is reported as a server failure
    expect(served).toHaveLength(1);
    await served[0];
    expect(reported).toEqual([]);
    expect(ran).toEqual([]);

    // a complete request on the same server still works and a real failure is still reported
    const ok = await fetch(`http://127.0.0.1:${port}/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    expect(ran).toEqual(['handler']);
  } finally {
    server.close();
  }
});
