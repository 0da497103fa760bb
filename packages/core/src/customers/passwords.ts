import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing for customer accounts (docs/contract.md#passwords): scrypt from `node:crypto` (memory-hard),
 * a random 16-byte salt per password, the parameters stored with the hash in the PHC string format
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64 without padding), so a hash made with older
 * parameters still verifies and is upgraded on the customer's next sign-in.
 *
 * Cost (measured on the project's 2-core machine, Node 20): ln = 15 (N = 32,768), r = 8, p = 1
 * takes about 100 ms of CPU and 32 MiB per hash; ln = 14 about 50 ms. scrypt runs on libuv's thread
 * pool, so a hash does not block the event loop. `createTestEngine()` uses ln = 10 (about 2 ms).
 */
export interface PasswordHashParams {
  /** log2 of scrypt's N (CPU and memory cost): 10–20. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/** The defaults: about 100 ms of CPU and 32 MiB per hash on a 2-core machine. */
export const DEFAULT_PASSWORD_HASH_PARAMS: PasswordHashParams = { ln: 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export interface PasswordHasher {
  readonly params: PasswordHashParams;
  /** A new hash of `password` with a fresh salt and the current parameters. */
  hash(password: string): Promise<string>;
  /** Whether `password` matches `encoded`, in time independent of where they differ. */
  verify(password: string, encoded: string): Promise<boolean>;
  /** Whether `encoded` was made with other parameters than the current ones (rehash on sign-in). */
  needsRehash(encoded: string): boolean;
  /**
   * Does the work of one `verify` and answers false: what a sign-in with an unknown e-mail costs,
   * so that it cannot be told from a wrong password by its timing (docs/contract.md#passwords).
   */
  verifyNothing(password: string): Promise<false>;
}

function derive(password: string, salt: Buffer, params: PasswordHashParams, length: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  return new Promise((resolve, reject) => {
    // maxmem: scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly ln = 15, r = 8.
    scrypt(
      password,
      salt,
      length,
      { N, r: params.r, p: params.p, maxmem: 256 * N * params.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

function decode(encoded: string): { params: PasswordHashParams; salt: Buffer; hash: Buffer } | null {
  const match = PHC.exec(encoded);
  if (!match) return null;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (!validParams(params)) return null;
  return {
    params,
    salt: Buffer.from(match[4] as string, 'base64'),
    hash: Buffer.from(match[5] as string, 'base64'),
  };
}

function validParams(params: PasswordHashParams): boolean {
  const { ln, r, p } = params;
  return (
    Number.isInteger(ln) &&
    ln >= 1 &&
    ln <= 20 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= 32 &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= 16
  );
}

/** The scrypt hasher with the given parameters (default {@link DEFAULT_PASSWORD_HASH_PARAMS}). */
export function createPasswordHasher(
  params: PasswordHashParams = DEFAULT_PASSWORD_HASH_PARAMS,
): PasswordHasher {
  if (!validParams(params)) {
    throw new TypeError(
      `Invalid password hash parameters: ${JSON.stringify(params)} (ln 1–20, r 1–32, p 1–16)`,
    );
  }
  const current = `ln=${params.ln},r=${params.r},p=${params.p}`;
  let decoy: Promise<string> | undefined;

  async function hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, params, HASH_BYTES);
    return `$scrypt$${current}$${b64(salt)}$${b64(key)}`;
  }

  async function verify(password: string, encoded: string): Promise<boolean> {
    const parts = decode(encoded);
    if (!parts || parts.hash.length === 0) return false;
    const key = await derive(password, parts.salt, parts.params, parts.hash.length);
    return timingSafeEqual(key, parts.hash);
  }

  return {
    params,
    hash,
    verify,
    needsRehash(encoded) {
      const parts = decode(encoded);
      return (
        parts === null ||
        parts.params.ln !== params.ln ||
        parts.params.r !== params.r ||
        parts.params.p !== params.p
      );
    },
    async verifyNothing(password) {
      decoy ??= hash('a password nobody has');
      await verify(password, await decoy);
      return false;
    },
  };
}
