/**
 * Storefront lists in a region at scale (issue 40, decisions §19): over 100,000 products, the
 * storefront list with `price_min`/`price_max`/`sort=price` in a region (prices from
 * `region_product_prices`, migration 0031) against the same list in the store currency (on
 * `products.price`), on SQLite (memory), PostgreSQL and MariaDB. The requirement: within 2×.
 * Also: how long `refreshRegionProductPrices` of a whole region takes (a rate change or a region
 * created pays it), and the plan each engine picks for the region statements (EXPLAIN).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/region-bench.ts [--short]
 *     [--no-postgres] [--engines sqlite,postgres,mariadb] [--products 100000]
 *
 * Regions: `EUR` (converted at a rate: USD → EUR 0.92) and `GBP` (a rate USD → GBP 0.79, and
 * explicit region prices on the first variant of one product in ten). Seeding as the relevance
 * bench (SQLite through the port; PostgreSQL and MariaDB 1,000 through the port, the rest cloned
 * in SQL with their variants, then ANALYZE); the regions and rates through the engine (which
 * refreshes the region's rows), the GBP region prices in one transaction through the port, then
 * one refresh of that region.
 *
 * Each probe calls `engine.products.listStorefront` (the object path: no page cache) for
 * `SECONDS`, in `ROUNDS` rounds alternating the order; the figure is the median over rounds of
 * the mean latency.
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import {
  type EngineInternals as Engine,
  engineInternals,
  refreshRegionProductPrices,
} from '@cartwright/core/internal';
import { StorefrontProductListQuerySchema } from '@cartwright/core/schemas';
import type { RegionPriceRecord } from '@cartwright/core/storage';
import { TABLE_COLUMNS } from '@cartwright/storage-kysely';
import { NAME_WORDS } from './fixture/catalog';
import { growPostgresCatalog, PORT_SEEDED_ON_POSTGRES } from './fixture/postgres-catalog';
import { type Fixture, seedFixture } from './fixture/seed';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { measure } from './lib/measure';
import { acquirePostgres } from './lib/postgres';
import { saveResults } from './lib/results';
import { fmt } from './lib/stats';

function ownFlags(argv: string[]): { rest: string[]; engines?: string[]; products?: number } {
  const rest: string[] = [];
  const out: { engines?: string[]; products?: number } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.split('=', 2) as [string, string | undefined];
    if (name !== '--engines' && name !== '--products') {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (!value) throw new Error(`${name} needs a value`);
    if (name === '--engines') out.engines = value.split(',');
    else out.products = Number(value);
  }
  return { rest, ...out };
}

const own = ownFlags(process.argv.slice(2));
const args = parseArgs(own.rest);
const PRODUCTS = own.products ?? sized(args, 100_000, 2_000);
const ENGINES = own.engines ?? ['sqlite', 'postgres', 'mariadb'];
const ROUNDS = sized(args, 3, 1);
const SECONDS = sized(args, 1.5, 0.2);

/** The list queries compared (bounds in the answering currency's minor units). */
const QUERIES: Array<{ name: string; query: Record<string, string> }> = [
  { name: 'sort=price asc', query: { sort: 'price', order: 'asc' } },
  { name: 'sort=price desc', query: { sort: 'price', order: 'desc' } },
  { name: 'price_min=5000&price_max=6000', query: { price_min: '5000', price_max: '6000' } },
  {
    name: 'price_min/max + sort=price asc',
    query: { price_min: '5000', price_max: '6000', sort: 'price', order: 'asc' },
  },
  { name: 'price_max=1000 (1 in 40)', query: { price_max: '1000' } },
];

interface Probe {
  query: string;
  region: string;
  store_ms: number;
  region_ms: number;
  ratio: number;
  page2_store_ms: number;
  page2_region_ms: number;
  ratio_page2: number;
}

