/**
 * The flash sale (issue 24): one variant with exactly UNITS units on hand (tracked, no backorder),
 * BUYERS buyers, each with its own guest cart holding 1 unit of it plus a shipping address and
 * method — all prepared before the clock starts (adding to a cart reserves nothing). Then, at
 * concurrency 64, every buyer sends `POST /v1/storefront/carts/{id}/checkout` (guest e-mail,
 * manual payment) exactly once, no retries, against the server in its own process (as the HTTP
 * benchmark runs it), on SQLite memory, SQLite file (WAL) and PostgreSQL.
 *
 * Checked: exactly UNITS answers 201, every other one 422 `insufficient_inventory`, no 5xx; the
 * variant afterwards on_hand UNITS / reserved UNITS (manual payments leave orders `pending`, their
 * units reserved); UNITS new orders. Measured: wall time, orders/s, refusals/s, latency of the
 * 201s and of the 422s apart, server CPU.
 *
 * Then "the sold-out state costs no write": AFTER_BUYERS more buyers (fresh carts) check out
 * after the sale sold out, with the database's own write counters read around that window
 * (flash-sale/write-evidence.ts), and a few more are traced statement by statement by an engine
 * in this process (flash-sale/trace.ts).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/flash-sale-bench.ts [--short] [--no-postgres]
 */

import type { Fixture } from './fixture/seed';
import { httpClient, type Send } from './flash-sale/client';
import {
  type CheckoutReply,
  checkoutAll,
  inventory,
  inventoryOfVariant,
  orderCount,
  prepareCarts,
  setStock,
} from './flash-sale/store';
import { type RefusalTrace, traceRefusals, traceRefusalsInMemory } from './flash-sale/trace';
import {
  postgresWriteProbe,
  sqliteFileWriteProbe,
  type WriteEvidence,
  type WriteProbe,
} from './flash-sale/write-evidence';
import { type ServerHandle, type ServerStats, startServerProcess } from './http/server-handle';
import { parseArgs, sized } from './lib/args';
import { machineInfo, printMachine } from './lib/machine';
import { acquirePostgres } from './lib/postgres';
import { saveResults } from './lib/results';
import { fmt, type LatencySummary, ms, Samples } from './lib/stats';
import { postgresTarget, sqliteFileTarget, sqliteMemoryTarget, type Target } from './lib/targets';

const args = parseArgs();
const UNITS = sized(args, 100, 10);
const BUYERS = sized(args, 2000, 200);
const AFTER_BUYERS = sized(args, 500, 50);
const TRACE_BUYERS = sized(args, 20, 5);
const WARMUP_BUYERS = sized(args, 300, 30);
const CONCURRENCY = 64;
/** Carts are prepared this many at a time (not measured). */
const PREPARE_CONCURRENCY = 16;
const PRODUCTS = 10;
const REFUSAL_P99_GOAL_MS = 50;

export interface SalePhase {
  buyers: number;
  concurrency: number;
  wall_seconds: number;
  orders: number;
  refusals: number;
  orders_per_second: number;
  refusals_per_second: number;
  /** `<status> <code>` → count. */
  answers: Record<string, number>;
  server_errors: number;
  order_latency: LatencySummary;
  refusal_latency: LatencySummary;
  /** Server CPU (user + system) over the phase, and per checkout answered. */
  server_cpu_ms: number;
  server_cpu_ms_per_checkout: number;
  /** Storage statements and round trips over the phase, when the server's stats carry them. */
  storage: { statements: number; round_trips: number } | null;
}

export interface FlashSaleTargetResult {
  target: Target['kind'];
  label: string;
  units: number;
  /** Reserved units of the sale variant after every cart was prepared (0: carts reserve nothing). */
  reserved_after_carts: number;
  sale: SalePhase;
  inventory_after: { on_hand: number; reserved: number; available: number };
  orders_created: number;
  /** Every check of the sale held. */
  ok: boolean;
  problems: string[];
  after: SalePhase & { writes: WriteEvidence | null };
  trace: RefusalTrace | null;
}

export interface FlashSaleResults {
  machine: ReturnType<typeof machineInfo>;
  short: boolean;
  settings: {
    units: number;
    buyers: number;
    after_buyers: number;
    trace_buyers: number;
    warmup_buyers: number;
    concurrency: number;
    refusal_p99_goal_ms: number;
  };
  targets: FlashSaleTargetResult[];
}

