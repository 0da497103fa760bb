import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, dropTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  NO_MIGRATIONS,
  PostgresDialect,
  type RawBuilder,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testRun } from '../../../storage-conformance/src/test-engines';
import { PRICE_ASC_KEY, PRICE_DESC_KEY } from '../schema/sort-keys';
import type { SchemaDialect } from './column-types';
import { createMigrationProvider, migrationsFor } from './migration-provider';

/**
 * The schema every migration leaves, per engine, against a committed snapshot
 * (`__schema__/<engine>.json`): for each migration in migration-provider.ts, what it added,
 * removed and changed relative to the migration before (0001: relative to an empty database) —
 * tables (columns in order, options), columns (type, nullability, default, collation), primary
 * and foreign keys, indexes (their definitions: columns, uniqueness, predicate), triggers and
 * functions. The schema is read from the database's catalog after migrating a fresh database one
 * migration at a time; then every `down` is walked back to an empty database (each step must
 * give the schema of the migration before) and everything is applied again.
 *
 * A released migration must never change what it does, so a difference fails. To accept a
 * deliberate change, or record a new migration:
 *   UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run packages/storage-kysely/src/migrations/schema-snapshot.test.ts
 * Outside CI a migration missing from the snapshot is recorded by a normal run; in CI (`CI` set)
 * a missing snapshot or entry fails like a difference.
 */

/** `kind name` → definition, e.g. `column products.price` → `integer`. */
type Schema = Record<string, string>;
interface Change {
  added?: Schema;
  removed?: Schema;
  changed?: Record<string, { from: string; to: string }>;
}
type Snapshot = Record<string, Change>;

const DIRECTORY = fileURLToPath(new URL('./__schema__/', import.meta.url));
const UPDATE = process.env.UPDATE_SCHEMA_SNAPSHOT === '1';
const CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** SQLite keeps DDL as written: identifier quotes and white space are not part of the schema. */
const sqliteDefinition = (text: string): string => oneLine(text.replaceAll('"', ''));
const list = (names: readonly string[]): string => `(${names.join(', ')})`;

// ---------------------------------------------------------------- reading the schema

async function sqliteSchema(db: Kysely<unknown>): Promise<Schema> {
  const schema: Schema = {};
  const rows = async <T>(query: RawBuilder<T>) => (await query.execute(db)).rows;
  const tables = await rows<{ name: string; strict: number; wr: number }>(
    sql`select name, strict, wr from pragma_table_list where schema = 'main' and type = 'table'
      and name not like 'sqlite_%' and name not like 'kysely_%' order by name`,
  );
  for (const table of tables) {
    const columns = await rows<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>(sql`select name, type, "notnull", dflt_value, pk from pragma_table_xinfo(${table.name}) order by cid`);
    const options = [table.strict ? 'strict' : '', table.wr ? 'without rowid' : ''].filter(Boolean);
    schema[`table ${table.name}`] = [list(columns.map((c) => c.name)), ...options].join(' ');
    for (const c of columns) {
      const parts = [c.type.toLowerCase(), c.notnull ? 'not null' : 'null'];
      if (c.dflt_value !== null) parts.push(`default ${c.dflt_value}`);
      schema[`column ${table.name}.${c.name}`] = parts.join(' ');
    }
    const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (key.length > 0) schema[`primary key ${table.name}`] = list(key.map((c) => c.name));
    const foreign = await rows<{ id: number; table: string; from: string; to: string; on_delete: string }>(
      sql`select id, "table", "from", "to", on_delete from pragma_foreign_key_list(${table.name}) order by id, seq`,
    );
    for (const id of new Set(foreign.map((f) => f.id))) {
      const parts = foreign.filter((f) => f.id === id);
      const target = parts[0]?.table ?? '';
      schema[`foreign key ${table.name} ${list(parts.map((f) => f.from))}`] =
        `references ${target} ${list(parts.map((f) => f.to))} on delete ${parts[0]?.on_delete.toLowerCase()}`;
    }
    const indexes = await rows<{ name: string; unique: number; origin: string }>(
      sql`select name, "unique", origin from pragma_index_list(${table.name})`,
    );
    for (const index of indexes) {
      if (index.origin === 'pk') continue; // the primary key, above
      const definition = await rows<{ sql: string | null }>(
        sql`select sql from sqlite_master where type = 'index' and name = ${index.name}`,
      );
      const text = definition[0]?.sql;
      if (text) {
        schema[`index ${index.name}`] = sqliteDefinition(text);
      } else {
        const keyColumns = await rows<{ name: string | null }>(
          sql`select name from pragma_index_xinfo(${index.name}) where key = 1 order by seqno`,
        );
        schema[`index ${index.name}`] =
          `on ${table.name} ${index.unique ? 'unique ' : ''}${list(keyColumns.map((c) => c.name ?? '<expr>'))}`;
      }
    }
  }
  const triggers = await rows<{ name: string; sql: string }>(
    sql`select name, sql from sqlite_master where type = 'trigger' order by name`,
  );
  for (const trigger of triggers) schema[`trigger ${trigger.name}`] = sqliteDefinition(trigger.sql);
  const views = await rows<{ name: string; sql: string }>(
    sql`select name, sql from sqlite_master where type = 'view' order by name`,
  );
  for (const view of views) schema[`view ${view.name}`] = sqliteDefinition(view.sql);
  return schema;
}

