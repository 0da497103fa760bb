import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Storage } from '@cartwright/core/storage';

/** The engine a `DATABASE_URL` (as {@link readConfig} resolved it) names. */
export function databaseKind(databaseUrl: string): 'postgres' | 'mariadb' | 'sqlite' {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return 'postgres';
  if (/^(mysql|mariadb):\/\//i.test(databaseUrl)) return 'mariadb';
  return 'sqlite';
}

/**
 * `DATABASE_URL` (docs/contract.md#running): `postgres://…` → PostgreSQL; `mysql://…` or
 * `mariadb://…` → MariaDB; `:memory:` → in-memory SQLite; anything else → a SQLite file (its folder
 * is created). `poolSize`: the PostgreSQL or MariaDB pool's size (`DATABASE_POOL_SIZE`, default 10).
 */
export async function openStorage(
  databaseUrl: string,
  options: { poolSize?: number } = {},
): Promise<Storage> {
  const kind = databaseKind(databaseUrl);
  if (kind === 'postgres') {
    const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
    return postgresStorage({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  }
  if (kind === 'mariadb') {
    const { mysqlStorage } = await import('@cartwright/storage-kysely/mysql');
    return mysqlStorage({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  }
  const { sqliteStorage } = await import('@cartwright/storage-kysely/sqlite');
  if (databaseUrl !== ':memory:') mkdirSync(dirname(databaseUrl), { recursive: true });
  return sqliteStorage({ filename: databaseUrl });
}

/** What to print of a database URL: never its password. */
export function describeDatabase(databaseUrl: string): string {
  const kind = databaseKind(databaseUrl);
  if (kind !== 'sqlite') {
    try {
      const url = new URL(databaseUrl);
      if (url.password) url.password = '***';
      return url.toString();
    } catch {
      return `${kind} (unparseable URL)`;
    }
  }
  return databaseUrl === ':memory:' ? 'in-memory SQLite' : `SQLite file ${databaseUrl}`;
}
