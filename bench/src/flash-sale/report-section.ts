import type { FlashSaleResults } from '../flash-sale-bench';
import { msCell, num, table, verdict } from '../report/tables';

/** The "Flash sale" section of docs/benchmarks.md, from bench/results/flash-sale.json. */
export function flashSaleSection(flash: FlashSaleResults | null): string {
  if (!flash || flash.targets.length === 0)
    return 'Not run (`node --conditions=@cartwright/source --import tsx bench/src/flash-sale-bench.ts`).';
  const s = flash.settings;
  const sale = table(
    [
      'Target',
      'Wall time (s)',
      '201 / 422 / 5xx',
      'Orders/s',
      'Refusals/s',
      '201 p50 / p99 (ms)',
      '422 p50 / p99 (ms)',
      'Server CPU per checkout (ms)',
      'Inventory after (on hand / reserved)',
      'New orders',
      'Checks',
    ],
    flash.targets.map((t) => [
      t.label,
      t.sale.wall_seconds.toFixed(2),
      `${num(t.sale.orders)} / ${num(t.sale.refusals)} / ${num(t.sale.server_errors)}`,
      num(t.sale.orders_per_second),
      num(t.sale.refusals_per_second),
      `${msCell(t.sale.order_latency.p50)} / ${msCell(t.sale.order_latency.p99)}`,
      `${msCell(t.sale.refusal_latency.p50)} / ${msCell(t.sale.refusal_latency.p99)}`,
      t.sale.server_cpu_ms_per_checkout.toFixed(2),
      `${num(t.inventory_after.on_hand)} / ${num(t.inventory_after.reserved)}`,
      num(t.orders_created),
      t.ok ? 'all held' : `FAILED: ${t.problems.join('; ')}`,
    ]),
  );
  const goal = table(
    ['Target', `Refusal p99 < ${s.refusal_p99_goal_ms} ms (sale)`, 'Refusal p99 after the sell-out'],
    flash.targets.map((t) => [
      t.label,
      `${msCell(t.sale.refusal_latency.p99)} ms — ${verdict(t.sale.refusal_latency.p99 < s.refusal_p99_goal_ms)}`,
      `${msCell(t.after.refusal_latency.p99)} ms`,
    ]),
  );
  const writes = table(
    [
      'Target',
      'Refusals',
      'Refusals/s',
      'Server CPU per refusal (ms)',
      'Rows written',
      'WAL bytes per refusal',
      'What was written',
    ],
    flash.targets.map((t) => {
      const w = t.after.writes;
      const perRefusal = (n: number) => (n / Math.max(1, t.after.refusals)).toFixed(1);
      let rows = '– (no outside view of memory; see the trace)';
      let wal = '–';
      let what = t.trace && t.trace.writes.length > 0 ? 'see the trace' : 'nothing';
      if (w?.kind === 'postgres') {
        rows = num(w.tuples_written);
        wal = perRefusal(w.wal_bytes);
        what =
          (w.wal_records ?? [])
            .map(
              (r) =>
                `${r.resource_manager}/${r.record_type} ${r.relation}: ${num(r.records)} × ${num(r.bytes / r.records)} B`,
            )
            .join('; ') || 'nothing';
      } else if (w?.kind === 'sqlite-file') {
        rows = w.data_version_changed ? 'a commit changed the file' : '0 (data_version unchanged)';
        wal = perRefusal(w.wal_bytes_delta);
        what = w.data_version_changed
          ? 'a commit'
          : `nothing (file ${w.db_bytes_delta} B, WAL ${w.wal_bytes_delta} B)`;
      }
      return [
        t.label,
        num(t.after.refusals),
        num(t.after.refusals_per_second),
        t.after.server_cpu_ms_per_checkout.toFixed(2),
        rows,
        wal,
        what,
      ];
    }),
    [0, 6],
  );
  const traces = flash.targets
    .filter((t) => t.trace)
    .map((t) => {
      const trace = t.trace as NonNullable<typeof t.trace>;
      const lines = trace.statements.map(
        (st) => `    ${(st.count / Math.max(1, trace.refusals)).toFixed(1)}× ${st.sql.slice(0, 140)}`,
      );
      return [
        `- ${t.label}: ${trace.statements_per_refusal.toFixed(1)} statements per refusal; ` +
          (trace.writes.length === 0
            ? 'none writes or locks a row.'
            : `writing or locking: ${trace.writes.map((w) => `\`${w.sql.slice(0, 120)}\``).join(', ')}.`),
        '',
        '  ```sql',
        ...lines,
        '  ```',
      ].join('\n');
    });
  return [
    `One variant with exactly ${num(s.units)} units on hand (tracked, no backorder); ${num(s.buyers)} buyers, each with its own guest cart (1 unit, shipping address and method) prepared before the clock starts — adding to a cart reserves nothing (reserved stays 0 until checkout). Then, at c = ${s.concurrency} (own keep-alive client, exactly ${s.concurrency} requests in flight, no retries), every buyer sends \`POST /v1/storefront/carts/{id}/checkout\` (guest e-mail, manual payment) once. The server runs in its own process, warmed with ${num(s.warmup_buyers)} orders and ${num(s.warmup_buyers)} refusals on other variants. Manual payments leave the orders \`pending\`, so their units stay reserved: on hand ${num(s.units)} / reserved ${num(s.units)} afterwards.`,
    '',
    sale,
    '',
    goal,
    '',
    `At a fixed ${s.concurrency} requests in flight the mean latency is ${s.concurrency} ÷ throughput (Little's law): a refusal p99 under ${s.refusal_p99_goal_ms} ms at c = ${s.concurrency} needs more than ${num(s.concurrency / (s.refusal_p99_goal_ms / 1000))} checkouts/s from the one server process, i.e. well under ${(1000 / (s.concurrency / (s.refusal_p99_goal_ms / 1000))).toFixed(2)} ms of server time per refusal.`,
    '',
    `**The sold-out state costs no write.** After the sale, ${num(s.after_buyers)} more buyers (fresh carts) check out at c = ${s.concurrency}; the database's own counters are read around that window: on PostgreSQL \`pg_stat_database\` (tuples inserted + updated + deleted, rolled-back rows included) and the WAL between \`pg_current_wal_insert_lsn()\` before and after, decoded by \`pg_walinspect\`; on a SQLite file \`PRAGMA data_version\` from a second connection and the sizes of the file and its WAL.`,
    '',
    writes,
    '',
    "No row is inserted, updated or deleted by a refusal on any engine. On PostgreSQL the WAL is not 0: checkout locks the cart first (`select … for update`, before it knows the stock is gone), which writes the locker into the row (`Heap/LOCK`, 54 B) and gives the transaction an id whose rollback is logged (`Transaction/ABORT`, 34 B); `Heap2/PRUNE` is PostgreSQL removing dead versions of cart rows (left by the carts' own updates) when a read meets them, not a cost per refusal. On SQLite a refusal takes the write lock (`begin immediate`) and rolls back: nothing reaches the file or its WAL.",
    '',
    `The statements of ${num(s.trace_buyers)} refusals, one at a time, by an engine in the bench process on the same database (in-memory SQLite: the same sale set up again in the bench process), per refusal:`,
    '',
    ...traces,
  ].join('\n');
}
