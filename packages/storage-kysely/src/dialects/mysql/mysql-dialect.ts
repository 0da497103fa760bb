import {
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  MysqlDialect,
  type MysqlDialectConfig,
  type OperationNode,
  type QueryCompiler,
  QueryNode,
  type QueryResult,
  ReferenceNode,
  type RootOperationNode,
  SelectionNode,
  SelectModifierNode,
  SelectQueryNode,
  sql,
  type TransactionSettings,
  UpdateQueryNode,
  WhereNode,
} from 'kysely';
import { MariadbQueryCompiler } from './mysql-query-compiler';

/**
 * Kysely's MysqlDialect with {@link MariadbQueryCompiler}, and `update … returning` (which
 * MariaDB lacks; it has `insert`/`delete … returning`) run as three statements in the
 * statement's transaction (one opened around them outside a transaction):
 *
 * 1. `select <primary key> from t where <the update's where> for update` — locks the rows;
 * 2. the update, restricted to those keys (so a row inserted meanwhile is not touched);
 * 3. `select <returning> from t where <primary key> in (…)` — the rows as updated.
 *
 * Same result and the same locks as Postgres' `update … returning`.
 */
export class MariadbDialect extends MysqlDialect {
  constructor(config: MysqlDialectConfig) {
    super(config);
  }

  override createQueryCompiler(): QueryCompiler {
    return new MariadbQueryCompiler();
  }

  override createDriver(): Driver {
    return new UpdateReturningDriver(super.createDriver(), new MariadbQueryCompiler());
  }
}

/** The primary key columns of each table, read once from information_schema. */
type KeyCache = Map<string, Promise<string[]>>;

class UpdateReturningDriver implements Driver {
  readonly #keys: KeyCache = new Map();
  readonly #inTransaction = new WeakSet<DatabaseConnection>();

