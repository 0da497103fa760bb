import type { Compilable, Insertable } from 'kysely';
import type { Database, TableName } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';
import type { QueryRunner } from './query-runner';
import { type CompiledTemplate, shapedTemplate, slot, type Template } from './template';

/** Rows per multi-row INSERT (well under both engines' parameter limits). */
const CHUNK = 100;

export type EncodedRow<TB extends TableName> = { [K in keyof Database[TB]]: unknown };

/**
 * `INSERT INTO <table> (<every column>) VALUES (…), (…)` for `n` rows, one compiled statement
 * per row count; with `onConflictDoNothing`, conflicting rows are skipped silently.
 */
export function insertTemplate<TB extends TableName>(
  table: TB,
  options: { onConflictDoNothing?: boolean } = {},
): Template<string, unknown, number> {
  const columns = TABLE_COLUMNS[table] as readonly string[];
  return shapedTemplate(
    (count: number) => String(count),
    ({ db }, p: object, count: number) => {
      const rows = Array.from({ length: count }, (_, i) =>
        Object.fromEntries(columns.map((column) => [column, slot(p, `r${i}_${column}`)])),
      );
      const query = db.insertInto(table as TableName).values(rows as Insertable<Database[TableName]>[]);
      return (
        options.onConflictDoNothing ? query.onConflict((oc) => oc.doNothing()) : query
      ) as Compilable<unknown>;
    },
  );
}

/**
 * Where each parameter of a compiled multi-row insert comes from: `row * columns + column`.
 * Computed once per compiled statement, so binding is a plain array fill.
 */
const layouts = new WeakMap<CompiledTemplate<unknown>, Int32Array>();

function layoutOf(compiled: CompiledTemplate<unknown>, columns: readonly string[]): Int32Array {
  let layout = layouts.get(compiled);
  if (!layout) {
    const position = new Map<string, number>();
    for (let row = 0; row < CHUNK; row++) {
      for (const [i, column] of columns.entries())
        position.set(`r${row}_${column}`, row * columns.length + i);
    }
    layout = Int32Array.from(compiled.bindings, (binding) => {
      const at = 'slot' in binding ? position.get(binding.slot) : undefined;
      if (at === undefined) throw new Error('unexpected parameter in an insert template');
      return at;
    });
    layouts.set(compiled, layout);
  }
  return layout;
}

/**
 * Inserts encoded rows in chunks through `t` (an insertTemplate of the same table). Every chunk's
 * statement is started before any is awaited (and synchronously, at the call), so a caller may
 * leave the whole insert in flight (core's `work.defer`): on PostgreSQL the chunks share one
 * round trip, and no statement of it is sent after the transaction's COMMIT.
 */
export function insertRows<TB extends TableName>(
  q: QueryRunner,
  t: Template<string, unknown, number>,
  table: TB,
  rows: readonly EncodedRow<TB>[],
): Promise<void> {
  const columns = TABLE_COLUMNS[table] as readonly string[];
  const sent: Array<Promise<number>> = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    const count = Math.min(CHUNK, rows.length - start);
    const compiled = q.compiled(t, count);
    const layout = layoutOf(compiled, columns);
    const values = new Array<unknown>(count * columns.length);
    for (let r = 0; r < count; r++) {
      const row = rows[start + r] as Record<string, unknown>;
      for (let c = 0; c < columns.length; c++) {
        const value = row[columns[c]!];
        // SQL NULL for absent optional values.
        values[r * columns.length + c] = value === undefined ? null : value;
      }
    }
    const parameters = new Array<unknown>(layout.length);
    for (let i = 0; i < layout.length; i++) parameters[i] = values[layout[i]!];
    sent.push(q.execute({ ...compiled.compiled, parameters }));
  }
  if (sent.length === 1) return sent[0] as Promise<unknown> as Promise<void>;
  return Promise.all(sent).then(() => undefined);
}