function storageTraffic(stats: ServerStats): { statements: number; round_trips: number } | null {
  return (stats as { storage?: { statements: number; round_trips: number } | null }).storage ?? null;
}

async function phase(
  server: ServerHandle,
  send: Send,
  fixture: Fixture,
  cartIds: string[],
  around?: { before(): Promise<void>; after(): Promise<void> },
): Promise<SalePhase> {
  await server.settle();
  const before = await server.stats();
  await around?.before();
  const { replies, seconds } = await checkoutAll(send, fixture, cartIds, CONCURRENCY);
  await around?.after();
  const after = await server.stats();
  return summarize(replies, seconds, before, after);
}

function summarize(
  replies: CheckoutReply[],
  seconds: number,
  before: ServerStats,
  after: ServerStats,
): SalePhase {
  const orderSamples = new Samples();
  const refusalSamples = new Samples();
  const answers: Record<string, number> = {};
  let orders = 0;
  let refusals = 0;
  let serverErrors = 0;
  for (const reply of replies) {
    const key = `${reply.status} ${reply.code ?? ''}`.trim();
    answers[key] = (answers[key] ?? 0) + 1;
    if (reply.status === 201) {
      orders++;
      orderSamples.add(reply.ms);
    } else if (reply.status === 422) {
      refusals++;
      refusalSamples.add(reply.ms);
    } else if (reply.status >= 500 || reply.status === 0) {
      serverErrors++;
    }
  }
  const cpuMs = (after.cpu.user - before.cpu.user + (after.cpu.system - before.cpu.system)) / 1000;
  const trafficBefore = storageTraffic(before);
  const trafficAfter = storageTraffic(after);
  return {
    buyers: replies.length,
    concurrency: CONCURRENCY,
    wall_seconds: seconds,
    orders,
    refusals,
    orders_per_second: orders / seconds,
    refusals_per_second: refusals / seconds,
    answers,
    server_errors: serverErrors,
    order_latency: orderSamples.summary(),
    refusal_latency: refusalSamples.summary(),
    server_cpu_ms: cpuMs,
    server_cpu_ms_per_checkout: cpuMs / Math.max(1, replies.length),
    storage:
      trafficBefore && trafficAfter
        ? {
            statements: trafficAfter.statements - trafficBefore.statements,
            round_trips: trafficAfter.round_trips - trafficBefore.round_trips,
          }
        : null,
  };
}

function printPhase(name: string, p: SalePhase): void {
  console.log(
    `  ${name}: ${fmt(p.buyers)} buyers at c=${p.concurrency} in ${p.wall_seconds.toFixed(3)} s — ` +
      `${fmt(p.orders)} orders (${fmt(p.orders_per_second)}/s), ${fmt(p.refusals)} refusals (${fmt(p.refusals_per_second)}/s), ` +
      `${p.server_errors} 5xx/socket errors`,
  );
  console.log(`    answers: ${JSON.stringify(p.answers)}`);
  if (p.orders > 0)
    console.log(
      `    201 latency: p50 ${ms(p.order_latency.p50)}  p99 ${ms(p.order_latency.p99)}  max ${ms(p.order_latency.max)}`,
    );
  if (p.refusals > 0)
    console.log(
      `    422 latency: p50 ${ms(p.refusal_latency.p50)}  p99 ${ms(p.refusal_latency.p99)}  max ${ms(p.refusal_latency.max)}` +
        `   (goal p99 < ${REFUSAL_P99_GOAL_MS} ms: ${p.refusal_latency.p99 < REFUSAL_P99_GOAL_MS ? 'met' : 'NOT MET'})`,
    );
  console.log(
    `    server CPU ${p.server_cpu_ms.toFixed(0)} ms = ${p.server_cpu_ms_per_checkout.toFixed(3)} ms per checkout` +
      (p.storage
        ? `; storage ${fmt(p.storage.statements)} statements, ${fmt(p.storage.round_trips)} round trips (${(p.storage.round_trips / Math.max(1, p.buyers)).toFixed(2)} per checkout)`
        : ''),
  );
}

