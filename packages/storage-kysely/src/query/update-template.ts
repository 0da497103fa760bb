import { type Compilable, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { Database, TableName } from '../schema/database';
import { type Slots, shapedTemplate, slot, type Template } from './template';

export interface UpdateShape {
  columns: readonly string[];
  guard: boolean;
}

/**
 * `UPDATE <table> SET <present columns> WHERE <key> [AND <guard>] RETURNING *`, one compiled
 * statement per set of columns. Values are bound as `set_<column>`; the key as `store_id`,
 * `mode`, `id` (scoped tables) or `id`; the guard's own slots as it names them.
 */
export function updateTemplate<TB extends TableName, G extends string = never>(
  table: TB,
  options: {
    scoped?: boolean;
    /** Extra WHERE condition (compare-and-set), added when the arguments carry a guard. */
    guard?: (p: Slots<G>) => RawBuilder<SqlBool>;
    /** Constant WHERE condition always added (e.g. `deleted_at is null`). */
    where?: string;
  } = {},
): Template<string, Selectable<Database[TB]>, UpdateShape> {
  const scoped = options.scoped ?? true;
  return shapedTemplate(
    (shape: UpdateShape) => `${shape.columns.join(',')}|${shape.guard}`,
    ({ db }, p: Slots<'store_id' | 'mode' | 'id'>, shape) => {
      const set = Object.fromEntries(shape.columns.map((column) => [column, slot(p, `set_${column}`)]));
      const key = scoped
        ? sql<SqlBool>`store_id = ${p.store_id} and mode = ${p.mode} and id = ${p.id}`
        : sql<SqlBool>`id = ${p.id}`;
      let query = db
        .updateTable(table as TableName)
        .set(set as never)
        .where(key);
      if (options.where) query = query.where(sql<SqlBool>`${sql.raw(options.where)}`);
      if (shape.guard && options.guard) query = query.where(options.guard(p as unknown as Slots<G>));
      return query.returningAll() as unknown as Compilable<Selectable<Database[TB]>>;
    },
  );
}

/** Shape and arguments of an update from encoded column values (undefined values are skipped). */
export function updateArgs(
  values: Readonly<Record<string, unknown>>,
  key: Readonly<Record<string, unknown>>,
  guard?: Readonly<Record<string, unknown>>,
): { shape: UpdateShape; args: Record<string, unknown> } {
  const columns: string[] = [];
  // Copied key by key, not `{ ...key, ...guard }`: V8 (Node 20) builds a spread that later gets
  // new keys (the `set_*` below) on a slow path, ~1 µs per statement (see scoped-args.ts).
  const args: Record<string, unknown> = {};
  for (const name in key) args[name] = key[name];
  if (guard) for (const name in guard) args[name] = guard[name];
  for (const column of Object.keys(values).sort()) {
    const value = values[column];
    if (value === undefined) continue;
    columns.push(column);
    args[`set_${column}`] = value;
  }
  return { shape: { columns, guard: guard !== undefined }, args };
}
