import { LOW_STOCK_FILTER, reserveInventory, updateInventory } from '@cartwright/core/internal';
import type { InventoryWrite } from '@cartwright/core/storage';
import { createTestDatabase, dropTestDatabase, makeProduct, newScope } from '@cartwright/storage-conformance';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testRun } from '../../../storage-conformance/src/test-engines';
import type { PostgresStorage } from '../dialects/postgres/postgres-storage';
import { type SqliteStorage, sqliteStorage } from '../dialects/sqlite/sqlite-storage';
import { postgresStorage } from '../postgres';

/**
 * SQLite's `apply` (a compare-and-set UPDATE per 50 rows inside a savepoint, no RETURNING) and
 * core's reservation on rows read earlier in the transaction, which is what checkout runs. The
 * conformance suite checks the outcomes on every engine; these tests check the statements.
 */
describe('inventory apply on SQLite', () => {
  let storage: SqliteStorage;
  beforeAll(async () => {
    storage = sqliteStorage({ filename: ':memory:' });
    await storage.migrate();
  });
  afterAll(() => storage.close());

  it('a reservation planned on rows as read: one UPDATE without RETURNING between savepoint and release, no read', async () => {
    const scope = newScope();
    const product = makeProduct(scope, { prices: [1, 2], on_hand: 5 });
    await storage.transaction((tx) => tx.products.insert(product));
    const [a, b] = product.variants.map((v) => v.inventory);
    const seen = recordStatements();
    let statements: string[] = [];
    const result = await storage.transaction(async (tx) => {
      const read = await tx.inventory.get(scope, { variant_ids: [a!.variant_id, b!.variant_id] });
      seen.length = 0;
      const reserved = await reserveInventory(
        tx,
        scope,
        [
          { variant_id: a!.variant_id, quantity: 2 },
          { variant_id: b!.variant_id, quantity: 1 },
          { variant_id: a!.variant_id, quantity: 3 },
        ],
        7,
        read,
      );
      statements = seen.splice(0);
      return reserved;
    });
    restoreStatements();
    expect(statements.map((sql) => sql.split(' ')[0])).toEqual(['savepoint', 'update', 'release']);
    expect(statements[1]).not.toMatch(/returning/i);
    if (!result.ok) throw new Error('expected ok');
    expect(result.changes.map((c) => [c.before.reserved, c.after.reserved, c.after.updated_at])).toEqual([
      [0, 2, 7],
      [0, 1, 7],
      [2, 5, 7],
    ]);
    const stored = await storage.read((r) =>
      r.inventory.get(scope, { variant_ids: [a!.variant_id, b!.variant_id] }),
    );
    expect(Object.fromEntries(stored.map((row) => [row.variant_id, [row.reserved, row.updated_at]]))).toEqual(
      {
        [a!.variant_id]: [5, 7],
        [b!.variant_id]: [1, 7],
      },
    );
  });

  it('one row moved since it was read (1 of 2 rows matches): the savepoint undoes the other, the miss is named after one read; the locked re-plan writes what the rows hold', async () => {
    const scope = newScope();
    const product = makeProduct(scope, { prices: [1, 2], on_hand: 10 });
    await storage.transaction((tx) => tx.products.insert(product));
    const [a, b] = product.variants.map((v) => v.inventory);
    const seen = recordStatements();
    let statements: string[] = [];
    let missed: string[] = [];
    const result = await storage.transaction(async (tx) => {
      const read = await tx.inventory.get(scope, { variant_ids: [a!.variant_id, b!.variant_id] });
      // b moves after the read: `read` is stale for b only.
      await updateInventory(tx, scope, b!.id, { on_hand: 20, updated_at: 2 });
      const levels = (row: (typeof read)[number]) => ({
        on_hand: row.on_hand,
        reserved: row.reserved,
        track_inventory: row.track_inventory,
        allow_backorder: row.allow_backorder,
      });
      seen.length = 0;
      missed = await tx.inventory.apply(
        scope,
        read.map((row) => ({
          variant_id: row.variant_id,
          expect: levels(row),
          set: { on_hand: 1, reserved: 1 },
        })),
        3,
      );
      statements = seen.splice(0);
      return reserveInventory(
        tx,
        scope,
        [
          { variant_id: a!.variant_id, quantity: 1 },
          { variant_id: b!.variant_id, quantity: 2 },
        ],
        3,
        read,
      );
    });
    restoreStatements();
    expect(missed).toEqual([b!.variant_id]);
    expect(statements.map((sql) => sql.split(' ')[0])).toEqual([
      'savepoint',
      'update',
      'rollback',
      'release',
      'select',
    ]);
    if (!result.ok) throw new Error('expected ok');
    expect(result.changes.map((c) => [c.before.on_hand, c.before.reserved, c.after.reserved])).toEqual([
      [10, 0, 1],
      [20, 0, 2],
    ]);
    const stored = await storage.read((r) =>
      r.inventory.get(scope, { variant_ids: [a!.variant_id, b!.variant_id] }),
    );
    expect(Object.fromEntries(stored.map((row) => [row.variant_id, [row.on_hand, row.reserved]]))).toEqual({
      [a!.variant_id]: [10, 1],
      [b!.variant_id]: [20, 2],
    });
  });
});

