/**
 * API logs' CPU per order, in one process (decisions §23: within 5 % of `off`): two handlers over
 * one SQLite engine in memory, `writes` and `off`, run the storefront flow (create cart → 2 × add
 * item → PATCH → checkout) in alternating batches, one flow at a time, and the process CPU time
 * per order of each is printed — the logging cost including its flushes, measured in the same
 * minutes on the same data, insensitive to how busy the rest of the machine is (CPU, not wall time).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/api-log-cpu-probe.ts [--flows N] [--rounds N] [--profile file]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { createApiHandler } from '@cartwright/http';
import { CHECKOUT_BODY, SHIPPING_ADDRESS } from './fixture/carts';
import { seedFixture } from './fixture/seed';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const FLOWS = Number(flag('flows', '300'));
const ROUNDS = Number(flag('rounds', '6'));
const PROFILE = flag('profile', '');

const engine = engineInternals(
  await createEngine({
    storage: await openStorage(':memory:'),
    crypto: nodeCrypto,
    // One client address: every request is counted in its bucket, no budget is ever spent.
    rateLimits: {
      secret_key: { limit: 1_000_000_000, window_seconds: 1 },
      publishable_key: { limit: 1_000_000_000, window_seconds: 1 },
    },
  }),
);
const fixture = await seedFixture(engine, { products: 200 });
// `--as off,off` runs an A/A test: both arms with the same mode, to see the noise of the method.
const [armWrites, armOff] = flag('as', 'writes,off').split(',') as ['writes' | 'off', 'writes' | 'off'];
const handlers = {
  writes: createApiHandler(engine, { apiLogs: armWrites }),
  off: createApiHandler(engine, { apiLogs: armOff }),
};
const headers = { authorization: `Bearer ${fixture.publishableKey}`, 'content-type': 'application/json' };
const base = 'http://127.0.0.1/v1/storefront/carts';

async function flow(handler: (typeof handlers)['off'], i: number): Promise<void> {
  const call = async (method: string, url: string, body: unknown, status: number) => {
    const response = await handler(new Request(url, { method, headers, body: JSON.stringify(body) }));
    const text = await response.text();
    if (response.status !== status) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return text;
  };
  const cart = JSON.parse(await call('POST', base, {}, 200)) as { id: string };
  const v = fixture.variantIds;
  await call('POST', `${base}/${cart.id}/items`, { variant_id: v[i % v.length], quantity: 1 }, 200);
  await call('POST', `${base}/${cart.id}/items`, { variant_id: v[(i * 7 + 3) % v.length], quantity: 2 }, 200);
  await call(
    'PATCH',
    `${base}/${cart.id}`,
    { shipping_address: SHIPPING_ADDRESS, shipping_method_id: fixture.shippingMethodId },
    200,
  );
  await call('POST', `${base}/${cart.id}/checkout`, CHECKOUT_BODY, 201);
}

async function batch(mode: keyof typeof handlers, n: number): Promise<number> {
  const handler = handlers[mode];
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await flow(handler, i);
  await handler.flushApiLogs?.();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

await batch('writes', 100);
await batch('off', 100);
const session = PROFILE ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const per: Record<'writes' | 'off', number[]> = { writes: [], off: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of round % 2 ? (['off', 'writes'] as const) : (['writes', 'off'] as const)) {
    per[mode].push(await batch(mode, FLOWS));
  }
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(PROFILE, JSON.stringify(profile));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const writes = median(per.writes);
const off = median(per.off);
console.log(
  `CPU per order (µs), ${ROUNDS} rounds × ${FLOWS} orders, median: writes ${writes.toFixed(0)}, off ${off.toFixed(0)}`,
);
console.log(`  writes rounds: ${per.writes.map((v) => v.toFixed(0)).join(' ')}`);
console.log(`  off rounds:    ${per.off.map((v) => v.toFixed(0)).join(' ')}`);
console.log(
  `  logging costs ${(writes - off).toFixed(0)} µs per order (${(((writes - off) / off) * 100).toFixed(1)} %), ${((writes - off) / 5).toFixed(1)} µs per logged request`,
);
const logged = await engine.forStore(fixture.scope).logs.list({ limit: 1 });
console.log(`  API logs written: ${(logged as { total_count?: number }).total_count}`);
await engine.close();
