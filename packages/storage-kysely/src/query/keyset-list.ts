import type { Scope } from '@cartwright/core';
import { CommerceError } from '@cartwright/core';
import type { Page, PageRequest } from '@cartwright/core/storage';
import { type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database, TableName } from '../schema/database';
import type { QueryRunner } from './query-runner';
import { type BuildContext, type Slots, shapedTemplate, slot, type Template } from './template';

/**
 * Keyset pagination (port: pagination.ts). A list is ordered by its sort keys then `id`, all
 * in the requested direction; `starting_after` is the id of the previous page's last row: its
 * sort values are looked up (unknown id or another scope → parameter_invalid `starting_after`)
 * and the page continues strictly after `(keys…, id)` with one row-value comparison, which the
 * `(store_id, mode, <keys>, id)` indexes serve. Rows inserted concurrently land either before
 * or after the cursor, so a walk never repeats or skips a row. `total_count` is a COUNT with
 * the same filter unless the caller knows it cheaper (`count` of {@link runKeysetList}, e.g. a
 * maintained counter), and no count at all when a first page (no cursor) holds every match;
 * `limit + 1` rows tell `has_more`. A list may select its page's columns
 * itself (`select`, default every column), e.g. to load a page's children in the same statement.
 */
export interface ListShape<F> {
  filter: F;
  sort: string;
  order: 'asc' | 'desc';
  cursor: boolean;
}

type Base<TB extends TableName, P extends string, F> = (
  ctx: BuildContext,
  p: Slots<P | 'store_id' | 'mode'>,
  filter: F,
) => SelectQueryBuilder<Database, TB, object>;

/**
 * A sort key: SQL over the table's columns, or an expression built from the list's slots (a
 * rank against a filter argument, e.g. the products' `relevance`; the cursor lookup binds the
 * same filter arguments, so the anchor's key is computed by the same SQL).
 */
export type SortKey = string | ((p: Slots<string>, ctx: BuildContext) => RawBuilder<unknown>);

/** Sort key expressions, or per direction when they differ (nulls-last price). */
export type SortKeys =
  | readonly SortKey[]
  | { readonly asc: readonly SortKey[]; readonly desc: readonly SortKey[] };

function keySql(key: SortKey, p: object, ctx: BuildContext): RawBuilder<unknown> {
  return typeof key === 'string' ? sql.raw(key) : key(p as Slots<string>, ctx);
}

/** The page's select list over `base` (rows must carry `id`, the next cursor). */
type PageSelect<TB extends TableName, R> = (
  ctx: BuildContext,
  query: SelectQueryBuilder<Database, TB, object>,
) => SelectQueryBuilder<Database, TB, R>;

export interface KeysetList<TB extends TableName, P extends string, F, R = Selectable<Database[TB]>> {
  readonly keysOf: (sort: string, order: 'asc' | 'desc') => readonly SortKey[];
  readonly page: Template<string, R, ListShape<F>>;
  readonly count: Template<string, { count: number | string }, F>;
  readonly cursor: Template<
    'store_id' | 'mode' | 'id',
    Record<string, unknown>,
    { sort: string; order: 'asc' | 'desc' }
  >;
  /** Phantom: the filter slots `base` reads (checked where the list is defined). */
  readonly filterSlots?: P | undefined;
}

/**
 * Defines the statements of one list.
 * @param sorts sort name → SQL key expressions over the table's columns (`id` is appended).
 * @param filterKey a string that identifies which filters are present (the statement's shape).
 * @param base `selectFrom(table)` with the scope and the present filters applied.
 * @param select the page's columns (default `selectAll()`); the count and cursor ignore it.
 * @param deferSelect the sorts whose page rows are chosen (ids and keys, ordered, limited) before
 *   `select` runs on them: sorts no index serves, when `select` is expensive.
 */
export function keysetList<
  TB extends TableName,
  P extends string = never,
  F = undefined,
  R = Selectable<Database[TB]>,
