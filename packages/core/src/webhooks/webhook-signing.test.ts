import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SECRET_PREFIX,
  secretFromToken,
  signingSecrets,
  standardSignature,
  standardWebhookKey,
} from './webhook-signing';

/** The Standard Webhooks signature computed independently with node:crypto. */
function expected(key: Uint8Array | string, id: string, ts: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;
}

describe('webhook secrets', () => {
  it('secretFromToken: whsec_ + padded standard base64 of the same bytes as the URL-safe token', () => {
    expect(secretFromToken('-_8')).toBe('whsec_+/8=');
    const token = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7)).toString('base64url');
    const secret = secretFromToken(token);
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(secret).toHaveLength(50);
    expect(Buffer.from(secret.slice(6), 'base64')).toEqual(Buffer.from(token, 'base64url'));
  });

  it('standardWebhookKey: the decoded bytes of a standard secret, the UTF-8 bytes of a legacy one', () => {
    const bytes = Uint8Array.from([0, 1, 2, 250, 251, 252]);
    const standard = `whsec_${Buffer.from(bytes).toString('base64')}`;
    expect(standardWebhookKey(standard)).toEqual(bytes);
    // Without the prefix it is decoded the same way.
    expect(standardWebhookKey(standard.slice(6))).toEqual(bytes);
    const legacy = `whsec_${'a_b-'.repeat(10)}xyz`;
    expect(Buffer.from(standardWebhookKey(legacy)).toString('utf8')).toBe(legacy.slice(6));
  });

  it('standardSignature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"> keyed as above', async () => {
    const raw = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${raw.toString('base64')}`;
    const body = '{"id":"evt_1","type":"order.created"}';
    expect(await standardSignature(secret, 'evt_1', 1_700_000_000, body)).toBe(
      expected(raw, 'evt_1', 1_700_000_000, body),
    );
    const legacy = 'whsec_notbase64_url-safe-legacy-secret-abcdefgh';
    expect(await standardSignature(legacy, 'evt_2', 5, '{}')).toBe(
      expected(legacy.slice(6), 'evt_2', 5, '{}'),
    );
    expect(await standardSignature(secret, 'evt_1', 1_700_000_001, body)).not.toBe(
      await standardSignature(secret, 'evt_1', 1_700_000_000, body),
    );
  });

  it('signingSecrets: the previous secret signs too until its expiry (exclusive)', () => {
    const webhook = { secret: 'new', previous_secret: 'old', previous_secret_expires_at: 1000 };
    expect(signingSecrets(webhook, 999)).toEqual(['new', 'old']);
    expect(signingSecrets(webhook, 1000)).toEqual(['new']);
    expect(signingSecrets({ ...webhook, previous_secret: null }, 0)).toEqual(['new']);
    expect(signingSecrets({ ...webhook, previous_secret_expires_at: null }, 0)).toEqual(['new']);
  });
});
