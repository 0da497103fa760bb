/**
 * Catalog search at scale (issue 38, decisions §17): over 100,000 products, the storefront list
 * with `q` as it was before relevance (newest first) against the same `q` with `sort=relevance`
 * (and a keyset page of it), on SQLite (memory), PostgreSQL and MariaDB. The requirement: a
 * relevance page costs at most 2× the `q` page, on every engine.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/relevance-bench.ts [--short]
 *     [--no-postgres] [--engines sqlite,postgres,mariadb] [--products 100000]
 *
 * Seeding: SQLite through the storage port (fixture/seed.ts, 250 products per transaction);
 * PostgreSQL 1,000 through the port, the rest cloned in SQL (fixture/postgres-catalog.ts), then
 * ANALYZE; MariaDB 1,000 through the port, the rest cloned in SQL here (`growMariadbCatalog`:
 * product rows and their catalog documents, named as the PostgreSQL clones are), then ANALYZE. Names are `<adjective> <word> <n>`
 * (fixture/catalog.ts), so the searches cover a selective match in one tier (`lamp`: one product
 * in eight, all "starts a word"), two words, digits matching in two tiers (`123`), and a
 * one-letter search that matches most of the catalog in tiers 2 and 3 (`o`: the worst case for
 * ranking, every match sorted).
 *
 * Each probe calls `engine.products.listStorefront` (the object path: the query, the documents,
 * the wire objects; the storefront read model's page cache is NOT in the way) for `SECONDS`, in
 * `ROUNDS` rounds that alternate the order of the probes; per probe the median over rounds of the
 * mean latency and of the CPU per call (this process's, plus PostgreSQL's own processes' where
 * they can be read — lib/pg-cpu.ts; a shared, loaded machine moves latency far more than CPU),
 * and the ratios relevance / `q` of both.
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals } from '@cartwright/core/internal';
import { StorefrontProductListQuerySchema } from '@cartwright/core/schemas';
import { TABLE_COLUMNS } from '@cartwright/storage-kysely';
import { NAME_WORDS } from './fixture/catalog';
import { growPostgresCatalog, PORT_SEEDED_ON_POSTGRES } from './fixture/postgres-catalog';
import { type Fixture, seedFixture } from './fixture/seed';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { measure } from './lib/measure';
import { openPgCpu, type PgCpu } from './lib/pg-cpu';
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
const SECONDS = sized(args, 2, 0.2);

const SEARCHES = [
  { name: 'lamp (1 in 8, tier 2)', q: 'lamp' },
  { name: 'modern lamp (two words)', q: 'modern lamp' },
  { name: '123 (digits, tiers 2-3)', q: '123' },
  { name: 'o (most products, tiers 2-3)', q: 'o' },
] as const;

interface Probe {
  search: string;
  q: string;
  matches: number;
  /** Median over rounds of the mean latency, ms. */
  q_ms: number;
  relevance_ms: number;
  relevance_page2_ms: number;
  ratio: number;
  ratio_page2: number;
  /** Median over rounds of the CPU per call (this process + PostgreSQL's), ms. */
  q_cpu_ms: number;
  relevance_cpu_ms: number;
  relevance_page2_cpu_ms: number;
  cpu_ratio: number;
  cpu_ratio_page2: number;
}

