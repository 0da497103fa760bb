import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../src/kysely-storage';
import { TABLE_COLUMNS } from '../src/schema/table-columns';
import { UNIQUE_INDEXES } from '../src/translate-db-error';

/**
 * Checks that the schema the migrations produce is the one the code expects: the same tables
 * and columns as TABLE_COLUMNS (which the compiler checks against the Kysely `Database`
 * interface), and the unique indexes whose names translate-db-error.ts relies on.
 */
export function describeSchemaContract(name: string, openEmpty: () => Promise<KyselyStorage>): void {
  describe(`schema contract: ${name}`, () => {
    it('migrated tables and columns equal TABLE_COLUMNS; migrating twice changes nothing', async () => {
      const storage = await openEmpty();
      try {
        await storage.migrate();
        const snapshot = async () =>
          Object.fromEntries(
            (await storage.db.introspection.getTables())
              .filter((table) => table.schema === undefined || table.schema === 'public')
              .map((table) => [table.name, table.columns.map((column) => column.name).sort()]),
          );
        const first = await snapshot();
        const expected = Object.fromEntries(
          Object.entries(TABLE_COLUMNS).map(([table, columns]) => [table, [...columns].sort()]),
        );
        expect(first).toEqual(expected);
        await storage.migrate();
        expect(await snapshot()).toEqual(first);
      } finally {
        await storage.close();
      }
    });

    it('has the unique indexes that duplicate errors are translated from', async () => {
      const storage = await openEmpty();
      try {
        await storage.migrate();
        const query =
          storage.dialect === 'sqlite'
            ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
            : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`;
        const names = new Set((await query.execute(storage.db)).rows.map((row) => row.name));
        for (const index of Object.keys(UNIQUE_INDEXES)) expect(names.has(index), index).toBe(true);
        expect(names.has('products_price_asc_idx')).toBe(true);
        expect(names.has('webhook_deliveries_due_idx')).toBe(true);
      } finally {
        await storage.close();
      }
    });
  });
}