describe('inventory list by a level comparison on SQLite', () => {
  let storage: SqliteStorage;
  beforeAll(async () => {
    storage = sqliteStorage({ filename: ':memory:' });
    await storage.migrate();
  });
  afterAll(() => storage.close());

  it("core's low-stock filter is written as the partial index's predicate: page and count read inventory_items_low_stock_idx", async () => {
    const scope = newScope();
    await storage.transaction(async (tx) => {
      for (const on_hand of [0, 0, 5, 50]) await tx.products.insert(makeProduct(scope, { on_hand }));
    });
    const plans: Array<{ sql: string; plan: string }> = [];
    const seen = recordStatements((statement, args) => {
      if (!/on_hand <=/.test(statement.source) || statement.source.startsWith('explain')) return;
      const rows = statement.database
        .prepare(`explain query plan ${statement.source}`)
        .all(...args) as Array<{
        detail: string;
      }>;
      plans.push({ sql: statement.source, plan: rows.map((row) => row.detail).join('\n') });
    });
    const page = await storage.read((r) =>
      r.inventory.list(scope, LOW_STOCK_FILTER, { limit: 1, sort: 'created_at', order: 'desc' }),
    );
    seen.length = 0;
    restoreStatements();
    expect(page.data.map((row) => row.on_hand)).toEqual([0]);
    expect(page.total_count).toBe(2);
    expect(plans).toHaveLength(2);
    for (const { sql, plan } of plans) {
      expect(sql).toContain('on_hand <= safety_stock + reserved');
      expect(plan).toContain('inventory_items_low_stock_idx');
    }
  });
});

/**
 * PostgreSQL's `apply`: up to 16 writes one statement per count with a `values` list (one
 * parameter per value), beyond it seven arrays through `unnest`. Both forms compare every field,
 * write nothing on a miss and write each row its own levels otherwise.
 */
