import { describe, expect, test } from 'vitest';
import { createSeededCrypto } from './seeded-crypto';

describe('createSeededCrypto', () => {
  test('the same seed gives the same token sequence; another seed another one', () => {
    const a = createSeededCrypto('s');
    const b = createSeededCrypto('s');
    const c = createSeededCrypto('t');
    const seqA = [a.randomToken(24), a.randomToken(16), a.randomToken(48)];
    expect([b.randomToken(24), b.randomToken(16), b.randomToken(48)]).toEqual(seqA);
    expect(c.randomToken(24)).not.toBe(seqA[0]);
    expect(new Set(seqA).size).toBe(3);
  });

  test('randomToken(n) is n bytes of URL-safe base64 without padding (24 → 32 chars, 48 → 64)', () => {
    const crypto = createSeededCrypto();
    expect(crypto.randomToken(24)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(crypto.randomToken(48)).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  test("hashes are real: sha256('abc') and HMAC-SHA256('key', 'The quick brown fox…')", async () => {
    const crypto = createSeededCrypto();
    expect(await crypto.sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await crypto.hmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });
});
