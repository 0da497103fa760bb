/**
 * The category tree at scale (issue 38, decisions §17): a store with 2,000 categories (20 roots ×
 * 9 children × 10 grandchildren, 3 levels) and 100,000 products, each product in one
 * grandchild category. The requirement: `GET /v1/storefront/categories` (the whole tree, one
 * request) answers in under 10 ms on SQLite.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/category-tree-bench.ts [--short]
 *     [--no-postgres] [--engines sqlite,postgres] [--products 100000]
 *
 * Probes (object path, `engine.forStore(scope)`; no HTTP):
 * - `categories.listStorefront()`: the whole tree (the prepared JSON the last category write
 *   stored: one primary-key read, then parsed into objects);
 * - `categories.getStorefrontBySlug(root)`: one root with its 100 descendants (the same read);
 * - `products.listStorefront({ category_id: root })`: the first page of a root's products (its
 *   100 descendants' 5,000 products), against the same list without `category_id`.
 *
 * Seeding: products as the other catalog benches (fixture/seed.ts; PostgreSQL: 1,000 through the
 * port, the rest cloned in SQL, then ANALYZE); categories through the storage port in one
 * transaction; memberships through the port on SQLite (500 products per transaction) and in SQL
 * on PostgreSQL.
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals } from '@cartwright/core/internal';
import type { CategoryRecord } from '@cartwright/core/storage';
import pg from 'pg';
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
const ENGINES = own.engines ?? ['sqlite', 'postgres'];
const SECONDS = sized(args, 3, 0.3);
const ROOTS = 20;
const CHILDREN = 9;
const GRANDCHILDREN = 10;

interface Probe {
  name: string;
  mean_ms: number;
  p99_ms: number;
  per_second: number;
}

interface EngineResult {
  engine: string;
  products: number;
  categories: number;
  seed_seconds: number;
  probes: Probe[];
}

/** 20 roots, 9 children each, 10 grandchildren each: 2,000 categories; returns them and the leaves. */
function categoryTree(fixture: Fixture): {
  records: CategoryRecord[];
  leaves: string[];
  roots: CategoryRecord[];
} {
  const records: CategoryRecord[] = [];
  const leaves: string[] = [];
  const roots: CategoryRecord[] = [];
  const at = Date.now();
  let n = 0;
  const make = (name: string, parent_id: string | null, position: number): CategoryRecord => {
    n++;
    const record: CategoryRecord = {
      id: `cat_bench${String(n).padStart(6, '0')}`,
      store_id: fixture.scope.store_id,
      mode: fixture.scope.mode,
      parent_id,
      name,
      slug: `bench-${n}`,
      description: n % 3 === 0 ? `Category ${n}` : null,
      position,
      metadata: {},
      created_at: at + n,
      updated_at: at + n,
    };
    records.push(record);
    return record;
  };
  for (let r = 0; r < ROOTS; r++) {
    const root = make(`Department ${r}`, null, r);
    roots.push(root);
    for (let c = 0; c < CHILDREN; c++) {
      const child = make(`Aisle ${r}.${c}`, root.id, c);
      for (let g = 0; g < GRANDCHILDREN; g++) leaves.push(make(`Shelf ${r}.${c}.${g}`, child.id, g).id);
    }
  }
  return { records, leaves, roots };
}

async function seedCategories(engine: Engine, records: CategoryRecord[]) {
  await engine.storage.transaction(async (tx) => {
    for (const record of records) await tx.categories.insert(record);
  });
  // The storefront tree is stored by the category writes of the API: one (an update of the
  // first root that changes nothing) builds it, as a merchant's next edit would.
  const first = records[0]!;
  const store = engine.forStore({ store_id: first.store_id, mode: first.mode });
  await store.categories.update(first.id, { position: first.position });
}

/** Each product in one leaf, round robin, through the port (SQLite). */
async function assignThroughPort(engine: Engine, fixture: Fixture, leaves: string[]) {
  let after: string | undefined;
  let i = 0;
  for (;;) {
    const page = await engine.storage.read((r) =>
      r.products.list(
        fixture.scope,
        {},
        { limit: 500, starting_after: after, sort: 'created_at', order: 'desc' },
      ),
    );
    await engine.storage.transaction(async (tx) => {
      for (const product of page.data) {
        await tx.products.update(fixture.scope, product.id, {
          category_ids: [leaves[i++ % leaves.length] as string],
          updated_at: product.updated_at,
        });
      }
    });
    if (!page.has_more) return;
    after = page.next_cursor ?? undefined;
  }
}

