/**
 * API logs (decisions §23): their cost on checkout throughput, and the cost of reading them.
 *
 * 1. Checkout throughput with `COMMERCE_API_LOGS=writes` (the default: each of the flow's 5
 *    requests is logged) vs `off`, in the same minutes: two server processes (http/server-process.ts,
 *    SQLite — memory, or a WAL file with `--file`), seeded alike, warmed up, then measured in
 *    alternating windows (writes, off, off, writes, …) of the storefront flow (create cart → 2 ×
 *    add item → PATCH → checkout) at 8 connections. Prints every window, the medians and the
 *    change; the decision's bound is 5 %.
 * 2. `GET /v1/admin/logs` on a table of `--rows` log rows (default 1,000,000) in one scope of a
 *    SQLite file, seeded through `engine.apiLogs.record` in batches of 1,000: the median time of
 *    the first page (20, with `total_count`), each filter, and a page deep in the cursor chain.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/api-log-bench.ts [--short] [--file] [--rounds N] [--rows N] [--no-flow] [--no-list]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { type ApiLogEntry, createEngine } from '@cartwright/core';
import { runFlow } from './http/load';
import { cpuMicros, type ServerHandle, startServerProcess } from './http/server-handle';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const has = (name: string) => process.argv.includes(`--${name}`);
const short = has('short');
const ROUNDS = Number(flag('rounds') ?? (short ? 2 : 5));
const SECONDS = Number(flag('seconds') ?? (short ? 2 : 5));
const WARMUP = short ? 1 : 5;
const PRODUCTS = short ? 100 : 1_000;
const ROWS = Number(flag('rows') ?? (short ? 20_000 : 1_000_000));
const CONNECTIONS = 8;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function flowBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-api-log-bench-'));
  const file = has('file');
  const servers: Record<'writes' | 'off', ServerHandle> = {} as never;
  try {
    for (const mode of ['writes', 'off'] as const) {
      process.env.COMMERCE_API_LOGS = mode;
      servers[mode] = await startServerProcess({
        kind: 'engine',
        databaseUrl: file ? join(dir, `${mode}.db`) : ':memory:',
        seedProducts: PRODUCTS,
      });
    }
    delete process.env.COMMERCE_API_LOGS;
    const fixtureOf = (server: ServerHandle) => {
      const f = server.fixture;
      if (!f) throw new Error('the server did not seed its fixture');
      return {
        publishableKey: f.publishableKey,
        shippingMethodId: f.shippingMethodId,
        variantIds: f.variantIds,
      };
    };
    for (const mode of ['writes', 'off'] as const) {
      const server = servers[mode];
      await runFlow({
        urls: [server.url],
        connections: CONNECTIONS,
        seconds: WARMUP,
        fixture: fixtureOf(server),
      });
      await server.settle();
    }
    const results: Record<'writes' | 'off', { ops: number[]; cpu: number[] }> = {
      writes: { ops: [], cpu: [] },
      off: { ops: [], cpu: [] },
    };
    console.log(
      `storefront flow, SQLite ${file ? 'file (WAL)' : 'memory'}, ${CONNECTIONS} connections, ${SECONDS} s windows, ${ROUNDS} rounds`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['writes', 'off'] as const) : (['off', 'writes'] as const);
      for (const mode of order) {
        const server = servers[mode];
        const before = await server.stats();
        const flow = await runFlow({
          urls: [server.url],
          connections: CONNECTIONS,
          seconds: SECONDS,
          fixture: fixtureOf(server),
        });
        const after = await server.stats();
        await server.settle();
        const cpu = cpuMicros(before, after) / 1000 / flow.flows;
        const system = (after.cpu.system - before.cpu.system) / 1000 / flow.flows;
        results[mode].ops.push(flow.flows_per_second);
        results[mode].cpu.push(cpu);
        console.log(
          `  round ${round + 1} ${mode.padEnd(6)} ${flow.flows_per_second.toFixed(1)} orders/s, ` +
            `${cpu.toFixed(2)} ms CPU/order (system ${system.toFixed(2)}), p99 ${flow.flow_latency.p99.toFixed(1)} ms, failed ${flow.failed_flows}`,
        );
      }
    }
    // Side by side: both servers under load in the same seconds, so that whatever else the machine
    // runs slows both alike; the ratio of their throughputs is the cost of the logs.
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [w, o] = await Promise.all(
        (['writes', 'off'] as const).map((mode) =>
          runFlow({
            urls: [servers[mode].url],
            connections: CONNECTIONS / 2,
            seconds: SECONDS,
            fixture: fixtureOf(servers[mode]),
          }),
        ),
      );
      await Promise.all([servers.writes.settle(), servers.off.settle()]);
      const ratio =
        (w as { flows_per_second: number }).flows_per_second /
        (o as { flows_per_second: number }).flows_per_second;
      ratios.push(ratio);
      console.log(
        `  side by side ${round + 1}: writes ${w?.flows_per_second.toFixed(1)} vs off ${o?.flows_per_second.toFixed(1)} orders/s → ${((ratio - 1) * 100).toFixed(1)} %`,
      );
    }
    console.log(`  side by side, median: ${((median(ratios) - 1) * 100).toFixed(1)} %`);
    const on = median(results.writes.ops);
    const off = median(results.off.ops);
    const cpuOn = median(results.writes.cpu);
    const cpuOff = median(results.off.cpu);
    console.log(
      `  median: writes ${on.toFixed(1)} orders/s vs off ${off.toFixed(1)} → ${(((on - off) / off) * 100).toFixed(1)} %; ` +
        `CPU/order ${cpuOn.toFixed(2)} vs ${cpuOff.toFixed(2)} ms → ${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)} %`,
    );
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.exit()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function listBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-api-log-rows-'));
  const engine = await createEngine({ storage: await openStorage(join(dir, 'logs.db')), crypto: nodeCrypto });
  try {
    const scope = await engine.scopeFor('test');
    const store = engine.forStore(scope);
    const methods = ['POST', 'POST', 'POST', 'PATCH', 'DELETE', 'GET'];
    const paths = [
      '/v1/storefront/carts',
      '/v1/admin/products',
      '/v1/admin/orders/ord_1/refunds',
      '/v1/admin/customers',
    ];
    const start = Date.now() - ROWS * 1000; // one a second, ending now: none pruned
    const seeded = performance.now();
    for (let at = 0; at < ROWS; at += 1000) {
      const batch: ApiLogEntry[] = [];
      for (let i = at; i < Math.min(ROWS, at + 1000); i++) {
        const status = i % 50 === 0 ? 404 : i % 20 === 0 ? 400 : 200;
        batch.push({
          store_id: scope.store_id,
          mode: scope.mode,
          method: methods[i % methods.length] as string,
          path: `${paths[i % paths.length]}`,
          status_code: status,
          latency_ms: i % 30,
          request_body: { name: `item ${i}`, quantity: i % 5 },
          response_body:
            status === 200 ? { id: `obj_${i}`, object: 'thing' } : { error: { code: 'not_found' } },
          api_key_id: 'key_bench',
          ip: '127.0.0.1',
          user_agent: 'bench/1.0',
          created_at: start + i * 1000,
        });
      }
      await engine.apiLogs.record(batch);
    }
    console.log(
      `GET /v1/admin/logs on ${ROWS.toLocaleString('en')} rows (SQLite file; seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s)`,
    );
    const time = async (label: string, call: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < 11; i++) {
        const t = performance.now();
        await call();
        samples.push(performance.now() - t);
      }
      console.log(`  ${label.padEnd(44)} median ${median(samples).toFixed(2)} ms`);
    };
    const first = (await store.logs.list({})) as { data: { id: string }[]; total_count: number };
    console.log(`  total_count ${first.total_count}`);
    await time('first page (20, total_count)', () => store.logs.list({}));
    await time('limit=100', () => store.logs.list({ limit: 100 }));
    await time('method=PATCH', () => store.logs.list({ method: 'PATCH' }));
    await time('status_code=404', () => store.logs.list({ status_code: 404 }));
    await time('path=/v1/admin/orders (prefix)', () => store.logs.list({ path: '/v1/admin/orders' }));
    await time('path=/v1/nothing (prefix, no match)', () => store.logs.list({ path: '/v1/nothing' }));
    await time('next page (starting_after)', () => store.logs.list({ starting_after: first.data[19]?.id }));
    await time('GET /v1/admin/logs/{id}', () => store.logs.get(first.data[5]?.id as string));
    const pruned = performance.now();
    const count = await engine.apiLogs.prune();
    console.log(
      `  prune (nothing older than 30 days: ${count} rows) ${(performance.now() - pruned).toFixed(2)} ms`,
    );
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!has('no-flow')) await flowBench();
if (!has('no-list')) await listBench();