interface EngineResult {
  engine: string;
  products: number;
  seed_seconds: number;
  probes: Probe[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function probeEngine(engine: Engine, fixture: Fixture, pgCpu: PgCpu | null): Promise<Probe[]> {
  const probes: Probe[] = [];
  const list = (query: Record<string, string>) =>
    engine.products.listStorefront(fixture.scope, StorefrontProductListQuerySchema.parse(query));
  for (const search of SEARCHES) {
    const plain = { q: search.q, limit: '20' };
    const relevance = { q: search.q, limit: '20', sort: 'relevance' };
    const first = await list(relevance);
    // A keyset page: after page 1's first product (so it is never empty when two products match).
    const page2 = { ...relevance, starting_after: first.data[0]?.id ?? '' };
    const byDate = await list(plain);
    if (byDate.total_count !== first.total_count)
      throw new Error('q and relevance lists disagree on the matches');
    const times: Record<'q' | 'relevance' | 'page2', number[]> = { q: [], relevance: [], page2: [] };
    const cpu: Record<'q' | 'relevance' | 'page2', number[]> = { q: [], relevance: [], page2: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Array<['q' | 'relevance' | 'page2', Record<string, string>]> = [
        ['q', plain],
        ['relevance', relevance],
        ['page2', page2],
      ];
      if (round % 2 === 1) order.reverse();
      for (const [key, query] of order) {
        const before = process.cpuUsage();
        const pgBefore = pgCpu?.sampleMs() ?? 0;
        const m = await measure(SECONDS, () => list(query));
        const used = process.cpuUsage(before);
        const pgMs = (pgCpu?.sampleMs() ?? 0) - pgBefore;
        times[key].push(m.latency.mean);
        cpu[key].push(((used.user + used.system) / 1000 + pgMs) / m.ops);
      }
    }
    const probe: Probe = {
      search: search.name,
      q: search.q,
      matches: first.total_count,
      q_ms: median(times.q),
      relevance_ms: median(times.relevance),
      relevance_page2_ms: median(times.page2),
      ratio: median(times.relevance) / median(times.q),
      ratio_page2: median(times.page2) / median(times.q),
      q_cpu_ms: median(cpu.q),
      relevance_cpu_ms: median(cpu.relevance),
      relevance_page2_cpu_ms: median(cpu.page2),
      cpu_ratio: median(cpu.relevance) / median(cpu.q),
      cpu_ratio_page2: median(cpu.page2) / median(cpu.q),
    };
    const cell = (value: number, ratio?: number) =>
      `${value.toFixed(2).padStart(7)}${ratio === undefined ? '        ' : ` (×${ratio.toFixed(2)})`}`;
    console.log(
      `  q=${search.q.padEnd(12)} ${fmt(probe.matches).padStart(7)} matches | latency ms: q ${cell(probe.q_ms)} relevance ${cell(probe.relevance_ms, probe.ratio)} keyset page ${cell(probe.relevance_page2_ms, probe.ratio_page2)} | cpu ms: q ${cell(probe.q_cpu_ms)} relevance ${cell(probe.relevance_cpu_ms, probe.cpu_ratio)} keyset page ${cell(probe.relevance_page2_cpu_ms, probe.cpu_ratio_page2)}`,
    );
    probes.push(probe);
  }
  return probes;
}

/**
 * Grows a seeded MariaDB store to `total` products by cloning its first product's row and catalog
 * document (`seq_<from>_to_<to>`, MariaDB's Sequence engine): names `bulk <word> <n>` with their
 * `name_lower` and `name_words` as the repository writes them (ASCII words and spaces), the
 * template's document (its variants' inventory is read for every clone, as for any product).
 */
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
  const overrides: Record<string, string> = {
    id: pid,
    name,
    name_lower: `lower(${name})`,
    name_words: `concat(char(1 using utf8mb4), replace(lower(${name}), ' ', concat(' ', char(1 using utf8mb4))))`,
    slug: `concat('bulk-', g.seq)`,
    created_at: 't.created_at + g.seq',
    updated_at: 't.created_at + g.seq',
  };
  const series = `seq_${fixture.productCount}_to_${total - 1}`;
  const clone = async (
    table: 'products' | 'product_documents',
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
  await clone('products', 'id', overrides);
  await clone('product_documents', 'product_id', { product_id: pid });
  await raw(db, 'analyze table products, product_documents');
  return { ...fixture, productCount: total };
}

async function run(
  name: string,
  databaseUrl: string,
  grow?: (fixture: Fixture, engine: Engine) => Promise<Fixture>,
) {
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
    const postgres = databaseUrl.startsWith('postgres');
    const pgCpu = postgres ? await openPgCpu(databaseUrl) : null;
    // SQLite runs in this process: its CPU is all of it. A server's is counted when readable.
    if (!pgCpu && databaseUrl !== ':memory:') {
      console.log("  (the database server's CPU is not readable: CPU figures are this process's only)");
    }
    return {
      engine: name,
      products: fixture.productCount,
      seed_seconds,
      probes: await probeEngine(engine, fixture, pgCpu),
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
  if (ENGINES.includes('sqlite')) results.push(await run('sqlite-memory', ':memory:'));
  if (pg_) {
    const url = await pg_.newDatabase();
    results.push(await run('postgres', url, (fixture) => growPostgresCatalog(url, fixture, PRODUCTS)));
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
          await run('mariadb', await createMariadbTestDatabase(server.url), (fixture, engine) =>
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
saveResults(args, 'relevance', {
  machine,
  short: args.short,
  settings: { products: PRODUCTS, rounds: ROUNDS, seconds: SECONDS },
  results,
});
