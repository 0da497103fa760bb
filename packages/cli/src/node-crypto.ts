import { createHash, createHmac, randomBytes, scrypt } from 'node:crypto';
import type { CryptoPort } from '@cartwright/core/providers';

/**
 * node:crypto implementation of the core's CryptoPort: synchronous hashing, no WebCrypto round
 * trips, and native scrypt on libuv's thread pool for customer passwords.
 */
export const nodeCrypto: CryptoPort = {
  async sha256Hex(text) {
    return createHash('sha256').update(text).digest('hex');
  },
  async hmacSha256Hex(key, text) {
    return createHmac('sha256', key).update(text).digest('hex');
  },
  randomToken(bytes) {
    return randomBytes(bytes).toString('base64url');
  },
  scrypt(password, salt, { N, r, p }, length) {
    // scrypt needs 128·N·r bytes (+ 128·r·p); Node's default cap (32 MiB) is exactly N = 2^15, r = 8.
    const maxmem = 256 * N * r + 128 * r * p;
    return new Promise((resolve, reject) => {
      scrypt(password, salt, length, { N, r, p, maxmem }, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    });
  },
};
