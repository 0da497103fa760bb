/**
 * PostgreSQL settings: the HTTP storefront flow on PostgreSQL at concurrency 8 and 64 with
 * `synchronous_commit` on and off, and the server's pool size (4, 10 — the storage's default —
 * and 20 connections): orders/s, flow latency, server CPU per order and PostgreSQL's CPU per
 * order.
 *
 * The cluster is one of its own with PostgreSQL's durable defaults (fsync, full_page_writes and
 * synchronous_commit on; `startPostgres({ durable: true })`, never `CARTWRIGHT_TEST_PG_URL`'s
 * server, whose throwaway settings turn durability off): `synchronous_commit = off` only means
 * something where commits are flushed. One database is seeded, then each setting gets a fresh
 * copy of it (`create database … template …`) with `alter database … set synchronous_commit`,
 * and a fresh server process whose pool has that many connections (`BENCH_PG_POOL_MAX`: the CLI's
 * `openStorage` takes no pool size; see server-process.ts).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/pg-settings-bench.ts [--short] [--no-postgres]
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { growPostgresCatalog, PORT_SEEDED_ON_POSTGRES } from './fixture/postgres-catalog';
import { seedFixture } from './fixture/seed';
import { type FlowFixture, type FlowResult, runFlow } from './http/load';
import { cpuMicros, type ServerStats, startServerProcess } from './http/server-handle';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { openPgCpu } from './lib/pg-cpu';
import { withPgClient } from './lib/postgres';
import { type StorageTraffic, trafficBetween } from './lib/query-counter';
import { saveResults } from './lib/results';
import { fmt, ms } from './lib/stats';

const args = parseArgs();
const PRODUCTS = sized(args, 10_000, 100);
const SECONDS = sized(args, 8, 2);
const WARMUP_SECONDS = sized(args, 4, 0.5);
const CONCURRENCY = [8, 64];
const POOL_SIZES = [4, 10, 20];
const SYNCHRONOUS_COMMIT = ['on', 'off'] as const;

export interface PgSettingsPoint {
  synchronous_commit: 'on' | 'off';
  pool_max: number;
  flow: FlowResult & {
    cpu_ms_per_order: number;
    pg_cpu_ms_per_order: number | null;
    round_trips_per_order: number | null;
  };
}

export interface PgSettingsResults {
  machine: ReturnType<typeof machineInfo>;
  short: boolean;
  skipped?: string;
  settings: {
    products: number;
    seconds: number;
    warmup_seconds: number;
    concurrency: number[];
    pool_sizes: number[];
    /** The cluster's durability settings as `show` reports them (fsync, full_page_writes, …). */
    cluster: Record<string, string>;
  };
  points: PgSettingsPoint[];
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The seeded database: the fixture through the storage port, the rest cloned in SQL. */
async function seed(url: string): Promise<FlowFixture> {
  const engine = engineInternals(await createEngine({ storage: await openStorage(url), crypto: nodeCrypto }));
  let fixture: Awaited<ReturnType<typeof seedFixture>>;
  try {
    fixture = await seedFixture(engine, { products: Math.min(PRODUCTS, PORT_SEEDED_ON_POSTGRES) });
  } finally {
    await engine.close();
  }
  fixture = await growPostgresCatalog(url, fixture, PRODUCTS);
  return {
    publishableKey: fixture.publishableKey,
    shippingMethodId: fixture.shippingMethodId,
    variantIds: fixture.variantIds,
  };
}

type CountingStats = ServerStats & { storage?: StorageTraffic | null };

