import type { StoredResponse } from './unit-of-work';

/**
 * Secrets in the stored replay of an `Idempotency-Key` (docs/contract.md#idempotency, decisions §15):
 * the body a request answered may hold a credential it just made — a new API key (`sk_…`,
 * `pk_…`), a webhook secret (`whsec_…`), a customer token (`ct_…`) or a password reset token
 * (`prt_…`). The first response carries it; the stored replay never does: every JSON string of
 * the body that has the shape of such a secret is stored masked, as its first
 * {@link MASKED_SECRET_VISIBLE} characters followed by {@link MASK} (for an API key that is its
 * `key_prefix` + `****`; the key list shows the `key_prefix`). A replay therefore answers the same status and
 * shape with the secret masked, and can never return a credential revoked since.
 */
export const MASKED_SECRET_VISIBLE = 12;
export const MASK = '****';

/** A whole JSON string value with the shape of a secret (see the generators of each). */
const SECRET_VALUE =
  /^(?:(?:sk|pk)_(?:test|live)_[A-Za-z0-9_-]{16,}|whsec_[A-Za-z0-9+/=_-]{16,}|ct_[A-Za-z0-9_-]{16,}|prt_[A-Za-z0-9_-]{16,})$/;

/** Quick test on the body text: no string there starts like a secret, so nothing to mask. */
const SECRET_START = /"(?:sk_|pk_|whsec_|ct_|prt_)/;

/** The masked form of a secret: its first {@link MASKED_SECRET_VISIBLE} characters and `****`. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, MASKED_SECRET_VISIBLE)}${MASK}`;
}

/** True for a string that has the shape of a secret (and so is stored masked). */
export function isSecretShaped(value: string): boolean {
  return SECRET_VALUE.test(value);
}

function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return isSecretShaped(value) ? maskSecret(value) : value;
  if (Array.isArray(value)) return value.map(maskValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // defineProperty, not assignment: a `__proto__` key stays a key (as in metadata).
      Object.defineProperty(out, key, {
        value: maskValue((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/**
 * The response as the idempotency store keeps it: `response` with every secret-shaped JSON
 * string masked (the same object when there is none).
 */
export function replayOf(response: StoredResponse): StoredResponse {
  if (!SECRET_START.test(response.body)) return response;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return response;
  }
  const masked = JSON.stringify(maskValue(parsed));
  return masked === response.body ? response : { status: response.status, body: masked };
}
