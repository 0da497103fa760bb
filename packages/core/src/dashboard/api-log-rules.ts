import type { JsonObject } from '../ports/storage/scope';
import { maskSecret } from '../shared/replay-secrets';

/**
 * The rules of API logs (decisions §23), pure: which requests are logged, and how a body is
 * stored (secrets redacted, cut at 8 KB). The HTTP layer applies them off the request's path.
 */

/** `COMMERCE_API_LOGS`: `writes` (the default), `all` or `off`. */
export const API_LOG_MODES = ['writes', 'all', 'off'] as const;
export type ApiLogMode = (typeof API_LOG_MODES)[number];
export const DEFAULT_API_LOG_MODE: ApiLogMode = 'writes';

/** A stored body's JSON text is at most this many UTF-8 bytes (decisions §23: 8 KB). */
export const MAX_LOGGED_BODY_BYTES = 8192;

/** What a redacted value is stored as. */
export const REDACTED = '[REDACTED]';

/**
 * Whether a finished request is logged: `all` logs every one, `off` none, and `writes` every
 * request that is not a read (GET or HEAD) and every 4xx/5xx.
 */
export function shouldLogRequest(mode: ApiLogMode, method: string, status: number): boolean {
  if (mode === 'all') return true;
  if (mode === 'off') return false;
  return (method !== 'GET' && method !== 'HEAD') || status >= 400;
}

/**
 * Whether a field's value is a secret, by its name (case-insensitive): `password` and
 * `*_password`, `token` and `*_token`, `secret` and `*_secret` (`client_secret`), and
 * `payment_method_id`.
 */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
}
const SECRET_FIELD = /^(?:password|token|secret|payment_method_id)$|_(?:password|token|secret)$/i;

/**
 * Whether a JSON text may hold something to redact: a field name with `password`, `token`,
 * `secret` or `payment_method_id` in it, or the start of a credential. Most bodies do not, and
 * are then stored as parsed, without a walk.
 */
const MAY_NEED_REDACTION =
  /password|token|secret|payment_method_id|(?:^|[^A-Za-z0-9])(?:sk_|pk_|whsec_|ct_|prt_)/i;
// (No lookbehind here: this test runs on every logged body, and V8 runs the same pattern with
// `(?<!…)` about four times slower — 8 against 2 µs on a 1.4 KB cart. It is only a pre-filter:
// the redaction itself keeps SECRET_START / SECRET_IN_TEXT.)

/**
 * A credential inside any string: a raw API key (`sk_…`/`pk_…`), a webhook secret (`whsec_…`), a
 * customer token (`ct_…`) or a password reset token (`prt_…`) — the shapes their generators make.
 */
const SECRET_IN_TEXT =
  /(?<![A-Za-z0-9])(?:(?:sk|pk)_(?:test|live)_[A-Za-z0-9_-]{16,}|whsec_[A-Za-z0-9+/=_-]{16,}|ct_[A-Za-z0-9_-]{16,}|prt_[A-Za-z0-9_-]{16,})/g;
const SECRET_START = /(?<![A-Za-z0-9])(?:sk_|pk_|whsec_|ct_|prt_)/;

/** A string with every credential in it masked as its first 12 characters and `****` (an API key: its `key_prefix`). */
export function redactText(text: string): string {
  // The shortest credential is 19 characters (`ct_` + 16).
  if (text.length < 19 || !SECRET_START.test(text)) return text;
  return text.replace(SECRET_IN_TEXT, (secret) => maskSecret(secret));
}

/** Nesting below this depth is stored as {@link REDACTED} (a body that deep is not worth walking). */
const MAX_DEPTH = 64;

/**
 * A JSON value with its secrets redacted: the value of every secret field ({@link isSecretField};
 * null stays null) becomes {@link REDACTED}, and every credential inside a string is masked
 * ({@link redactText}). A new value; the input is not changed.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    const redacted = isSecretField(key) && field !== null ? REDACTED : redactSecrets(field, depth + 1);
    // defineProperty, not assignment, for `__proto__`: it stays a key (as in metadata).
    if (key !== '__proto__') out[key] = redacted;
    else
      Object.defineProperty(out, key, {
        value: redacted,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

const encoder = new TextEncoder();
/** Room for the limit and one more character, so that a text over it never fits. */
const scratch = new Uint8Array(MAX_LOGGED_BODY_BYTES + 4);

