import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const SECRET_PREFIX = 'whsec_';
/** Padded standard base64 of at least one byte: what Standard Webhooks secrets hold after `whsec_`. */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/**
 * Verifies a Cartwright webhook delivery (docs/contract.md#webhook-delivery): `signatureHeader` (the
 * `X-Webhook-Signature` header) must be the hex HMAC-SHA256 of the exact raw request body, keyed
 * with the whole secret string (`whsec_…`) as returned when the webhook was created.
 *
 * Pass the body exactly as received (the raw bytes or their UTF-8 text), never a re-serialised
 * JSON object. The comparison runs in constant time (`crypto.timingSafeEqual`); a missing,
 * wrongly sized or non-hex header returns false and never throws.
 *
 * @example
 * ```ts
 * if (!verifyWebhookSignature(rawBody, req.headers['x-webhook-signature'], process.env.WEBHOOK_SECRET)) {
 *   res.statusCode = 400; return res.end();
 * }
 * ```
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer | Uint8Array,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string,
): boolean {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof header !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
  const received = header.trim();
  if (!HEX_SHA256.test(received)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(received, 'hex'), expected);
}

/** Request headers as Node (`req.headers`) or fetch (`request.headers`) gives them. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

export interface VerifyStandardWebhookOptions {
  /** How far `webhook-timestamp` may lie from `now`, either way; default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The receiver's time, epoch milliseconds; default `Date.now()`. */
  now?: number;
}

/**
 * The HMAC key of the Standard Webhooks signature for a Cartwright secret: the base64-decoded
 * part after `whsec_` (secrets are `whsec_` + standard base64 of 32 random bytes). Secrets of
 * webhooks created before Standard Webhooks support (`whsec_` + 43 URL-safe characters, not valid
 * padded base64) use the UTF-8 bytes of the part after `whsec_` — the `standardwebhooks` library
 * verifies those only as `new Webhook(secret.slice(6), { format: 'raw' })`; rotate such a secret
 * (`POST /v1/admin/webhooks/{id}/rotate-secret`) to get a standard one.
 */
export function standardWebhookKey(secret: string): Buffer {
  const rest = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return STANDARD_BASE64.test(rest) ? Buffer.from(rest, 'base64') : Buffer.from(rest, 'utf8');
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | readonly string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  return typeof value === 'string' ? value : value?.join(' ');
}

/**
 * Verifies a delivery by its Standard Webhooks headers (docs/contract.md#standard-webhooks), as the `standardwebhooks`
 * library does, without it: `webhook-timestamp` must be within `toleranceSeconds` (default 300)
 * of `now` either way (replay protection), and one of the space-separated `v1,<base64>` entries
 * of `webhook-signature` must equal the base64 HMAC-SHA256 of `"{webhook-id}.{webhook-timestamp}.{body}"`
 * keyed with {@link standardWebhookKey}(secret) — several entries appear while a rotated secret
 * still signs, so verifying with either secret succeeds. Constant-time comparison; returns false
 * (never throws) for missing or malformed headers.
 *
 * Pass the raw body exactly as received. Remember `webhook-id` (the event id) to drop
 * re-deliveries: delivery is at-least-once.
 *
 * @example
 * ```ts
 * if (!verifyStandardWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET)) {
 *   res.statusCode = 400; return res.end();
 * }
 * ```
 */
export function verifyStandardWebhook(
  rawBody: string | Buffer | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyStandardWebhookOptions = {},
): boolean {
  if (typeof secret !== 'string' || secret.length === 0 || headers === null || typeof headers !== 'object') {
    return false;
  }
  const id = headerOf(headers, 'webhook-id');
  const timestampHeader = headerOf(headers, 'webhook-timestamp')?.trim();
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestampHeader || !signatures || !/^\d{1,15}$/.test(timestampHeader)) return false;
  const timestamp = Number(timestampHeader);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (now - timestamp > tolerance || timestamp - now > tolerance) return false;
  const key = standardWebhookKey(secret);
  if (key.length === 0) return false;
  const expected = Buffer.from(
    createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64'),
  );
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const received = Buffer.from(entry.slice(comma + 1));
    // Every entry is compared (no early exit), each in constant time.
    if (received.length === expected.length && timingSafeEqual(received, expected)) matched = true;
  }
  return matched;
}