if (testRun().engines.includes('postgres'))
  describe('inventory apply on PostgreSQL', () => {
    let storage: PostgresStorage;
    let databaseUrl = '';
    beforeAll(async () => {
      const error = inject('cartwrightPgError');
      if (error) throw new Error(error);
      databaseUrl = await createTestDatabase(inject('cartwrightPgUrl'));
      // One connection: the prepared statements read from pg_prepared_statements are its own.
      storage = postgresStorage({ connectionString: databaseUrl, max: 1 });
      await storage.migrate();
    });
    afterAll(async () => {
      await storage?.close();
      if (databaseUrl) await dropTestDatabase(databaseUrl);
    });

    /** The apply statements compiled so far (the storage's template texts). */
    const applyTexts = () => [...storage.templates.sqlTexts].filter((text) => text.startsWith('with w as'));

    /** Runs `apply` and returns its result with the statement text it compiled for this count. */
    async function applyOnce(scope: ReturnType<typeof newScope>, writes: InventoryWrite[], at: number) {
      const before = new Set(applyTexts());
      const missed = await storage.transaction((tx) => tx.inventory.apply(scope, writes, at));
      return { missed, compiled: applyTexts().filter((text) => !before.has(text)) };
    }

    const levels = { on_hand: 5, reserved: 0, track_inventory: true, allow_backorder: false };

    for (const n of [1, 2, 16, 17]) {
      it(`${n} write(s): ${n <= 16 ? `a values list of ${n} row(s), variant_id in (…)` : 'unnest over arrays'}; a miss writes no row, then every row takes its own levels`, async () => {
        const scope = newScope();
        const product = makeProduct(scope, {
          prices: Array.from({ length: n }, (_, i) => i + 1),
          on_hand: 5,
        });
        await storage.transaction((tx) => tx.products.insert(product));
        const ids = product.variants.map((v) => v.id);
        const writes: InventoryWrite[] = ids.map((variant_id, i) => ({
          variant_id,
          expect: levels,
          set: { on_hand: 5 + i, reserved: i + 1 },
        }));
        const stored = async () =>
          Object.fromEntries(
            (await storage.read((r) => r.inventory.get(scope, { variant_ids: ids }))).map((row) => [
              row.variant_id,
              [row.on_hand, row.reserved, row.updated_at],
            ]),
          );
        const unchanged = await stored();
        expect(Object.keys(unchanged)).toHaveLength(n);

        // The last write expects a flag the row does not hold: nothing is written, it is named.
        const last = writes[n - 1]!;
        const stale = [...writes.slice(0, -1), { ...last, expect: { ...levels, allow_backorder: true } }];
        const first = await applyOnce(scope, stale, 2);
        expect(first.missed).toEqual([last.variant_id]);
        expect(await stored()).toEqual(unchanged);
        expect(first.compiled).toHaveLength(1);
        const text = first.compiled[0]!;
        if (n <= 16) {
          expect(text).not.toContain('unnest');
          expect(text).not.toContain('any(');
          expect(
            text.match(
              /\(\$\d+::text, \$\d+::int, \$\d+::int, \$\d+::bool, \$\d+::bool, \$\d+::int, \$\d+::int\)/g,
            ),
          ).toHaveLength(1);
          expect(text.match(/\((\$\d+, ){6}\$\d+\)/g) ?? []).toHaveLength(n - 1);
          expect(/i\.variant_id in \(([^)]*)\)/.exec(text)?.[1]?.split(', ')).toHaveLength(n);
        } else {
          expect(text).toContain('unnest($1::text[]');
          expect(text).toContain('i.variant_id = any(');
        }

        // A missing variant and a stale middle row (when there is one) miss too, together.
        const middle = writes[Math.floor(n / 2)]!;
        const twice = writes.map((w) => (w === middle ? { ...w, expect: { ...levels, on_hand: 4 } } : w));
        if (n > 1) twice[0] = { ...twice[0]!, variant_id: 'var_missing' };
        const again = await applyOnce(scope, twice, 3);
        expect(again.compiled).toEqual([]);
        expect(new Set(again.missed)).toEqual(
          new Set(n > 1 ? ['var_missing', middle.variant_id] : [middle.variant_id]),
        );
        expect(await stored()).toEqual(unchanged);

        // Every expectation holds: each row takes its own levels, `updated_at` and version + 1.
        expect((await applyOnce(scope, writes, 4)).missed).toEqual([]);
        expect(await stored()).toEqual(
          Object.fromEntries(writes.map((w) => [w.variant_id, [w.set.on_hand, w.set.reserved, 4]])),
        );
        const item = await storage.read((r) =>
          r.inventory.getItem(scope, product.variants[n - 1]!.inventory.id),
        );
        expect(item?.version).toBe(1);
      });
    }

    it('the values form is a prepared statement of the connection: planned for its first five executions, then its generic plan', async () => {
      // Its own single connection: the prepared statements below ran only here.
      const own = postgresStorage({ connectionString: databaseUrl, max: 1 });
      try {
        const scope = newScope();
        const product = makeProduct(scope, { prices: [1, 2], on_hand: 5 });
        await own.transaction((tx) => tx.products.insert(product));
        const writes = product.variants.map((v) => ({ variant_id: v.id, expect: levels, set: levels }));
        for (let i = 0; i < 10; i++) {
          expect(await own.transaction((tx) => tx.inventory.apply(scope, writes, 10 + i))).toEqual([]);
        }
        const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
          select statement, generic_plans, custom_plans from pg_prepared_statements
          where statement like 'with w as (select * from %'`.execute(own.db);
        expect(
          rows.map((row) => ({
            values: row.statement.startsWith('with w as (select * from (values'),
            generic: Number(row.generic_plans),
            custom: Number(row.custom_plans),
          })),
        ).toEqual([{ values: true, generic: 5, custom: 5 }]);
      } finally {
        await own.close();
      }
    });
  });

/** better-sqlite3's statement methods, patched to record the SQL text they run. */
const statementProto = (() => {
  const probe = new BetterSqlite3(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  return proto;
})();
const originals = new Map<string, unknown>();

function recordStatements(inspect?: (statement: BetterSqlite3.Statement, args: unknown[]) => void): string[] {
  const seen: string[] = [];
  for (const method of ['all', 'get', 'run']) {
    const original = statementProto[method] as (...args: unknown[]) => unknown;
    originals.set(method, original);
    statementProto[method] = function (this: BetterSqlite3.Statement, ...args: unknown[]) {
      seen.push(this.source);
      inspect?.(this, args);
      return original.apply(this, args);
    };
  }
  return seen;
}

function restoreStatements(): void {
  for (const [method, original] of originals) statementProto[method] = original;
  originals.clear();
}