async function postgresSchema(db: Kysely<unknown>): Promise<Schema> {
  const schema: Schema = {};
  const rows = async <T>(query: RawBuilder<T>) => (await query.execute(db)).rows;
  const tables = await rows<{ name: string; persistence: string; kind: string }>(
    sql`select c.relname as name, c.relpersistence as persistence, c.relkind as kind
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') and c.relname not like 'kysely_%'
      order by c.relname`,
  );
  for (const table of tables) {
    const columns = await rows<{
      name: string;
      type: string;
      notnull: boolean;
      dflt: string | null;
      coll: string | null;
    }>(
      sql`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull,
          pg_get_expr(d.adbin, d.adrelid) as dflt,
          case when a.attcollation <> 0 and a.attcollation <> t.typcollation then co.collname end as coll
        from pg_attribute a
          join pg_type t on t.oid = a.atttypid
          left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
          left join pg_collation co on co.oid = a.attcollation
        where a.attrelid = ${sql.lit(`public.${table.name}`)}::regclass and a.attnum > 0 and not a.attisdropped
        order by a.attnum`,
    );
    const options = [
      table.persistence === 'u' ? 'unlogged' : '',
      table.kind === 'p'
        ? 'partitioned'
        : table.kind === 'v'
          ? 'view'
          : table.kind === 'm'
            ? 'materialized view'
            : '',
    ].filter(Boolean);
    schema[`table ${table.name}`] = [list(columns.map((c) => c.name)), ...options].join(' ');
    for (const c of columns) {
      const parts = [c.type, c.notnull ? 'not null' : 'null'];
      if (c.dflt !== null) parts.push(`default ${c.dflt}`);
      if (c.coll !== null) parts.push(`collate "${c.coll}"`);
      schema[`column ${table.name}.${c.name}`] = parts.join(' ');
    }
  }
  const constraints = await rows<{ name: string; table: string; type: string; definition: string }>(
    sql`select con.conname as name, cl.relname as table, con.contype as type, pg_get_constraintdef(con.oid) as definition
      from pg_constraint con join pg_class cl on cl.oid = con.conrelid join pg_namespace n on n.oid = cl.relnamespace
      where n.nspname = 'public' and cl.relname not like 'kysely_%' order by cl.relname, con.conname`,
  );
  for (const c of constraints) {
    const kind = c.type === 'p' ? 'primary key' : c.type === 'f' ? 'foreign key' : 'constraint';
    schema[`${kind} ${c.table} ${c.name}`] = c.definition;
  }
  const indexes = await rows<{ name: string; definition: string }>(
    sql`select i.indexname as name, i.indexdef as definition from pg_indexes i
      where i.schemaname = 'public' and i.tablename not like 'kysely_%'
        and not exists (select 1 from pg_constraint con where con.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass
          and con.contype in ('p', 'u', 'x'))
      order by i.indexname`,
  );
  for (const index of indexes) schema[`index ${index.name}`] = index.definition;
  const triggers = await rows<{ name: string; definition: string }>(
    sql`select t.tgname as name, pg_get_triggerdef(t.oid) as definition
      from pg_trigger t join pg_class cl on cl.oid = t.tgrelid join pg_namespace n on n.oid = cl.relnamespace
      where n.nspname = 'public' and not t.tgisinternal order by t.tgname`,
  );
  for (const trigger of triggers) schema[`trigger ${trigger.name}`] = trigger.definition;
  const functions = await rows<{ name: string; source: string }>(
    sql`select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') returns ' ||
        pg_get_function_result(p.oid) as name, p.prosrc as source
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by 1`,
  );
  for (const fn of functions) schema[`function ${fn.name}`] = oneLine(fn.source);
  const sequences = await rows<{ name: string }>(
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  for (const sequence of sequences) schema[`sequence ${sequence.name}`] = 'sequence';
  return schema;
}

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
  open(): Promise<Kysely<unknown>>;
  read(db: Kysely<unknown>): Promise<Schema>;
}

const databases: string[] = [];
afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url);
});

const ENGINES: Engine[] = [
  {
    dialect: 'sqlite',
    open: async () => new Kysely({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) }),
    read: sqliteSchema,
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
    read: postgresSchema,
  },
];

// PostgreSQL when it is an engine of the run (test-engines.ts).
const { engines } = testRun();
for (const engine of ENGINES.filter((e) => engines.includes(e.dialect === 'mysql' ? 'mariadb' : e.dialect))) {
  describe(`schema snapshot on ${engine.dialect}`, () => {
    it('every migration gives the recorded schema; every down gives the schema before it; up again gives the latest', async () => {
      const names = Object.keys(migrationsFor(engine.dialect));
      const db = await engine.open();
      try {
        const migrator = new Migrator({ db, provider: createMigrationProvider(engine.dialect) });
        // Up, one migration at a time.
        const schemas: Schema[] = [await engine.read(db)];
        expect(schemas[0]).toEqual({});
        const snapshot: Snapshot = {};
        for (const name of names) {
          const { error } = await migrator.migrateTo(name);
          expect(error, name).toBeUndefined();
          const schema = await engine.read(db);
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
          expect(await engine.read(db), `schema after down ${names[i]}`).toEqual(schemas[i]);
        }
        expect(await engine.read(db)).toEqual({});
        const none = await migrator.migrateTo(NO_MIGRATIONS);
        expect(none.error).toBeUndefined();

        // And up again, all at once.
        const { error } = await migrator.migrateToLatest();
        expect(error).toBeUndefined();
        expect(await engine.read(db)).toEqual(latest);
      } finally {
        await db.destroy();
      }
    });
  });
}
