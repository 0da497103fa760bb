/**
 * Dashboard stats on a large history (decisions §23, issue 41: "under 50 ms on 1M orders on each
 * engine"): per engine (SQLite file, PostgreSQL, MariaDB), one order is placed, paid and partly
 * refunded through the engine, then cloned in SQL into `--orders N` orders (default 1,000,000)
 * spread over the last 365 days, each with its completed payment, every 20th with a completed
 * refund, 2 in 25 of the last 30 days' still open (pending or confirmed), so the rows keep the exact shape the
 * repositories write. Then `dashboard.stats` (period 7 and 30) is timed in process, warm.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/dashboard-bench.ts [--orders N] [--engines sqlite,postgres,mariadb] [--calls N] [--probe] [--explain]
 *
 * `--probe` times each read of a call on its own; `--explain` prints the plan of the revenue sum.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine, type Engine, type EngineOptions } from '@cartwright/core';
import { KyselyStorage, TABLE_COLUMNS } from '@cartwright/storage-kysely';
import { percentile } from './lib/stats';

type EngineName = 'sqlite' | 'postgres' | 'mariadb';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const ORDERS = Number(flag('orders', '1000000'));
const CALLS = Number(flag('calls', '30'));
const ENGINES = flag('engines', 'sqlite,postgres,mariadb').split(',') as EngineName[];
const CHUNK = 100_000;
const DAY = 86_400_000;

/** Runs one statement of raw SQL on the storage's Kysely (as kysely's `CompiledQuery.raw`). */
function raw(storage: KyselyStorage, text: string): Promise<unknown> {
  return storage.db.executeQuery({
    sql: text,
    parameters: [],
    query: { kind: 'RawNode', sqlFragments: [text], parameters: [] },
    queryId: { queryId: 'dashboard-bench' },
  } as never);
}

/** The SQL of each dialect the cloning needs: a number series, text from numbers, concatenation. */
const dialects = {
  sqlite: {
    series: (from: number, to: number) =>
      `with recursive g(n) as (select ${from} union all select n + 1 from g where n < ${to})`,
    seriesFrom: 'g',
    pad: (n: string) => `printf('%010d', ${n})`,
    concat: (...parts: string[]) => parts.join(' || '),
    cteFirst: true,
  },
  postgres: {
    series: (from: number, to: number) => `generate_series(${from}, ${to}) as g(n)`,
    seriesFrom: '',
    pad: (n: string) => `lpad(${n}::text, 10, '0')`,
    concat: (...parts: string[]) => parts.join(' || '),
    cteFirst: false,
  },
  mariadb: {
    series: (from: number, to: number) => `(select seq as n from seq_${from}_to_${to}) as g`,
    seriesFrom: '',
    pad: (n: string) => `lpad(${n}, 10, '0')`,
    concat: (...parts: string[]) => `concat(${parts.join(', ')})`,
    cteFirst: false,
  },
} as const;

