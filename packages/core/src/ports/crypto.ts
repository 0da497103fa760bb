/**
 * Hashing and secrets, as a port so that core stays free of `node:*` imports. The server packages
 * pass a node:crypto implementation; the default uses the web-standard `crypto.subtle`.
 */
export interface CryptoPort {
  /** Lower-case hex SHA-256 of a UTF-8 string. */
  sha256Hex(text: string): Promise<string>;
  /** Lower-case hex HMAC-SHA256 of `text` keyed with `key`. */
  hmacSha256Hex(key: string, text: string): Promise<string>;
  /** `bytes` random bytes as URL-safe base64 without padding. */
  randomToken(bytes: number): string;
}

const toHex = (buffer: ArrayBuffer): string => {
  const bytes = new Uint8Array(buffer);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
};

const encoder = new TextEncoder();

/** Web Crypto implementation (Node ≥ 20, browsers, workers). */
export const webCrypto: CryptoPort = {
  async sha256Hex(text) {
    return toHex(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text)));
  },
  async hmacSha256Hex(key, text) {
    const k = await globalThis.crypto.subtle.importKey(
      'raw',
      encoder.encode(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return toHex(await globalThis.crypto.subtle.sign('HMAC', k, encoder.encode(text)));
  },
  randomToken(bytes) {
    const buf = new Uint8Array(bytes);
    globalThis.crypto.getRandomValues(buf);
    let binary = '';
    for (const b of buf) binary += String.fromCharCode(b);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  },
};
