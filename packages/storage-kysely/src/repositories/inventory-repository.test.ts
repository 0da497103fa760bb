import { LOW_STOCK_FILTER, reserveInventory, updateInventory } from '@cartwright/core/internal';
import { makeProduct, newScope } from '@cartwright/storage-conformance';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SqliteStorage, sqliteStorage } from '../dialects/sqlite/sqlite-storage';

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
