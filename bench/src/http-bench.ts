/**
 * Benchmarks 2, 3, 4 and 6 — over HTTP, the server in its own process, autocannon in this one:
 * - the ceiling: a bare node:http server answering a fixed JSON body, at every concurrency used;
 * - the storefront flow (create cart → 2 × add item → PATCH address + shipping → checkout) as
 *   orders per second with p50/p99 per flow at concurrency 1, 8 and 64, on SQLite memory, SQLite
 *   file (WAL) and Postgres, also as a fraction of the ceiling;
 * - `GET /v1/storefront/products?limit=20` at concurrency 16 with 10,000 products;
 * - server CPU per order and per request, from the server's own `process.cpuUsage()`;
 * - PostgreSQL's own CPU per order (its processes' accounting, lib/pg-cpu.ts), and statements and
 *   round trips per order as the server process counts them (PostgreSQL: the storage's
 *   `stats()`; SQLite: the driver-level counter, `BENCH_COUNT_STATEMENTS=1`);
 * - resident memory after warm-up and over 100,000 requests (SQLite file).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/http-bench.ts [--short] [--no-postgres]
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { growPostgresCatalog, PORT_SEEDED_ON_POSTGRES } from './fixture/postgres-catalog';
import { type Fixture, seedFixture } from './fixture/seed';
import { type FlowResult, type LoadResult, runFlow, runGet } from './http/load';
import {
  cpuMicros,
  mainThreadCpuMicros,
  type ServerHandle,
  type ServerStats,
  startServerProcess,
} from './http/server-handle';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { measurePgCpu, openPgCpu, type PgCpu } from './lib/pg-cpu';
import { acquirePostgres } from './lib/postgres';
import { COUNT_STATEMENTS_ENV, type StorageTraffic, trafficBetween } from './lib/query-counter';
import { saveResults } from './lib/results';
import { fmt, mib, ms } from './lib/stats';
import { postgresTarget, sqliteFileTarget, sqliteMemoryTarget, type Target } from './lib/targets';

const args = parseArgs();
const PRODUCTS = sized(args, 10_000, 100);
const SECONDS = sized(args, 8, 1);
const WARMUP_SECONDS = sized(args, 5, 0.5);
const FLOW_CONCURRENCY = sized(args, [1, 8, 64], [1, 8]);
const CATALOG_CONCURRENCY = 16;
const CEILING_CONCURRENCY = sized(args, [1, 8, 16, 64], [1, 8, 16]);
const CEILING_SECONDS = sized(args, 8, 0.5);
const SOAK_REQUESTS = sized(args, 100_000, 500);
/** The soak stops at SOAK_REQUESTS or after this long, whichever comes first. */
const SOAK_MAX_SECONDS = sized(args, 240, 10);
const CATALOG_PATH = '/v1/storefront/products?limit=20';

export interface CeilingPoint extends LoadResult {
  cpu_us_per_request: number;
}

export interface FlowPoint extends FlowResult {
  cpu_ms_per_order: number;
  /** Of `cpu_ms_per_order`, the main (JavaScript) thread's share; the rest is V8's GC helper threads. */
  main_thread_ms_per_order: number | null;
  /** requests per flow × flows per second ÷ ceiling requests per second at the same concurrency. */
  fraction_of_ceiling: number;
  /** PostgreSQL's own CPU (all its processes) per order; null on SQLite or when not measurable. */
  pg_cpu_ms_per_order?: number | null;
  /** Statements and round trips per order (all 5 requests), as the server counted them; null if not. */
  statements_per_order?: number | null;
  round_trips_per_order?: number | null;
}

export type CatalogPoint = LoadResult & {
  cpu_us_per_request: number;
  main_thread_us_per_request: number | null;
  fraction_of_ceiling: number;
};

export interface HttpTargetResult {
  target: Target['kind'];
  label: string;
  products: number;
  rss_after_warmup: number;
  flow: FlowPoint[];
  catalog: CatalogPoint;
  /**
   * The same catalog window with the storage's page cache off: every request reads its page
   * (what a request costs right after any change to the store's catalog or stock).
   */
  catalog_uncached?: CatalogPoint;
  /** Requests the server never finished after the load stopped (clients gone). */
  stuck_requests: number;
}

export interface MemoryResult {
  target: Target['kind'];
  label: string;
  /** After warm-up, then after each chunk; `requests` counts requests served since warm-up. */
  samples: Array<{
    requests: number;
    rss: number;
    heap_used: number;
    heap_total: number;
    external: number;
    /** V8's young generation (semi-spaces), committed bytes. */
    new_space: number;
  }>;
  stuck_requests: number;
}

