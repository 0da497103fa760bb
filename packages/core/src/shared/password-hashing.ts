// The password hasher's interface, below the contexts (the service context names it); the
// implementation is customers/passwords.ts.

/**
 * Password hashing for customer accounts (docs/contract.md#passwords): scrypt (memory-hard) through
 * the crypto port (`CryptoPort.scrypt`; by default Node's native scrypt where the runtime has it,
 * else `@noble/hashes`, which give the same bytes), a random 16-byte salt per password, the parameters stored with the hash in the PHC string format
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64 without padding), so a hash made with older
 * parameters still verifies and is upgraded on the customer's next sign-in.
 *
 * Cost (measured on the project's 2-core machine, Node 20): ln = 15 (N = 32,768), r = 8, p = 1
 * takes about 100 ms of CPU and 32 MiB per hash; ln = 14 about 50 ms. Node's scrypt runs on
 * libuv's thread pool, so a hash does not block the event loop (the pure-JavaScript fallback yields
 * to it every few ms, and is about 3 to 4 times slower). `createTestEngine()` uses ln = 10 (about
 * 2 ms).
 */
export interface PasswordHashParams {
  /** log2 of scrypt's N (CPU and memory cost): 10–20. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

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
