/**
 * Where PostgreSQL's own time goes in the storefront flow: a throwaway cluster with
 * pg_stat_statements (planning tracked), the engine in process over the HTTP handler, N flows at
 * concurrency C after a warm-up; prints execution and planning time per order, the top statements
 * by total time, and statements per order by kind.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/pg-statements-probe.ts [--orders 400] [--concurrency 8] [--analyze]
 *
 * `--analyze` runs ANALYZE after seeding (without it the planner has no statistics of the
 * freshly seeded tables, as right after a bulk import). Also samples which statements wait on a
 * lock and what their blocker runs.
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { createApiHandler } from '@cartwright/http';
import { createTestDatabase, startPostgres } from '@cartwright/storage-conformance/postgres-server';
import pg from 'pg';
import { CHECKOUT_BODY, SHIPPING_ADDRESS } from './fixture/carts';
import { seedFixture } from './fixture/seed';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const orders = flag('orders', 400);
const concurrency = flag('concurrency', 8);

const server = await startPostgres({
  settings: ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_planning=on'],
});
const url = await createTestDatabase(server.url);
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query('create extension if not exists pg_stat_statements');
const engine = engineInternals(await createEngine({ storage: await openStorage(url), crypto: nodeCrypto }));
const fixture = await seedFixture(engine, { products: 500 });
if (process.argv.includes('--analyze')) await admin.query('analyze');
const handler = createApiHandler(engine);
const headers = { authorization: `Bearer ${fixture.publishableKey}`, 'content-type': 'application/json' };
let pick = 0;
const variant = () => fixture.variantIds[pick++ % fixture.variantIds.length] as string;

async function call(method: string, path: string, body: unknown): Promise<string> {
  const response = await handler(
    new Request(`http://bench${path}`, { method, headers, body: JSON.stringify(body) }),
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text;
}
async function flow(): Promise<void> {
  const cart = JSON.parse(await call('POST', '/v1/storefront/carts', {})) as { id: string };
  const at = `/v1/storefront/carts/${cart.id}`;
  await call('POST', `${at}/items`, { variant_id: variant(), quantity: 1 });
  await call('POST', `${at}/items`, { variant_id: variant(), quantity: 2 });
  await call('PATCH', at, {
    shipping_address: SHIPPING_ADDRESS,
    shipping_method_id: fixture.shippingMethodId,
  });
  await call('POST', `${at}/checkout`, CHECKOUT_BODY);
}
async function run(n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) await flow();
    }),
  );
}

await run(100);
await admin.query('select pg_stat_statements_reset()');
// Which statements wait on a lock, sampled every 10 ms while the flows run.
const waits = new Map<string, number>();
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const { rows } = await admin.query<{ query: string; blocker: string }>(
      `select a.query, coalesce((select b.query from pg_stat_activity b where b.pid = (pg_blocking_pids(a.pid))[1]), '?') as blocker
         from pg_stat_activity a where a.wait_event_type = 'Lock' and a.datname = current_database()`,
    );
    for (const row of rows) {
      const key = `${row.query.replace(/\s+/g, ' ').slice(0, 90)}  <-  ${row.blocker.replace(/\s+/g, ' ').slice(0, 70)}`;
      waits.set(key, (waits.get(key) ?? 0) + 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
})();
const started = performance.now();
await run(orders);
const seconds = (performance.now() - started) / 1000;
sampling = false;
await sampler;
const { rows } = await admin.query<{
  query: string;
  calls: string;
  exec: number;
  plan: number;
  plans: string;
}>(
  `select query, calls, total_exec_time as exec, total_plan_time as plan, plans
     from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
    order by total_exec_time + total_plan_time desc`,
);
const total = rows.reduce((sum, r) => sum + r.exec + r.plan, 0);
const exec = rows.reduce((sum, r) => sum + r.exec, 0);
const plan = rows.reduce((sum, r) => sum + r.plan, 0);
const calls = rows.reduce((sum, r) => sum + Number(r.calls), 0);
console.log(
  `${orders} orders at c=${concurrency} in ${seconds.toFixed(1)} s: per order ${(exec / orders).toFixed(2)} ms executing + ${(plan / orders).toFixed(2)} ms planning, ${(calls / orders).toFixed(1)} statements`,
);
console.log('top statements by total time (ms per order, calls per order, planned per call):');
for (const r of rows.slice(0, 18)) {
  console.log(
    `  ${((r.exec + r.plan) / orders).toFixed(3).padStart(7)} ms  ${(Number(r.calls) / orders).toFixed(2).padStart(5)}×  plans ${(Number(r.plans) / Math.max(1, Number(r.calls))).toFixed(2)}  ${r.query.replace(/\s+/g, ' ').slice(0, 150)}`,
  );
}
console.log(`(total ${(total / orders).toFixed(2)} ms per order)`);
console.log('lock waits sampled (waiting statement <- what the blocker runs now):');
for (const [key, n] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 10))
  console.log(`  ${String(n).padStart(5)}  ${key}`);
await admin.end();
await engine.close();
await server.stop();
