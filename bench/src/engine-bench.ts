/**
 * Benchmark 1 — the engine in-process (no HTTP), on SQLite memory, SQLite file (WAL) and Postgres:
 * checkouts per second, catalog list queries per second at 10,000 products, cart re-pricing per
 * second for a 50-line cart, and core's `priceCart` alone for the same cart.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/engine-bench.ts [--short] [--no-postgres]
 */
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import {
  type EngineInternals as Engine,
  engineInternals,
  type PricingInput,
  priceCart,
} from '@cartwright/core/internal';
import { StorefrontProductListQuerySchema } from '@cartwright/core/schemas';
import { CHECKOUT_INPUT, cartInput, GUEST, readyCart } from './fixture/carts';
import { CATALOG_QUERIES, queryObject } from './fixture/catalog-queries';
import { growPostgresCatalog, PORT_SEEDED_ON_POSTGRES } from './fixture/postgres-catalog';
import { type Fixture, seedFixture, TAX_RATE } from './fixture/seed';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { type Measurement, measure, measurePrepared } from './lib/measure';
import { acquirePostgres } from './lib/postgres';
import { installQueryCounter } from './lib/query-counter';
import { createRandom } from './lib/random';
import { saveResults } from './lib/results';
import { fmt, ms } from './lib/stats';
import { postgresTarget, sqliteFileTarget, sqliteMemoryTarget, type Target } from './lib/targets';

export interface EngineTargetResult {
  target: Target['kind'];
  label: string;
  products: number;
  seed_seconds: number;
  checkout: Measurement;
  checkout_concurrent: Measurement & { concurrency: number };
  order_flow: Measurement;
  catalog: Array<{ name: string; query: string } & Measurement>;
  catalog_mix: Measurement;
  reprice_50: Measurement;
  /** SQL statements per operation (counted at the driver, transaction control included). */
  statements: Record<StatementCase, number>;
  /**
   * Round trips to the database per operation: the storage's own `stats()` where it has one
   * (PostgreSQL: statements sent together — pipelined, or with BEGIN/COMMIT — share one); SQLite
   * has no round trips (a statement is a call into the library): there it equals `statements`.
   */
  round_trips?: Record<StatementCase, number>;
}

type StatementCase =
  | 'cart_create'
  | 'cart_update'
  | 'apply_discount'
  | 'checkout'
  | 'reprice_50'
  | 'catalog_list';

export interface EngineResults {
  machine: ReturnType<typeof machineInfo>;
  short: boolean;
  settings: { products: number; seconds: number; concurrency: number };
  targets: EngineTargetResult[];
  price_cart_50: Measurement;
}

const args = parseArgs();
const PRODUCTS = sized(args, 10_000, 200);
const SECONDS = sized(args, 5, 0.2);
/** Carts prepared (outside the clock) per round of measured checkouts. */
const CHUNK = sized(args, 500, 20);
const CONCURRENCY = 8;
const counter = installQueryCounter();

/** The storage's own traffic counters (PostgreSQL's `stats()`), when it has them. */
type CountingStorage = { stats?: () => { statements: number; roundTrips: number } };

/** Average statements and round trips per call of `op` over `n` calls. */
async function trafficPer(
  storage: CountingStorage,
  n: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ statements: number; roundTrips: number }> {
  const before = counter.count();
  const trafficBefore = storage.stats?.();
  for (let i = 0; i < n; i++) await op(i);
  const statements = (counter.count() - before) / n;
  const trafficAfter = storage.stats?.();
  const roundTrips =
    trafficBefore && trafficAfter ? (trafficAfter.roundTrips - trafficBefore.roundTrips) / n : statements;
  return { statements, roundTrips };
}

function line(label: string, m: Measurement, unit: string): void {
  console.log(
    `  ${label.padEnd(34)} ${fmt(m.per_second).padStart(8)} ${unit}/s   p50 ${ms(m.latency.p50)}  p99 ${ms(m.latency.p99)}  (n=${fmt(m.ops)})`,
  );
}