async function measureSetting(
  server: { url: string; dataDirectory?: string },
  template: string,
  fixture: FlowFixture,
  synchronousCommit: 'on' | 'off',
  poolMax: number,
  index: number,
): Promise<PgSettingsPoint[]> {
  const name = `${template}_s${index}`;
  await withPgClient(server.url, async (client) => {
    await client.query(`create database "${name}" template "${template}"`);
    await client.query(`alter database "${name}" set synchronous_commit = ${synchronousCommit}`);
  });
  const url = databaseUrl(server.url, name);
  const shown = await withPgClient(url, async (client) => {
    const result = await client.query<{ synchronous_commit: string }>('show synchronous_commit');
    return result.rows[0]?.synchronous_commit;
  });
  if (shown !== synchronousCommit) throw new Error(`synchronous_commit is ${shown} on ${name}`);
  console.log(`\n== synchronous_commit = ${synchronousCommit}, pool max ${poolMax}`);
  process.env.BENCH_PG_POOL_MAX = String(poolMax);
  const app = await startServerProcess({ kind: 'engine', databaseUrl: url });
  delete process.env.BENCH_PG_POOL_MAX;
  const points: PgSettingsPoint[] = [];
  try {
    const pgCpu = await openPgCpu(url, server.dataDirectory ? { dataDirectory: server.dataDirectory } : {});
    await runFlow({ urls: [app.url], connections: 8, seconds: WARMUP_SECONDS, fixture });
    for (const connections of CONCURRENCY) {
      await app.settle();
      const pgBefore = pgCpu?.sampleMs() ?? Number.NaN;
      const before: CountingStats = await app.stats();
      const flow = await runFlow({ urls: [app.url], connections, seconds: SECONDS, fixture });
      const after: CountingStats = await app.stats();
      const pgCpuMs = (pgCpu?.sampleMs() ?? Number.NaN) - pgBefore;
      const orders = Math.max(1, flow.flows);
      const traffic = trafficBetween(before, after);
      const point: PgSettingsPoint = {
        synchronous_commit: synchronousCommit,
        pool_max: poolMax,
        flow: {
          ...flow,
          cpu_ms_per_order: cpuMicros(before, after) / 1000 / orders,
          pg_cpu_ms_per_order: Number.isFinite(pgCpuMs) ? pgCpuMs / orders : null,
          round_trips_per_order: traffic ? traffic.round_trips / orders : null,
        },
      };
      const f = point.flow;
      console.log(
        `  c=${String(connections).padEnd(3)} ${fmt(flow.flows_per_second).padStart(5)} orders/s  flow p50 ${ms(flow.flow_latency.p50)}  p99 ${ms(flow.flow_latency.p99)}  server cpu ${f.cpu_ms_per_order.toFixed(2)} ms/order  PostgreSQL cpu ${f.pg_cpu_ms_per_order?.toFixed(2) ?? '?'} ms/order  ${f.round_trips_per_order?.toFixed(1) ?? '?'} round trips/order${flow.failed_flows ? `  FAILED ${flow.failed_flows}` : ''}`,
      );
      points.push(point);
    }
  } finally {
    await app.exit();
    await withPgClient(server.url, (client) =>
      client.query(`drop database if exists "${name}" with (force)`),
    );
  }
  return points;
}

const machine = machineInfo();
const settings: PgSettingsResults['settings'] = {
  products: PRODUCTS,
  seconds: SECONDS,
  warmup_seconds: WARMUP_SECONDS,
  concurrency: CONCURRENCY,
  pool_sizes: POOL_SIZES,
  cluster: {},
};
let server: { url: string; dataDirectory?: string; stop(): Promise<void> } | null = null;
let skipped: string | undefined;
if (!args.postgres) {
  skipped = '--no-postgres';
} else {
  try {
    const { startPostgres } = await import('@cartwright/storage-conformance/postgres-server');
    server = await startPostgres({ durable: true });
  } catch (error) {
    skipped = `could not start a PostgreSQL cluster: ${(error as Error).message}`;
  }
}
if (!server) {
  console.log(`postgres settings: SKIPPED — ${skipped}`);
  saveResults(args, 'pg-settings', { machine, short: args.short, skipped, settings, points: [] });
} else {
  const points: PgSettingsPoint[] = [];
  try {
    const cluster = server;
    const version = await withPgClient(cluster.url, async (client) => {
      for (const name of ['fsync', 'full_page_writes', 'synchronous_commit', 'wal_sync_method']) {
        const result = await client.query<Record<string, string>>(`show ${name}`);
        settings.cluster[name] = result.rows[0]?.[name] ?? '?';
      }
      const result = await client.query<{ server_version: string }>('show server_version');
      return `PostgreSQL ${result.rows[0]?.server_version ?? '?'}`;
    });
    machine.postgres = version;
    printMachine(machine);
    console.log(
      `\npostgres settings: ${fmt(PRODUCTS)} products, ${SECONDS} s per point${args.short ? ' (short)' : ''}; cluster ${Object.entries(
        settings.cluster,
      )
        .map(([name, value]) => `${name}=${value}`)
        .join(', ')}`,
    );
    const template = `cartwright_settings_${Date.now().toString(36)}`;
    await withPgClient(cluster.url, (client) => client.query(`create database "${template}"`));
    console.log(`\n== seeding ${fmt(PRODUCTS)} products`);
    const fixture = await seed(databaseUrl(cluster.url, template));
    let index = 0;
    for (const poolMax of POOL_SIZES) {
      for (const synchronousCommit of SYNCHRONOUS_COMMIT) {
        points.push(
          ...(await measureSetting(cluster, template, fixture, synchronousCommit, poolMax, index++)),
        );
      }
    }
  } finally {
    await server.stop();
  }
  saveResults(args, 'pg-settings', {
    machine,
    short: args.short,
    settings,
    points,
  } satisfies PgSettingsResults);
}