>(options: {
  table: TB;
  sorts: Record<string, SortKeys>;
  filterKey: (filter: F) => string;
  base: Base<TB, P, F>;
  select?: PageSelect<TB, R>;
  /** Sorts whose page is chosen before its columns are selected (see `deferredPage`). */
  deferSelect?: (sort: string, ctx: BuildContext) => boolean;
  /**
   * The column that ends a sort's order and cursor comparison (default `id`): a sort served by a
   * joined table's index names that table's copy of the id (products in a region:
   * `rp.product_id`), so that the whole order is the index's.
   */
  idKey?: (sort: string) => string;
  /** A sort's cursor lookup when the table alone cannot compute its keys (default: the table's row). */
  cursorQuery?: (
    ctx: BuildContext,
    p: Slots<'store_id' | 'mode' | 'id'>,
    sort: string,
    keys: readonly SortKey[],
  ) => SelectQueryBuilder<Database, TableName, Record<string, unknown>> | undefined;
}): KeysetList<TB, P, F, R> {
  const { table, sorts, filterKey, base } = options;
  const select: PageSelect<TB, R> =
    options.select ?? ((_ctx, query) => query.selectAll() as unknown as SelectQueryBuilder<Database, TB, R>);
  const keysOf = (sort: string, order: 'asc' | 'desc'): readonly SortKey[] => {
    const keys = Object.hasOwn(sorts, sort) ? sorts[sort] : undefined;
    if (!keys) throw new CommerceError('parameter_invalid', `Unknown sort '${sort}'`, { param: 'sort' });
    return 'asc' in keys ? keys[order] : keys;
  };

  const page = shapedTemplate(
    (shape: ListShape<F>) => `${filterKey(shape.filter)}|${shape.sort}|${shape.order}|${shape.cursor}`,
    (ctx, p: Slots<P | 'store_id' | 'mode'>, shape: ListShape<F>) => {
      const keys = keysOf(shape.sort, shape.order);
      let query = base(ctx, p, shape.filter);
      if (options.deferSelect?.(shape.sort, ctx)) return deferredPage(ctx, p, query, keys, shape);
      const id = sql.ref(options.idKey?.(shape.sort) ?? 'id');
      if (shape.cursor) {
        const columns = sql.join([...keys.map((key) => keySql(key, p, ctx)), id]);
        const values = sql.join([...keys.map((_, i) => slot(p, `k${i}`)), slot(p, 'cursor_id')]);
        const op = sql.raw(shape.order === 'asc' ? '>' : '<');
        query = query.where(sql<SqlBool>`(${columns}) ${op} (${values})`);
      }
      for (const key of keys) query = query.orderBy(keySql(key, p, ctx), shape.order);
      return select(ctx, query.orderBy(id, shape.order)).limit(slot(p, 'limit'));
    },
  );

  /**
   * A page of a sort no index serves (a rank computed per row; `deferSelect`), in one scan of the
   * matches: `m` = every match's id, keys and `count(*) over ()` (the filter's total), then the
   * rows after the cursor, ordered and limited (`page`), then the page's columns selected for
   * those rows only, with `page_total` (runKeysetList's `total_count`, no COUNT statement). Why:
   * such a page reads every match anyway, and a second scan for the COUNT doubled its cost; and
   * SQLite computes every selected column of every row it sorts (a product's whole document),
   * so the expensive select must come after the limit.
   */
  function deferredPage(
    ctx: BuildContext,
    p: Slots<P | 'store_id' | 'mode'>,
    query: SelectQueryBuilder<Database, TB, object>,
    keys: readonly SortKey[],
    shape: ListShape<F>,
  ) {
    const order = shape.order;
    const matches = query.select([
      sql<string>`${sql.ref('id')}`.as('page_id'),
      ...keys.map((key, i) => sql<unknown>`${keySql(key, p, ctx)}`.as(`page_k${i}`)),
      sql<number | string>`count(*) over ()`.as('page_total'),
    ]);
    const pageKeys = [...keys.map((_, i) => sql.ref(`m.page_k${i}`)), sql.ref('m.page_id')];
    // Typed loosely: derived tables are not in the schema types.
    let chosen = ctx.db
      .selectFrom(matches.as('m') as unknown as TableName)
      .selectAll() as unknown as SelectQueryBuilder<Database, TB, object>;
    if (shape.cursor) {
      const values = sql.join([...keys.map((_, i) => slot(p, `k${i}`)), slot(p, 'cursor_id')]);
      const op = sql.raw(order === 'asc' ? '>' : '<');
      chosen = chosen.where(sql<SqlBool>`(${sql.join(pageKeys)}) ${op} (${values})`);
    }
    for (const key of pageKeys) chosen = chosen.orderBy(key, order);
    chosen = chosen.limit(slot(p, 'limit'));
    let page = ctx.db
      .selectFrom(table as TableName)
      .innerJoin(chosen.as('page') as unknown as TableName, (join) =>
        join.on(sql<SqlBool>`${sql.ref(`${table}.id`)} = ${sql.ref('page.page_id')}`),
      )
      .where(sql<SqlBool>`${sql.ref(`${table}.store_id`)} = ${p.store_id}`)
      .where(sql<SqlBool>`${sql.ref(`${table}.mode`)} = ${p.mode}`) as unknown as SelectQueryBuilder<
      Database,
      TB,
      object
    >;
    keys.forEach((_, i) => {
      page = page.orderBy(sql.ref(`page.page_k${i}`), order);
    });
    page = page.orderBy(sql.ref('page.page_id'), order);
    return select(ctx, page)
      .select(sql<number | string>`${sql.ref('page.page_total')}`.as('page_total') as never)
      .limit(slot(p, 'limit'));
  }

  const count = shapedTemplate(filterKey, (ctx, p: Slots<P | 'store_id' | 'mode'>, filter: F) =>
    base(ctx, p, filter).select(sql<number | string>`count(*)`.as('count')),
  );

  const cursor = shapedTemplate(
    (key: { sort: string; order: 'asc' | 'desc' }) => `${key.sort}|${key.order}`,
    (ctx, p: Slots<'store_id' | 'mode' | 'id'>, key: { sort: string; order: 'asc' | 'desc' }) =>
      options.cursorQuery?.(ctx, p, key.sort, keysOf(key.sort, key.order)) ??
      (ctx.db
        .selectFrom(table as TableName)
        .select(keysOf(key.sort, key.order).map((key, i) => sql<unknown>`${keySql(key, p, ctx)}`.as(`k${i}`)))
        .where(
          sql<SqlBool>`store_id = ${p.store_id} and mode = ${p.mode} and id = ${p.id}`,
        ) as unknown as SelectQueryBuilder<Database, TableName, Record<string, unknown>>),
  );

  return { keysOf, page, count, cursor };
}

