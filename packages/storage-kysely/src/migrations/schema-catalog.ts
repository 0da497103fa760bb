import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Test support (not a migration, not published): the schema of a database as its catalog tells
 * it, one entry per object — `kind name` → definition, e.g. `column products.price` → `integer`:
 * tables (columns in order, options), columns (type, nullability, default, collation), primary
 * and foreign keys, other constraints, indexes, triggers, functions (routines), views, sequences.
 * Read by the schema snapshot test (schema-snapshot.test.ts) and the upgrade tests, which compare
 * a database with another. The migrator's own tables (`kysely_*`) are left out.
 *
 * - SQLite: `pragma_table_list` / `table_xinfo` / `foreign_key_list` / `index_list`, and
 *   `sqlite_master` for index, trigger and view definitions.
 * - PostgreSQL (schema `public`): `pg_class`, `pg_attribute`, `pg_constraint`, `pg_indexes`,
 *   `pg_trigger` (`pg_get_triggerdef`), `pg_proc` (functions with their source), sequences.
 * - MariaDB (the connection's database): `information_schema` `TABLES`, `COLUMNS`,
 *   `STATISTICS`, `KEY_COLUMN_USAGE` + `REFERENTIAL_CONSTRAINTS`, `CHECK_CONSTRAINTS`,
 *   `TRIGGERS`, `ROUTINES`, `VIEWS`, `EVENTS`.
 */
export type Schema = Record<string, string>;

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** SQLite keeps DDL as written: identifier quotes and white space are not part of the schema. */
const sqliteDefinition = (text: string): string => oneLine(text.replaceAll('"', ''));
const list = (names: readonly string[]): string => `(${names.join(', ')})`;

/** The schema of `db`, an empty object for an empty database. */
export function readSchema(dialect: SchemaDialect, db: Kysely<unknown>): Promise<Schema> {
  return dialect === 'sqlite'
    ? sqliteSchema(db)
    : dialect === 'postgres'
      ? postgresSchema(db)
      : mariadbSchema(db);
}

export async function sqliteSchema(db: Kysely<unknown>): Promise<Schema> {
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

export async function postgresSchema(db: Kysely<unknown>): Promise<Schema> {
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

export async function mariadbSchema(db: Kysely<unknown>): Promise<Schema> {
  const schema: Schema = {};
  const rows = async <T>(query: RawBuilder<T>) => (await query.execute(db)).rows;
  const notMigrator = (column: string) => sql.raw(`${column} not like 'kysely\\_%'`);
  const tables = await rows<{ name: string; type: string; engine: string | null; collation: string | null }>(
    sql`select table_name as name, table_type as type, engine, table_collation as collation
      from information_schema.tables where table_schema = database() and ${notMigrator('table_name')}
      order by table_name`,
  );
  for (const table of tables) {
    const columns = await rows<{
      name: string;
      type: string;
      nullable: string;
      dflt: string | null;
      collation: string | null;
      extra: string;
      generated: string | null;
    }>(
      sql`select column_name as name, column_type as type, is_nullable as nullable, column_default as dflt,
          collation_name as collation, extra, generation_expression as generated
        from information_schema.columns where table_schema = database() and table_name = ${table.name}
        order by ordinal_position`,
    );
    const options = [
      table.type === 'BASE TABLE' ? '' : table.type.toLowerCase(),
      table.engine ? `engine ${table.engine.toLowerCase()}` : '',
      table.collation ? `collate ${table.collation}` : '',
    ].filter(Boolean);
    schema[`table ${table.name}`] = [list(columns.map((c) => c.name)), ...options].join(' ');
    for (const c of columns) {
      const parts = [c.type, c.nullable === 'YES' ? 'null' : 'not null'];
      if (c.dflt !== null) parts.push(`default ${c.dflt}`);
      if (c.collation !== null) parts.push(`collate ${c.collation}`);
      if (c.generated !== null) parts.push(`as (${c.generated})`);
      if (c.extra) parts.push(c.extra.toLowerCase());
      schema[`column ${table.name}.${c.name}`] = parts.join(' ');
    }
  }
  const indexColumns = await rows<{
    table: string;
    name: string;
    non_unique: number | string;
    column: string | null;
    sub_part: number | null;
    type: string;
  }>(
    sql`select table_name as "table", index_name as name, non_unique, column_name as "column", sub_part,
        index_type as type
      from information_schema.statistics where table_schema = database() and ${notMigrator('table_name')}
      order by table_name, index_name, seq_in_index`,
  );
  const indexes = new Map<string, typeof indexColumns>();
  for (const row of indexColumns) {
    const key = `${row.table}\u0000${row.name}`;
    indexes.set(key, [...(indexes.get(key) ?? []), row]);
  }
  for (const parts of indexes.values()) {
    const first = parts[0] as (typeof indexColumns)[number];
    const columns = list(
      parts.map((p) => `${p.column ?? '<expr>'}${p.sub_part === null ? '' : `(${p.sub_part})`}`),
    );
    if (first.name === 'PRIMARY') schema[`primary key ${first.table}`] = columns;
    else {
      const unique = Number(first.non_unique) === 0 ? 'unique ' : '';
      schema[`index ${first.name}`] = `on ${first.table} ${unique}${first.type.toLowerCase()} ${columns}`;
    }
  }
  const foreign = await rows<{
    table: string;
    name: string;
    column: string;
    target: string;
    to: string;
    on_delete: string;
    on_update: string;
  }>(
    sql`select k.table_name as "table", k.constraint_name as name, k.column_name as "column",
        k.referenced_table_name as target, k.referenced_column_name as "to",
        r.delete_rule as on_delete, r.update_rule as on_update
      from information_schema.key_column_usage k
        join information_schema.referential_constraints r
          on r.constraint_schema = k.constraint_schema and r.constraint_name = k.constraint_name
            and r.table_name = k.table_name
      where k.table_schema = database() and k.referenced_table_name is not null
      order by k.table_name, k.constraint_name, k.ordinal_position`,
  );
  const byConstraint = new Map<string, typeof foreign>();
  for (const row of foreign) {
    const key = `${row.table}\u0000${row.name}`;
    byConstraint.set(key, [...(byConstraint.get(key) ?? []), row]);
  }
  for (const parts of byConstraint.values()) {
    const first = parts[0] as (typeof foreign)[number];
    schema[`foreign key ${first.table} ${first.name}`] =
      `${list(parts.map((p) => p.column))} references ${first.target} ${list(parts.map((p) => p.to))} ` +
      `on delete ${first.on_delete.toLowerCase()} on update ${first.on_update.toLowerCase()}`;
  }
  const checks = await rows<{ table: string; name: string; level: string; clause: string }>(
    sql`select table_name as "table", constraint_name as name, level, check_clause as clause
      from information_schema.check_constraints where constraint_schema = database()
      order by table_name, constraint_name`,
  );
  for (const c of checks) {
    schema[`constraint ${c.table} ${c.name}`] = `${c.level.toLowerCase()} check (${oneLine(c.clause)})`;
  }
  const triggers = await rows<{
    name: string;
    table: string;
    timing: string;
    event: string;
    order: number | string;
    statement: string;
  }>(
    sql`select trigger_name as name, event_object_table as "table", action_timing as timing,
        event_manipulation as event, action_order as "order", action_statement as statement
      from information_schema.triggers where trigger_schema = database() order by trigger_name`,
  );
  for (const t of triggers) {
    schema[`trigger ${t.name}`] =
      `${t.timing.toLowerCase()} ${t.event.toLowerCase()} on ${t.table} order ${t.order} for each row ${oneLine(t.statement)}`;
  }
  const routines = await rows<{ name: string; type: string; returns: string | null; body: string | null }>(
    sql`select routine_name as name, routine_type as type, dtd_identifier as returns,
        routine_definition as body
      from information_schema.routines where routine_schema = database() order by routine_type, routine_name`,
  );
  for (const r of routines) {
    const returns = r.returns ? ` returns ${r.returns}` : '';
    schema[`${r.type.toLowerCase()} ${r.name}${returns}`] = oneLine(r.body ?? '');
  }
  const views = await rows<{ name: string; definition: string }>(
    sql`select table_name as name, view_definition as definition from information_schema.views
      where table_schema = database() order by table_name`,
  );
  for (const view of views) schema[`view ${view.name}`] = oneLine(view.definition);
  const events = await rows<{ name: string; definition: string }>(
    sql`select event_name as name, event_definition as definition from information_schema.events
      where event_schema = database() order by event_name`,
  );
  for (const event of events) schema[`event ${event.name}`] = oneLine(event.definition);
  return schema;
}
