import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiateEncoding } from './api-reference-page';
import type { HeaderReader, RawResponse } from './raw-http';

/** JSON responses larger than this many bytes are compressed when the client accepts it (docs/contract.md#responses). */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Quality 4: close to gzip's size at a fraction of brotli's default cost (quality 11). */
const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP_OPTIONS = { level: 6 };

/**
 * Compresses a JSON response over {@link COMPRESS_MIN_BYTES} with the coding the request's
 * `Accept-Encoding` prefers (brotli, then gzip), off the event loop (zlib's thread pool), and adds
 * `Vary: Accept-Encoding` to every JSON response that size, compressed or not. Smaller responses,
 * responses that already have a `Content-Encoding`, and non-JSON ones are left as they are. The
 * idempotency store keeps the uncompressed text, so a replay is compressed for its own request.
 */
export async function compressResponse(response: RawResponse, headers: HeaderReader): Promise<RawResponse> {
  const body = response.body;
  if (typeof body !== 'string' || body.length === 0) return response;
  const out = response.headers;
  if (out['Content-Encoding'] !== undefined) return response;
  const contentType = out['Content-Type'];
  if (contentType === undefined || !contentType.startsWith('application/json')) return response;
  if (Buffer.byteLength(body) <= COMPRESS_MIN_BYTES) return response;
  out.Vary = out.Vary === undefined ? 'Accept-Encoding' : `${out.Vary}, Accept-Encoding`;
  const coding = negotiateEncoding(headers.get('accept-encoding'));
  if (coding === 'identity') return response;
  const cache = coding === 'br' ? BR_CACHE : GZIP_CACHE;
  let bytes = cache.get(body);
  if (bytes === undefined) {
    const compressed =
      coding === 'br' ? await brotli(body, BROTLI_OPTIONS) : await gzipAsync(body, GZIP_OPTIONS);
    bytes = new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.byteLength);
    remember(cache, body, bytes);
  } else {
    // Most recently used last: the oldest entry is the one evicted.
    cache.delete(body);
    cache.set(body, bytes);
  }
  out['Content-Encoding'] = coding;
  return { status: response.status, headers: out, body: bytes };
}

/**
 * The compressed forms of recent response texts, per coding: a text sent again (a catalog page
 * served from the storefront's prepared text, a list read over and over) is compressed once, so
 * compression costs the hot read path a lookup, not a brotli or gzip run (bench/src/hostile-bench.ts).
 * At most {@link CACHE_ENTRIES} texts of at most {@link CACHE_MAX_TEXT} characters, least recently
 * used evicted first.
 */
const BR_CACHE = new Map<string, Uint8Array>();
const GZIP_CACHE = new Map<string, Uint8Array>();
const CACHE_ENTRIES = 64;
const CACHE_MAX_TEXT = 256 * 1024;

function remember(cache: Map<string, Uint8Array>, text: string, bytes: Uint8Array): void {
  if (text.length > CACHE_MAX_TEXT) return;
  if (cache.size >= CACHE_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(text, bytes);
}
