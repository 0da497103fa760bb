import { type SqliteStorage, sqliteStorage } from '@cartwright/storage-kysely/sqlite';

/** How a test engine gets its schema. */
export type SchemaStrategy = 'snapshot' | 'migrate';

type CompiledQuery = Parameters<SqliteStorage['db']['executeQuery']>[0];

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

interface MasterRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * A raw statement for `Kysely#executeQuery`. Built by hand (rather than with kysely's
 * `CompiledQuery.raw`) so this package does not depend on kysely itself; the SQLite driver only
 * reads `sql` and `parameters`.
 */
function raw(sql: string, parameters: readonly unknown[] = []): CompiledQuery {
  return {
    sql,
    parameters,
    query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] },
    queryId: { queryId: 'cartwright-testing' },
  } as unknown as CompiledQuery;
}

async function rows<T>(storage: SqliteStorage, sql: string): Promise<T[]> {
  return (await storage.db.executeQuery(raw(sql))).rows as T[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Runs the real migrations once on a throwaway in-memory database and records what they made:
 * every CREATE statement in `sqlite_master` order, then the rows of every table that has any
 * (Kysely's migration bookkeeping), as INSERT statements.
 */
async function takeSnapshot(): Promise<Statement[]> {
  const template = sqliteStorage({ filename: ':memory:' });
  try {
    await template.migrate();
    const master = await rows<MasterRow>(
      template,
      'select type, name, sql from sqlite_master order by rowid',
    );
    const objects = master.filter((row) => row.sql !== null && !row.name.startsWith('sqlite_'));
    const statements: Statement[] = objects.map((row) => ({ sql: row.sql as string, parameters: [] }));
    for (const table of objects.filter((row) => row.type === 'table')) {
      for (const row of await rows<Record<string, unknown>>(template, `select * from ${quote(table.name)}`)) {
        const columns = Object.keys(row);
        statements.push({
          sql: `insert into ${quote(table.name)} (${columns.map(quote).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
          parameters: Object.values(row),
        });
      }
    }
    return statements;
  } finally {
    await template.close();
  }
}

let snapshot: Promise<Statement[]> | undefined;

/**
 * An in-memory SQLite storage (`sqliteStorage({ filename: ':memory:' })`) with the full schema.
 *
 * `'migrate'` runs the migrations on it (Kysely's Migrator: about 40–160 ms on this schema of 30
 * tables and 60 indexes, most of it per-statement overhead of the migrator, not SQLite).
 * `'snapshot'` (the default of `createTestEngine`) runs the real migrations only once per process,
 * on a template database, and replays the resulting schema — the exact CREATE statements SQLite
 * recorded plus the migration bookkeeping rows — into each new database in one transaction
 * (about 5 ms). The result is the same database the migrations produce, so a later
 * `storage.migrate()` finds nothing to do.
 */
export async function openMemoryStorage(strategy: SchemaStrategy = 'snapshot'): Promise<SqliteStorage> {
  const storage = sqliteStorage({ filename: ':memory:' });
  try {
    if (strategy === 'migrate') {
      await storage.migrate();
      return storage;
    }
    snapshot ??= takeSnapshot().catch((error: unknown) => {
      snapshot = undefined;
      throw error;
    });
    const statements = await snapshot;
    await storage.db.executeQuery(raw('begin'));
    try {
      for (const statement of statements)
        await storage.db.executeQuery(raw(statement.sql, statement.parameters));
      await storage.db.executeQuery(raw('commit'));
    } catch (error) {
      await storage.db.executeQuery(raw('rollback'));
      throw error;
    }
    return storage;
  } catch (error) {
    await storage.close();
    throw error;
  }
}
