import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { webCrypto } from './crypto';

describe('webCrypto', () => {
  it('sha256Hex: the FIPS 180-2 vectors ("abc", the empty string)', async () => {
    expect(await webCrypto.sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await webCrypto.sha256Hex('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('hmacSha256Hex: RFC 4231 test case 2 (key "Jefe")', async () => {
    expect(await webCrypto.hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('randomToken(n): unpadded URL-safe base64 of n bytes, different every time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (n) => {
        const token = webCrypto.randomToken(n);
        expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(token).toHaveLength(Math.ceil((n * 4) / 3));
        const standard = token.replace(/-/g, '+').replace(/_/g, '/');
        expect(atob(standard + '='.repeat((4 - (standard.length % 4)) % 4))).toHaveLength(n);
      }),
    );
    const tokens = new Set(Array.from({ length: 50 }, () => webCrypto.randomToken(16)));
    expect(tokens.size).toBe(50);
  });
});
