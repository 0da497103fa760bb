import { type Compilable, type CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import type { Database } from '../schema/database';

/**
 * Statements built once. A template is a Kysely builder written against named parameter slots;
 * each storage compiles it the first time it runs (per dialect, and per `shape` for the few
 * statements whose text depends on which columns or filters are present) and afterwards only
 * binds values: no builder allocation or SQL compilation on the hot path, and identical SQL text
 * so SQLite's statement cache and Postgres' named statements hit.
 *
 * A slot is a placeholder object that Kysely carries through as an ordinary parameter; after
 * compilation the parameter list records, per position, which argument to bind.
 */
class Slot {
  constructor(readonly name: string) {}
}

/** Parameter slots of a template, typed `never` so that they fit any column type. */
export type Slots<P extends string> = { readonly [K in P]: never };

/** A slot by a name computed at build time (`set_<column>`, `k0`, …). */
export function slot(p: object, name: string): never {
  return (p as Record<string, never>)[name] as never;
}

/** The arguments a template needs, by slot name. */
export type Args<P extends string> = { readonly [K in P]: unknown };

export interface BuildContext {
  /** A Kysely instance used only to build and compile (never executes). */
  readonly db: Kysely<Database>;
  readonly caps: DialectCapabilities;
}

export interface Template<P extends string, R, S = undefined> {
  readonly id: number;
  readonly build: (ctx: BuildContext, p: Slots<P>, shape: S) => Compilable<R>;
  readonly shapeKey: ((shape: S) => string) | undefined;
}

let nextTemplateId = 0;

/** A statement whose text never changes. */
export function template<P extends string, R>(
  build: (ctx: BuildContext, p: Slots<P>) => Compilable<R>,
): Template<P, R, undefined> {
  return { id: nextTemplateId++, build: (ctx, p) => build(ctx, p), shapeKey: undefined };
}

/** A statement whose text depends on `shape` (e.g. which columns a patch sets); one compilation per key. */
export function shapedTemplate<P extends string, R, S>(
  shapeKey: (shape: S) => string,
  build: (ctx: BuildContext, p: Slots<P>, shape: S) => Compilable<R>,
): Template<P, R, S> {
  return { id: nextTemplateId++, build, shapeKey };
}

type Binding = { slot: string } | { constant: unknown };

export interface CompiledTemplate<R> {
  readonly compiled: CompiledQuery<R>;
  readonly bindings: readonly Binding[];
}

const slots = new Proxy({} as Record<string, Slot>, {
  get: (_target, property) => new Slot(String(property)),
});

export function compileTemplate<P extends string, R, S>(
  ctx: BuildContext,
  t: Template<P, R, S>,
  shape: S,
): CompiledTemplate<R> {
  const compiled = t.build(ctx, slots as unknown as Slots<P>, shape).compile();
  const bindings = compiled.parameters.map(
    (value): Binding => (value instanceof Slot ? { slot: value.name } : { constant: value }),
  );
  return { compiled, bindings };
}

/** The compiled query with `args` bound in slot order. */
export function bindTemplate<R>(
  template: CompiledTemplate<R>,
  args: Readonly<Record<string, unknown>>,
): CompiledQuery<R> {
  const { bindings } = template;
  const parameters = new Array<unknown>(bindings.length);
  for (let i = 0; i < bindings.length; i++) {
    const binding = bindings[i]!;
    if ('slot' in binding) {
      const value = args[binding.slot];
      if (value === undefined) throw new Error(`Missing query argument '${binding.slot}'`);
      parameters[i] = value;
    } else {
      parameters[i] = binding.constant;
    }
  }
  return { ...template.compiled, parameters };
}

/** Per-storage cache of compiled templates (keyed by template id and shape). */
export class TemplateCache {
  readonly #byKey = new Map<string | number, CompiledTemplate<unknown>>();
  /** Every SQL text compiled so far (Postgres names these as prepared statements). */
  readonly sqlTexts = new Set<string>();

  constructor(readonly ctx: BuildContext) {}

  get<P extends string, R, S>(t: Template<P, R, S>, shape: S): CompiledTemplate<R> {
    const key = t.shapeKey ? `${t.id}:${t.shapeKey(shape)}` : t.id;
    let compiled = this.#byKey.get(key) as CompiledTemplate<R> | undefined;
    if (!compiled) {
      compiled = compileTemplate(this.ctx, t, shape);
      this.#byKey.set(key, compiled as CompiledTemplate<unknown>);
      this.sqlTexts.add(compiled.compiled.sql);
    }
    return compiled;
  }
}

/**
 * SQLite: the columns of a row as ONE text value, `json_array(c1, c2, …)`. better-sqlite3
 * builds a row object at ~0.5 µs per column, while one JSON string parses at a fraction of that:
 * a 25-column discount row measured 16 µs as `select *`, 4–6 µs as this array plus
 * `JSON.parse`; a cart with 3 items 28 → 19 µs. SQLite (3.53) writes REAL values with
 * round-trip precision and integers as integers, so the values read back are exactly the
 * column values (epoch ms and money stay below 2^53). JSON text columns stay strings (the
 * codecs parse them as before: nesting them through `json()` measured slower). `extra` values
 * follow the columns (e.g. a nested JSON aggregate). Read back with {@link rowFromJson}.
 */
export function sqliteJsonRow(
  columns: readonly string[],
  options: { table?: string; extra?: readonly RawBuilder<unknown>[] } = {},
): RawBuilder<string> {
  const { table, extra = [] } = options;
  const values: RawBuilder<unknown>[] = columns.map(
    (column) => sql`${sql.ref(table === undefined ? column : `${table}.${column}`)}`,
  );
  return sql<string>`json_array(${sql.join([...values, ...extra])})`;
}

/** The row object of a {@link sqliteJsonRow} value: `columns[i]` → element `i`. */
export function rowFromJson<T>(columns: readonly string[], text: string): T {
  return rowFromValues(columns, JSON.parse(text) as unknown[]);
}

/** `columns[i]` → `values[i]` as an object (the values of a parsed {@link sqliteJsonRow}). */
export function rowFromValues<T>(columns: readonly string[], values: readonly unknown[]): T {
  let make = rowMakers.get(columns);
  if (!make) {
    make = rowMaker(columns);
    rowMakers.set(columns, make);
  }
  return make(values) as T;
}

/** One row maker per column list (the lists are module constants, e.g. `TABLE_COLUMNS.carts`). */
const rowMakers = new WeakMap<readonly string[], (values: readonly unknown[]) => object>();

/**
 * `(v) => ({ c0: v[0], c1: v[1], … })`, generated once per column list: an object literal of a
 * fixed shape, where adding 10–25 keys one by one to `{}` measured ~2–4 µs per row (a chain of
 * map transitions, and dictionary mode past V8's limit). The names are our own column constants,
 * quoted with `JSON.stringify`.
 */
function rowMaker(columns: readonly string[]): (values: readonly unknown[]) => object {
  const fields = columns.map((column, i) => `${JSON.stringify(column)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: readonly unknown[]) => object;
}
