import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { CryptoPort } from '@cartwright/core/providers';

/** node:crypto implementation of the core's CryptoPort: synchronous hashing, no WebCrypto round trips. */
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
};
