import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Verifies a Cartwright webhook delivery (decisions §14): `signatureHeader` (the
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