export interface HttpResults {
  machine: ReturnType<typeof machineInfo>;
  short: boolean;
  settings: {
    products: number;
    seconds: number;
    warmup_seconds: number;
    soak_requests: number;
    soak_max_seconds: number;
  };
  ceiling: CeilingPoint[];
  targets: HttpTargetResult[];
  memory: MemoryResult | null;
}

function flowFixture(fixture: Fixture) {
  return {
    publishableKey: fixture.publishableKey,
    shippingMethodId: fixture.shippingMethodId,
    variantIds: fixture.variantIds,
  };
}

async function measureCpu<T>(
  server: ServerHandle,
  body: () => Promise<T>,
  pgCpu: PgCpu | null = null,
): Promise<{
  result: T;
  cpuUs: number;
  mainUs: number | null;
  pgCpuMs: number | null;
  traffic: StorageTraffic | null;
}> {
  await server.settle();
  const { result: around, pgCpuMs } = await measurePgCpu(pgCpu, async () => {
    const before = await server.stats();
    const result = await body();
    const after = await server.stats();
    return { before, after, result };
  });
  const { before, after, result } = around;
  return {
    result,
    cpuUs: cpuMicros(before, after),
    mainUs: mainThreadCpuMicros(before, after),
    pgCpuMs,
    traffic: trafficBetween(
      before as ServerStats & { storage?: StorageTraffic | null },
      after as ServerStats & { storage?: StorageTraffic | null },
    ),
  };
}

async function benchCeiling(): Promise<CeilingPoint[]> {
  console.log('\n== ceiling: bare node:http, fixed JSON body');
  const server = await startServerProcess({ kind: 'bare' });
  try {
    await runGet({ urls: [server.url], path: '/', connections: 8, seconds: WARMUP_SECONDS });
    const points: CeilingPoint[] = [];
    for (const connections of CEILING_CONCURRENCY) {
      const { result, cpuUs } = await measureCpu(server, () =>
        runGet({ urls: [server.url], path: '/', connections, seconds: CEILING_SECONDS }),
      );
      const point = { ...result, cpu_us_per_request: cpuUs / Math.max(1, result.requests) };
      console.log(
        `  c=${String(connections).padEnd(3)} ${fmt(point.requests_per_second).padStart(8)} req/s   p50 ${ms(point.latency.p50)}  p99 ${ms(point.latency.p99)}  cpu ${point.cpu_us_per_request.toFixed(0)} µs/req`,
      );
      points.push(point);
    }
    return points;
  } finally {
    await server.exit();
  }
}

function ceilingAt(ceiling: CeilingPoint[], connections: number): number {
  return ceiling.find((point) => point.connections === connections)?.requests_per_second ?? Number.NaN;
}

/**
 * The server for a target with PRODUCTS products. An in-memory SQLite database can only be seeded
 * by the server process itself; a SQLite file and Postgres are seeded here first (Postgres: 1,000
 * through the storage port, the rest cloned in SQL) and the server attaches to them, so its
 * memory figures do not carry the seeding's garbage.
 */
async function startSeeded(target: Target): Promise<{ server: ServerHandle; fixture: Fixture }> {
  if (target.kind === 'sqlite-memory') {
    console.log(`\n== ${target.label}: seeding ${fmt(PRODUCTS)} products in the server process`);
    const server = await startServerProcess({
      kind: 'engine',
      databaseUrl: target.databaseUrl,
      seedProducts: PRODUCTS,
    });
    return { server, fixture: server.fixture as Fixture };
  }
  console.log(`\n== ${target.label}: seeding ${fmt(PRODUCTS)} products`);
  const postgres = target.kind === 'postgres';
  const engine = engineInternals(
    await createEngine({ storage: await openStorage(target.databaseUrl), crypto: nodeCrypto }),
  );
  let fixture: Fixture;
  try {
    fixture = await seedFixture(engine, {
      products: postgres ? Math.min(PRODUCTS, PORT_SEEDED_ON_POSTGRES) : PRODUCTS,
    });
  } finally {
    await engine.close();
  }
  if (postgres) fixture = await growPostgresCatalog(target.databaseUrl, fixture, PRODUCTS);
  return { server: await startServerProcess({ kind: 'engine', databaseUrl: target.databaseUrl }), fixture };
}

