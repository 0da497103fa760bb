import { type CryptoPort, defaultScrypt } from '../ports/crypto';
import { CommerceError } from '../shared/errors/commerce-error';
import type { PasswordHasher, PasswordHashParams } from '../shared/password-hashing';

export type { PasswordHasher, PasswordHashParams };

/** The defaults: about 100 ms of CPU and 32 MiB per hash on a 2-core machine. */
export const DEFAULT_PASSWORD_HASH_PARAMS: PasswordHashParams = { ln: 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

type Scrypt = NonNullable<CryptoPort['scrypt']>;

const utf8 = new TextEncoder();

/** Standard base64 without padding (the PHC string's alphabet). */
function b64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, '');
}

/**
 * The bytes of unpadded base64 text of the PHC alphabet, decoded as Node's `Buffer.from(text,
 * 'base64')` does: bits of a last partial byte are dropped, and so is a lone last character.
 */
function unb64(text: string): Uint8Array {
  const binary = atob(text.length % 4 === 1 ? text.slice(0, -1) : text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether `a` and `b` are equal, in time that depends on their length only. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

function decode(encoded: string): { params: PasswordHashParams; salt: Uint8Array; hash: Uint8Array } | null {
  const match = PHC.exec(encoded);
  if (!match) return null;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (!validParams(params)) return null;
  return { params, salt: unb64(match[4] as string), hash: unb64(match[5] as string) };
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

/**
 * The default bound on concurrent password hashes in one process: twice the cores the runtime
 * reports (`navigator.hardwareConcurrency`), 4 where it reports none.
 */
export function defaultPasswordHashConcurrency(): number {
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator
    ?.hardwareConcurrency;
  return typeof cores === 'number' && cores >= 1 ? 2 * Math.floor(cores) : 4;
}

/** How long a refused caller is told to wait (`Retry-After`, seconds). */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * A bound on concurrent key derivations (docs/security.md#passwords): at most `concurrency` run at
 * once, at most `2 × concurrency` more wait their turn, and any further one is refused at once
 * with 503 `service_unavailable` (`Retry-After: 1`) instead of queueing for seconds behind the
 * others — a burst of sign-ins cannot make every request of the process slow.
 */
function createHashGate(concurrency: number) {
  const queueLimit = 2 * concurrency;
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= concurrency) {
      if (waiting.length >= queueLimit) {
        throw new CommerceError(
          'service_unavailable',
          'Too many password checks at once: try again in a second.',
          { data: { retry_after_seconds: BUSY_RETRY_AFTER_SECONDS } },
        );
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      // The slot passes to the next waiter as it is; else it is freed.
      if (next) next();
      else running--;
    }
  };
}

/**
 * The scrypt hasher with the given parameters (default {@link DEFAULT_PASSWORD_HASH_PARAMS}),
 * deriving keys with the crypto port's `scrypt` (default: {@link defaultScrypt}), at most
 * `concurrency` at once (default {@link defaultPasswordHashConcurrency}; see `createHashGate`).
 */
export function createPasswordHasher(
  params: PasswordHashParams = DEFAULT_PASSWORD_HASH_PARAMS,
  crypto?: Pick<CryptoPort, 'scrypt'>,
  concurrency: number = defaultPasswordHashConcurrency(),
): PasswordHasher {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`Invalid password hash concurrency: ${concurrency} (an integer ≥ 1)`);
  }
  const gate = createHashGate(concurrency);
  if (!validParams(params)) {
    throw new TypeError(
      `Invalid password hash parameters: ${JSON.stringify(params)} (ln 1–20, r 1–32, p 1–16)`,
    );
  }
  const current = `ln=${params.ln},r=${params.r},p=${params.p}`;
  const unbounded: Scrypt = crypto?.scrypt?.bind(crypto) ?? defaultScrypt;
  const scrypt: Scrypt = (password, salt, cost, length) =>
    gate(() => unbounded(password, salt, cost, length));
  let decoy: Promise<string> | undefined;

  // Passwords are compared after Unicode NFC normalisation (docs/security.md#passwords): `é` typed
  // as one code point or as `e` + a combining accent is one password. ASCII is NFC already, so the
  // hashes of ASCII passwords made before are unchanged.
  const derive = (password: string, salt: Uint8Array, cost: PasswordHashParams, length: number) =>
    scrypt(utf8.encode(password.normalize('NFC')), salt, { N: 2 ** cost.ln, r: cost.r, p: cost.p }, length);

  async function hash(password: string): Promise<string> {
    const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
    const key = await derive(password, salt, params, HASH_BYTES);
    return `$scrypt$${current}$${b64(salt)}$${b64(key)}`;
  }

  async function verify(password: string, encoded: string): Promise<boolean> {
    const parts = decode(encoded);
    if (!parts || parts.hash.length === 0) return false;
    const key = await derive(password, parts.salt, parts.params, parts.hash.length);
    if (equalBytes(key, parts.hash)) return true;
    // A hash made before normalisation, of a password typed in another form than NFC, verifies
    // with that exact text (a second derivation only for such input: the caller's own text says
    // so, the account's nothing).
    if (password.normalize('NFC') === password) return false;
    const raw = await scrypt(
      utf8.encode(password),
      parts.salt,
      { N: 2 ** parts.params.ln, r: parts.params.r, p: parts.params.p },
      parts.hash.length,
    );
    return equalBytes(raw, parts.hash);
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
