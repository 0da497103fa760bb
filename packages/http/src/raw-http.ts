/**
 * The light request/response pair the pipeline works on. The fetch handler wraps it around
 * `Request`/`Response`; the Node adapters fill it straight from `IncomingMessage` and write it to
 * `ServerResponse`, so no web-standard objects are built per request on Node.
 */

/** Reads request headers; names are passed lower-case. `Headers` satisfies it. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request body as a transport delivers it: raw text, or a value a framework already parsed. */
export type BodySource = { kind: 'text'; text: string } | { kind: 'parsed'; value: unknown };

export interface RawRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path without the query string, still percent-encoded, e.g. `/v1/admin/products/prod_1`. */
  path: string;
  /** Query string without the leading `?` (`''` when none). */
  query: string;
  headers: HeaderReader;
  /**
   * The peer's IP address as the transport sees it (the Node adapters: the socket's remote
   * address); undefined when unknown. Used for the per-address rate limits, through the
   * `trustProxy` option when proxies stand in front.
   */
  clientAddress?: string;
  /** The request came over https (the staff session cookie is then `Secure`). */
  secure?: boolean;
  /**
   * Reads the body, never buffering more than `limit` bytes: rejects with
   * `CommerceError('body_too_large')` past it, and with `invalid_json` when it is not UTF-8.
   * Called at most once, and only for routes that take a body.
   */
  readBody(limit: number): Promise<BodySource>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * The body: serialised JSON text unless `Content-Type` says otherwise (a `textResponse`), or
   * bytes sent as they are (a `textResponse` with a `Uint8Array` body, e.g. compressed with
   * `Content-Encoding` set). Transports write text as UTF-8; `Content-Length` counts bytes.
   */
  body: string | Uint8Array;
}