async function benchTarget(target: Target, ceiling: CeilingPoint[]): Promise<HttpTargetResult> {
  const { server, fixture: seeded } = await startSeeded(target);
  const headers = { authorization: `Bearer ${seeded.publishableKey}` };
  try {
    const pgCpu = target.kind === 'postgres' ? await openPgCpu(target.databaseUrl) : null;
    if (target.kind === 'postgres' && !pgCpu)
      console.log('  PostgreSQL CPU: not measurable (the server does not run on this machine)');
    const fixture = flowFixture(seeded);
    await runFlow({ urls: [server.url], connections: 8, seconds: WARMUP_SECONDS, fixture });
    await runGet({
      urls: [server.url],
      path: CATALOG_PATH,
      connections: 8,
      seconds: WARMUP_SECONDS / 2,
      headers,
    });
    await server.settle();
    const warm = await server.gc();
    console.log(`  rss after warm-up ${mib(warm.memory.rss)} (heap used ${mib(warm.memory.heapUsed)})`);
    const flow: FlowPoint[] = [];
    for (const connections of FLOW_CONCURRENCY) {
      const { result, cpuUs, mainUs, pgCpuMs, traffic } = await measureCpu(
        server,
        () => runFlow({ urls: [server.url], connections, seconds: SECONDS, fixture }),
        pgCpu,
      );
      const orders = Math.max(1, result.flows);
      const point: FlowPoint = {
        ...result,
        cpu_ms_per_order: cpuUs / 1000 / Math.max(1, result.flows),
        main_thread_ms_per_order: mainUs === null ? null : mainUs / 1000 / Math.max(1, result.flows),
        fraction_of_ceiling:
          (result.requests_per_flow * result.flows_per_second) / ceilingAt(ceiling, connections),
        pg_cpu_ms_per_order: pgCpuMs === null ? null : pgCpuMs / orders,
        statements_per_order: traffic ? traffic.statements / orders : null,
        round_trips_per_order: traffic ? traffic.round_trips / orders : null,
      };
      console.log(
        `  flow c=${String(connections).padEnd(3)} ${fmt(point.flows_per_second).padStart(6)} orders/s   flow p50 ${ms(point.flow_latency.p50)}  p99 ${ms(point.flow_latency.p99)}   cpu ${point.cpu_ms_per_order.toFixed(2)} ms/order (main thread ${point.main_thread_ms_per_order?.toFixed(2) ?? '?'})${point.pg_cpu_ms_per_order != null ? `   PostgreSQL cpu ${point.pg_cpu_ms_per_order.toFixed(2)} ms/order` : ''}${point.statements_per_order != null ? `   ${point.statements_per_order.toFixed(1)} statements, ${point.round_trips_per_order?.toFixed(1)} round trips/order` : ''}   ${(point.fraction_of_ceiling * 100).toFixed(1)} % of ceiling${point.failed_flows > 0 ? `   FAILED FLOWS ${point.failed_flows}` : ''}`,
      );
      flow.push(point);
    }
    const catalog = await measureCatalog(server, headers, ceiling, 'GET products');
    await server.pageCache(false);
    const catalog_uncached = await measureCatalog(server, headers, ceiling, 'GET products, page cache off');
    await server.pageCache(true);
    const stuck_requests = await server.settle();
    if (stuck_requests > 0)
      console.log(`  ${stuck_requests} requests never finished after their client disconnected`);
    return {
      target: target.kind,
      label: target.label,
      products: PRODUCTS,
      rss_after_warmup: warm.memory.rss,
      flow,
      catalog,
      catalog_uncached,
      stuck_requests,
    };
  } finally {
    await server.exit();
    target.cleanup();
  }
}

function memorySample(requests: number, stats: ServerStats): MemoryResult['samples'][number] {
  const { rss, heapUsed, heapTotal, external } = stats.memory;
  const new_space = stats.heap_spaces.new_space?.size ?? 0;
  return { requests, rss, heap_used: heapUsed, heap_total: heapTotal, external, new_space };
}

/**
 * Memory over SOAK_REQUESTS requests (or SOAK_MAX_SECONDS) on a SQLite file (an in-memory
 * database would grow with its data by design): chunks of storefront flows (c=8), every fourth
 * chunk catalog pages (c=16); RSS and heap after a full GC are sampled after each chunk.
 */