  constructor(
    readonly inner: Driver,
    readonly compiler: QueryCompiler,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    return wrapConnection(connection, this);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(unwrap(connection), settings);
    this.#inTransaction.add(unwrap(connection));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.#inTransaction.delete(unwrap(connection));
    await this.inner.commitTransaction(unwrap(connection));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#inTransaction.delete(unwrap(connection));
    await this.inner.rollbackTransaction(unwrap(connection));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.savepoint!(unwrap(connection), name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.rollbackToSavepoint!(unwrap(connection), name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.releaseSavepoint!(unwrap(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  inTransaction(connection: DatabaseConnection): boolean {
    return this.#inTransaction.has(connection);
  }

  primaryKey(connection: DatabaseConnection, table: string): Promise<string[]> {
    let key = this.#keys.get(table);
    if (!key) {
      key = connection
        .executeQuery<{ c: string }>(
          compiledRaw(
            `select column_name as c from information_schema.key_column_usage
             where table_schema = database() and table_name = ? and constraint_name = 'PRIMARY'
             order by ordinal_position`,
            [table],
          ),
        )
        .then((result) => {
          if (result.rows.length === 0) throw new Error(`MariaDB: table ${table} has no primary key`);
          return result.rows.map((row) => row.c);
        });
      key.catch(() => this.#keys.delete(table));
      this.#keys.set(table, key);
    }
    return key;
  }
}

const INNER = Symbol('inner connection');
type Wrapped = DatabaseConnection & { [INNER]: DatabaseConnection };

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return (connection as Partial<Wrapped>)[INNER] ?? connection;
}

function wrapConnection(inner: DatabaseConnection, driver: UpdateReturningDriver): DatabaseConnection {
  const wrapped: Wrapped = {
    [INNER]: inner,
    executeQuery<R>(query: CompiledQuery<unknown>): Promise<QueryResult<R>> {
      const compiled = query as CompiledQuery<R>;
      const node = compiled.query;
      if (UpdateQueryNode.is(node) && node.returning) return updateReturning(inner, driver, compiled, node);
      if (
        (node.kind === 'RawNode' || node.kind === 'DropIndexNode') &&
        /^\s*(create|drop)\s+(unique\s+)?index\b/i.test(compiled.sql)
      ) {
        return indexDdl(inner, compiled);
      }
      return inner.executeQuery(literalListsWhenLocking(compiled));
    },
    streamQuery: (compiled, chunkSize) => inner.streamQuery(compiled, chunkSize),
  };
  return wrapped;
}

/**
 * The migrations' raw index statements, in MariaDB's terms: a partial index (`… where <pred>`)
 * indexes every row (MariaDB has no partial indexes; a partial UNIQUE index would change the
 * rule, so it is refused — 0001 writes those as generated columns), and `drop index if exists
 * <name>` (raw, or Kysely's `schema.dropIndex(name).ifExists()`, as 0003's `down`) names its
 * table (looked up in information_schema).
 */
async function indexDdl<R>(
  connection: DatabaseConnection,
  compiled: CompiledQuery<R>,
): Promise<QueryResult<R>> {
  const drop = /^\s*drop\s+index\s+if\s+exists\s+[`"]?(\w+)[`"]?\s*$/i.exec(compiled.sql);
  if (drop) {
    const found = await connection.executeQuery<{ t: string }>(
      compiledRaw(
        'select table_name as t from information_schema.statistics where table_schema = database() and index_name = ? limit 1',
        [drop[1]],
      ),
    );
    const table = found.rows[0]?.t;
    if (!table) return { rows: [] };
    return connection.executeQuery(compiledRaw(`drop index \`${drop[1]}\` on \`${table}\``, []));
  }
  const partial = /^(\s*create\s+(unique\s+)?index\s+[\s\S]*?\))\s+where\s+[\s\S]*$/i.exec(compiled.sql);
  if (partial) {
    if (partial[2]) throw new Error(`MariaDB has no partial unique indexes: ${compiled.sql}`);
    return connection.executeQuery({ ...compiled, sql: partial[1]! });
  }
  return connection.executeQuery(compiled);
}

/** `inList` of mysql-capabilities.ts as compiled: one JSON-array parameter read by `json_table`. */
const JSON_TABLE_LIST = "in (select j.v from json_table(?, '$[*]' columns (v varchar(255) path '$')) as j)";

/**
 * A statement that locks rows (`… for update`, `update`, `delete`) gets its `inList` lists as
 * literal lists, `in (?, ?, …)`: the list's values as parameters. MariaDB turns
 * `in (select … from json_table(…))` into a semi-join, and on a small table it scans the table
 * and keeps the lock of every row it read, matching or not (READ COMMITTED releases a
 * non-matching row's lock only for conditions of the table itself); two checkouts locking
 * different variants then deadlock. A literal list is such a condition (and an index range).
 * Reads that lock nothing keep the one statement text per query.
 */
function literalListsWhenLocking<R>(compiled: CompiledQuery<R>): CompiledQuery<R> {
  const text = compiled.sql;
  if (!text.includes(JSON_TABLE_LIST)) return compiled;
  if (!/^\s*(update|delete)\b/i.test(text) && !/\bfor update\b/i.test(text)) return compiled;
  let out = '';
  const parameters: unknown[] = [];
  let next = 0; // index of the next parameter of `compiled`
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (inString) {
      out += char;
      if (char === "'") inString = false;
      continue;
    }
    if (char === "'") {
      inString = true;
      out += char;
      continue;
    }
    if (char === 'i' && text.startsWith(JSON_TABLE_LIST, i)) {
      const values = JSON.parse(String(compiled.parameters[next])) as unknown[];
      next += 1;
      out += values.length === 0 ? 'in (null)' : `in (${values.map(() => '?').join(', ')})`;
      parameters.push(...values);
      i += JSON_TABLE_LIST.length - 1;
      continue;
    }
    if (char === '?') {
      parameters.push(compiled.parameters[next]);
      next += 1;
    }
    out += char;
  }
  return { ...compiled, sql: out, parameters };
}

function compiledRaw<R>(text: string, parameters: readonly unknown[]): CompiledQuery<R> {
  return { sql: text, parameters, query: { kind: 'RawNode' } as never, queryId: { queryId: 'raw' } as never };
}

async function updateReturning<R>(
  connection: DatabaseConnection,
  driver: UpdateReturningDriver,
  compiled: CompiledQuery<R>,
  statement: UpdateQueryNode,
): Promise<QueryResult<R>> {
  let node = statement;
  if (node.from || node.joins || node.with || !node.table) {
    throw new Error('MariaDB: update … returning with from/joins/with is not supported');
  }
  const target = node.table;
  const table = tableName(target);
  // The statement's parameters may be template slots: recompiling the node gives the same
  // parameter objects in the same order, so each maps to the value bound for this execution.
  const original = driver.compiler.compileQuery(node as RootOperationNode, compiled.queryId);
  const bound = new Map<unknown, unknown>();
  original.parameters.forEach((parameter, i) => {
    if (typeof parameter === 'object' && parameter !== null) bound.set(parameter, compiled.parameters[i]);
  });
  const run = <T>(root: RootOperationNode): Promise<QueryResult<T>> => {
    const query = driver.compiler.compileQuery(root, compiled.queryId);
    const parameters = query.parameters.map((p) => (bound.has(p) ? bound.get(p) : p));
    return connection.executeQuery<T>(literalListsWhenLocking({ ...query, parameters } as CompiledQuery<T>));
  };

  const own = !driver.inTransaction(connection);
  if (own) await connection.executeQuery(compiledRaw('start transaction', []));
  try {
    const key = await driver.primaryKey(connection, table);
    const materialized = node.where && (await materializeLimitedIn(node.where.where, run));
    if (materialized === null) {
      if (own) await connection.executeQuery(compiledRaw('commit', []));
      return { rows: [], numAffectedRows: 0n };
    }
    if (materialized) node = { ...node, where: WhereNode.create(materialized) };
    let lock = SelectQueryNode.createFrom([target]);
    lock = SelectQueryNode.cloneWithSelections(
      lock,
      key.map((column) => SelectionNode.create(ReferenceNode.create(ColumnNode.create(column)))),
    );
    if (node.where) lock = { ...lock, where: node.where };
    lock = QueryNode.cloneWithEndModifier(lock, SelectModifierNode.create('ForUpdate'));
    const keys = (await run<Record<string, unknown>>(lock)).rows;
    let rows: R[] = [];
    let updated = 0n;
    if (keys.length > 0) {
      const inKeys = sql`(${sql.join(key.map((column) => sql.ref(column)))}) in (${sql.join(
        keys.map((row) => sql`(${sql.join(key.map((column) => row[column]))})`),
      )})`.toOperationNode();
      const where = node.where
        ? WhereNode.cloneWithOperation(node.where, 'And', inKeys)
        : WhereNode.create(inKeys);
      const { returning: _returning, ...plain } = node;
      const update = await run<R>({ ...plain, where } as UpdateQueryNode);
      updated = update.numAffectedRows ?? BigInt(keys.length);
      const read = {
        ...SelectQueryNode.cloneWithSelections(
          SelectQueryNode.createFrom([target]),
          node.returning!.selections,
        ),
        where: WhereNode.create(inKeys),
      };
      rows = (await run<R>(read)).rows;
    }
    if (own) await connection.executeQuery(compiledRaw('commit', []));
    return { rows, numAffectedRows: updated };
  } catch (error) {
    if (own) await connection.executeQuery(compiledRaw('rollback', [])).catch(() => {});
    throw error;
  }
}

/**
 * MariaDB refuses `in (select … limit n)`: each such subquery of the where (under `and`) runs
 * first — with its locks (`for update skip locked` claims) — and becomes the list of its values.
 * Undefined: nothing to rewrite; null: a subquery found no row (the where matches nothing).
 */
async function materializeLimitedIn(
  where: OperationNode,
  run: <T>(root: RootOperationNode) => Promise<QueryResult<T>>,
): Promise<OperationNode | null | undefined> {
  if (AndNode.is(where)) {
    const left = await materializeLimitedIn(where.left, run);
    if (left === null) return null;
    const right = await materializeLimitedIn(where.right, run);
    if (right === null) return null;
    if (left === undefined && right === undefined) return undefined;
    return AndNode.create(left ?? where.left, right ?? where.right);
  }
  if (
    !BinaryOperationNode.is(where) ||
    !SelectQueryNode.is(where.rightOperand) ||
    !where.rightOperand.limit ||
    (where.operator as { operator?: string }).operator !== 'in'
  ) {
    return undefined;
  }
  const rows = (await run<Record<string, unknown>>(where.rightOperand)).rows;
  if (rows.length === 0) return null;
  const values = rows.map((row) => Object.values(row)[0]);
  return BinaryOperationNode.create(
    where.leftOperand,
    where.operator,
    sql`(${sql.join(values)})`.toOperationNode(),
  );
}

function tableName(node: unknown): string {
  const n = node as { kind: string; table?: { identifier: { name: string } }; node?: unknown };
  if (n.kind === 'TableNode' && n.table) return n.table.identifier.name;
  if (n.kind === 'AliasNode') return tableName(n.node);
  throw new Error(`MariaDB: update … returning on ${n.kind} is not supported`);
}
