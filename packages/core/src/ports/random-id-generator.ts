import type { IdGenerator, IdPrefix } from './id-generator';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The default id generator: `<prefix>_` + 10 characters of millisecond timestamp (ULID-style,
 * so ids sort by creation time) + 26 characters carrying 129 bits of randomness from the
 * web-standard `crypto.getRandomValues` (no `node:*` import). Within one millisecond, ids from one
 * generator stay ordered: the random part is incremented (monotonic ULID), and the time part never
 * goes backwards.
 */
export function createRandomIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastTime = -1;
  const random = new Uint8Array(26);
  const digits = new Uint8Array(26);
  return {
    next(prefix: IdPrefix): string {
      let time = now();
      if (time <= lastTime) {
        // Same (or an earlier) millisecond: keep the time part and increment the random part by
        // one (monotonic ULID), so ids of one generator always sort in creation order.
        time = lastTime;
        let i = digits.length - 1;
        while (i >= 0 && digits[i] === 31) {
          digits[i] = 0;
          i--;
        }
        if (i >= 0) digits[i] = (digits[i] ?? 0) + 1;
      } else {
        lastTime = time;
        globalThis.crypto.getRandomValues(random);
        // The first digit keeps its top bit clear so that increments never overflow in practice.
        for (let i = 0; i < digits.length; i++) digits[i] = (random[i] ?? 0) & (i === 0 ? 15 : 31);
      }
      let timePart = '';
      for (let i = 9; i >= 0; i--) {
        timePart = CROCKFORD[time % 32] + timePart;
        time = Math.floor(time / 32);
      }
      let randomPart = '';
      for (const digit of digits) randomPart += CROCKFORD[digit];
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