/** Each product in one leaf, in SQL (PostgreSQL: the catalog is cloned in SQL too). */
async function assignInSql(url: string, fixture: Fixture, leaves: string[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `with numbered as (
         select id, (row_number() over (order by id) - 1) % $3 as leaf from products where store_id = $1 and mode = $2
       ), chosen as (
         select n.id, (($4::text[])[n.leaf + 1]) as category_id from numbered n
       ), updated as (
         update products p set category_ids = jsonb_build_array(c.category_id) from chosen c
         where p.store_id = $1 and p.mode = $2 and p.id = c.id returning p.id, c.category_id
       )
       insert into product_categories (store_id, mode, product_id, category_id, position)
       select $1, $2, id, category_id, 0 from updated`,
      [fixture.scope.store_id, fixture.scope.mode, leaves.length, leaves],
    );
    await client.query('commit');
    await client.query('analyze product_categories');
    await client.query('analyze categories');
  } finally {
    await client.end();
  }
}

async function probe(name: string, op: () => Promise<unknown>): Promise<Probe> {
  await op();
  const m = await measure(SECONDS, op);
  const result: Probe = {
    name,
    mean_ms: m.latency.mean,
    p99_ms: m.latency.p99,
    per_second: m.per_second,
  };
  console.log(
    `  ${name.padEnd(58)} mean ${result.mean_ms.toFixed(3).padStart(8)} ms   p99 ${result.p99_ms.toFixed(3).padStart(8)} ms   ${fmt(Math.round(result.per_second)).padStart(7)}/s`,
  );
  return result;
}

async function run(
  name: string,
  databaseUrl: string,
  grow?: (fixture: Fixture) => Promise<Fixture>,
  assignSql?: (fixture: Fixture, leaves: string[]) => Promise<void>,
): Promise<EngineResult> {
  const started = performance.now();
  const engine = engineInternals(
    await createEngine({ storage: await openStorage(databaseUrl), crypto: nodeCrypto }),
  );
  try {
    let fixture = await seedFixture(engine, {
      products: grow ? Math.min(PORT_SEEDED_ON_POSTGRES, PRODUCTS) : PRODUCTS,
    });
    if (grow) fixture = await grow(fixture);
    const { records, leaves, roots } = categoryTree(fixture);
    await seedCategories(engine, records);
    if (assignSql) await assignSql(fixture, leaves);
    else await assignThroughPort(engine, fixture, leaves);
    const seed_seconds = (performance.now() - started) / 1000;
    console.log(
      `\n== ${name}: ${fmt(fixture.productCount)} products, ${fmt(records.length)} categories (seeded in ${seed_seconds.toFixed(0)} s)`,
    );
    const store = engine.forStore(fixture.scope);
    const tree = await store.categories.listStorefront();
    if (tree.data.length !== ROOTS) throw new Error(`expected ${ROOTS} roots, got ${tree.data.length}`);
    const root = roots[0] as CategoryRecord;
    const inRoot = await store.products.listStorefront({ category_id: root.id, limit: 20 });
    // Leaves 0…89 are the first root's; products go to leaves round robin.
    const leavesPerRoot = CHILDREN * GRANDCHILDREN;
    let expected = 0;
    for (let i = 0; i < leavesPerRoot; i++)
      expected += Math.max(0, Math.ceil((fixture.productCount - i) / leaves.length));
    if (inRoot.total_count !== expected)
      throw new Error(`expected ${expected} products in the first root, got ${inRoot.total_count}`);
    const probes = [
      await probe('GET /v1/storefront/categories (whole tree, 2,000)', () =>
        store.categories.listStorefront(),
      ),
      await probe('GET /v1/storefront/categories/by-slug/{root} (101)', () =>
        store.categories.getStorefrontBySlug(root.slug),
      ),
      await probe(`products.listStorefront category_id=root (${fmt(inRoot.total_count)} of them)`, () =>
        store.products.listStorefront({ category_id: root.id, limit: 20 }),
      ),
      await probe('products.listStorefront, no filter (same page size)', () =>
        store.products.listStorefront({ limit: 20 }),
      ),
    ];
    return { engine: name, products: fixture.productCount, categories: records.length, seed_seconds, probes };
  } finally {
    await engine.close();
  }
}

const results: EngineResult[] = [];
const pg_ = ENGINES.includes('postgres') ? await acquirePostgres(args.postgres) : null;
const machine = machineInfo(pg_?.version ?? null);
printMachine(machine);
try {
  if (ENGINES.includes('sqlite')) results.push(await run('sqlite-memory', ':memory:'));
  if (pg_) {
    const url = await pg_.newDatabase();
    results.push(
      await run(
        'postgres',
        url,
        (fixture) => growPostgresCatalog(url, fixture, PRODUCTS),
        (fixture, leaves) => assignInSql(url, fixture, leaves),
      ),
    );
  }
} finally {
  await pg_?.stop();
}
saveResults(args, 'category-tree', {
  machine,
  short: args.short,
  settings: {
    products: PRODUCTS,
    seconds: SECONDS,
    roots: ROOTS,
    children: CHILDREN,
    grandchildren: GRANDCHILDREN,
  },
  results,
});
