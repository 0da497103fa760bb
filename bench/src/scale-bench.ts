/**
 * Benchmark 5 — scale on one Postgres: the HTTP storefront flow (and the catalog list) with 1, 2
 * and 4 server processes (autocannon spreads its connections round-robin over their ports), at
 * three database sizes: 1,000 products / 1,000 orders, 100,000 products / 1,000 orders, and
 * 100,000 products / 1,000,000 orders. The seed is one real checkout and the fixture's products;
 * growth is SQL `INSERT … SELECT` cloning of those rows (fixture/bulk-postgres.ts), then ANALYZE.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/scale-bench.ts [--short]
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import pg from 'pg';
import { analyze, growOrders, growProducts } from './fixture/bulk-postgres';
import { CHECKOUT_INPUT, GUEST, readyCart } from './fixture/carts';
import { seedFixture } from './fixture/seed';
import { type FlowFixture, type FlowResult, type LoadResult, runFlow, runGet } from './http/load';
import { cpuMicros, startServerProcess } from './http/server-handle';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { acquirePostgres } from './lib/postgres';
import { createRandom } from './lib/random';
import { saveResults } from './lib/results';
import { fmt, ms } from './lib/stats';

const args = parseArgs();
const PRODUCTS_SMALL = sized(args, 1_000, 200);
const PRODUCTS_LARGE = sized(args, 100_000, 1_000);
const ORDERS_SMALL = sized(args, 1_000, 200);
const ORDERS_LARGE = sized(args, 1_000_000, 2_000);
/** Server processes per stage (the short mode proves the multi-process path only). */
const PROCESSES = sized(args, [1, 2, 4], [2]);
const CONNECTIONS = 32;
const CATALOG_CONNECTIONS = 16;
const SECONDS = sized(args, 10, 1.5);
const WARMUP_SECONDS = sized(args, 3, 1);
const CATALOG_PATH = '/v1/storefront/products?limit=20';

export interface ScalePoint {
  stage: string;
  products: number;
  orders: number;
  processes: number;
  flow: FlowResult & { cpu_ms_per_order: number };
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

async function runStage(
  stage: string,
  databaseUrl: string,
  client: pg.Client,
  flowFixture: FlowFixture,
  points: ScalePoint[],
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
      const before = await Promise.all(servers.map((server) => server.stats()));
      const flow = await runFlow({ urls, connections: CONNECTIONS, seconds: SECONDS, fixture: flowFixture });
      const after = await Promise.all(servers.map((server) => server.stats()));
      const cpuUs = after.reduce((sum, stats, i) => sum + cpuMicros(before[i] as typeof stats, stats), 0);
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
        flow: { ...flow, cpu_ms_per_order: cpuUs / 1000 / Math.max(1, flow.flows) },
        catalog,
      };
      console.log(
        `  ${processes} process${processes > 1 ? 'es' : '  '}  flow ${fmt(flow.flows_per_second).padStart(5)} orders/s  p50 ${ms(flow.flow_latency.p50)}  p99 ${ms(flow.flow_latency.p99)}  cpu ${point.flow.cpu_ms_per_order.toFixed(2)} ms/order${flow.failed_flows ? `  FAILED ${flow.failed_flows}` : ''}   list ${fmt(catalog.requests_per_second).padStart(5)} req/s  p99 ${ms(catalog.latency.p99)}`,
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
    await runStage('small', databaseUrl, client, flowFixture, points);

    await timed(
      growth,
      'products (with option, 3 variants, inventory, image)',
      PRODUCTS_LARGE - PRODUCTS_SMALL,
      () => growProducts(client, fixture.scope, templateProduct, PRODUCTS_SMALL, PRODUCTS_LARGE),
    );
    await analyze(client);
    flowFixture.variantIds = await variantSample(client);
    await runStage('many products', databaseUrl, client, flowFixture, points);

    const more = ORDERS_LARGE - (await count(client, 'orders'));
    await timed(growth, 'orders (with lines and payment)', more, () =>
      growOrders(client, fixture.scope, template.id, more, (done) => {
        if (done % 200_000 === 0) console.log(`    ${fmt(done)} orders`);
      }),
    );
    await analyze(client);
    await runStage('many products and orders', databaseUrl, client, flowFixture, points);
  } finally {
    await client.end().catch(() => {});
    await pg_.stop();
  }
  saveResults(args, 'scale', { machine, short: args.short, settings, growth, points } satisfies ScaleResults);
}