async function benchMemory(target: Target): Promise<MemoryResult> {
  console.log(`\n== memory: ${fmt(SOAK_REQUESTS)} requests on ${target.label}`);
  const { server, fixture: seeded } = await startSeeded(target);
  const headers = { authorization: `Bearer ${seeded.publishableKey}` };
  try {
    const fixture = flowFixture(seeded);
    await runFlow({ urls: [server.url], connections: 8, seconds: WARMUP_SECONDS, fixture });
    await server.settle();
    const warm: ServerStats = await server.gc();
    const samples: MemoryResult['samples'] = [memorySample(0, warm)];
    console.log(`  after warm-up: rss ${mib(warm.memory.rss)}, heap used ${mib(warm.memory.heapUsed)}`);
    const chunkSeconds = sized(args, 10, 0.5);
    let served = 0;
    const deadline = performance.now() + SOAK_MAX_SECONDS * 1000;
    for (let chunk = 0; served < SOAK_REQUESTS && performance.now() < deadline; chunk++) {
      if (chunk % 4 !== 3)
        await runFlow({ urls: [server.url], connections: 8, seconds: chunkSeconds, fixture });
      else
        await runGet({
          urls: [server.url],
          path: CATALOG_PATH,
          connections: CATALOG_CONCURRENCY,
          seconds: chunkSeconds,
          headers,
        });
      await server.settle();
      const stats = await server.gc();
      served = stats.requests - warm.requests;
      samples.push(memorySample(served, stats));
      console.log(
        `  after ${fmt(served).padStart(7)} requests: rss ${mib(stats.memory.rss)}, heap used ${mib(stats.memory.heapUsed)}`,
      );
    }
    const stuck_requests = await server.settle();
    return { target: target.kind, label: target.label, samples, stuck_requests };
  } finally {
    await server.exit();
    target.cleanup();
  }
}

// The server processes count their SQL statements (SQLite; PostgreSQL's storage counts its own).
process.env[COUNT_STATEMENTS_ENV] = '1';
const pg = await acquirePostgres(args.postgres);
const machine = machineInfo(pg?.version ?? null);
printMachine(machine);
console.log(`\nhttp: ${fmt(PRODUCTS)} products, ${SECONDS} s per point${args.short ? ' (short)' : ''}`);
try {
  const ceiling = await benchCeiling();
  // The short mode skips the SQLite file here: the memory soak below runs on one.
  const targets: Target[] = args.short ? [sqliteMemoryTarget()] : [sqliteMemoryTarget(), sqliteFileTarget()];
  if (pg) targets.push(await postgresTarget(pg));
  const results: HttpTargetResult[] = [];
  for (const target of targets) results.push(await benchTarget(target, ceiling));
  const memory = await benchMemory(sqliteFileTarget());
  saveResults(args, 'http', {
    machine,
    short: args.short,
    settings: {
      products: PRODUCTS,
      seconds: SECONDS,
      warmup_seconds: WARMUP_SECONDS,
      soak_requests: SOAK_REQUESTS,
      soak_max_seconds: SOAK_MAX_SECONDS,
    },
    ceiling,
    targets: results,
    memory,
  } satisfies HttpResults);
} finally {
  await pg?.stop();
}

/** One catalog window (`CATALOG_PATH`, c = `CATALOG_CONCURRENCY`) with the server's CPU. */
async function measureCatalog(
  server: ServerHandle,
  headers: Record<string, string>,
  ceiling: CeilingPoint[],
  label: string,
): Promise<CatalogPoint> {
  const {
    result: list,
    cpuUs,
    mainUs,
  } = await measureCpu(server, () =>
    runGet({
      urls: [server.url],
      path: CATALOG_PATH,
      connections: CATALOG_CONCURRENCY,
      seconds: SECONDS,
      headers,
    }),
  );
  const catalog = {
    ...list,
    cpu_us_per_request: cpuUs / Math.max(1, list.requests),
    main_thread_us_per_request: mainUs === null ? null : mainUs / Math.max(1, list.requests),
    fraction_of_ceiling: list.requests_per_second / ceilingAt(ceiling, CATALOG_CONCURRENCY),
  };
  console.log(
    `  ${label} c=${CATALOG_CONCURRENCY} ${fmt(catalog.requests_per_second)} req/s   p50 ${ms(catalog.latency.p50)}  p99 ${ms(catalog.latency.p99)}   cpu ${catalog.cpu_us_per_request.toFixed(0)} µs/req (main thread ${catalog.main_thread_us_per_request?.toFixed(0) ?? '?'})${catalog.non2xx > 0 ? `   NON-2XX ${catalog.non2xx}` : ''}`,
  );
  return catalog;
}
