import { type LatencySummary, Samples } from './stats';

/** One measured operation: how many, how long, the rate and the latency of each. */
export interface Measurement {
  ops: number;
  seconds: number;
  per_second: number;
  latency: LatencySummary;
}

/**
 * Runs `op` for about `seconds` from `concurrency` loops (each awaits its previous call), timing
 * every call. `op` receives the call's index.
 */
export async function measure(
  seconds: number,
  op: (index: number) => Promise<unknown>,
  concurrency = 1,
): Promise<Measurement> {
  const samples = new Samples();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let index = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      await op(index++);
      samples.add(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return finish(samples, (performance.now() - started) / 1000);
}

/**
 * Like {@link measure} for operations that need untimed preparation (a cart to check out):
 * `prepare(n)` makes `n` inputs outside the clock, then `concurrency` loops consume them under it;
 * repeated until `seconds` of measured time have been spent.
 */
export async function measurePrepared<T>(
  seconds: number,
  chunk: number,
  prepare: (n: number) => Promise<T[]>,
  op: (input: T) => Promise<unknown>,
  concurrency = 1,
): Promise<Measurement> {
  const samples = new Samples();
  let measured = 0;
  while (measured < seconds * 1000) {
    const inputs = await prepare(chunk);
    let next = 0;
    const started = performance.now();
    const loop = async () => {
      while (next < inputs.length) {
        const input = inputs[next++] as T;
        const t0 = performance.now();
        await op(input);
        samples.add(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
    measured += performance.now() - started;
  }
  return finish(samples, measured / 1000);
}

function finish(samples: Samples, seconds: number): Measurement {
  return { ops: samples.count, seconds, per_second: samples.count / seconds, latency: samples.summary() };
}
