/** A small seeded PRNG (mulberry32): the same seed gives the same carts on every run. */
export function createRandom(seed: number): { next(): number; int(max: number): number } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max) => Math.floor(next() * max) };
}

/** `count` distinct elements of `list`, picked at random. */
export function pickDistinct<T>(
  list: readonly T[],
  count: number,
  random: { int(max: number): number },
): T[] {
  if (count > list.length) throw new Error(`cannot pick ${count} of ${list.length}`);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(random.int(list.length));
  return [...chosen].map((index) => list[index] as T);
}
