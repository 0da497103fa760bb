/**
 * One probe of `compare-bench.ts`, run inside the tree it measures: a server process of THAT tree
 * (SQLite memory — or a SQLite file (WAL) with `COMPARE_DATABASE=file` — seeded with the bench fixture), then one catalog window (`GET
 * /v1/storefront/products?limit=20`, 16 connections) and one storefront-flow window (8
 * connections), each after a warm-up of the same kind (`COMPARE_WARMUP` seconds, default 5,
 * as the HTTP benchmark's: the first seconds of a fresh server are not its steady state). Prints one JSON line: requests/s and server CPU µs per
 * request for the catalog, orders/s and server CPU ms per order for the flow.
 *
 * With `COMPARE_DATABASE=postgres` and `COMPARE_PG_URL` (a PostgreSQL server's URL, given by
 * compare-bench), the server runs on a fresh database of that server, seeded as the HTTP
 * benchmark seeds it (1,000 products through the tree's own storage port, the rest cloned in SQL:
 * fixture/postgres-catalog.ts), dropped at the end; the probe then also reports PostgreSQL's own
 * CPU per order (lib/pg-cpu.ts) and round trips and statements per order (the storage's
 * `stats()` where the tree has it, else the driver-level counter: one round trip per statement).
 *
 * It uses only bench APIs that exist since the HTTP benchmark's session-4 form
 * (`startServerProcess`, `runGet`, `runFlow`, `cpuMicros`; PostgreSQL: `seedFixture` and
 * `growPostgresCatalog`), so compare-bench can copy it (with server-process.ts, lib/pg-cpu.ts and
 * lib/query-counter.ts) into an older tree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { growPostgresCatalog } from '../fixture/postgres-catalog';
import { seedFixture } from '../fixture/seed';
import { runFlow, runGet } from '../http/load';
import { cpuMicros, type ServerStats, startServerProcess } from '../http/server-handle';
import { openPgCpu } from '../lib/pg-cpu';
import { withPgClient } from '../lib/postgres';
import { COUNT_STATEMENTS_ENV, type StorageTraffic, trafficBetween } from '../lib/query-counter';

const seconds = Number(process.env.COMPARE_SECONDS ?? 5);
const warmup = Number(process.env.COMPARE_WARMUP ?? 5);
const products = Number(process.env.COMPARE_PRODUCTS ?? 10_000);
const database = process.env.COMPARE_DATABASE ?? 'memory';
/** `COMPARE_DATABASE=file`: a SQLite file (WAL) in a temporary directory instead of memory. */
const fileDirectory = database === 'file' ? mkdtempSync(join(tmpdir(), 'cartwright-probe-')) : undefined;
/** `COMPARE_DATABASE=postgres`: a fresh database on the server of `COMPARE_PG_URL`. */
const postgresUrl = database === 'postgres' ? await createDatabase(process.env.COMPARE_PG_URL) : undefined;
const databaseUrl = postgresUrl ?? (fileDirectory ? join(fileDirectory, 'probe.db') : ':memory:');

async function createDatabase(serverUrl: string | undefined): Promise<string> {
  if (!serverUrl) throw new Error('COMPARE_DATABASE=postgres needs COMPARE_PG_URL (compare-bench sets it)');
  const name = `cartwright_probe_${Date.now().toString(36)}_${process.pid}`;
  await withPgClient(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** PostgreSQL: seeded here, as the HTTP benchmark does (the server then attaches to it). */
async function seedPostgres(url: string) {
  const engine = engineInternals(await createEngine({ storage: await openStorage(url), crypto: nodeCrypto }));
  try {
    const seeded = await seedFixture(engine, { products: Math.min(products, 1_000) });
    return await growPostgresCatalog(url, seeded, products);
  } finally {
    await engine.close();
  }
}

// The server counts its statements where its storage does not (an older PostgresStorage, SQLite).
process.env[COUNT_STATEMENTS_ENV] = '1';
const seededHere = postgresUrl ? await seedPostgres(postgresUrl) : null;
const server = await startServerProcess({
  kind: 'engine',
  databaseUrl,
  seedProducts: seededHere ? 0 : products,
});
const fixture = seededHere ?? server.fixture;
if (!fixture) throw new Error('the server did not seed its fixture');
const pgCpu = postgresUrl ? await openPgCpu(postgresUrl) : null;
const headers = { authorization: `Bearer ${fixture.publishableKey}` };
const flowFixture = {
  publishableKey: fixture.publishableKey,
  shippingMethodId: fixture.shippingMethodId,
  variantIds: fixture.variantIds,
};
const path = '/v1/storefront/products?limit=20';
try {
  await runGet({ urls: [server.url], path, connections: 16, seconds: warmup, headers });
  await server.settle();
  let before = await server.stats();
  const catalog = await runGet({ urls: [server.url], path, connections: 16, seconds, headers });
  let after = await server.stats();
  const catalogCpu = cpuMicros(before, after) / catalog.requests;

  await runFlow({ urls: [server.url], connections: 8, seconds: warmup, fixture: flowFixture });
  await server.settle();
  const pgBefore = pgCpu?.sampleMs() ?? Number.NaN;
  before = await server.stats();
  const flow = await runFlow({ urls: [server.url], connections: 8, seconds, fixture: flowFixture });
  after = await server.stats();
  const pgCpuMs = (pgCpu?.sampleMs() ?? Number.NaN) - pgBefore;
  const flowCpu = cpuMicros(before, after) / 1000 / flow.flows;
  const traffic = trafficBetween(
    before as ServerStats & { storage?: StorageTraffic | null },
    after as ServerStats & { storage?: StorageTraffic | null },
  );

  console.log(
    `PROBE ${JSON.stringify({
      catalog_rps: catalog.requests_per_second,
      catalog_cpu_us: catalogCpu,
      catalog_p99_ms: catalog.latency.p99,
      flow_ops: flow.flows_per_second,
      flow_cpu_ms: flowCpu,
      flow_pg_cpu_ms: Number.isFinite(pgCpuMs) ? pgCpuMs / flow.flows : null,
      flow_round_trips: traffic ? traffic.round_trips / flow.flows : null,
      flow_statements: traffic ? traffic.statements / flow.flows : null,
      failed_flows: flow.failed_flows,
    })}`,
  );
} finally {
  await server.exit();
  if (fileDirectory) rmSync(fileDirectory, { recursive: true, force: true });
  if (postgresUrl && process.env.COMPARE_PG_URL) {
    const name = new URL(postgresUrl).pathname.slice(1);
    await withPgClient(process.env.COMPARE_PG_URL, (client) =>
      client.query(`drop database if exists "${name}" with (force)`),
    );
  }
}
process.exit(0);