async function benchTarget(target: Target): Promise<EngineTargetResult> {
  console.log(`\n== ${target.label}`);
  const storage = await openStorage(target.databaseUrl);
  const engine = engineInternals(await createEngine({ storage, crypto: nodeCrypto }));
  try {
    const seedStart = performance.now();
    // Postgres: the first 1,000 through the storage port, the rest cloned in SQL (minutes → seconds).
    const fixture =
      target.kind === 'postgres'
        ? await growPostgresCatalog(
            target.databaseUrl,
            await seedFixture(engine, { products: Math.min(PRODUCTS, PORT_SEEDED_ON_POSTGRES) }),
            PRODUCTS,
          )
        : await seedFixture(engine, { products: PRODUCTS });
    const seed_seconds = (performance.now() - seedStart) / 1000;
    console.log(`  seeded ${fmt(PRODUCTS)} products in ${seed_seconds.toFixed(1)} s`);
    const random = createRandom(42);
    const prepare = async (n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push(await readyCart(engine, fixture, 3, random));
      return ids;
    };
    const checkout = (id: string) => engine.checkout.checkout(fixture.scope, id, CHECKOUT_INPUT, GUEST);

    // warm-up: JIT, statement caches, pool connections
    await measurePrepared(SECONDS / 4, CHUNK, prepare, checkout, CONCURRENCY);
    const sequential = await measurePrepared(SECONDS, CHUNK, prepare, checkout);
    line('checkout (3 lines, discount, tax)', sequential, 'orders');
    const concurrent = await measurePrepared(SECONDS, CHUNK, prepare, checkout, CONCURRENCY);
    line(`checkout, ${CONCURRENCY} concurrent`, concurrent, 'orders');
    const orderFlow = await measure(SECONDS, async () => {
      const id = await readyCart(engine, fixture, 3, random);
      await checkout(id);
    });
    line('create+update+discount+checkout', orderFlow, 'orders');

    const { catalog, mix } = await benchCatalog(engine, fixture);
    const reprice = await benchReprice(engine, fixture);
    const { statements, round_trips } = await countStatements(engine, fixture, storage as CountingStorage);
    console.log(
      `  SQL statements: cart create ${statements.cart_create}, update ${statements.cart_update}, discount ${statements.apply_discount}, checkout ${statements.checkout}, 50-line GET ${statements.reprice_50}, list ${statements.catalog_list}`,
    );
    console.log(
      `  round trips${(storage as CountingStorage).stats ? '' : ' (= statements: no network)'}: cart create ${round_trips.cart_create}, update ${round_trips.cart_update}, discount ${round_trips.apply_discount}, checkout ${round_trips.checkout}, 50-line GET ${round_trips.reprice_50}, list ${round_trips.catalog_list}`,
    );
    return {
      target: target.kind,
      label: target.label,
      products: PRODUCTS,
      seed_seconds,
      checkout: sequential,
      checkout_concurrent: { ...concurrent, concurrency: CONCURRENCY },
      order_flow: orderFlow,
      catalog,
      catalog_mix: mix,
      reprice_50: reprice,
      statements,
      round_trips,
    };
  } finally {
    await engine.close();
    target.cleanup();
  }
}

async function benchCatalog(engine: Engine, fixture: Fixture) {
  const middle = await engine.products.listStorefront(
    fixture.scope,
    StorefrontProductListQuerySchema.parse({ limit: '100', sort: 'name' }),
  );
  const after = middle.data[50]?.id ?? middle.data[0]?.id ?? '';
  const parsed = CATALOG_QUERIES.map((entry) => ({
    ...entry,
    input: StorefrontProductListQuerySchema.parse(queryObject(entry.query, after)),
  }));
  const catalog: EngineTargetResult['catalog'] = [];
  for (const entry of parsed) {
    const m = await measure(SECONDS / 4, () => engine.products.listStorefront(fixture.scope, entry.input));
    line(`list: ${entry.name}`, m, 'queries');
    catalog.push({ name: entry.name, query: entry.query, ...m });
  }
  const mix = await measure(SECONDS, (i) =>
    engine.products.listStorefront(
      fixture.scope,
      (parsed[i % parsed.length] as (typeof parsed)[number]).input,
    ),
  );
  line('list: mix of the above', mix, 'queries');
  return { catalog, mix };
}

