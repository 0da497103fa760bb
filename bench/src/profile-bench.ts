/**
 * CPU profiles of the hot paths, with the top functions by self time:
 * - the in-process checkout (engine services, no HTTP);
 * - the HTTP storefront flow (profile of the server process, load from this one);
 * - the HTTP catalog list (`GET /v1/storefront/products?limit=20`).
 * On SQLite memory and Postgres. Profiles cover the measured window only and are saved as
 * `.cpuprofile` files (open them in Chrome DevTools → Performance, or speedscope).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/profile-bench.ts [--short] [--no-postgres]
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { StorefrontProductListQuerySchema } from '@cartwright/core/schemas';
import { CHECKOUT_INPUT, GUEST, readyCart } from './fixture/carts';
import { CATALOG_QUERIES, queryObject } from './fixture/catalog-queries';
import { type Fixture, seedFixture } from './fixture/seed';
import { runFlow, runGet } from './http/load';
import { startServerProcess } from './http/server-handle';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { acquirePostgres } from './lib/postgres';
import { createRandom } from './lib/random';
import { resultsDir, saveResults } from './lib/results';
import { fmt } from './lib/stats';
import { postgresTarget, sqliteMemoryTarget, type Target } from './lib/targets';
import { type CpuProfile, profile, saveProfile } from './profile/cpu-profile';
import { type ProfileSummary, printSummary, summarize } from './profile/profile-summary';

const args = parseArgs();
const PRODUCTS = sized(args, 1_000, 200);
const CARTS = sized(args, 3_000, 60);
const SECONDS = sized(args, 15, 1);
const profilesDir = join(resultsDir(args), 'profiles');
mkdirSync(profilesDir, { recursive: true });

export interface ProfileEntry {
  name: string;
  target: Target['kind'];
  /** Orders or requests completed while profiling. */
  operations: number;
  file: string;
  summary: ProfileSummary;
}

function record(entries: ProfileEntry[], entry: Omit<ProfileEntry, 'summary'>, data: CpuProfile): void {
  const summary = summarize(data);
  printSummary(`${entry.name} on ${entry.target} (${fmt(entry.operations)} operations)`, summary);
  entries.push({ ...entry, summary });
}

async function profileInProcess(target: Target, entries: ProfileEntry[]): Promise<void> {
  const engine = engineInternals(
    await createEngine({ storage: await openStorage(target.databaseUrl), crypto: nodeCrypto }),
  );
  try {
    const fixture = await seedFixture(engine, { products: PRODUCTS });
    const random = createRandom(3);
    const carts: string[] = [];
    for (let i = 0; i < CARTS; i++) carts.push(await readyCart(engine, fixture, 3, random));
    const warm = Math.floor(CARTS / 10);
    for (const id of carts.slice(0, warm))
      await engine.checkout.checkout(fixture.scope, id, CHECKOUT_INPUT, GUEST);
    const { profile: data } = await profile(async () => {
      for (const id of carts.slice(warm))
        await engine.checkout.checkout(fixture.scope, id, CHECKOUT_INPUT, GUEST);
    });
    const file = join(profilesDir, `inprocess-checkout-${target.kind}.cpuprofile`);
    saveProfile(file, data);
    record(
      entries,
      { name: 'in-process checkout', target: target.kind, operations: CARTS - warm, file },
      data,
    );

    // The catalog list queries of the engine benchmark, in turn (keyset page after the 50th by name).
    const first = await engine.products.listStorefront(
      fixture.scope,
      StorefrontProductListQuerySchema.parse({ limit: '100', sort: 'name' }),
    );
    const after = first.data[50]?.id ?? '';
    const queries = CATALOG_QUERIES.map((entry) =>
      StorefrontProductListQuerySchema.parse(queryObject(entry.query, after)),
    );
    const lists = sized(args, 2_000, 40);
    for (let i = 0; i < lists / 10; i++)
      await engine.products.listStorefront(fixture.scope, queries[i % queries.length]!);
    const { profile: listData } = await profile(async () => {
      for (let i = 0; i < lists; i++)
        await engine.products.listStorefront(fixture.scope, queries[i % queries.length]!);
    });
    const listFile = join(profilesDir, `inprocess-catalog-${target.kind}.cpuprofile`);
    saveProfile(listFile, listData);
    record(
      entries,
      { name: 'in-process catalog list (mix)', target: target.kind, operations: lists, file: listFile },
      listData,
    );
  } finally {
    await engine.close();
  }
}

async function profileHttp(target: Target, entries: ProfileEntry[]): Promise<void> {
  const server = await startServerProcess({
    kind: 'engine',
    databaseUrl: target.databaseUrl,
    seedProducts: PRODUCTS,
    profiling: true,
  });
  try {
    const seeded = server.fixture as Fixture;
    const fixture = {
      publishableKey: seeded.publishableKey,
      shippingMethodId: seeded.shippingMethodId,
      variantIds: seeded.variantIds,
    };
    const headers = { authorization: `Bearer ${seeded.publishableKey}` };
    const path = '/v1/storefront/products?limit=20';
    await runFlow({ urls: [server.url], connections: 8, seconds: sized(args, 5, 0.5), fixture });
    await runGet({ urls: [server.url], path, connections: 8, seconds: sized(args, 3, 0.5), headers });

    await server.settle();
    const flowFile = join(profilesDir, `http-flow-${target.kind}.cpuprofile`);
    await server.profileStart();
    const flow = await runFlow({ urls: [server.url], connections: 8, seconds: SECONDS, fixture });
    await server.profileStop(flowFile);
    const flowData = JSON.parse(readFileSync(flowFile, 'utf8')) as CpuProfile;
    record(
      entries,
      { name: 'HTTP storefront flow (server)', target: target.kind, operations: flow.flows, file: flowFile },
      flowData,
    );

    await server.settle();
    const listFile = join(profilesDir, `http-catalog-${target.kind}.cpuprofile`);
    await server.profileStart();
    const list = await runGet({ urls: [server.url], path, connections: 16, seconds: SECONDS, headers });
    await server.profileStop(listFile);
    const listData = JSON.parse(readFileSync(listFile, 'utf8')) as CpuProfile;
    record(
      entries,
      { name: 'HTTP catalog list (server)', target: target.kind, operations: list.requests, file: listFile },
      listData,
    );
  } finally {
    await server.exit();
  }
}

const pg = await acquirePostgres(args.postgres);
const machine = machineInfo(pg?.version ?? null);
printMachine(machine);
const entries: ProfileEntry[] = [];
try {
  const targets: Target[] = [sqliteMemoryTarget()];
  // The short mode only proves the profiling path works, on SQLite memory.
  if (pg && !args.short) targets.push(await postgresTarget(pg));
  for (const target of targets) {
    console.log(`\n== ${target.label}`);
    await profileInProcess(target, entries);
    // A fresh database for the server (the in-process run left its rows behind on Postgres).
    await profileHttp(target.kind === 'postgres' && pg ? await postgresTarget(pg) : target, entries);
  }
} finally {
  await pg?.stop();
}
saveResults(args, 'profile', {
  machine,
  short: args.short,
  settings: { products: PRODUCTS, carts: CARTS, seconds: SECONDS },
  entries,
});
