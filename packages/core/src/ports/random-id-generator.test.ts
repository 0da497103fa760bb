import { describe, expect, test } from 'vitest';
import { createRandomIdGenerator, createSequentialIdGenerator } from './random-id-generator';

describe('random id generator', () => {
  test('ids carry the prefix, a 10-char time part, a 6-char counter and 26 random chars (130 bits)', () => {
    const id = createRandomIdGenerator(() => 1_700_000_000_000).next('prod');
    expect(id).toMatch(/^prod_[0-9A-HJKMNP-TV-Z]{42}$/);
  });

  test('the time part is the timestamp in Crockford base 32 (1700000000000 → 01HF7YAT00), the counter counts up by one', () => {
    const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const base32 = (value: bigint, digits: number) =>
      Array.from(
        { length: digits },
        (_, i) => crockford[Number((value >> BigInt(5 * (digits - 1 - i))) & 31n)],
      ).join('');
    for (const time of [0, 1, 31, 32, 1_700_000_000_000, 2 ** 40 + 12345, 2 ** 50 - 1]) {
      const gen = createRandomIdGenerator(() => time);
      const a = gen.next('ord');
      const b = gen.next('ord');
      expect(a.slice(4, 14)).toBe(base32(BigInt(time), 10));
      const counter = (id: string) =>
        [...id.slice(14, 20)].reduce((n, char) => n * 32 + crockford.indexOf(char), 0);
      expect(counter(b)).toBe(counter(a) + 1);
      expect(counter(a)).toBeLessThan(2 ** 29);
    }
    expect(
      createRandomIdGenerator(() => 1_700_000_000_000)
        .next('ord')
        .slice(4, 14),
    ).toBe('01HF7YAT00');
  });

  test('the random tails of 2,000 ids use every one of the 32 characters in every position (fresh bytes per id)', () => {
    const gen = createRandomIdGenerator(() => 42);
    const seen = Array.from({ length: 26 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      const tail = gen.next('item').slice(-26);
      for (let j = 0; j < 26; j++) seen[j]?.add(tail[j] as string);
    }
    for (const chars of seen) expect(chars.size).toBe(32);
  });

  test('ids sort by creation time and never repeat over 10,000 draws', () => {
    let t = 1_700_000_000_000;
    const gen = createRandomIdGenerator(() => t);
    const ids: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      if (i % 100 === 0) t += 1;
      ids.push(gen.next('ord'));
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  test('ids of one millisecond differ in their random tail, not only by one (unguessable)', () => {
    const gen = createRandomIdGenerator(() => 5_000);
    const a = gen.next('cart');
    const b = gen.next('cart');
    expect(a < b).toBe(true);
    let differing = 0;
    for (let i = 21; i < a.length; i++) if (a[i] !== b[i]) differing++;
    expect(differing).toBeGreaterThan(10);
  });

  test('a clock that goes backwards does not make time parts go backwards', () => {
    let t = 2000;
    const gen = createRandomIdGenerator(() => t);
    const a = gen.next('evt');
    t = 1000;
    const b = gen.next('evt');
    expect(b.slice(4, 14) >= a.slice(4, 14)).toBe(true);
  });

  test('sequential generator counts per generator', () => {
    const gen = createSequentialIdGenerator();
    expect(gen.next('cart')).toBe('cart_000000000001');
    expect(gen.next('item')).toBe('item_000000000002');
  });
});