async function openTarget(
  name: EngineName,
): Promise<{ storage: EngineOptions['storage']; close(): Promise<void> }> {
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-dashboard-bench-'));
    const { sqliteStorage } = await import('@cartwright/storage-kysely/sqlite');
    return {
      storage: sqliteStorage({ filename: join(dir, 'bench.db') }),
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (name === 'postgres') {
    const { startPostgres, createTestDatabase } = await import(
      '@cartwright/storage-conformance/postgres-server'
    );
    const server = await startPostgres();
    const url = await createTestDatabase(server.url);
    const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
    return { storage: postgresStorage({ connectionString: url, max: 10 }), close: () => server.stop() };
  }
  const { startMariadb, createMariadbTestDatabase } = await import(
    '@cartwright/storage-conformance/mariadb-server'
  );
  const server = await startMariadb();
  const url = await createMariadbTestDatabase(server.url);
  const { mysqlStorage } = await import('@cartwright/storage-kysely/mysql');
  return { storage: mysqlStorage({ connectionString: url, max: 10 }), close: () => server.stop() };
}

/** `insert into <table> (<every column>) select <override or t.column> from <table> t, <series> where t.id = <id>`. */
function cloneSql(
  name: EngineName,
  table: 'orders' | 'payments' | 'refunds',
  templateId: string,
  overrides: Record<string, string>,
  from: number,
  to: number,
  where = '',
): string {
  const d = dialects[name];
  const columns = TABLE_COLUMNS[table];
  const q = (c: string) => (name === 'mariadb' ? `\`${c}\`` : `"${c}"`);
  const select = columns.map((c) => overrides[c] ?? `t.${q(c)}`).join(', ');
  const insert = `insert into ${table} (${columns.map(q).join(', ')})`;
  const filter = `t.id = '${templateId}'${where === '' ? '' : ` and ${where}`}`;
  if (d.cteFirst)
    return `${d.series(from, to)} ${insert} select ${select} from ${table} t cross join g where ${filter}`;
  return `${insert} select ${select} from ${table} t cross join ${d.series(from, to)} where ${filter}`;
}

async function seed(name: EngineName, engine: Engine, now: number): Promise<void> {
  const scope = await engine.scopeFor('test');
  const store = engine.forStore(scope);
  const product = await store.products.create({
    name: 'Bench mug',
    status: 'active',
    variants: [{ sku: 'BENCH-MUG', price: 2500, inventory: { on_hand: 1_000_000 } }],
  });
  const variant = product.variants[0];
  if (variant === undefined) throw new Error('no variant');
  const cart = await store.carts.create({
    items: [{ variant_id: variant.id, quantity: 1 }],
    shipping_address: {
      name: 'Bench',
      line1: '1 Main St',
      city: 'Springfield',
      postal_code: '12345',
      country: 'US',
    },
  });
  const order = await store.checkout(cart.id, { email: 'bench@example.com', payment_provider: 'manual' });
  const payment = order.payments[0];
  if (payment === undefined) throw new Error('no payment');
  await store.orders.payments.complete(payment.id);
  const refund = await store.orders.refunds.create(order.id, { amount: 500 });

  const storage = engine.storage;
  if (!(storage instanceof KyselyStorage)) throw new Error('a Kysely storage');
  const d = dialects[name];
  const span = 365 * DAY;
  // Order n is created at now − n·span/N (newest first as n grows), within the last year.
  const created = (n: string) =>
    `${now} - (cast(${n} as ${name === 'mariadb' ? 'signed' : 'bigint'}) * ${Math.floor(span / ORDERS)})`;
  const orderId = d.concat("'ord_bench'", d.pad('g.n'));
  // Orders of the last 30 days are still open 2 in 25 (pending or confirmed); older ones are done.
  const recent = Math.ceil((ORDERS * 30) / 365);
  const status = `case when g.n > ${recent} then 'completed' when g.n % 25 = 0 then 'pending' when g.n % 25 = 1 then 'confirmed' else 'completed' end`;
  for (let from = 1; from <= ORDERS; from += CHUNK) {
    const to = Math.min(ORDERS, from + CHUNK - 1);
    const started = performance.now();
    const lap = (what: string) => {
      if (from === 1) console.log(`    first chunk, ${what}: ${Math.round(performance.now() - started)} ms`);
    };
    await raw(
      storage,
      cloneSql(
        name,
        'orders',
        order.id,
        {
          id: orderId,
          number: `t.number + g.n`,
          status,
          created_at: created('g.n'),
          updated_at: created('g.n'),
        },
        from,
        to,
      ),
    );
    lap('orders');
    // Fresh statistics, or the foreign-key checks of the payments keep a plan made for one order.
    if (name === 'postgres' && from === 1) await raw(storage, 'analyze orders');
    await raw(
      storage,
      cloneSql(
        name,
        'payments',
        payment.id,
        {
          id: d.concat("'pay_bench'", d.pad('g.n')),
          order_id: orderId,
          idempotency_key: 'null',
          cart_id: 'null',
          created_at: created('g.n'),
          updated_at: created('g.n'),
        },
        from,
        to,
      ),
    );
    lap('payments');
    await raw(
      storage,
      cloneSql(
        name,
        'refunds',
        refund.id,
        {
          id: d.concat("'ref_bench'", d.pad('g.n')),
          order_id: orderId,
          created_at: `${created('g.n')} + 3600000`,
          updated_at: `${created('g.n')} + 3600000`,
        },
        from,
        to,
        'g.n % 20 = 0',
      ),
    );
    process.stdout.write(
      `  ${name}: seeded ${to.toLocaleString('en-US')} orders (${Math.round(performance.now() - started)} ms)\r`,
    );
  }
  process.stdout.write('\n');
  if (name === 'postgres') await raw(storage, 'analyze');
  if (name === 'mariadb') await raw(storage, 'analyze table orders, payments, refunds');
  if (name === 'sqlite') await raw(storage, 'analyze');
}

async function timeStats(
  engine: Engine,
  period: '7' | '30',
): Promise<{ p50: number; p90: number; max: number }> {
  const store = engine.forStore(await engine.scopeFor('test'));
  for (let i = 0; i < 3; i++) await store.dashboard.stats({ period });
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await store.dashboard.stats({ period });
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), max: samples.at(-1) ?? 0 };
}

