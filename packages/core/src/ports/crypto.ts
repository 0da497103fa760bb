/**
 * Hashing and secrets, as a port so that core stays free of `node:*` imports. The server packages
 * pass a node:crypto implementation; the default uses the web-standard `crypto.subtle`, and for
 * scrypt Node's native one when the runtime offers it ({@link defaultScrypt}).
 */
export interface CryptoPort {
  /** Lower-case hex SHA-256 of a UTF-8 string. */
  sha256Hex(text: string): Promise<string>;
  /** Lower-case hex HMAC-SHA256 of `text` keyed with `key`. */
  hmacSha256Hex(key: string, text: string): Promise<string>;
  /** `bytes` random bytes as URL-safe base64 without padding. */
  randomToken(bytes: number): string;
  /**
   * scrypt (RFC 7914): `length` bytes derived from `password` (the password's UTF-8 bytes) and
   * `salt`, for customer passwords (docs/contract.md#passwords). It must not hold the event loop
   * for the whole derivation (about 100 ms at the default cost). Optional: without it the engine
   * uses {@link defaultScrypt}.
   */
  scrypt?(password: Uint8Array, salt: Uint8Array, params: ScryptParams, length: number): Promise<Uint8Array>;
}

/** scrypt's cost parameters (RFC 7914). */
export interface ScryptParams {
  /** CPU and memory cost: a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

type NodeScrypt = (
  password: Uint8Array,
  salt: Uint8Array,
  length: number,
  options: ScryptParams & { maxmem: number },
  done: (error: Error | null, key: Uint8Array) => void,
) => void;

let native: NodeScrypt | null | undefined;

/**
 * Node's `crypto.scrypt` (native, on libuv's thread pool), found without a static `node:` import
 * through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno); null in a runtime without it.
 */
function nativeScrypt(): NodeScrypt | null {
  if (native !== undefined) return native;
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const module = host.process?.getBuiltinModule?.('node:crypto') as { scrypt?: unknown } | undefined;
  native = typeof module?.scrypt === 'function' ? (module.scrypt as NodeScrypt) : null;
  return native;
}

/**
 * scrypt for runtimes whose {@link CryptoPort} has none: Node's native implementation where the
 * runtime has it, else `@noble/hashes` (audited pure JavaScript, loaded only then; it yields to the
 * event loop every few milliseconds). Both give the same bytes.
 */
export async function defaultScrypt(
  password: Uint8Array,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
): Promise<Uint8Array> {
  // scrypt needs 128·N·r bytes (+ 128·r·p); Node's default cap (32 MiB) is exactly N = 2^15, r = 8.
  const maxmem = 256 * params.N * params.r + 128 * params.r * params.p;
  const scrypt = nativeScrypt();
  if (scrypt !== null) {
    return new Promise((resolve, reject) => {
      scrypt(password, salt, length, { N: params.N, r: params.r, p: params.p, maxmem }, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    });
  }
  const { scryptAsync } = await import('@noble/hashes/scrypt.js');
  return scryptAsync(password, salt, { N: params.N, r: params.r, p: params.p, dkLen: length, maxmem });
}

const toHex = (buffer: ArrayBuffer): string => {
  const bytes = new Uint8Array(buffer);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
};

const encoder = new TextEncoder();

/** Web Crypto implementation (Node ≥ 20, browsers, workers); scrypt: {@link defaultScrypt}. */
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
  scrypt: defaultScrypt,
};
