/**
 * Collection lists at scale (issue 38, decisions §17): a store with 100,000 products, a manual
 * collection of 250 of them (spread over the catalog) and automatic collections (a tag rule, a
 * price rule, both), on SQLite (memory) and PostgreSQL.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/collection-bench.ts [--short]
 *     [--no-postgres] [--engines sqlite,postgres] [--products 100000]
 *
 * Probes (object path, `engine.forStore(scope)`; no HTTP, no page cache):
 * - `products.listStorefront({ collection_id: manual })`: the first page in collection order, a
 *   page in the middle (`starting_after`: a position cursor), and the whole walk (13 pages of 20);
 * - `collections.getStorefront(manual)`: the storefront detail (its first 100 active products);
 * - `products.listStorefront({ collection_id: auto })`: the first page of a tag rule (one
 *   product in six), a price rule (representative price ≤ 10.00) and both (`all`), against the
 *   same page of today's `tag=` filter.
 *
 * Seeding: products as the other catalog benches (fixture/seed.ts; PostgreSQL: 1,000 through the
 * port, the rest cloned in SQL, then ANALYZE); collections through the engine.
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals } from '@cartwright/core/internal';
import { growPostgresCatalog, PORT_SEEDED_ON_POSTGRES } from './fixture/postgres-catalog';
import { type Fixture, seedFixture, spread } from './fixture/seed';
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
const MEMBERS = 250;

interface Probe {
  name: string;
  mean_ms: number;
  p99_ms: number;
  per_second: number;
}

interface EngineResult {
  engine: string;
  products: number;
  seed_seconds: number;
  probes: Probe[];
}

/** Every product id of the store, newest first (500 per read). */
async function allProductIds(engine: Engine, fixture: Fixture): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await engine.storage.read((r) =>
      r.products.list(
        fixture.scope,
        {},
        { limit: 500, starting_after: after, sort: 'created_at', order: 'desc' },
      ),
    );
    ids.push(...page.data.map((p) => p.id));
    if (!page.has_more) return ids;
    after = page.next_cursor ?? undefined;
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
    const store = engine.forStore(fixture.scope);
    // 250 members spread over the catalog, in a shuffled (not id) order.
    const members = spread(await allProductIds(engine, fixture), MEMBERS).sort((a, b) =>
      a.slice(-3) < b.slice(-3) ? -1 : 1,
    );
    const manual = await store.collections.create({ name: 'Bench picks', product_ids: members });
    const tagRule = await store.collections.create({
      name: 'Apparel',
      type: 'auto',
      rules: { conditions: [{ type: 'product_tag', operator: 'in', values: ['apparel'] }] },
    });
    const priceRule = await store.collections.create({
      name: 'Under 10',
      type: 'auto',
      rules: { conditions: [{ type: 'price', operator: 'lte', value: 1000 }] },
    });
    const both = await store.collections.create({
      name: 'Apparel under 10',
      type: 'auto',
      rules: {
        match: 'all',
        conditions: [
          { type: 'product_tag', operator: 'in', values: ['apparel'] },
          { type: 'price', operator: 'lte', value: 1000 },
        ],
      },
    });
    const seed_seconds = (performance.now() - started) / 1000;
    console.log(
      `\n== ${name}: ${fmt(fixture.productCount)} products (seeded in ${seed_seconds.toFixed(0)} s)`,
    );

    // Sanity: the manual list walks the members in order.
    const walk = async () => {
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.products.listStorefront({
          collection_id: manual.id,
          limit: 20,
          starting_after: after,
        });
        seen.push(...page.data.map((p) => p.id));
        if (!page.has_more) return seen;
        after = page.next_cursor ?? undefined;
      }
    };
    const walked = await walk();
    if (walked.join() !== members.join()) throw new Error('the manual collection did not list in its order');
    const middle = members[119] as string;
    const counts = await Promise.all(
      [tagRule, priceRule, both].map(
        async (c) => (await store.products.listStorefront({ collection_id: c.id })).total_count,
      ),
    );
    console.log(
      `  members: tag rule ${fmt(counts[0] ?? 0)}, price rule ${fmt(counts[1] ?? 0)}, both ${fmt(counts[2] ?? 0)}`,
    );
    const probes = [
      await probe(`manual (${MEMBERS}): first page of 20`, () =>
        store.products.listStorefront({ collection_id: manual.id, limit: 20 }),
      ),
      await probe('manual: page 7 of 13 (starting_after, position cursor)', () =>
        store.products.listStorefront({ collection_id: manual.id, limit: 20, starting_after: middle }),
      ),
      await probe('manual: the whole walk (13 pages)', walk),
      await probe('GET /v1/storefront/collections/{manual} (100 products)', () =>
        store.collections.getStorefront(manual.id),
      ),
      await probe(`auto tag rule (${fmt(counts[0] ?? 0)}): first page`, () =>
        store.products.listStorefront({ collection_id: tagRule.id, limit: 20 }),
      ),
      await probe("tag=apparel (today's filter): first page", () =>
        store.products.listStorefront({ tag: 'apparel', limit: 20 }),
      ),
      await probe(`auto price rule (${fmt(counts[1] ?? 0)}): first page`, () =>
        store.products.listStorefront({ collection_id: priceRule.id, limit: 20 }),
      ),
      await probe("price_max=1000 (today's filter): first page", () =>
        store.products.listStorefront({ price_max: 1000, limit: 20 }),
      ),
      await probe(`auto tag + price (${fmt(counts[2] ?? 0)}): first page`, () =>
        store.products.listStorefront({ collection_id: both.id, limit: 20 }),
      ),
      await probe('GET /v1/storefront/collections/{tag rule} (100 products)', () =>
        store.collections.getStorefront(tagRule.id),
      ),
    ];
    return { engine: name, products: fixture.productCount, seed_seconds, probes };
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
    results.push(await run('postgres', url, (fixture) => growPostgresCatalog(url, fixture, PRODUCTS)));
  }
} finally {
  await pg_?.stop();
}
saveResults(args, 'collections', {
  machine,
  short: args.short,
  settings: { products: PRODUCTS, seconds: SECONDS, members: MEMBERS },
  results,
});
