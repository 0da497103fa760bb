import { CommerceError } from '@cartwright/core';
import type { BodySource, HeaderReader } from './raw-http';

/** Request bodies larger than this get 413 `body_too_large` (docs/contract.md#requests). */
export const MAX_BODY_BYTES = 1024 * 1024;

export function bodyTooLarge(limit: number): CommerceError {
  return new CommerceError('body_too_large', `The request body exceeds the limit of ${limit} bytes.`);
}

/**
 * The client went away before its request body was complete. Not a server failure (so never
 * reported through `onError`): the body that arrived is incomplete, hence 400 `invalid_json`,
 * which nobody will read.
 */
export function bodyIncomplete(): CommerceError {
  return new CommerceError(
    'invalid_json',
    'The client closed the connection before the body was complete, so the request body is incomplete.',
  );
}

/** The declared `Content-Length`, when present and numeric. */
export function declaredLength(headers: HeaderReader): number | undefined {
  const value = headers.get('content-length');
  if (value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Strict UTF-8 decoding: bytes that are not UTF-8 cannot be JSON, so they answer 400 `invalid_json`. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CommerceError('invalid_json', 'The request body is not valid UTF-8 JSON.');
  }
}

/**
 * Reads a web-standard request body with a byte limit: rejects at once when `Content-Length`
 * declares more, otherwise reads chunk by chunk and cancels the stream as soon as the limit is
 * passed, so at most `limit` bytes are ever held.
 */
export async function readWebBody(request: Request, limit: number): Promise<BodySource> {
  const declared = declaredLength(request.headers);
  if (declared !== undefined && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw bodyTooLarge(limit);
  }
  if (request.body === null) return { kind: 'text', text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw bodyIncomplete();
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return { kind: 'text', text: decodeUtf8(concat(chunks, size)) };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