function printWrites(writes: WriteEvidence | null, refusals: number): void {
  if (!writes) {
    console.log('    writes: no outside view of an in-memory database (see the trace)');
    return;
  }
  if (writes.kind === 'sqlite-file') {
    console.log(
      `    writes: data_version ${writes.data_version_changed ? 'CHANGED (a commit wrote)' : 'unchanged (no commit wrote)'}, ` +
        `database file ${writes.db_bytes_delta >= 0 ? '+' : ''}${writes.db_bytes_delta} bytes, WAL ${writes.wal_bytes_delta >= 0 ? '+' : ''}${writes.wal_bytes_delta} bytes`,
    );
    return;
  }
  console.log(
    `    writes: ${writes.xact_commit} commits, ${writes.xact_rollback} rollbacks, ${writes.tuples_written} tuples written ` +
      `(${(writes.tuples_written / Math.max(1, refusals)).toFixed(3)} per refusal), WAL ${fmt(writes.wal_bytes)} bytes ` +
      `(${(writes.wal_bytes / Math.max(1, refusals)).toFixed(1)} per refusal)`,
  );
  for (const t of writes.tables)
    console.log(
      `      table ${t.table}: +${t.inserted} inserted, ${t.updated} updated, ${t.deleted} deleted`,
    );
  for (const r of writes.wal_records ?? [])
    console.log(
      `      WAL ${r.resource_manager}/${r.record_type} on ${r.relation}: ${fmt(r.records)} records, ${fmt(r.bytes)} bytes`,
    );
}

function printTrace(trace: RefusalTrace): void {
  console.log(
    `  trace: ${trace.refusals} refusals in this process, one at a time, ${trace.statements_per_refusal.toFixed(1)} statements each; answers ${JSON.stringify(trace.codes)}`,
  );
  if (trace.counters) printWrites(trace.counters, trace.refusals);
  for (const s of trace.statements)
    console.log(
      `    ${String(s.count).padStart(4)}×${s.changes !== null ? ` (${s.changes} rows changed)` : ''} ${s.sql.slice(0, 160)}`,
    );
  console.log(
    trace.writes.length === 0
      ? '    no statement writes or locks a row'
      : `    WRITING/LOCKING statements: ${trace.writes.map((s) => `${s.count}× ${s.sql}`).join(' | ')}`,
  );
}

