import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createMariadbTestDatabase,
  dropMariadbTestDatabase,
  type MariadbServer,
  startMariadb,
} from '@cartwright/storage-conformance/mariadb-server';
import { createTestDatabase, dropTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, NO_MIGRATIONS, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testRun } from '../../../storage-conformance/src/test-engines';
import { mysqlStorage } from '../mysql';
import { PRICE_ASC_KEY, PRICE_DESC_KEY } from '../schema/sort-keys';
import type { SchemaDialect } from './column-types';
import { createMigrationProvider, migrationsFor } from './migration-provider';
import { readSchema, type Schema } from './schema-catalog';

/**
 * The schema every migration leaves, per engine — SQLite, PostgreSQL and MariaDB (`mysql`) —
 * against a committed snapshot (`__schema__/<dialect>.json`): for each migration in
 * migration-provider.ts, what it added, removed and changed relative to the migration before
 * (0001: relative to an empty database) — tables (columns in order, options), columns (type,
 * nullability, default, collation), primary and foreign keys, indexes (their definitions:
 * columns, uniqueness, predicate), triggers and functions (schema-catalog.ts reads them). The
 * schema is read from the database's catalog after migrating a fresh database one migration at a
 * time; then every `down` is walked back to an empty database (each step must
 * give the schema of the migration before) and everything is applied again.
 *
 * A released migration must never change what it does, so a difference fails. To accept a
 * deliberate change, or record a new migration:
 *   UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run packages/storage-kysely/src/migrations/schema-snapshot.test.ts
 * Outside CI a migration missing from the snapshot is recorded by a normal run; in CI (`CI` set)
 * a missing snapshot or entry fails like a difference.
 */

interface Change {
  added?: Schema;
  removed?: Schema;
  changed?: Record<string, { from: string; to: string }>;
}
type Snapshot = Record<string, Change>;

const DIRECTORY = fileURLToPath(new URL('./__schema__/', import.meta.url));
const UPDATE = process.env.UPDATE_SCHEMA_SNAPSHOT === '1';
const CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

// ---------------------------------------------------------------- snapshots

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What turns `before` into `after`. */
function changeOf(before: Schema, after: Schema): Change {
  const added: Schema = {};
  const removed: Schema = {};
  const changed: Record<string, { from: string; to: string }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) added[key] = value;
    else if (before[key] !== value) changed[key] = { from: before[key] as string, to: value };
  }
  for (const [key, value] of Object.entries(before)) if (!(key in after)) removed[key] = value;
  return {
    ...(Object.keys(added).length > 0 && { added: sorted(added) }),
    ...(Object.keys(removed).length > 0 && { removed: sorted(removed) }),
    ...(Object.keys(changed).length > 0 && { changed: sorted(changed) }),
  };
}

function snapshotPath(dialect: SchemaDialect): string {
  return `${DIRECTORY}${dialect}.json`;
}

function readSnapshot(dialect: SchemaDialect): Snapshot | undefined {
  const path = snapshotPath(dialect);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Snapshot) : undefined;
}

function writeSnapshot(dialect: SchemaDialect, snapshot: Snapshot): void {
  mkdirSync(DIRECTORY, { recursive: true });
  writeFileSync(snapshotPath(dialect), `${JSON.stringify(snapshot, null, 2)}\n`);
}

/**
 * Compares `actual` with the committed snapshot: equal entries pass; with UPDATE_SCHEMA_SNAPSHOT=1
 * the file is rewritten; outside CI, migrations the file lacks (and nothing else) are recorded.
 */
function expectSnapshot(dialect: SchemaDialect, actual: Snapshot): void {
  if (UPDATE) {
    writeSnapshot(dialect, actual);
    return;
  }
  const stored = readSnapshot(dialect);
  const hint = `schema snapshot ${dialect}.json (regenerate: UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run packages/storage-kysely/src/migrations/schema-snapshot.test.ts)`;
  if (stored === undefined && CI) expect.fail(`missing ${hint}`);
  const recorded = stored ?? {};
  for (const name of Object.keys(recorded)) {
    expect(actual[name], `${name}: recorded in ${hint} but not registered`).toBeDefined();
    expect(actual[name], `${name} differs from ${hint}`).toEqual(recorded[name]);
  }
  const missing = Object.keys(actual).filter((name) => !(name in recorded));
  if (missing.length === 0) {
    expect(Object.keys(actual)).toEqual(Object.keys(recorded));
    return;
  }
  if (CI) expect.fail(`${missing.join(', ')} missing from ${hint}`);
  writeSnapshot(dialect, actual);
  console.warn(`recorded ${missing.join(', ')} in ${hint}: review and commit it`);
}

