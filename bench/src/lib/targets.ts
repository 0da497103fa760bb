import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresTarget } from './postgres';

/** A database the engine runs on, by its `DATABASE_URL` (docs/contract.md#running). */
export interface Target {
  kind: 'sqlite-memory' | 'sqlite-file' | 'postgres';
  label: string;
  /** `:memory:`, a SQLite file path, or a `postgres://` URL. */
  databaseUrl: string;
  /** Removes the SQLite file's folder (no-op for the others). */
  cleanup(): void;
}

export function sqliteMemoryTarget(): Target {
  return { kind: 'sqlite-memory', label: 'SQLite memory', databaseUrl: ':memory:', cleanup() {} };
}

/** A SQLite file (WAL, synchronous=NORMAL — the adapter's settings) in a fresh temp folder. */
export function sqliteFileTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-bench-'));
  return {
    kind: 'sqlite-file',
    label: 'SQLite file (WAL)',
    databaseUrl: join(dir, 'bench.db'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function postgresTarget(pg: PostgresTarget): Promise<Target> {
  return { kind: 'postgres', label: 'Postgres', databaseUrl: await pg.newDatabase(), cleanup() {} };
}
