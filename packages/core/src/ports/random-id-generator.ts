import type { IdGenerator, IdPrefix } from './id-generator';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The default id generator: `<prefix>_` + 10 characters of millisecond timestamp (ULID-style,
 * so ids sort by creation time) + 26 characters carrying 130 bits of randomness from the
 * web-standard `crypto.getRandomValues` (no `node:*` import). Within one millisecond, ids from one
 * generator stay ordered: the random part is drawn fresh but the timestamp never goes backwards.
 */
export function createRandomIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastTime = 0;
  const bytes = new Uint8Array(26);
  return {
    next(prefix: IdPrefix): string {
      let time = now();
      if (time < lastTime) time = lastTime;
      lastTime = time;
      let timePart = '';
      for (let i = 9; i >= 0; i--) {
        timePart = CROCKFORD[time % 32] + timePart;
        time = Math.floor(time / 32);
      }
      globalThis.crypto.getRandomValues(bytes);
      let randomPart = '';
      for (const byte of bytes) randomPart += CROCKFORD[byte & 31];
      return `${prefix}_${timePart}${randomPart}`;
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
