import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Storage } from '@cartwright/core/storage';

/**
 * `DATABASE_URL` (docs/contract.md#running): `postgres://…` → PostgreSQL; `:memory:` → in-memory SQLite;
 * anything else → a SQLite file (its folder is created). `poolSize`: the PostgreSQL pool's size
 * (`DATABASE_POOL_SIZE`, default 10).
 */
export async function openStorage(
  databaseUrl: string,
  options: { poolSize?: number } = {},
): Promise<Storage> {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
    return postgresStorage({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  }
  const { sqliteStorage } = await import('@cartwright/storage-kysely/sqlite');
  if (databaseUrl !== ':memory:') mkdirSync(dirname(databaseUrl), { recursive: true });
  return sqliteStorage({ filename: databaseUrl });
}

/** What to print of a database URL: never its password. */
export function describeDatabase(databaseUrl: string): string {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    try {
      const url = new URL(databaseUrl);
      if (url.password) url.password = '***';
      return url.toString();
    } catch {
      return 'postgres (unparseable URL)';
    }
  }
  return databaseUrl === ':memory:' ? 'in-memory SQLite' : `SQLite file ${databaseUrl}`;
}
