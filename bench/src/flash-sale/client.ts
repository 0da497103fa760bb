import { Agent, request } from 'node:http';
import type { CartwrightHandler } from '@cartwright/http';

/** One answer: status, body text, and the time from sending the request to its last byte. */
export interface Reply {
  status: number;
  body: string;
  ms: number;
}

/** Sends one request (a JSON body, or none) and reads the whole answer. */
export type Send = (method: string, path: string, body: unknown, key: string) => Promise<Reply>;

/**
 * A client over loopback HTTP with at most `connections` keep-alive sockets (node:http's Agent,
 * FIFO): one request per socket at a time, never retried (a socket error rejects).
 */
export function httpClient(url: string, connections: number): { send: Send; close(): void } {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: connections, scheduling: 'fifo' });
  const send: Send = (method, path, body, key) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const started = performance.now();
      const req = request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          headers: {
            authorization: `Bearer ${key}`,
            ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

/** The same calls in this process, straight into the API handler (no socket). */
export function inProcessClient(handler: CartwrightHandler): Send {
  return async (method, path, body, key) => {
    const started = performance.now();
    const response = await handler(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text, ms: performance.now() - started };
  };
}

/**
 * Runs `task` once for each item with exactly `concurrency` in flight (workers pulling the next
 * item as soon as theirs is answered). Returns the results in item order and the wall time.
 */
export async function runAll<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
): Promise<{ results: R[]; seconds: number }> {
  const results = new Array<R>(items.length);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const at = next++;
      if (at >= items.length) return;
      results[at] = await task(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return { results, seconds: (performance.now() - started) / 1000 };
}

/** `error.code` of an error body (docs/contract.md#errors), or null. */
export function errorCode(body: string): string | null {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}

/** Parses a 2xx JSON answer, or throws with what came back. */
export function expectOk<T>(reply: Reply, what: string): T {
  if (reply.status < 200 || reply.status >= 300)
    throw new Error(`${what}: HTTP ${reply.status} ${reply.body.slice(0, 300)}`);
  return JSON.parse(reply.body) as T;
}
