import type { IdGenerator, IdPrefix } from './id-generator';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Two Crockford characters for every 10-bit value: `PAIRS[(a << 5) | b]` is `CROCKFORD[a] + CROCKFORD[b]`. */
const PAIRS: readonly string[] = Array.from(
  { length: 1024 },
  (_, value) => (CROCKFORD[value >> 5] as string) + (CROCKFORD[value & 31] as string),
);

/** Character codes of {@link CROCKFORD}. */
const CODES = Uint8Array.from(CROCKFORD, (char) => char.charCodeAt(0));

/** The Crockford character code of a random byte's low 5 bits. */
function code(pool: Uint8Array, at: number): number {
  return CODES[(pool[at] as number) & 31] as number;
}

/** Bytes of randomness drawn from the system at once (one call per ~150 ids, not one per id). */
const POOL_BYTES = 26 * 156;

/** A millisecond timestamp (non-negative) as 10 Crockford characters: its low 50 bits, most significant first. */
function encodeTime(time: number): string {
  const high = Math.floor(time / 0x40000000); // bits 30-49 (and above, masked off)
  const low = time % 0x40000000;
  return `${PAIRS[(high >>> 10) & 1023]}${PAIRS[high & 1023]}${PAIRS[low >>> 20]}${PAIRS[(low >>> 10) & 1023]}${PAIRS[low & 1023]}`;
}

/**
 * The default id generator: `<prefix>_` + 10 characters of millisecond timestamp + 6 characters
 * of a per-millisecond counter + 26 characters (130 bits) of fresh randomness from the
 * web-standard `crypto.getRandomValues` (no `node:*` import). Ids sort by creation time; within
 * one millisecond the counter (starting at a random value each millisecond) keeps them in
 * creation order, and the random tail is drawn fresh for every id so that no id can be guessed
 * from another (docs/contract.md#ids: unguessable, time-sortable, ≥ 128 bits of entropy).
 *
 * Cost (it runs several times per request): randomness comes from a pool refilled in blocks, the
 * per-millisecond counter seed included (each byte is used once, for one purpose); the time part
 * is encoded once per millisecond; the random tail is built by one `String.fromCharCode` call.
 */
export function createRandomIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastTime = -1;
  let timePart = '';
  let counter = 0;
  const pool = new Uint8Array(POOL_BYTES);
  let offset = pool.length;
  /** The offset of `n` unused pool bytes (refilling the pool when fewer are left). */
  function take(n: number): number {
    if (offset + n > pool.length) {
      globalThis.crypto.getRandomValues(pool);
      offset = 0;
    }
    const at = offset;
    offset += n;
    return at;
  }
  return {
    next(prefix: IdPrefix): string {
      const time = now();
      if (time <= lastTime) {
        counter += 1;
      } else {
        lastTime = time;
        timePart = encodeTime(time);
        const at = take(4);
        const seed =
          ((pool[at] as number) |
            ((pool[at + 1] as number) << 8) |
            ((pool[at + 2] as number) << 16) |
            ((pool[at + 3] as number) << 24)) >>>
          0;
        // 29 random bits leave room for 2^29 more ids in one millisecond before the 30-bit field fills.
        counter = seed >>> 3;
      }
      // The low 30 bits of the counter (below 2^30 in practice: 2^29 + ids per millisecond).
      const c = counter % 0x40000000;
      const at = take(26);
      // One call builds the 26-character tail as a flat string (no chain of concatenations).
      const tail = String.fromCharCode(
        code(pool, at),
        code(pool, at + 1),
        code(pool, at + 2),
        code(pool, at + 3),
        code(pool, at + 4),
        code(pool, at + 5),
        code(pool, at + 6),
        code(pool, at + 7),
        code(pool, at + 8),
        code(pool, at + 9),
        code(pool, at + 10),
        code(pool, at + 11),
        code(pool, at + 12),
        code(pool, at + 13),
        code(pool, at + 14),
        code(pool, at + 15),
        code(pool, at + 16),
        code(pool, at + 17),
        code(pool, at + 18),
        code(pool, at + 19),
        code(pool, at + 20),
        code(pool, at + 21),
        code(pool, at + 22),
        code(pool, at + 23),
        code(pool, at + 24),
        code(pool, at + 25),
      );
      return `${prefix}_${timePart}${PAIRS[c >>> 20]}${PAIRS[(c >>> 10) & 1023]}${PAIRS[c & 1023]}${tail}`;
    },
  };
}

/** Deterministic ids for tests: `prod_000001`, `prod_000002`, … in creation order. */
export function createSequentialIdGenerator(): IdGenerator {
  let counter = 0;
  return {
    next(prefix: IdPrefix): string {
      counter += 1;
      return `${prefix}_${String(counter).padStart(12, '0')}`;
    },
  };
}
