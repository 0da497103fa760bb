import type { IncomingMessage, ServerResponse } from 'node:http';
import { CommerceError } from '@cartwright/core';
import type { CartwrightHandler } from '../create-handler';
import { splitUrl } from '../create-handler';
import { errorResponse } from '../error-response';
import type { BodySource, HeaderReader, RawRequest, RawResponse } from '../raw-http';
import { bodyIncomplete, bodyTooLarge, declaredLength, decodeUtf8 } from '../read-body';
import { newRequestId } from '../request-id';

/** A request body must arrive within this many milliseconds (docs/contract.md#requests): 408 `request_timeout` after. */
export const BODY_TIMEOUT_MS = 30_000;
/**
 * At most this many request bodies from one client address are being received at once in a
 * process (docs/security.md); one more → 429 `rate_limited` at once, the connection closed.
 */
export const MAX_UNFINISHED_BODIES_PER_ADDRESS = 16;
/** Client address → bodies being received from it now. */
const unfinishedBodies = new Map<string, number>();

/** A Node request, possibly with a body a framework already parsed (`express.json()`). */
export type NodeRequest = IncomingMessage & { body?: unknown; _body?: boolean };

/** A `node:http` request listener, as `http.createServer(listener)` takes it. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A `node:http` request listener serving the handler:
 * `http.createServer(createNodeListener(createApiHandler(engine)))`. Uses the handler's light
 * path, so no `Request`/`Response` objects are built per request. Every path goes to the API;
 * to share a server with other routes, call `handler.owns(path)` first (see the node-http
 * example).
 */
export function createNodeListener(handler: CartwrightHandler): NodeListener {
  return (req, res) => {
    void handleNodeRequest(handler, req, res);
  };
}

/**
 * @deprecated Renamed {@link createNodeListener} (same arguments, same listener); this alias goes
 * in the next major.
 */
export const toNodeListener: (handler: CartwrightHandler) => NodeListener = createNodeListener;

/**
 * Serves one Node request. `url` defaults to `req.url`; framework adapters pass the URL relative to
 * their mount point. Never rejects: a failure after the pipeline (which already catches) is answered
 * with a bare 500 if nothing was sent yet.
 */
export async function handleNodeRequest(
  handler: CartwrightHandler,
  req: NodeRequest,
  res: ServerResponse,
  url: string = req.url ?? '/',
): Promise<void> {
  try {
    writeNodeResponse(res, await handler.handleRaw(toRawRequest(req, url)));
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end();
  }
}

/** The light request for a Node `IncomingMessage`. */
export function toRawRequest(req: NodeRequest, url: string = req.url ?? '/'): RawRequest {
  const { path, query } = splitUrl(url);
  return {
    method: req.method ?? 'GET',
    path,
    query,
    headers: nodeHeaders(req),
    ...(req.socket?.remoteAddress !== undefined && { clientAddress: req.socket.remoteAddress }),
    ...((req.socket as { encrypted?: boolean } | undefined)?.encrypted === true && { secure: true }),
    readBody: (limit) => readNodeRequestBody(req, limit),
  };
}

/**
 * Writes a light response: text as UTF-8 or bytes as they are, with `Content-Length` in bytes.
 * 204 and 304 carry neither a body nor a `Content-Length` (RFC 9110 §8.6); on HEAD, Node sends the
 * headers only, with the length the body would have.
 */
export function writeNodeResponse(res: ServerResponse, response: RawResponse): void {
  // Copied key by key: `{ ...response.headers, 'Content-Length': … }` (a spread, then a new key)
  // takes a slow path in V8 on Node 20, about 1 µs on every response.
  const headers: Record<string, string> = {};
  for (const name in response.headers) headers[name] = response.headers[name] as string;
  const status = response.status;
  if (status === 204 || status === 304) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = String(Buffer.byteLength(response.body));
  res.writeHead(status, headers);
  res.end(response.body);
}

