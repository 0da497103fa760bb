import { createHash, createHmac } from 'node:crypto';
import type { CryptoPort } from '@cartwright/core/providers';

/**
 * A {@link CryptoPort} whose "random" tokens come from a seeded sequence, so customer tokens,
 * generated API keys and webhook secrets are the same on every run of a test. Hashing and HMAC
 * are the real SHA-256 (node:crypto, synchronous): signatures made in a test verify as in
 * production. Never use it outside tests: its tokens are predictable by design.
 */
export function createSeededCrypto(seed = 'cartwright-testing'): CryptoPort {
  let counter = 0;
  return {
    async sha256Hex(text) {
      return createHash('sha256').update(text).digest('hex');
    },
    async hmacSha256Hex(key, text) {
      return createHmac('sha256', key).update(text).digest('hex');
    },
    randomToken(bytes) {
      const chunks: Buffer[] = [];
      let length = 0;
      while (length < bytes) {
        counter += 1;
        const chunk = createHash('sha256').update(`${seed}:${counter}`).digest();
        chunks.push(chunk);
        length += chunk.length;
      }
      return Buffer.concat(chunks, length).subarray(0, bytes).toString('base64url');
    },
  };
}
