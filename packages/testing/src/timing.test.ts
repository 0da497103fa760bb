import { expect, test } from 'vitest';
import { createTestEngine } from './create-test-engine';

/**
 * Prints how long a test engine takes to be ready and how long an in-process checkout takes.
 * It asserts nothing about time (machines differ); the figures go into the package README.
 */
function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, min ${at(0).toFixed(2)} ms (n=${samples.length})`;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

test('timing: ready (with schema) and an in-process checkout', async () => {
  const [cold, first] = await time(() => createTestEngine());
  await first.close();

  const ready: number[] = [];
  for (let i = 0; i < 30; i++) {
    const [ms, t] = await time(() => createTestEngine());
    ready.push(ms);
    await t.close();
  }
  const migrated: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [ms, t] = await time(() => createTestEngine({ schema: 'migrate' }));
    migrated.push(ms);
    await t.close();
  }

  const t = await createTestEngine();
  const { variant } = await t.fixtures.product({ price: 1000, on_hand: 100_000 });
  const checkoutOnly: number[] = [];
  const wholeFlow: number[] = [];
  for (let i = 0; i < 250; i++) {
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
    const [ms, order] = await time(() => t.checkout(cart.id));
    expect(order.payment_status).toBe('paid');
    if (i >= 50) checkoutOnly.push(ms);
  }
  for (let i = 0; i < 250; i++) {
    const [ms] = await time(async () => {
      const cart = await t.store.carts.create({ items: [{ variant_id: variant.id, quantity: 2 }] });
      return t.checkout(cart.id);
    });
    if (i >= 50) wholeFlow.push(ms);
  }
  await t.close();

  console.log(
    [
      `createTestEngine, first in the process (runs the migrations once): ${cold.toFixed(2)} ms`,
      `createTestEngine, schema snapshot: ${stats(ready)}`,
      `createTestEngine, schema: 'migrate': ${stats(migrated)}`,
      `t.checkout(cart) after warm-up: ${stats(checkoutOnly)}`,
      `cart create with an item + t.checkout after warm-up: ${stats(wholeFlow)}`,
    ].join('\n'),
  );
  expect(ready.every(Number.isFinite)).toBe(true);
});
