import { nameWordsText } from '@cartwright/core/storage-rules';
import { newScope } from '@cartwright/storage-conformance';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider, migrationsFor } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

const NAMES = [
  'T-Shirt',
  'Café crème',
  'ÄRMEL/ärmel2',
  'Mug (2-pack)',
  'e\u0301t\u00e9 😀 sale',
  '日本茶',
  'İstanbul_Tee',
  'a\u0001b',
  '100% cotton \\ linen',
];

async function columnsOf(storage: KyselyStorage, table: string): Promise<string[]> {
  const tables = await storage.db.introspection.getTables();
  return tables.find((t) => t.name === table)?.columns.map((column) => column.name) ?? [];
}

/** The migration applied just before 0024 (whichever numbers exist in the tree). */
function before0024(storage: KyselyStorage): string {
  const names = Object.keys(migrationsFor(storage.dialect)).sort();
  return names[names.indexOf('0024_product_relevance') - 1] as string;
}

function describeProductRelevance(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0024_product_relevance on ${name}`, () => {
    it('adds products.name_words and fills it for existing products (several batches) as core’s nameWordsText; down drops it', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        expect((await migrator.migrateTo(before0024(storage))).error).toBeUndefined();
        expect(await columnsOf(storage, 'products')).not.toContain('name_words');

        const scope = newScope();
        const other = newScope();
        const json = (value: unknown) =>
          storage.dialect === 'postgres'
            ? sql`${JSON.stringify(value)}::jsonb`
            : sql`${JSON.stringify(value)}`;
        const rows: Array<{ scope: typeof scope; id: string; name: string }> = [];
        for (let i = 0; i < 1203; i++) {
          const base = NAMES[i % NAMES.length] as string;
          rows.push({
            scope: i % 7 === 0 ? other : scope,
            id: `prod_mig${String(i).padStart(5, '0')}`,
            name: `${base} ${i}`,
          });
        }
        for (let start = 0; start < rows.length; start += 100) {
          const values = rows
            .slice(start, start + 100)
            .map(
              (row) =>
                sql`(${row.scope.store_id}, ${row.scope.mode}, ${row.id}, ${row.name}, ${row.name.toLowerCase()}, ${`slug-${row.id}`}, null, 'physical', 'active', ${json([])}, ${json({})}, ${json({})}, null, 'USD', 1, 1, null)`,
            );
          await sql`insert into products (store_id, mode, id, name, name_lower, slug, description, type, status, tags, attributes, metadata, price, currency, created_at, updated_at, deleted_at)
            values ${sql.join(values)}`.execute(storage.db);
        }

        const up = await migrator.migrateTo('0024_product_relevance');
        expect(up.error).toBeUndefined();
        const stored = await sql<{ id: string; name: string; name_words: string | null }>`
          select id, name, name_words from products`.execute(storage.db);
        expect(stored.rows).toHaveLength(rows.length);
        for (const row of stored.rows) expect(row.name_words, row.name).toBe(nameWordsText(row.name));

        const down = await migrator.migrateTo(before0024(storage));
        expect(down.error).toBeUndefined();
        expect(await columnsOf(storage, 'products')).not.toContain('name_words');
      } finally {
        await storage.close();
      }
    }, 60_000);
  });
}

onEveryEngine(describeProductRelevance);
