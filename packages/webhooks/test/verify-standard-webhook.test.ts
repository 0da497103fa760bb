import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { standardWebhookKey, verifyStandardWebhook } from '../src/verify-webhook-signature';

/**
 * `verifyStandardWebhook` against signatures made by the public `standardwebhooks` library (an
 * independent signer) and by node:crypto directly: tolerance both ways, tampering, several
 * signatures, legacy secrets, header shapes.
 */

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
/** A secret of a webhook created before standard base64 secrets (43 URL-safe characters). */
const legacySecret = `whsec_${randomBytes(32).toString('base64url')}`;
const body =
  '{"id":"evt_1","type":"order.created","created_at":"2024-01-01T00:00:00.000Z","data":{"id":"ord_1"},"store_id":"store_1"}';
const id = 'evt_1';
const nowMs = Date.UTC(2025, 0, 1, 12, 0, 0);
const nowSeconds = nowMs / 1000;

/** The library's own signature (`v1,<base64>`) for the given time in seconds. */
const libSign = (key: string, seconds = nowSeconds, text = body) =>
  new Webhook(key).sign(id, new Date(seconds * 1000), text);

const headersFor = (signature: string, seconds = nowSeconds) => ({
  'webhook-id': id,
  'webhook-timestamp': String(seconds),
  'webhook-signature': signature,
});

describe('verifyStandardWebhook', () => {
  test('accepts a signature made by the standardwebhooks library, string or Buffer body', () => {
    const headers = headersFor(libSign(secret));
    expect(verifyStandardWebhook(body, headers, secret, { now: nowMs })).toBe(true);
    expect(verifyStandardWebhook(Buffer.from(body), headers, secret, { now: nowMs })).toBe(true);
    expect(verifyStandardWebhook(new TextEncoder().encode(body), headers, secret, { now: nowMs })).toBe(true);
  });

  test('fetch Headers and mixed-case header names work too', () => {
    const signature = libSign(secret);
    expect(verifyStandardWebhook(body, new Headers(headersFor(signature)), secret, { now: nowMs })).toBe(
      true,
    );
    expect(
      verifyStandardWebhook(
        body,
        { 'Webhook-Id': id, 'Webhook-Timestamp': String(nowSeconds), 'Webhook-Signature': signature },
        secret,
        { now: nowMs },
      ),
    ).toBe(true);
  });

  test('replay protection: a timestamp more than the tolerance old or new is refused', () => {
    const at = (seconds: number) => headersFor(libSign(secret, seconds), seconds);
    expect(verifyStandardWebhook(body, at(nowSeconds - 300), secret, { now: nowMs })).toBe(true);
    expect(verifyStandardWebhook(body, at(nowSeconds - 301), secret, { now: nowMs })).toBe(false);
    expect(verifyStandardWebhook(body, at(nowSeconds + 300), secret, { now: nowMs })).toBe(true);
    expect(verifyStandardWebhook(body, at(nowSeconds + 301), secret, { now: nowMs })).toBe(false);
    // A custom tolerance.
    expect(
      verifyStandardWebhook(body, at(nowSeconds - 60), secret, { now: nowMs, toleranceSeconds: 30 }),
    ).toBe(false);
    expect(
      verifyStandardWebhook(body, at(nowSeconds - 3600), secret, { now: nowMs, toleranceSeconds: 7200 }),
    ).toBe(true);
  });

  test('the timestamp is signed: moving it into the window invalidates the signature', () => {
    const old = nowSeconds - 3600;
    const replayed = { ...headersFor(libSign(secret, old)), 'webhook-timestamp': String(nowSeconds) };
    expect(verifyStandardWebhook(body, replayed, secret, { now: nowMs })).toBe(false);
  });

  test('defaults to the real clock', () => {
    const seconds = Math.floor(Date.now() / 1000);
    expect(verifyStandardWebhook(body, headersFor(libSign(secret, seconds), seconds), secret)).toBe(true);
    expect(
      verifyStandardWebhook(body, headersFor(libSign(secret, seconds - 600), seconds - 600), secret),
    ).toBe(false);
  });

  test('a tampered body, id or signature is refused', () => {
    const headers = headersFor(libSign(secret));
    expect(verifyStandardWebhook(`${body} `, headers, secret, { now: nowMs })).toBe(false);
    expect(verifyStandardWebhook(body.replace('ord_1', 'ord_2'), headers, secret, { now: nowMs })).toBe(
      false,
    );
    expect(verifyStandardWebhook(body, { ...headers, 'webhook-id': 'evt_2' }, secret, { now: nowMs })).toBe(
      false,
    );
    const signature = headers['webhook-signature'];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}=`;
    expect(verifyStandardWebhook(body, headersFor(flipped), secret, { now: nowMs })).toBe(false);
    expect(verifyStandardWebhook(body, headers, otherSecret, { now: nowMs })).toBe(false);
  });

  test('several signatures: any matching v1 entry is enough; other versions are ignored', () => {
    const mine = libSign(secret);
    const theirs = libSign(otherSecret);
    for (const header of [`${theirs} ${mine}`, `${mine} ${theirs}`, `v2,abc ${mine}`]) {
      expect(verifyStandardWebhook(body, headersFor(header), secret, { now: nowMs })).toBe(true);
    }
    expect(verifyStandardWebhook(body, headersFor(`${theirs} ${mine}`), otherSecret, { now: nowMs })).toBe(
      true,
    );
    expect(verifyStandardWebhook(body, headersFor(theirs), secret, { now: nowMs })).toBe(false);
    expect(verifyStandardWebhook(body, headersFor(mine.replace('v1,', 'v1a,')), secret, { now: nowMs })).toBe(
      false,
    );
  });

  test.each([
    ['no webhook-id', { 'webhook-timestamp': String(nowSeconds), 'webhook-signature': 'v1,x' }],
    ['no webhook-timestamp', { 'webhook-id': id, 'webhook-signature': 'v1,x' }],
    ['no webhook-signature', { 'webhook-id': id, 'webhook-timestamp': String(nowSeconds) }],
    ['a non-numeric timestamp', headersFor('v1,x', Number.NaN)],
    ['an empty signature', headersFor('')],
    ['a signature without version', headersFor('abc')],
  ])('returns false without throwing for %s', (_name, headers) => {
    expect(() => verifyStandardWebhook(body, headers, secret, { now: nowMs })).not.toThrow();
    expect(verifyStandardWebhook(body, headers, secret, { now: nowMs })).toBe(false);
  });

  test('an empty secret is refused', () => {
    expect(verifyStandardWebhook(body, headersFor(libSign(secret)), '', { now: nowMs })).toBe(false);
  });

  test('the key is the base64-decoded part after whsec_; legacy secrets use their UTF-8 bytes', () => {
    expect(standardWebhookKey(secret)).toEqual(Buffer.from(secret.slice(6), 'base64'));
    expect(standardWebhookKey(secret)).toHaveLength(32);
    expect(standardWebhookKey(legacySecret)).toEqual(Buffer.from(legacySecret.slice(6), 'utf8'));
    // The library verifies a legacy secret's signature only in its raw format.
    const raw = new Webhook(legacySecret.slice(6), { format: 'raw' });
    const signature = raw.sign(id, new Date(nowMs), body);
    expect(verifyStandardWebhook(body, headersFor(signature), legacySecret, { now: nowMs })).toBe(true);
    const direct = createHmac('sha256', Buffer.from(legacySecret.slice(6)))
      .update(`${id}.${nowSeconds}.${body}`)
      .digest('base64');
    expect(signature).toBe(`v1,${direct}`);
  });
});
