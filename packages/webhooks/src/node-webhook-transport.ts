import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type {
  WebhookTransport,
  WebhookTransportRequest,
  WebhookTransportResult,
  WebhookUrlCheckResult,
} from '@cartwright/core/providers';
import {
  bareHostname,
  checkWebhookUrl,
  isIpLiteral,
  type ResolvedAddress,
  type Resolver,
} from './url-safety';

export interface NodeWebhookTransportOptions {
  /**
   * Let webhooks target loopback/private/link-local addresses (docs/contract.md#running
   * `COMMERCE_ALLOW_PRIVATE_WEBHOOKS`). Default false: such targets are refused at creation and
   * at every delivery.
   */
  allowPrivate?: boolean;
  /** DNS resolver; default the system's (`getaddrinfo`). Tests inject one. */
  resolve?: Resolver;
  /** How long the creation-time check waits for DNS before accepting the URL; default 5000 ms. */
  checkTimeoutMs?: number;
  /** `User-Agent` of deliveries; default `Cartwright-Webhooks/1`. */
  userAgent?: string;
}

/** Response bodies are read and thrown away, at most this many bytes; then the socket is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * The Node implementation of core's `WebhookTransport` (node:http/https only): one POST per call,
 * no redirects followed (a 3xx is returned as is, which the engine counts as a failure), one
 * deadline of `timeout_ms` covering DNS, connect, TLS and the response headers, and the URL
 * safety check at every delivery — the connection goes to the very address that passed it (a
 * custom `lookup`), so a DNS answer that changes between check and connect cannot redirect it.
 */
export function createNodeWebhookTransport(options: NodeWebhookTransportOptions = {}): WebhookTransport {
  const allowPrivate = options.allowPrivate ?? false;
  const resolve = options.resolve;
  const userAgent = options.userAgent ?? 'Cartwright-Webhooks/1';
  const checkTimeoutMs = options.checkTimeoutMs ?? 5000;

  return {
    async send(request: WebhookTransportRequest): Promise<WebhookTransportResult> {
      const started = performance.now();
      const elapsed = () => Math.max(0, Math.round(performance.now() - started));
      const deadline = started + request.timeout_ms;
      const timedOut = () => ({
        status_code: null,
        duration_ms: elapsed(),
        error: `timed out after ${request.timeout_ms} ms`,
      });

      const check = await withDeadline(
        checkWebhookUrl(request.url, { allowPrivate, ...(resolve && { resolve }), unresolvable: 'refuse' }),
        deadline - performance.now(),
      );
      if (check === TIMEOUT) return timedOut();
      if (!check.allowed) {
        const prefix = check.kind === 'unresolved' ? 'DNS lookup failed' : 'url_not_allowed';
        return { status_code: null, duration_ms: elapsed(), error: `${prefix}: ${check.reason}` };
      }
      const target = check.addresses[0] as ResolvedAddress;
      const outcome = await post(check.url, target, request, userAgent, deadline - performance.now());
      if (outcome === TIMEOUT) return timedOut();
      if ('error' in outcome) return { status_code: null, duration_ms: elapsed(), error: outcome.error };
      return { status_code: outcome.status, duration_ms: elapsed(), error: null };
    },

    /**
     * The creation-time check (core calls it from `POST`/`PATCH /v1/admin/webhooks`). A host name
     * that does not resolve (yet) is accepted, since every delivery checks again.
     */
    async checkUrl(url: string): Promise<WebhookUrlCheckResult> {
      const check = await withDeadline(
        checkWebhookUrl(url, { allowPrivate, ...(resolve && { resolve }), unresolvable: 'allow' }),
        checkTimeoutMs,
      );
      if (check === TIMEOUT || check.allowed) return { allowed: true };
      return { allowed: false, reason: check.reason };
    },
  };
}

const TIMEOUT = Symbol('timeout');

async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  if (ms <= 0) return TIMEOUT;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function post(
  url: URL,
  target: ResolvedAddress,
  request: WebhookTransportRequest,
  userAgent: string,
  remainingMs: number,
): Promise<{ status: number } | { error: string } | typeof TIMEOUT> {
  if (remainingMs <= 0) return Promise.resolve(TIMEOUT);
  const host = bareHostname(url);
  const literal = isIpLiteral(host);
  // Pin the connection to the checked address: Node calls `lookup` instead of resolving again.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const body = Buffer.from(request.body, 'utf8');
  const options: RequestOptions & { servername?: string } = {
    method: 'POST',
    protocol: url.protocol,
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: {
      'user-agent': userAgent,
      ...request.headers,
      'content-length': String(body.length),
    },
    agent: false,
    ...(literal ? {} : { lookup: pinned }),
    ...(url.protocol === 'https:' && !literal && { servername: host }),
  };
  if (url.username !== '' || url.password !== '') {
    options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  }

  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: { status: number } | { error: string } | typeof TIMEOUT) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res: IncomingMessage) => {
      finish({ status: res.statusCode ?? 0 });
      drain(res);
    });
    const timer = setTimeout(() => {
      finish(TIMEOUT);
      req.destroy();
    }, remainingMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: describe(error) }));
    req.end(body);
  });
}

/** Reads a response body to its end (so the socket closes cleanly), giving up after a size cap. */
function drain(res: IncomingMessage): void {
  let received = 0;
  res.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_RESPONSE_BYTES) res.destroy();
  });
  res.on('error', () => undefined);
  const guard = setTimeout(() => res.destroy(), 5000);
  guard.unref();
  res.on('close', () => clearTimeout(guard));
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
