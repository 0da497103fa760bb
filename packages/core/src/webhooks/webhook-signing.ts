/**
 * Webhook secrets and the Standard Webhooks signature (docs/contract.md#standard-webhooks), with the web-standard
 * `crypto.subtle` only (core has no `node:*` imports).
 *
 * - Secrets are `whsec_` + standard base64 of 32 random bytes (`whsec_…=`, 50 characters).
 * - `webhook-signature` is `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`,
 *   keyed with the base64-DECODED part after `whsec_`; one `v1,` entry per signing secret,
 *   separated by spaces.
 * - Webhooks created before Standard Webhooks signatures were added have `whsec_` + 43 URL-safe characters, which are not valid
 *   (padded, standard) base64: their key is the UTF-8 bytes of the part after `whsec_` instead.
 *   The `standardwebhooks` library verifies those with `new Webhook(rest, { format: 'raw' })`;
 *   rotating the secret gives such a webhook a standard one.
 * `@cartwright/webhooks` applies the same key rule on the receiving side (`standardWebhookKey`).
 */

export const SECRET_PREFIX = 'whsec_';

/** Padded standard base64 of at least one byte: what `standardwebhooks` decodes. */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

const encoder = new TextEncoder();

/** `whsec_` + standard base64 of the random bytes that `randomToken` (URL-safe, unpadded) encodes. */
export function secretFromToken(token: string): string {
  const standard = token.replace(/-/g, '+').replace(/_/g, '/');
  return `${SECRET_PREFIX}${standard}${'='.repeat((4 - (standard.length % 4)) % 4)}`;
}

/**
 * The HMAC key of the Standard Webhooks signature for a secret: the base64-decoded part after
 * `whsec_` when it is padded standard base64, else (legacy secrets) its UTF-8 bytes.
 */
export function standardWebhookKey(secret: string): Uint8Array {
  const rest = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!STANDARD_BASE64.test(rest)) return encoder.encode(rest);
  const binary = atob(rest);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(buffer: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** One `v1,<base64>` signature of `{id}.{timestamp}.{body}` with `secret`. */
export async function standardSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    standardWebhookKey(secret) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await globalThis.crypto.subtle.sign(
    'HMAC',
    key,
    encoder.encode(`${id}.${timestampSeconds}.${body}`),
  );
  return `v1,${toBase64(mac)}`;
}

/**
 * The secrets that sign a delivery made at `at`: the current one, then the previous one while its
 * rotation overlap lasts (`at < previous_secret_expires_at`).
 */
export function signingSecrets(
  webhook: { secret: string; previous_secret: string | null; previous_secret_expires_at: number | null },
  at: number,
): string[] {
  const { previous_secret: previous, previous_secret_expires_at: until } = webhook;
  return previous !== null && until !== null && at < until ? [webhook.secret, previous] : [webhook.secret];
}