/** Each read of a stats call on its own (`--probe`): where the time goes. */
async function probe(engine: Engine, now: number): Promise<void> {
  const scope = await engine.scopeFor('test');
  const day = 86_400_000;
  const start = now - (now % day);
  const bounds = Array.from({ length: 63 }, (_, i) => start - (61 - i) * day);
  const timed = async (what: string, fn: () => Promise<unknown>) => {
    await fn();
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await fn();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    console.log(`    probe ${what}: p50 ${percentile(samples, 50).toFixed(1)} ms`);
  };
  const read = <T>(fn: (tx: Parameters<Parameters<Engine['storage']['read']>[0]>[0]) => Promise<T>) =>
    engine.storage.read(fn);
  await timed('revenueBetween (62 days)', () =>
    read((tx) => tx.dashboard.revenueBetween(scope, 'USD', bounds)),
  );
  await timed('countOrdersCreated (2 days)', () =>
    read((tx) =>
      tx.dashboard.countOrdersCreated(
        scope,
        ['pending', 'confirmed', 'processing', 'completed'],
        [
          { from: now - day, to: now },
          { from: now - 2 * day, to: now - day },
        ],
      ),
    ),
  );
  await timed('countOrdersWithStatus (open)', () =>
    read((tx) => tx.dashboard.countOrdersWithStatus(scope, ['pending', 'confirmed', 'processing'])),
  );
  await timed('recentOrders', () => read((tx) => tx.dashboard.recentOrders(scope, 10)));
  await timed('lowStock', () => read((tx) => tx.dashboard.lowStock(scope, 20)));
}

async function main(): Promise<void> {
  console.log(`dashboard stats on ${ORDERS.toLocaleString('en-US')} orders (${CALLS} warm calls per period)`);
  const rows: string[] = [];
  for (const name of ENGINES) {
    const target = await openTarget(name);
    const now = Date.now();
    const engine = await createEngine({ storage: target.storage, clock: { now: () => now } });
    try {
      const started = performance.now();
      await seed(name, engine, now);
      console.log(`  ${name}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const sample = await engine.forStore(await engine.scopeFor('test')).dashboard.stats({ period: '30' });
      console.log(
        `  ${name}: month_revenue ${sample.kpi.month_revenue.value.amount}, pending ${sample.kpi.pending_orders.value}`,
      );
      if (process.argv.includes('--probe')) await probe(engine, now);
      if (process.argv.includes('--explain')) {
        const scope = await engine.scopeFor('test');
        const storage = engine.storage as KyselyStorage;
        const text = `explain select created_at ${name === 'mariadb' ? 'div' : '/'} 3600000 as bucket, sum(amount) from payments where store_id = '${scope.store_id}' and mode = 'test' and created_at >= ${now - 62 * DAY} and created_at < ${now} and currency = 'USD' and status in ('completed', 'refunded') and provider <> 'exchange_credit' group by 1`;
        console.log(JSON.stringify(((await raw(storage, text)) as { rows: unknown[] }).rows, null, 1));
      }
      for (const period of ['7', '30'] as const) {
        const t = await timeStats(engine, period);
        rows.push(
          `${name.padEnd(9)} period ${period.padStart(2)}: p50 ${t.p50.toFixed(1)} ms, p90 ${t.p90.toFixed(1)} ms, max ${t.max.toFixed(1)} ms`,
        );
        console.log(rows.at(-1));
      }
    } finally {
      await engine.close();
      await target.close();
    }
  }
  console.log('\nsummary');
  for (const row of rows) console.log(`  ${row}`);
}

await main();