interface EngineResult {
  engine: string;
  products: number;
  seed_seconds: number;
  refresh_region_ms: number;
  rate_change_ms: number;
  region_create_ms: number;
  probes: Probe[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** The storage's Kysely instance, as far as this script uses it (the bench does not depend on kysely). */
interface RawDb {
  executeQuery(query: {
    sql: string;
    parameters: readonly unknown[];
    query: unknown;
    queryId: unknown;
  }): Promise<{
    rows: unknown[];
  }>;
}

/** Runs SQL text (no parameters: the values are this script's own). */
async function raw<T>(db: RawDb, text: string): Promise<T[]> {
  const query = { kind: 'RawNode', sqlFragments: [text], parameters: [] };
  return (await db.executeQuery({ sql: text, parameters: [], query, queryId: { queryId: 'bench' } }))
    .rows as T[];
}

/**
 * Grows a seeded MariaDB store to `total` products by cloning its first product's row, document
 * and variants (`seq_<from>_to_<to>`, MariaDB's Sequence engine), priced as the PostgreSQL clones
 * (`500 + n × 7919 mod 20000`, +100 per variant position), so that price filters and sorts see
 * the same spread of prices.
 */
async function growMariadbCatalog(db: RawDb, fixture: Fixture, total: number): Promise<Fixture> {
  const { scope } = fixture;
  const where = `store_id = '${scope.store_id}' and mode = '${scope.mode}'`;
  const template = await raw<{ id: string }>(
    db,
    `select id from products where ${where} order by id limit 1`,
  );
  const templateId = template[0]?.id as string;
  const words = NAME_WORDS.map((word) => `'${word}'`).join(', ');
  const name = `concat('bulk ', elt(1 + g.seq % ${NAME_WORDS.length}, ${words}), ' ', g.seq)`;
  const pid = "concat('prod_bench', lpad(g.seq, 10, '0'))";
  const price = '(500 + (g.seq * 7919) % 20000)';
  const series = `seq_${fixture.productCount}_to_${total - 1}`;
  const clone = async (
    table: 'products' | 'product_documents' | 'product_variants',
    key: string,
    extra: Record<string, string>,
  ) => {
    const columns = TABLE_COLUMNS[table] as readonly string[];
    const select = columns.map((column) => extra[column] ?? `t.${column}`).join(', ');
    await raw(
      db,
      `insert into ${table} (${columns.join(', ')}) select ${select} from ${table} t join ${series} g where t.store_id = '${scope.store_id}' and t.mode = '${scope.mode}' and t.${key} = '${templateId}'`,
    );
  };
  await clone('products', 'id', {
    id: pid,
    name,
    name_lower: `lower(${name})`,
    name_words: `concat(char(1 using utf8mb4), replace(lower(${name}), ' ', concat(' ', char(1 using utf8mb4))))`,
    slug: `concat('bulk-', g.seq)`,
    price,
    created_at: 't.created_at + g.seq',
    updated_at: 't.created_at + g.seq',
  });
  await clone('product_documents', 'product_id', { product_id: pid });
  await clone('product_variants', 'product_id', {
    id: "concat('var_bench', lpad(g.seq, 10, '0'), '_', t.position)",
    product_id: pid,
    sku: "concat('BULK-', g.seq, '-', t.position)",
    price: `${price} + t.position * 100`,
  });
  await raw(db, 'analyze table products, product_documents, product_variants');
  return { ...fixture, productCount: total };
}

/** The plan of a statement, one line per step. */
async function explain(db: RawDb, dialect: string, text: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const rows = await raw<{ detail: string }>(db, `explain query plan ${text}`);
    return rows.map((row) => row.detail);
  }
  if (dialect === 'postgres') {
    const rows = await raw<{ 'QUERY PLAN': string }>(db, `explain ${text}`);
    return rows.map((row) => row['QUERY PLAN']);
  }
  const rows = await raw<Record<string, unknown>>(db, `explain ${text}`);
  return rows.map(
    (row) => `${row.table} type=${row.type} key=${row.key} rows=${row.rows} extra=${row.Extra}`,
  );
}

async function printPlans(engine: Engine, dialect: string, fixture: Fixture, regionId: string) {
  const db = (engine.storage as unknown as { db: RawDb }).db;
  const scope = `p.store_id = '${fixture.scope.store_id}' and p.mode = '${fixture.scope.mode}' and p.deleted_at is null and p.status = 'active'`;
  const asc = dialect === 'mysql' ? 'rp.price_asc_key' : 'coalesce(rp.price, 9007199254740991)';
  const join = `inner join region_product_prices rp on rp.store_id = p.store_id and rp.mode = p.mode and rp.product_id = p.id and rp.region_id = '${regionId}'`;
  const statements: Array<[string, string]> = [
    [
      'store sort=price asc',
      `select p.id from products p where ${scope} order by coalesce(p.price, 9007199254740991) asc, p.id asc limit 21`,
    ],
    [
      'region sort=price asc',
      dialect === 'mysql'
        ? `select straight_join p.id from region_product_prices rp inner join products p on p.store_id = rp.store_id and p.mode = rp.mode and p.id = rp.product_id where rp.store_id = '${fixture.scope.store_id}' and rp.mode = '${fixture.scope.mode}' and rp.region_id = '${regionId}' and ${scope} order by ${asc} asc, rp.product_id asc limit 21`
        : `select p.id from products p ${join} where ${scope} order by ${asc} asc, rp.product_id asc limit 21`,
    ],
    [
      'store price_min/max, created_at desc',
      `select p.id from products p where ${scope} and p.price >= 5000 and p.price <= 6000 order by p.created_at desc, p.id desc limit 21`,
    ],
    [
      'region price_min/max, created_at desc (exists)',
      `select p.id from products p where ${scope} and exists (select 1 from region_product_prices rp where rp.store_id = p.store_id and rp.mode = p.mode and rp.region_id = '${regionId}' and rp.product_id = p.id and rp.price >= 5000 and rp.price <= 6000) order by p.created_at desc, p.id desc limit 21`,
    ],
    [
      'region price_min/max + sort=price',
      `select p.id from products p ${join} where ${scope} and rp.price is not null and ${asc} >= 5000 and ${asc} <= 6000 order by ${asc} asc, rp.product_id asc limit 21`,
    ],
  ];
  for (const [name, text] of statements) {
    console.log(`  plan: ${name}`);
    for (const line of await explain(db, dialect, text)) console.log(`    ${line}`);
  }
}

async function probeEngine(engine: Engine, fixture: Fixture, regions: Array<{ name: string; id: string }>) {
  const probes: Probe[] = [];
  const list = (query: Record<string, string>) =>
    engine.products.listStorefront(
      fixture.scope,
      StorefrontProductListQuerySchema.parse({ limit: '20', ...query }),
    );
  for (const region of regions) {
    for (const { name, query } of QUERIES) {
      const inRegion = { ...query, region_id: region.id };
      const storeFirst = await list(query);
      const regionFirst = await list(inRegion);
      const storePage2 = { ...query, starting_after: storeFirst.data.at(-1)?.id ?? '' };
      const regionPage2 = { ...inRegion, starting_after: regionFirst.data.at(-1)?.id ?? '' };
      const probesOf: Array<[string, Record<string, string>]> = [
        ['store', query],
        ['region', inRegion],
        ['store2', storePage2],
        ['region2', regionPage2],
      ];
      const times: Record<string, number[]> = { store: [], region: [], store2: [], region2: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 1 ? [...probesOf].reverse() : probesOf;
        for (const [key, q] of order) {
          const m = await measure(SECONDS, () => list(q));
          times[key]?.push(m.latency.mean);
        }
      }
      const probe: Probe = {
        query: name,
        region: region.name,
        store_ms: median(times.store as number[]),
        region_ms: median(times.region as number[]),
        ratio: median(times.region as number[]) / median(times.store as number[]),
        page2_store_ms: median(times.store2 as number[]),
        page2_region_ms: median(times.region2 as number[]),
        ratio_page2: median(times.region2 as number[]) / median(times.store2 as number[]),
      };
      console.log(
        `  ${region.name.padEnd(4)} ${name.padEnd(32)} matches ${fmt(regionFirst.total_count).padStart(7)} (store ${fmt(storeFirst.total_count).padStart(7)}) | page 1: store ${probe.store_ms.toFixed(2).padStart(6)} ms, region ${probe.region_ms.toFixed(2).padStart(6)} ms (×${probe.ratio.toFixed(2)}) | keyset page: store ${probe.page2_store_ms.toFixed(2).padStart(6)} ms, region ${probe.page2_region_ms.toFixed(2).padStart(6)} ms (×${probe.ratio_page2.toFixed(2)})`,
      );
      probes.push(probe);
    }
  }
  return probes;
}

async function run(
  name: string,
  dialect: string,
  databaseUrl: string,
  grow?: (fixture: Fixture, engine: Engine) => Promise<Fixture>,
): Promise<EngineResult> {
  const started = performance.now();
  const engine = engineInternals(
    await createEngine({ storage: await openStorage(databaseUrl), crypto: nodeCrypto }),
  );
  try {
    let fixture = await seedFixture(engine, {
      products: grow ? Math.min(PORT_SEEDED_ON_POSTGRES, PRODUCTS) : PRODUCTS,
    });
    if (grow) fixture = await grow(fixture, engine);
    const seed_seconds = (performance.now() - started) / 1000;
    console.log(
      `\n== ${name}: ${fmt(fixture.productCount)} products (seeded in ${seed_seconds.toFixed(0)} s)`,
    );
    const store = engine.forStore(fixture.scope);

    // The EUR region: created (its rows refreshed: null without a rate), then the rate (refreshed again).
    let t0 = performance.now();
    const eur = await store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    const region_create_ms = performance.now() - t0;
    t0 = performance.now();
    await store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 0.92 });
    const rate_change_ms = performance.now() - t0;
    // The GBP region: a rate, and explicit prices on one product in ten (first variant).
    const gbp = await store.regions.create({ name: 'United Kingdom', code: 'uk', currency: 'GBP' });
    await store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'GBP', rate: 0.79 });
    const variants: Array<{ id: string; product_id: string }> = [];
    await engine.storage.read(async (r) => {
      let after: string | null = null;
      for (;;) {
        const page = await r.products.pricedVariants(fixture.scope, { after, limit: 5000 });
        if (page.length === 0) break;
        page.forEach((product, i) => {
          const first = product.variants[0];
          if (first && i % 10 === 0) variants.push({ id: first.id, product_id: product.product_id });
        });
        after = page.at(-1)?.product_id ?? null;
      }
    });
    const now = Date.now();
    await engine.storage.transaction(async (tx) => {
      for (const [i, variant] of variants.entries()) {
        const record: RegionPriceRecord = {
          store_id: fixture.scope.store_id,
          mode: fixture.scope.mode,
          id: `rprice_bench${String(i).padStart(8, '0')}`,
          region_id: gbp.id,
          variant_id: variant.id,
          product_id: variant.product_id,
          price: 400 + ((i * 7919) % 15_000),
          compare_at_price: null,
          created_at: now,
          updated_at: now,
        };
        await tx.regions.upsertPrice(record);
      }
    });
    t0 = performance.now();
    await engine.storage.transaction((tx) =>
      refreshRegionProductPrices(tx, fixture.scope, { region_ids: [gbp.id] }),
    );
    const refresh_region_ms = performance.now() - t0;
    console.log(
      `  refreshRegionProductPrices of one region (${fmt(fixture.productCount)} products): ${(refresh_region_ms / 1000).toFixed(2)} s | region created: ${(region_create_ms / 1000).toFixed(2)} s | rate upserted: ${(rate_change_ms / 1000).toFixed(2)} s | GBP region prices: ${fmt(variants.length)}`,
    );
    await printPlans(engine, dialect, fixture, gbp.id);
    return {
      engine: name,
      products: fixture.productCount,
      seed_seconds,
      refresh_region_ms,
      rate_change_ms,
      region_create_ms,
      probes: await probeEngine(engine, fixture, [
        { name: 'EUR', id: eur.id },
        { name: 'GBP', id: gbp.id },
      ]),
    };
  } finally {
    await engine.close();
  }
}