// ---------------------------------------------------------------- engines

interface Engine {
  dialect: SchemaDialect;
  /** A fresh, empty database (MariaDB: through the storage's dialect, which the migrations run on). */
  open(): Promise<Kysely<unknown>>;
}

const databases: string[] = [];
const mariadbDatabases: string[] = [];
let mariadb: Promise<MariadbServer> | undefined;
afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url);
  for (const url of mariadbDatabases) await dropMariadbTestDatabase(url).catch(() => {});
  await (await mariadb?.catch(() => undefined))?.stop();
}, 60_000);

const ENGINES: Engine[] = [
  {
    dialect: 'sqlite',
    open: async () => new Kysely({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) }),
  },
  {
    dialect: 'postgres',
    open: async () => {
      const error = inject('cartwrightPgError');
      if (error) throw new Error(error);
      const url = await createTestDatabase(inject('cartwrightPgUrl'));
      databases.push(url);
      return new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
    },
  },
  {
    // A throwaway MariaDB started by this file (as test/mariadb.test.ts does).
    dialect: 'mysql',
    open: async () => {
      mariadb ??= startMariadb();
      const url = await createMariadbTestDatabase((await mariadb).url);
      mariadbDatabases.push(url);
      return mysqlStorage({ connectionString: url, max: 1 }).db as unknown as Kysely<unknown>;
    },
  },
];

// PostgreSQL and MariaDB when they are engines of the run (test-engines.ts).
const { engines } = testRun();
for (const engine of ENGINES.filter((e) => engines.includes(e.dialect === 'mysql' ? 'mariadb' : e.dialect))) {
  describe(`schema snapshot on ${engine.dialect}`, () => {
    it('every migration gives the recorded schema; every down gives the schema before it; up again gives the latest', {
      timeout: 180_000,
    }, async () => {
      const names = Object.keys(migrationsFor(engine.dialect));
      const db = await engine.open();
      try {
        const migrator = new Migrator({ db, provider: createMigrationProvider(engine.dialect) });
        // Up, one migration at a time.
        const schemas: Schema[] = [await readSchema(engine.dialect, db)];
        expect(schemas[0]).toEqual({});
        const snapshot: Snapshot = {};
        for (const name of names) {
          const { error } = await migrator.migrateTo(name);
          expect(error, name).toBeUndefined();
          const schema = await readSchema(engine.dialect, db);
          snapshot[name] = changeOf(schemas[schemas.length - 1] as Schema, schema);
          schemas.push(schema);
        }
        expectSnapshot(engine.dialect, snapshot);
        const latest = schemas[schemas.length - 1] as Schema;
        if (engine.dialect === 'sqlite') {
          // The product repository sorts by these keys; SQLite uses the index only if they are written alike.
          expect(latest['index products_price_asc_idx']).toContain(`(${PRICE_ASC_KEY})`);
          expect(latest['index products_price_desc_idx']).toContain(`(${PRICE_DESC_KEY})`);
        }

        // Down, one migration at a time, to an empty database.
        for (let i = names.length - 1; i >= 0; i--) {
          const { error } = await migrator.migrateDown();
          expect(error, `down ${names[i]}`).toBeUndefined();
          expect(await readSchema(engine.dialect, db), `schema after down ${names[i]}`).toEqual(schemas[i]);
        }
        expect(await readSchema(engine.dialect, db)).toEqual({});
        const none = await migrator.migrateTo(NO_MIGRATIONS);
        expect(none.error).toBeUndefined();

        // And up again, all at once.
        const { error } = await migrator.migrateToLatest();
        expect(error).toBeUndefined();
        expect(await readSchema(engine.dialect, db)).toEqual(latest);
      } finally {
        await db.destroy();
      }
    });
  });
}
