/**
 * One probe of `compare-bench.ts`, run inside the tree it measures: a server process of THAT tree
 * (SQLite memory — or a SQLite file (WAL) with `COMPARE_DATABASE=file` — seeded with the bench fixture), then one catalog window (`GET
 * /v1/storefront/products?limit=20`, 16 connections) and one storefront-flow window (8
 * connections), each after a warm-up of the same kind (`COMPARE_WARMUP` seconds, default 5,
 * as the HTTP benchmark's: the first seconds of a fresh server are not its steady state). Prints one JSON line: requests/s and server CPU µs per
 * request for the catalog, orders/s and server CPU ms per order for the flow.
 *
 * It uses only bench APIs that exist since the HTTP benchmark's session-4 form
 * (`startServerProcess`, `runGet`, `runFlow`, `cpuMicros`), so compare-bench can copy it into an
 * older tree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFlow, runGet } from '../http/load';
import { cpuMicros, startServerProcess } from '../http/server-handle';

const seconds = Number(process.env.COMPARE_SECONDS ?? 5);
const warmup = Number(process.env.COMPARE_WARMUP ?? 5);
const products = Number(process.env.COMPARE_PRODUCTS ?? 10_000);
/** `COMPARE_DATABASE=file`: a SQLite file (WAL) in a temporary directory instead of memory. */
const fileDirectory =
  process.env.COMPARE_DATABASE === 'file' ? mkdtempSync(join(tmpdir(), 'cartwright-probe-')) : undefined;
const databaseUrl = fileDirectory ? join(fileDirectory, 'probe.db') : ':memory:';

const server = await startServerProcess({ kind: 'engine', databaseUrl, seedProducts: products });
const fixture = server.fixture;
if (!fixture) throw new Error('the server did not seed its fixture');
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
  before = await server.stats();
  const flow = await runFlow({ urls: [server.url], connections: 8, seconds, fixture: flowFixture });
  after = await server.stats();
  const flowCpu = cpuMicros(before, after) / 1000 / flow.flows;

  console.log(
    `PROBE ${JSON.stringify({
      catalog_rps: catalog.requests_per_second,
      catalog_cpu_us: catalogCpu,
      catalog_p99_ms: catalog.latency.p99,
      flow_ops: flow.flows_per_second,
      flow_cpu_ms: flowCpu,
      failed_flows: flow.failed_flows,
    })}`,
  );
} finally {
  await server.exit();
  if (fileDirectory) rmSync(fileDirectory, { recursive: true, force: true });
}
process.exit(0);
