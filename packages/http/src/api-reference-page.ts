import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { HeaderReader } from './raw-http';
import { type TextResponse, textResponse } from './route';

/**
 * Serving the API reference (`/v1/docs`, `/v1/openapi.json`) as a static document: built once per
 * API, then sent from memory with the headers a static file gets from a good web server —
 * `Cache-Control`, a strong `ETag` (`If-None-Match` → 304 with no body), `Vary: Accept-Encoding`,
 * `X-Content-Type-Options: nosniff`, a `Content-Security-Policy` — and compressed with brotli or
 * gzip when the client's `Accept-Encoding` prefers it. Each encoding is compressed once, on the
 * first request that asks for it (off the event loop, in zlib's thread pool), and kept.
 */

/** A content coding the documents are sent in. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * `Cache-Control` of the documents: any cache may keep them for five minutes, then revalidates
 * with the `ETag` (a 304 costs a few hundred bytes). The page only changes when the server is
 * upgraded or its routes change, so a short freshness keeps an upgrade visible within minutes.
 */
export const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

/** Brotli quality 9: 22 KB for the 750 KB page in ~40 ms; quality 11 saves 8 % more for ~800 ms. */
const BROTLI_QUALITY = 9;
/** gzip level 9: 35 KB for the page in ~12 ms (level 6: 36.5 KB). */
const GZIP_LEVEL = 9;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Options of {@link prepareDocument}. */
export interface DocumentOptions {
  /** The `Content-Security-Policy` header sent with the document. */
  contentSecurityPolicy: string;
  /** Default {@link DOCUMENT_CACHE_CONTROL}. */
  cacheControl?: string;
}

/** A document ready to serve: its bytes, validators and headers per coding, compressed lazily. */
export interface PreparedDocument {
  readonly contentType: string;
  /** The document as UTF-8 bytes (the identity representation). */
  readonly identity: Uint8Array;
  /** The strong entity tag of each representation (a coding changes the bytes, so the tag). */
  readonly etags: Readonly<Record<ContentCoding, string>>;
  /** The body of a representation: the identity bytes, or compressed once and cached. */
  bytes(coding: ContentCoding): Promise<Uint8Array>;
  /** Headers of a 200 in this coding. */
  readonly headers: Readonly<Record<ContentCoding, Readonly<Record<string, string>>>>;
  /** Headers of a 304 for this coding (the validators and caching headers only). */
  readonly notModifiedHeaders: Readonly<Record<ContentCoding, Readonly<Record<string, string>>>>;
}

const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** Prepares `text` to be served with {@link serveDocument}; call once per document and keep it. */
export function prepareDocument(
  contentType: string,
  text: string,
  options: DocumentOptions,
): PreparedDocument {
  const identity = new TextEncoder().encode(text);
  const digest = createHash('sha256').update(identity).digest('base64url');
  const etags: Record<ContentCoding, string> = {
    br: `"${digest}-br"`,
    gzip: `"${digest}-gzip"`,
    identity: `"${digest}"`,
  };
  const cacheControl = options.cacheControl ?? DOCUMENT_CACHE_CONTROL;
  const headers = {} as Record<ContentCoding, Readonly<Record<string, string>>>;
  const notModifiedHeaders = {} as Record<ContentCoding, Readonly<Record<string, string>>>;
  for (const coding of CODINGS) {
    const validators = { 'Cache-Control': cacheControl, ETag: etags[coding], Vary: 'Accept-Encoding' };
    notModifiedHeaders[coding] = Object.freeze({ ...validators });
    headers[coding] = Object.freeze({
      ...validators,
      ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }),
      'Content-Security-Policy': options.contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
    });
  }
  const compressed = new Map<ContentCoding, Promise<Uint8Array>>();
  const bytes = (coding: ContentCoding): Promise<Uint8Array> => {
    if (coding === 'identity') return Promise.resolve(identity);
    let pending = compressed.get(coding);
    if (pending === undefined) {
      pending = compress(identity, coding);
      compressed.set(coding, pending);
      // A failure is not kept: the next request tries again.
      pending.catch(() => compressed.delete(coding));
    }
    return pending;
  };
  return Object.freeze({
    contentType,
    identity,
    etags: Object.freeze(etags),
    bytes,
    headers: Object.freeze(headers),
    notModifiedHeaders: Object.freeze(notModifiedHeaders),
  });
}

async function compress(bytes: Uint8Array, coding: 'br' | 'gzip'): Promise<Uint8Array> {
  const out =
    coding === 'br'
      ? await brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      : await gzipAsync(bytes, { level: GZIP_LEVEL });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * The response for one request of a prepared document: 304 with no body when `If-None-Match`
 * names the representation's tag (or is `*`), otherwise 200 with the representation
 * `Accept-Encoding` prefers.
 */
export async function serveDocument(
  document: PreparedDocument,
  headers: HeaderReader,
): Promise<TextResponse> {
  const coding = negotiateEncoding(headers.get('accept-encoding'));
  if (ifNoneMatchHits(headers.get('if-none-match'), document.etags[coding])) {
    return textResponse(document.contentType, '', {
      status: 304,
      headers: document.notModifiedHeaders[coding],
    });
  }
  return textResponse(document.contentType, await document.bytes(coding), {
    headers: document.headers[coding],
  });
}

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the one of `br`, `gzip`
 * and `identity` with the highest weight (`q`, default 1), `br` before `gzip` before `identity`
 * on a tie. `*` stands for every coding not listed; `x-gzip` is `gzip`. Identity is acceptable
 * unless `identity;q=0` (or `*;q=0` without an `identity` entry) says otherwise, and ranks below
 * any coding the client listed. No header, or nothing acceptable, → `identity` (a server may send
 * it then rather than 406).
 */
export function negotiateEncoding(header: string | null): ContentCoding {
  if (header === null) return 'identity';
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [rawName = '', ...parameters] = entry.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const trimmed = value.trim();
      weight = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    }
    if (Number.isNaN(weight)) continue; // a malformed q: the entry is ignored
    const coding = name === 'x-gzip' ? 'gzip' : name;
    weights.set(coding, Math.max(weight, weights.get(coding) ?? 0));
  }
  const any = weights.get('*');
  const weightOf = (coding: ContentCoding): number => {
    const listed = weights.get(coding);
    if (listed !== undefined) return listed;
    if (coding === 'identity') return any === 0 ? 0 : 0.0001;
    return any ?? 0;
  };
  let best: ContentCoding = 'identity';
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Whether an `If-None-Match` header matches `etag` (weak comparison, as RFC 9110 §13.1.2 requires
 * for this header: `W/"x"` matches `"x"`); `*` matches any current representation.
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const value = header.trim();
  if (value === '*') return true;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const wanted = opaque(etag);
  return value.split(',').some((tag) => opaque(tag.trim()) === wanted);
}
