import type { IdGenerator, IdPrefix } from './id-generator';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The default id generator: `<prefix>_` + 10 characters of millisecond timestamp + 6 characters
 * of a per-millisecond counter + 26 characters (130 bits) of fresh randomness from the
 * web-standard `crypto.getRandomValues` (no `node:*` import). Ids sort by creation time; within
 * one millisecond the counter (starting at a random value each millisecond) keeps them in
 * creation order, and the random tail is drawn fresh for every id so that no id can be guessed
 * from another (decisions §6: unguessable, time-sortable, ≥ 128 bits of entropy).
 */
export function createRandomIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastTime = -1;
  let counter = 0;
  // Randomness is drawn from the system in blocks (one call per ~150 ids, not one per id); each
  // byte is used once.
  const pool = new Uint8Array(26 * 156);
  let offset = pool.length;
  const seed = new Uint32Array(1);
  return {
    next(prefix: IdPrefix): string {
      let time = now();
      if (time <= lastTime) {
        time = lastTime;
        counter += 1;
      } else {
        lastTime = time;
        globalThis.crypto.getRandomValues(seed);
        // 29 random bits leave room for 2^29 more ids in one millisecond before the 30-bit field fills.
        counter = (seed[0] ?? 0) >>> 3;
      }
      let timePart = '';
      for (let i = 9, t = time; i >= 0; i--) {
        timePart = CROCKFORD[t % 32] + timePart;
        t = Math.floor(t / 32);
      }
      let counterPart = '';
      for (let i = 5, c = counter; i >= 0; i--) {
        counterPart = CROCKFORD[c % 32] + counterPart;
        c = Math.floor(c / 32);
      }
      if (offset + 26 > pool.length) {
        globalThis.crypto.getRandomValues(pool);
        offset = 0;
      }
      let randomPart = '';
      for (let i = offset, end = offset + 26; i < end; i++) randomPart += CROCKFORD[(pool[i] as number) & 31];
      offset += 26;
      return `${prefix}_${timePart}${counterPart}${randomPart}`;
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