const results: EngineResult[] = [];
const pg_ = ENGINES.includes('postgres') ? await acquirePostgres(args.postgres) : null;
const machine = machineInfo(pg_?.version ?? null);
printMachine(machine);
try {
  if (ENGINES.includes('sqlite')) results.push(await run('sqlite-memory', 'sqlite', ':memory:'));
  if (pg_) {
    const url = await pg_.newDatabase();
    results.push(
      await run('postgres', 'postgres', url, (fixture) => growPostgresCatalog(url, fixture, PRODUCTS)),
    );
  }
  if (ENGINES.includes('mariadb')) {
    const { startMariadb, createMariadbTestDatabase } = await import(
      '@cartwright/storage-conformance/mariadb-server'
    );
    let server: Awaited<ReturnType<typeof startMariadb>> | undefined;
    try {
      server = await startMariadb();
    } catch (error) {
      console.log(`mariadb: SKIPPED — ${(error as Error).message}`);
    }
    if (server) {
      try {
        results.push(
          await run('mariadb', 'mysql', await createMariadbTestDatabase(server.url), (fixture, engine) =>
            growMariadbCatalog((engine.storage as unknown as { db: RawDb }).db, fixture, PRODUCTS),
          ),
        );
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await pg_?.stop();
}
saveResults(args, 'regions', {
  machine,
  short: args.short,
  settings: { products: PRODUCTS, rounds: ROUNDS, seconds: SECONDS },
  results,
});