async function benchTarget(target: Target): Promise<FlashSaleTargetResult> {
  console.log(`\n== ${target.label}: ${fmt(BUYERS)} buyers, ${fmt(UNITS)} units, c=${CONCURRENCY}`);
  const server = await startServerProcess({
    kind: 'engine',
    databaseUrl: target.databaseUrl,
    seedProducts: PRODUCTS,
  });
  const client = httpClient(server.url, CONCURRENCY);
  const send = client.send;
  let probe: WriteProbe | null = null;
  try {
    const fixture = server.fixture as Fixture;
    const [saleVariant, warmOrderVariant, warmRefusalVariant] = fixture.variantIds as [
      string,
      string,
      string,
    ];

    // Warm-up, on two other variants: orders, then refusals (the second variant sold out).
    const warmOrders = await prepareCarts(
      send,
      fixture,
      warmOrderVariant,
      WARMUP_BUYERS,
      PREPARE_CONCURRENCY,
    );
    const warmRefusals = await prepareCarts(
      send,
      fixture,
      warmRefusalVariant,
      WARMUP_BUYERS,
      PREPARE_CONCURRENCY,
    );
    await checkoutAll(send, fixture, warmOrders, CONCURRENCY);
    await setStock(send, fixture, (await inventoryOfVariant(send, fixture, warmRefusalVariant)).id, 0);
    await checkoutAll(send, fixture, warmRefusals, CONCURRENCY);

    // The sale's stock and carts, before the clock starts.
    const record = await inventoryOfVariant(send, fixture, saleVariant);
    await setStock(send, fixture, record.id, UNITS);
    const traceCarts = target.kind === 'sqlite-memory' ? 0 : TRACE_BUYERS + 1;
    const carts = await prepareCarts(
      send,
      fixture,
      saleVariant,
      BUYERS + AFTER_BUYERS + traceCarts,
      PREPARE_CONCURRENCY,
    );
    const prepared = await inventory(send, fixture, record.id);
    console.log(
      `  prepared ${fmt(carts.length)} carts: variant on_hand ${prepared.on_hand}, reserved ${prepared.reserved} (adding to a cart reserves nothing)`,
    );
    const ordersBefore = await orderCount(send, fixture);

    const sale = await phase(server, send, fixture, carts.slice(0, BUYERS));
    printPhase('sale', sale);
    const after = await inventory(send, fixture, record.id);
    const ordersCreated = (await orderCount(send, fixture)) - ordersBefore;
    console.log(
      `  afterwards: on_hand ${after.on_hand}, reserved ${after.reserved}, available ${after.available}; ${ordersCreated} new orders`,
    );
    const problems: string[] = [];
    if (prepared.reserved !== 0) problems.push(`preparing the carts reserved ${prepared.reserved} units`);
    if (sale.orders !== UNITS) problems.push(`${sale.orders} answers 201, expected ${UNITS}`);
    const refusedRight = sale.answers['422 insufficient_inventory'] ?? 0;
    if (refusedRight !== BUYERS - UNITS)
      problems.push(`${refusedRight} answers 422 insufficient_inventory, expected ${BUYERS - UNITS}`);
    if (sale.server_errors > 0) problems.push(`${sale.server_errors} answers 5xx or socket errors`);
    if (after.on_hand !== UNITS || after.reserved !== UNITS)
      problems.push(`inventory afterwards on_hand ${after.on_hand} / reserved ${after.reserved}`);
    if (ordersCreated !== UNITS) problems.push(`${ordersCreated} orders created, expected ${UNITS}`);
    console.log(problems.length === 0 ? '  checks: all held' : `  CHECKS FAILED: ${problems.join('; ')}`);

    // After the sale: more buyers, with the database's write counters around the window.
    if (target.kind === 'postgres') probe = await postgresWriteProbe(target.databaseUrl);
    else if (target.kind === 'sqlite-file') probe = sqliteFileWriteProbe(target.databaseUrl);
    let writes: WriteEvidence | null = null;
    const afterCarts = carts.slice(BUYERS, BUYERS + AFTER_BUYERS);
    const afterPhase = await phase(server, send, fixture, afterCarts, {
      before: async () => {
        await probe?.start();
      },
      after: async () => {
        writes = (await probe?.stop()) ?? null;
      },
    });
    printPhase(`after the sell-out (${fmt(AFTER_BUYERS)} more buyers)`, afterPhase);
    printWrites(writes, afterPhase.refusals);

    await server.settle();
    const trace =
      target.kind === 'sqlite-memory'
        ? await traceRefusalsInMemory(TRACE_BUYERS + 1)
        : await traceRefusals(target.databaseUrl, fixture, carts.slice(BUYERS + AFTER_BUYERS));
    printTrace(trace);
    return {
      target: target.kind,
      label: target.label,
      units: UNITS,
      reserved_after_carts: prepared.reserved,
      sale,
      inventory_after: { on_hand: after.on_hand, reserved: after.reserved, available: after.available },
      orders_created: ordersCreated,
      ok: problems.length === 0,
      problems,
      after: { ...afterPhase, writes },
      trace,
    };
  } finally {
    client.close();
    await probe?.close();
    await server.exit();
    target.cleanup();
  }
}

const pg = await acquirePostgres(args.postgres);
const machine = machineInfo(pg?.version ?? null);
printMachine(machine);
console.log(
  `\nflash sale: ${fmt(BUYERS)} buyers for ${fmt(UNITS)} units at c=${CONCURRENCY}, then ${fmt(AFTER_BUYERS)} more${args.short ? ' (short)' : ''}`,
);
const results: FlashSaleTargetResult[] = [];
try {
  const targets: Target[] = [sqliteMemoryTarget(), sqliteFileTarget()];
  if (pg) targets.push(await postgresTarget(pg));
  for (const target of targets) results.push(await benchTarget(target));
  saveResults(args, 'flash-sale', {
    machine,
    short: args.short,
    settings: {
      units: UNITS,
      buyers: BUYERS,
      after_buyers: AFTER_BUYERS,
      trace_buyers: TRACE_BUYERS,
      warmup_buyers: WARMUP_BUYERS,
      concurrency: CONCURRENCY,
      refusal_p99_goal_ms: REFUSAL_P99_GOAL_MS,
    },
    targets: results,
  } satisfies FlashSaleResults);
} finally {
  await pg?.stop();
}
if (results.some((r) => !r.ok)) process.exitCode = 1;
