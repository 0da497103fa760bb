import type { Database as BetterSqlite3Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Wraps a better-sqlite3 handle for Kysely so that `prepare(sql)` returns a cached statement:
 * templates produce identical SQL text, so after warm-up no statement is parsed again.
 * Eviction is first-in-first-out beyond `capacity` (the set of texts is small and stable).
 */
export function cachingDatabase(
  database: BetterSqlite3Database,
  capacity = 1000,
): SqliteDatabase & { prepare(sql: string): Statement } {
  const statements = new Map<string, Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= capacity) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
