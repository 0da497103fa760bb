import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every schema object is a migration's (issue 34): tables, columns, indexes, triggers, functions,
 * views… — the schema snapshots (schema-snapshot.test.ts) then record all of it, and a database
 * is exactly what its migrations made it. So the package's runtime code (every non-test module of
 * src/ outside src/migrations/) writes no DDL: no `create`/`drop`/`alter` of a schema object in
 * its SQL, no Kysely schema builder (`db.schema.createTable(…)` …). A source scan, comments left
 * out.
 *
 * Exempt, with the reason: the MariaDB dialect rewrites the migrations' own index statements
 * into MariaDB's terms (it runs the DDL a migration sends, and issues none of its own).
 */
const SRC = fileURLToPath(new URL('../', import.meta.url));
const EXEMPT = new Set(['dialects/mysql/mysql-dialect.ts']);

const OBJECT =
  'table|index|trigger|function|procedure|view|materialized\\s+view|sequence|event|type|domain|extension|schema|rule|policy|aggregate|operator|collation';
/** A DDL statement on a schema object, in any quoting or case; and the Kysely schema builder. */
const DDL = [
  new RegExp(
    `\\b(?:create|drop|alter)\\s+(?:or\\s+replace\\s+)?(?:(?:temp|temporary|unique|constraint|unlogged|definer\\s*=\\s*\\S+)\\s+)*(?:${OBJECT})\\b`,
    'gi',
  ),
  /\breplace\s+(?:trigger|function|procedure|view)\b/gi,
  /\.schema\s*\.\s*(?:create|alter|drop)\w*\s*\(/g,
];

/** The code of `source` without its comments (string contents stay: that is where SQL is). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The DDL of `source` (each match, white space folded), over line breaks too. */
export function ddlIn(source: string): string[] {
  const code = withoutComments(source);
  return DDL.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[0].replace(/\s+/g, ' ')));
}

function runtimeModules(directory = SRC, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      return path === 'migrations' ? [] : runtimeModules(`${directory}${entry.name}/`, `${path}/`);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('no DDL outside the migrations', () => {
  it('finds the runtime modules (the scan can see the code it judges)', () => {
    const modules = runtimeModules();
    expect(modules).toContain('kysely-storage.ts');
    expect(modules).toContain('storefront-read-model/catalog-versions.ts');
    expect(modules).toContain('dialects/mysql/mysql-dialect.ts');
    expect(modules.some((path) => path.startsWith('migrations/'))).toBe(false);
  });

  it('no runtime module creates, replaces, alters or drops a schema object', () => {
    const offending = Object.fromEntries(
      runtimeModules()
        .filter((path) => !EXEMPT.has(path))
        .map((path): [string, string[]] => [path, ddlIn(readFileSync(`${SRC}${path}`, 'utf8'))])
        .filter(([, lines]) => lines.length > 0),
    );
    expect(offending).toEqual({});
  });

  it('the scan sees DDL in every form (so that it can fail), and not in comments or plain words', () => {
    const found = [
      'await sql.raw(`create trigger if not exists products_v1 after insert on products begin',
      '`create function cartwright_bump() returns trigger language plpgsql as $$`',
      'sql`CREATE OR REPLACE FUNCTION bump() RETURNS trigger`',
      "'create constraint trigger x after insert on t deferrable initially deferred'",
      'sql`drop trigger if exists t_v1 on t`',
      'sql`DROP FUNCTION IF EXISTS bump()`',
      "sql.raw('create unique index t_idx on t (a)')",
      'sql`alter table products add column x integer`',
      'sql`create   table t (id text)`',
      'sql`create view v as select 1`',
      'sql`create definer=root@localhost trigger t before insert on x for each row set @a = 1`',
      'await db.schema.createTable("t").execute();',
      'await db.schema\n  .dropIndex("t_idx")',
    ];
    for (const line of found) expect(ddlIn(line), line).not.toEqual([]);
    const ignored = [
      '// create trigger x after insert on t',
      '/* drop function f() */',
      '/**\n * Triggers do that — created by migration 0021 (create trigger …)\n */',
      "const note = 'the function creates a table of contents';",
      "await sql`select 1 from pg_trigger where tgname = 'x'`.execute(db);",
      'insert into catalog_versions (store_id) values (1) on conflict do update set version = version + 1',
    ];
    for (const line of ignored) expect(ddlIn(line), line).toEqual([]);
  });
});