async function countStatements(
  engine: Engine,
  fixture: Fixture,
  storage: CountingStorage,
): Promise<{ statements: Record<StatementCase, number>; round_trips: Record<StatementCase, number> }> {
  const random = createRandom(11);
  const n = sized(args, 20, 3);
  const carts: string[] = [];
  const statementsPer = (count: number, op: (i: number) => Promise<unknown>) =>
    trafficPer(storage, count, op);
  const cart_create = await statementsPer(n, async () => {
    carts.push((await engine.carts.create(fixture.scope, GUEST, cartInput(fixture, 3, random))).id);
  });
  const cart_update = await statementsPer(n, (i) =>
    engine.carts.update(fixture.scope, GUEST, carts[i] as string, {
      shipping_method_id: fixture.shippingMethodId,
    }),
  );
  const apply_discount = await statementsPer(n, (i) =>
    engine.carts.applyDiscount(fixture.scope, GUEST, carts[i] as string, fixture.discountCode),
  );
  const checkout = await statementsPer(n, (i) =>
    engine.checkout.checkout(fixture.scope, carts[i] as string, CHECKOUT_INPUT, GUEST),
  );
  const big = await readyCart(engine, fixture, 50, random);
  const reprice_50 = await statementsPer(n, () => engine.carts.get(fixture.scope, GUEST, big));
  const query = StorefrontProductListQuerySchema.parse({ limit: '20' });
  const catalog_list = await statementsPer(n, () => engine.products.listStorefront(fixture.scope, query));
  const all = { cart_create, cart_update, apply_discount, checkout, reprice_50, catalog_list };
  const pick = (key: 'statements' | 'roundTrips') =>
    Object.fromEntries(Object.entries(all).map(([name, counts]) => [name, counts[key]])) as Record<
      StatementCase,
      number
    >;
  return { statements: pick('statements'), round_trips: pick('roundTrips') };
}

async function benchReprice(engine: Engine, fixture: Fixture): Promise<Measurement> {
  const random = createRandom(7);
  const id = await readyCart(engine, fixture, 50, random);
  const m = await measure(SECONDS, () => engine.carts.get(fixture.scope, GUEST, id));
  line('re-price a 50-line cart (GET)', m, 'carts');
  return m;
}

/** Core's pricing function alone on a 50-line cart with a discount, tax and shipping. */
async function benchPriceCart(): Promise<Measurement> {
  const random = createRandom(9);
  const input: PricingInput = {
    currency: 'USD',
    lines: Array.from({ length: 50 }, (_, i) => ({
      key: `item_${i}`,
      variant_id: `var_${i}`,
      product_id: `prod_${i}`,
      product_tags: ['home', 'red'],
      unit_price: 500 + random.int(20_000),
      quantity: 1 + random.int(3),
    })),
    shipping: { price: 595, free_shipping_threshold: null },
    tax: { rate: TAX_RATE, prices_include_tax: false },
    customer: { id: null, email: 'buyer@example.com', tags: [] },
    automatic_discounts: [],
    code_discounts: [
      {
        id: 'disc_1',
        name: 'Ten percent',
        code: 'BENCH10',
        type: 'code',
        value_type: 'percentage',
        value: 10,
        target: 'order',
        usage_limit: null,
        usage_count: 0,
        per_customer_limit: null,
        minimum_amount: null,
        maximum_discount: null,
        starts_at: null,
        ends_at: null,
        is_active: true,
        conditions: [],
        created_at: 0,
      },
    ],
    now: Date.now(),
  };
  const m = await measure(SECONDS, async () => priceCart(input));
  console.log('\n== core priceCart alone (no storage)');
  line('priceCart, 50 lines', m, 'carts');
  return m;
}

const pg = await acquirePostgres(args.postgres);
const machine = machineInfo(pg?.version ?? null);
printMachine(machine);
console.log(
  `\nengine in-process: ${fmt(PRODUCTS)} products, ${SECONDS} s per measurement${args.short ? ' (short)' : ''}`,
);
const targets: Target[] = [sqliteMemoryTarget(), sqliteFileTarget()];
if (pg) targets.push(await postgresTarget(pg));
const results: EngineTargetResult[] = [];
try {
  for (const target of targets) results.push(await benchTarget(target));
} finally {
  await pg?.stop();
}
const price_cart_50 = await benchPriceCart();
saveResults(args, 'engine', {
  machine,
  short: args.short,
  settings: { products: PRODUCTS, seconds: SECONDS, concurrency: CONCURRENCY },
  targets: results,
  price_cart_50,
} satisfies EngineResults);