/**
 * Whether the UTF-8 form of `text` is at most {@link MAX_LOGGED_BODY_BYTES}: encoded natively
 * into a fixed buffer (`encodeInto` stops when it is full), ~50× faster than counting in a loop.
 */
function fitsLimit(text: string): boolean {
  const { read, written } = encoder.encodeInto(text, scratch);
  return read === text.length && written <= MAX_LOGGED_BODY_BYTES;
}

/** UTF-8 length of a string (only for a text over the limit: the `_bytes` of a cut body). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The bytes a character takes inside a JSON string literal (escaped, UTF-8). */
function escapedBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return 3;
}

/**
 * The body as stored: its JSON object with secrets redacted ({@link redactSecrets}); when that
 * JSON text is over {@link MAX_LOGGED_BODY_BYTES}, it is cut and marked instead:
 * `{ "_truncated": true, "_bytes": <size of the whole redacted text>, "_preview": "<its start>" }`,
 * itself within the limit. Anything but a JSON object (none, an array, text) → null.
 */
export function loggedBody(body: unknown): JsonObject | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  return storedForm(redactSecrets(body) as JsonObject, null);
}

/** `redacted` as stored; `known`, when given, is its JSON text. */
function storedForm(redacted: JsonObject, known: string | null): JsonObject {
  let text = known ?? JSON.stringify(redacted);
  // Fast path: short enough even if every character took 3 bytes.
  if (text.length * 3 <= MAX_LOGGED_BODY_BYTES) return redacted;
  // Measured and cut on its compact form (a text given may have white space).
  if (known !== null) text = JSON.stringify(redacted);
  if (fitsLimit(text)) return redacted;
  return { _truncated: true, _bytes: utf8Length(text), _preview: previewOf(text) };
}

/** The frame around the preview: `{"_truncated":true,"_bytes":<up to 8 digits>,"_preview":"` + `"}`. */
const FRAME_BYTES = 60;

/** The longest start of `text` whose escaped form fits the limit with the frame, never splitting a surrogate pair. */
function previewOf(text: string): string {
  let budget = MAX_LOGGED_BODY_BYTES - FRAME_BYTES;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length;
    const cost = pair ? 4 : escapedBytes(code);
    if (cost > budget) break;
    budget -= cost;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * A request or response body text as stored: parsed when it is JSON (then {@link loggedBody}), else
 * null. Never throws.
 */
export function loggedBodyOfText(text: string | null | undefined): JsonObject | null {
  if (text === null || text === undefined) return null;
  const start = text.trimStart();
  if (!start.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(start);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  // Nothing that could be a secret in the text: stored as parsed (its text is the one given).
  if (!MAY_NEED_REDACTION.test(start)) return storedForm(value as JsonObject, start);
  return storedForm(redactSecrets(value) as JsonObject, null);
}

/**
 * A body text as stored, as JSON text: {@link loggedBodyOfText}'s object, serialised — or, when
 * there is nothing to redact and it is within the limit, the text itself, unparsed if `trusted`
 * (JSON this process wrote: a response), else once parsed to check it is a JSON object.
 */
export function loggedJsonText(text: string | null | undefined, trusted: boolean): string | null {
  if (text === null || text === undefined) return null;
  if (trusted) {
    if (text.charCodeAt(0) !== 0x7b /* { */) return null;
    if (!MAY_NEED_REDACTION.test(text) && withinLimit(text)) return text;
  }
  const stored = loggedBodyOfText(text);
  if (stored === null) return null;
  return !trusted && !MAY_NEED_REDACTION.test(text) && withinLimit(text) ? text : JSON.stringify(stored);
}

function withinLimit(text: string): boolean {
  return text.length * 3 <= MAX_LOGGED_BODY_BYTES || fitsLimit(text);
}
