import { CommerceError } from '@cartwright/core';
import type { BodySource, HeaderReader } from './raw-http';

/** `application/json` or any `application/*+json`, with or without parameters (charset). */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Turns a body into the value validation sees (docs/contract.md#requests): an empty body (or only whitespace)
 * is `{}`, whatever the content type; a non-empty body needs a JSON content type (415
 * `unsupported_media_type`) and must parse (400 `invalid_json`) to a JSON object (400
 * `parameter_invalid`: every body in this API is an object). A body a framework already parsed is
 * accepted when the content type is JSON (an empty object counts as empty).
 */
export function decodeJsonBody(source: BodySource, headers: HeaderReader): Record<string, unknown> {
  const contentType = headers.get('content-type');
  let value: unknown;
  if (source.kind === 'parsed') {
    if (isEmptyParsed(source.value)) return {};
    if (!isJsonContentType(contentType)) throw unsupportedMediaType(contentType);
    value = source.value;
  } else {
    const text = source.text;
    if (text.length === 0 || text.trim().length === 0) return {};
    if (!isJsonContentType(contentType)) throw unsupportedMediaType(contentType);
    try {
      value = JSON.parse(text);
    } catch {
      throw new CommerceError('invalid_json', 'The request body is not valid JSON.');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CommerceError('parameter_invalid', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function isEmptyParsed(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  return typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

function unsupportedMediaType(contentType: string | null): CommerceError {
  return new CommerceError(
    'unsupported_media_type',
    contentType === null
      ? 'A request body must be sent with Content-Type: application/json.'
      : `Unsupported Content-Type '${contentType}': request bodies must be application/json.`,
  );
}
