/**
 * Benchmark 5 — scale on one Postgres: the HTTP storefront flow (and the catalog list) with 1, 2
 * and 4 server processes (autocannon spreads its connections round-robin over their ports), at
 * three database sizes: 1,000 products / 1,000 orders, 100,000 products / 1,000 orders, and
 * 100,000 products / 1,000,000 orders. The seed is one real checkout and the fixture's products;
 * growth is SQL `INSERT … SELECT` cloning of those rows (fixture/bulk-postgres.ts), then ANALYZE.
 *
 * Per row, the per-order costs that show whether processes cost extra where a small machine
 * cannot show throughput scaling: server CPU (all processes), PostgreSQL's CPU (its processes'
 * accounting, lib/pg-cpu.ts; the sampling connection below excluded), round trips and statements
 * (the servers' storage counters), and lock waits (`pg_stat_activity` rows waiting on a `Lock`,
 * sampled every ~20 ms: count × interval summed = ms of lock wait).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/scale-bench.ts [--short]
 *     [--processes 1,2,4] [--concurrency 32]
 *
 * `--processes` lists the server-process counts to measure (default 1,2,4; short: 2), and
 * `--concurrency` the flow's connections (default 32) — on a bigger machine e.g.
 * `--processes 1,4,8,16 --concurrency 128`.
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import pg from 'pg';
import { analyze, growOrders, growProducts } from './fixture/bulk-postgres';
import { CHECKOUT_INPUT, GUEST, readyCart } from './fixture/carts';
import { seedFixture } from './fixture/seed';
import { type FlowFixture, type FlowResult, type LoadResult, runFlow, runGet } from './http/load';
import { cpuMicros, type ServerStats, startServerProcess } from './http/server-handle';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { openPgCpu, type PgCpu } from './lib/pg-cpu';
import { acquirePostgres } from './lib/postgres';
import { COUNT_STATEMENTS_ENV, type StorageTraffic, trafficBetween } from './lib/query-counter';
import { createRandom } from './lib/random';
import { saveResults } from './lib/results';
import { fmt, ms } from './lib/stats';

/** This script's own flags (`--processes 1,2,4`, `--concurrency 32`), taken out before parseArgs. */
function ownFlags(argv: string[]): {
  rest: string[];
  processes: number[] | undefined;
  concurrency: number | undefined;
} {
  const rest: string[] = [];
  let processes: number[] | undefined;
  let concurrency: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.split('=', 2) as [string, string | undefined];
    if (name !== '--processes' && name !== '--concurrency') {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (!value) throw new Error(`${name} needs a value`);
    if (name === '--processes') {
      processes = value.split(',').map(Number);
      if (processes.some((n) => !Number.isInteger(n) || n < 1))
        throw new Error(`--processes takes counts like 1,2,4 (got '${value}')`);
    } else {
      concurrency = Number(value);
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new Error(`--concurrency takes a count of connections (got '${value}')`);
    }
  }
  return { rest, processes, concurrency };
}

const own = ownFlags(process.argv.slice(2));
const args = parseArgs(own.rest);
const PRODUCTS_SMALL = sized(args, 1_000, 200);
const PRODUCTS_LARGE = sized(args, 100_000, 1_000);
const ORDERS_SMALL = sized(args, 1_000, 200);
const ORDERS_LARGE = sized(args, 1_000_000, 2_000);
/** Server processes per stage (the short mode proves the multi-process path only). */
const PROCESSES = own.processes ?? sized(args, [1, 2, 4], [2]);
const CONNECTIONS = own.concurrency ?? 32;
/** How often the lock-wait sampler looks at pg_stat_activity. */
const LOCK_SAMPLE_MS = 20;
const CATALOG_CONNECTIONS = 16;
const SECONDS = sized(args, 10, 1.5);
const WARMUP_SECONDS = sized(args, 3, 1);
const CATALOG_PATH = '/v1/storefront/products?limit=20';

export interface ScalePoint {
  stage: string;
  products: number;
  orders: number;
  processes: number;
  flow: FlowResult & {
    cpu_ms_per_order: number;
    /** PostgreSQL's own CPU per order (null when its processes cannot be read). */
    pg_cpu_ms_per_order?: number | null;
    statements_per_order?: number | null;
    round_trips_per_order?: number | null;
    /** Sessions waiting on a lock, integrated over the window (count × interval), per order. */
    lock_wait_ms_per_order?: number;
    /** Most sessions seen waiting on a lock at once. */
    max_lock_waiters?: number;
  };
  catalog: LoadResult;
}