function nodeHeaders(req: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const value = req.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The body of a Node request: the value a body parser left in `req.body` when the stream was
 * already consumed (`express.json()`, `express.text()`, `express.raw()`), otherwise the stream.
 */
export function readNodeRequestBody(req: NodeRequest, limit: number): Promise<BodySource> {
  if (req.body !== undefined && (req.readableEnded || req._body === true)) {
    const value = req.body;
    if (typeof value === 'string') return Promise.resolve({ kind: 'text', text: value });
    if (value instanceof Uint8Array) return Promise.resolve({ kind: 'text', text: decodeUtf8(value) });
    return Promise.resolve({ kind: 'parsed', value });
  }
  return readNodeStream(req, limit);
}

/**
 * Reads a Node stream as UTF-8 text holding at most `limit` bytes. Past the limit (or when
 * `Content-Length` declares more) it keeps draining without storing anything and rejects with
 * `body_too_large` once the upload ends, so the client is still reading when the 413 arrives
 * (as body-parser does); the 413 response closes the connection. A client that leaves before the
 * body is complete gets `invalid_json` (see `bodyIncomplete`): its own doing, not a server failure.
 */
export function readNodeStream(
  req: IncomingMessage,
  limit: number,
  timeoutMs: number = BODY_TIMEOUT_MS,
): Promise<BodySource> {
  return new Promise((resolve, reject) => {
    // The client may have gone while the pipeline awaited authentication: then `close` has
    // already fired and `end` never will, so answer at once instead of waiting forever.
    if (req.destroyed || req.readableAborted) {
      reject(bodyIncomplete());
      return;
    }
    if (req.readableEnded) {
      resolve({ kind: 'text', text: '' });
      return;
    }
    const address = req.socket?.remoteAddress ?? '';
    const unfinished = unfinishedBodies.get(address) ?? 0;
    if (unfinished >= MAX_UNFINISHED_BODIES_PER_ADDRESS) {
      reject(
        new CommerceError(
          'rate_limited',
          `Too many request bodies being sent at once from this address (at most ${MAX_UNFINISHED_BODIES_PER_ADDRESS}).`,
        ),
      );
      return;
    }
    unfinishedBodies.set(address, unfinished + 1);
    let settled = false;
    const release = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const left = (unfinishedBodies.get(address) ?? 1) - 1;
      if (left <= 0) unfinishedBodies.delete(address);
      else unfinishedBodies.set(address, left);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new CommerceError(
          'request_timeout',
          `The request body did not arrive within ${Math.round(timeoutMs / 1000)} s.`,
        ),
      );
    }, timeoutMs);
    timer.unref?.();
    const declared = Number(req.headers['content-length'] ?? '0');
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else {
        chunks.push(chunk);
      }
    };
    const cleanup = () => {
      release();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onEnd = () => {
      if (settled) return;
      cleanup();
      if (tooLarge) reject(bodyTooLarge(limit));
      else {
        try {
          resolve({ kind: 'text', text: decodeUtf8(Buffer.concat(chunks, size)) });
        } catch (error) {
          reject(error);
        }
      }
    };
    // A stream error on a request (ECONNRESET, "aborted") means the client went away mid-body.
    const onError = () => {
      if (settled) return;
      cleanup();
      reject(bodyIncomplete());
    };
    const onClose = () => {
      if (!req.readableEnded) onError();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * A `checkContinue` listener for a `node:http` server (`server.on('checkContinue', …)`): a request
 * sent with `Expect: 100-continue` whose `Content-Length` is over the handler's body limit gets
 * 413 `body_too_large` at once, without `100 Continue`, and the connection is closed; any other
 * is told to continue and goes to `listener` (docs/contract.md#requests).
 */
export function createNodeCheckContinue(handler: CartwrightHandler, listener: NodeListener): NodeListener {
  return (req, res) => {
    const declared = declaredLength(nodeHeaders(req));
    if (declared !== undefined && declared > handler.maxBodyBytes) {
      const response = errorResponse(
        'body_too_large',
        `The request body exceeds the limit of ${handler.maxBodyBytes} bytes.`,
        newRequestId(),
      );
      response.headers.Connection = 'close';
      response.headers['X-Content-Type-Options'] = 'nosniff';
      writeNodeResponse(res, response);
      return;
    }
    res.writeContinue();
    listener(req, res);
  };
}