/** How a list may answer parts of a page itself. */
export interface KeysetListOptions {
  /**
   * The exact `total_count` of the filter when the caller knows it without a COUNT (a counter
   * kept in the same transactions as the rows), or undefined to COUNT.
   */
  count?: (() => Promise<number>) | undefined;
}

/** Runs a list: cursor lookup (if any), the page, the count. */
export async function runKeysetList<TB extends TableName, P extends string, F, R, T>(
  q: QueryRunner,
  list: KeysetList<TB, P, F, R>,
  scope: Scope,
  filter: F,
  filterArgs: Readonly<Record<string, unknown>>,
  request: PageRequest,
  load: (rows: R[]) => Promise<T[]> | T[],
  options: KeysetListOptions = {},
): Promise<Page<T>> {
  const keys = list.keysOf(request.sort, request.order);
  // Copied key by key rather than spread: keys added to a spread object later (`k<i>`, `limit`)
  // take V8's slow path on Node 20 (see repositories/scoped-args.ts).
  const args: Record<string, unknown> = {};
  for (const name in filterArgs) args[name] = filterArgs[name];
  args.store_id = scope.store_id;
  args.mode = scope.mode;
  const hasCursor = request.starting_after !== undefined;
  if (hasCursor) {
    const id = request.starting_after as string;
    // The filter arguments too: a key built from slots (`SortKey`) may read them.
    const cursorArgs: Record<string, unknown> & { store_id: string; mode: string; id: string } = {
      store_id: scope.store_id,
      mode: scope.mode,
      id,
    };
    for (const name in filterArgs) if (!(name in cursorArgs)) cursorArgs[name] = filterArgs[name];
    const row = await q.first(list.cursor, cursorArgs, { sort: request.sort, order: request.order });
    if (!row) {
      throw new CommerceError('parameter_invalid', `No such object for starting_after: '${id}'`, {
        param: 'starting_after',
      });
    }
    keys.forEach((_, i) => {
      args[`k${i}`] = row[`k${i}`];
    });
    args.cursor_id = id;
  }
  args.limit = request.limit + 1;
  const shape: ListShape<F> = { filter, sort: request.sort, order: request.order, cursor: hasCursor };
  const rows = await q.rows(list.page, args, shape);
  const hasMore = rows.length > request.limit;
  // A first page that holds every match is its own count; a deferred page carries it.
  const carried = (rows[0] as { page_total?: number | string } | undefined)?.page_total;
  const total =
    !hasCursor && !hasMore
      ? rows.length
      : carried !== undefined
        ? Number(carried)
        : options.count
          ? await options.count()
          : Number((await q.first(list.count, args, filter))?.count ?? 0);
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const data = await load(pageRows);
  const last = pageRows[pageRows.length - 1] as { id?: unknown } | undefined;
  return {
    data,
    total_count: total,
    has_more: hasMore,
    next_cursor: hasMore && last ? String(last.id) : null,
  };
}