export interface ScaleResults {
  machine: ReturnType<typeof machineInfo>;
  short: boolean;
  skipped?: string;
  settings: { connections: number; catalog_connections: number; seconds: number; processes: number[] };
  growth: Array<{ what: string; rows: number; seconds: number }>;
  points: ScalePoint[];
}

async function count(client: pg.Client, table: 'orders' | 'products'): Promise<number> {
  const result = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
  return Number(result.rows[0]?.n ?? 0);
}

async function variantSample(client: pg.Client): Promise<string[]> {
  const result = await client.query<{ id: string }>(
    'select id from product_variants where deleted_at is null order by random() limit 3000',
  );
  return result.rows.map((row) => row.id);
}

/**
 * Samples `pg_stat_activity` on `client` every LOCK_SAMPLE_MS until stopped: sessions of this
 * database waiting on a heavyweight lock (`wait_event_type = 'Lock'`: row locks held by another
 * transaction, FOR UPDATE, the order-number counter…), integrated as count × interval.
 */
function sampleLockWaits(client: pg.Client): { stop(): Promise<{ lockWaitMs: number; max: number }> } {
  let running = true;
  let lockWaitMs = 0;
  let max = 0;
  const loop = (async () => {
    let last = performance.now();
    while (running) {
      const result = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
      );
      const now = performance.now();
      const waiting = result.rows[0]?.n ?? 0;
      lockWaitMs += waiting * (now - last);
      max = Math.max(max, waiting);
      last = now;
      await new Promise((resolve) => setTimeout(resolve, LOCK_SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { lockWaitMs, max };
    },
  };
}

type CountingStats = ServerStats & { storage?: StorageTraffic | null };

async function runStage(
  stage: string,
  databaseUrl: string,
  client: pg.Client,
  flowFixture: FlowFixture,
  points: ScalePoint[],
  pgCpu: PgCpu | null,
): Promise<void> {
  const products = await count(client, 'products');
  const orders = await count(client, 'orders');
  console.log(`\n== ${stage}: ${fmt(products)} products, ${fmt(orders)} orders`);
  // The short mode measures the last stage only (the growth steps still all run).
  if (args.short && stage !== 'many products and orders') return;
  for (const processes of PROCESSES) {
    const servers = await Promise.all(
      Array.from({ length: processes }, () => startServerProcess({ kind: 'engine', databaseUrl })),
    );
    try {
      const urls = servers.map((server) => server.url);
      await runFlow({ urls, connections: CONNECTIONS, seconds: WARMUP_SECONDS, fixture: flowFixture });
      await Promise.all(servers.map((server) => server.settle()));
      const pgBefore = pgCpu?.sampleMs() ?? Number.NaN;
      const before: CountingStats[] = await Promise.all(servers.map((server) => server.stats()));
      const locks = sampleLockWaits(client);
      const flow = await runFlow({ urls, connections: CONNECTIONS, seconds: SECONDS, fixture: flowFixture });
      const { lockWaitMs, max } = await locks.stop();
      const after: CountingStats[] = await Promise.all(servers.map((server) => server.stats()));
      const pgCpuMs = (pgCpu?.sampleMs() ?? Number.NaN) - pgBefore;
      const cpuUs = after.reduce((sum, stats, i) => sum + cpuMicros(before[i] as typeof stats, stats), 0);
      const traffic = after.map((stats, i) => trafficBetween(before[i] as CountingStats, stats));
      const completed = Math.max(1, flow.flows);
      const counted = traffic.every((t) => t !== null);
      const sum = (key: 'statements' | 'round_trips') =>
        counted ? traffic.reduce((total, t) => total + (t?.[key] ?? 0), 0) / completed : null;
      await Promise.all(servers.map((server) => server.settle()));
      const catalog = await runGet({
        urls,
        path: CATALOG_PATH,
        connections: CATALOG_CONNECTIONS,
        seconds: SECONDS,
        headers: { authorization: `Bearer ${flowFixture.publishableKey}` },
      });
      const point: ScalePoint = {
        stage,
        products,
        orders,
        processes,
        flow: {
          ...flow,
          cpu_ms_per_order: cpuUs / 1000 / completed,
          pg_cpu_ms_per_order: Number.isFinite(pgCpuMs) ? pgCpuMs / completed : null,
          statements_per_order: sum('statements'),
          round_trips_per_order: sum('round_trips'),
          lock_wait_ms_per_order: lockWaitMs / completed,
          max_lock_waiters: max,
        },
        catalog,
      };
      const f = point.flow;
      console.log(
        `  ${processes} process${processes > 1 ? 'es' : '  '}  flow ${fmt(flow.flows_per_second).padStart(5)} orders/s  p50 ${ms(flow.flow_latency.p50)}  p99 ${ms(flow.flow_latency.p99)}  cpu ${f.cpu_ms_per_order.toFixed(2)} ms/order  PostgreSQL ${f.pg_cpu_ms_per_order?.toFixed(2) ?? '?'} ms/order  ${f.round_trips_per_order?.toFixed(1) ?? '?'} round trips/order  lock wait ${f.lock_wait_ms_per_order?.toFixed(2)} ms/order (max ${max} waiting)${flow.failed_flows ? `  FAILED ${flow.failed_flows}` : ''}   list ${fmt(catalog.requests_per_second).padStart(5)} req/s  p99 ${ms(catalog.latency.p99)}`,
      );
      points.push(point);
    } finally {
      await Promise.all(servers.map((server) => server.exit()));
    }
  }
}

async function timed(growth: ScaleResults['growth'], what: string, rows: number, body: () => Promise<void>) {
  const started = performance.now();
  await body();
  const seconds = (performance.now() - started) / 1000;
  growth.push({ what, rows, seconds });
  console.log(`  ${what}: ${fmt(rows)} rows in ${seconds.toFixed(1)} s`);
}

// The server processes count their statements where the storage does not (it does on PostgreSQL).
process.env[COUNT_STATEMENTS_ENV] = '1';
const pg_ = await acquirePostgres(args.postgres);
const machine = machineInfo(pg_?.version ?? null);
printMachine(machine);
const settings = {
  connections: CONNECTIONS,
  catalog_connections: CATALOG_CONNECTIONS,
  seconds: SECONDS,
  processes: PROCESSES,
};
if (!pg_) {
  saveResults(args, 'scale', {
    machine,
    short: args.short,
    skipped: 'no Postgres',
    settings,
    growth: [],
    points: [],
  });
} else {
  const databaseUrl = pg_.databaseUrl;
  const client = new pg.Client({ connectionString: databaseUrl });
  const growth: ScaleResults['growth'] = [];
  const points: ScalePoint[] = [];
  try {
    const engine = engineInternals(
      await createEngine({ storage: await openStorage(databaseUrl), crypto: nodeCrypto }),
    );
    const fixture = await seedFixture(engine, { products: PRODUCTS_SMALL });
    const template = await engine.checkout.checkout(
      fixture.scope,
      await readyCart(engine, fixture, 3, createRandom(5)),
      CHECKOUT_INPUT,
      GUEST,
    );
    await engine.close();
    await client.connect();
    // PostgreSQL's CPU without this client's backend (it samples pg_stat_activity every 20 ms).
    const own = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const pgCpu = await openPgCpu(databaseUrl, { exclude: [own.rows[0]?.pid as number] });
    if (!pgCpu) console.log('PostgreSQL CPU: not measurable (the server does not run on this machine)');
    const product = await client.query<{ product_id: string }>(
      'select product_id from product_variants where id = $1',
      [fixture.variantIds[0]],
    );
    const templateProduct = product.rows[0]?.product_id as string;
    const flowFixture: FlowFixture = {
      publishableKey: fixture.publishableKey,
      shippingMethodId: fixture.shippingMethodId,
      variantIds: fixture.variantIds,
    };
    console.log('\n== seeding');
    await timed(growth, 'orders (clone of one checkout)', ORDERS_SMALL - 1, () =>
      growOrders(client, fixture.scope, template.id, ORDERS_SMALL - 1),
    );
    await analyze(client);
    await runStage('small', databaseUrl, client, flowFixture, points, pgCpu);

    await timed(
      growth,
      'products (with option, 3 variants, inventory, image)',
      PRODUCTS_LARGE - PRODUCTS_SMALL,
      () => growProducts(client, fixture.scope, templateProduct, PRODUCTS_SMALL, PRODUCTS_LARGE),
    );
    await analyze(client);
    flowFixture.variantIds = await variantSample(client);
    await runStage('many products', databaseUrl, client, flowFixture, points, pgCpu);

    const more = ORDERS_LARGE - (await count(client, 'orders'));
    await timed(growth, 'orders (with lines and payment)', more, () =>
      growOrders(client, fixture.scope, template.id, more, (done) => {
        if (done % 200_000 === 0) console.log(`    ${fmt(done)} orders`);
      }),
    );
    await analyze(client);
    await runStage('many products and orders', databaseUrl, client, flowFixture, points, pgCpu);
  } finally {
    await client.end().catch(() => {});
    await pg_.stop();
  }
  saveResults(args, 'scale', { machine, short: args.short, settings, growth, points } satisfies ScaleResults);
}
