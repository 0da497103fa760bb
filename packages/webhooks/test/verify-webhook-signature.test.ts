import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { verifyWebhookSignature } from '../src/verify-webhook-signature';

const secret = 'whsec_9fJ2kLq0ZxYw8VtR7sPq6OnM5lKj4IhG3fEd2CbA1z0';
const body =
  '{"id":"evt_1","type":"order.created","created_at":"2024-01-01T00:00:00.000Z","data":{"id":"ord_1"},"store_id":"store_1"}';
/** An independent signer: node:crypto directly, keyed with the whole `whsec_…` string. */
const sign = (text: string | Buffer, key = secret) => createHmac('sha256', key).update(text).digest('hex');

describe('verifyWebhookSignature', () => {
  test('accepts the hex HMAC-SHA256 of the exact body keyed with the whole secret', () => {
    expect(verifyWebhookSignature(body, sign(body), secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), sign(body), secret)).toBe(true);
  });

  test('accepts upper-case hex and surrounding whitespace in the header', () => {
    expect(verifyWebhookSignature(body, ` ${sign(body).toUpperCase()} `, secret)).toBe(true);
  });

  test('accepts the first value of a repeated header', () => {
    expect(verifyWebhookSignature(body, [sign(body), 'junk'], secret)).toBe(true);
  });

  test('rejects a body changed by one character (re-serialised JSON, extra space)', () => {
    expect(verifyWebhookSignature(`${body} `, sign(body), secret)).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), sign(body), secret)).toBe(false);
  });

  test('rejects a signature made with another secret, or with the secret without its whsec_ prefix', () => {
    expect(verifyWebhookSignature(body, sign(body, 'whsec_other'), secret)).toBe(false);
    expect(verifyWebhookSignature(body, sign(body, secret.slice('whsec_'.length)), secret)).toBe(false);
  });

  test.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['too short', 'abcd'],
    ['one hex digit short', sign(body).slice(0, 63)],
    ['one hex digit long', `${sign(body)}0`],
    ['not hex', 'z'.repeat(64)],
    ['sha256= prefixed', `sha256=${sign(body)}`],
    ['base64 instead of hex', createHmac('sha256', secret).update(body).digest('base64')],
  ])('returns false without throwing for a %s header', (_name, header) => {
    expect(() => verifyWebhookSignature(body, header as string | undefined, secret)).not.toThrow();
    expect(verifyWebhookSignature(body, header as string | undefined, secret)).toBe(false);
  });

  test('returns false for an empty secret', () => {
    expect(verifyWebhookSignature(body, sign(body, ''), '')).toBe(false);
  });
});
