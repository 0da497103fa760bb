import type { Mode, Scope } from '@cartwright/core';
import type {
  JsonObject,
  Page,
  PageRequest,
  Patch,
  ReturnLineRecord,
  ReturnListFilter,
  ReturnRecord,
  ReturnRepository,
} from '@cartwright/core/storage';
import { type Selectable, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { ReturnLinesTable, ReturnsTable } from '../schema/database';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insertReturnRow = insertTemplate('returns');
const insertLineRow = insertTemplate('return_lines');

const returnById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('returns')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);

const linesOf = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('return_lines')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('return_id'), p.ids))
    .orderBy('return_id')
    .orderBy('position')
    .orderBy('id'),
);

const updateReturn = updateTemplate<'returns', 'expect_status'>('returns', {
  guard: (p) => sql<SqlBool>`status = ${p.expect_status}`,
});

const updateLineCondition = template(({ db }, p: Slots<ScopeSlots | 'id' | 'return_id' | 'condition'>) =>
  db
    .updateTable('return_lines')
    .set({ condition: p.condition })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('return_id', '=', p.return_id)
    .where('id', '=', p.id),
);

interface ReturnFilterShape {
  status: boolean;
  order_id: boolean;
  customer_id: boolean;
  created_after: boolean;
  created_before: boolean;
}

const list = keysetList({
  table: 'returns',
  sorts: { created_at: ['created_at'] },
  filterKey: (f: ReturnFilterShape) =>
    Object.values(f)
      .map((flag) => (flag ? 1 : 0))
      .join(''),
  base: ({ db }, p: Slots<ScopeSlots | keyof ReturnFilterShape>, f) => {
    let query = db.selectFrom('returns').where('store_id', '=', p.store_id).where('mode', '=', p.mode);
    if (f.status) query = query.where('status', '=', p.status);
    if (f.order_id) query = query.where('order_id', '=', p.order_id);
    if (f.customer_id) query = query.where('customer_id', '=', p.customer_id);
    if (f.created_after) query = query.where('created_at', '>=', p.created_after);
    if (f.created_before) query = query.where('created_at', '<=', p.created_before);
    return query;
  },
});

function decodeReturn(row: Selectable<ReturnsTable>, c: DialectCapabilities): ReturnRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    order_id: row.order_id,
    customer_id: row.customer_id,
    status: row.status as ReturnRecord['status'],
    return_type: row.return_type as ReturnRecord['return_type'],
    reason: row.reason,
    reason_category: row.reason_category as ReturnRecord['reason_category'],
    refund_id: row.refund_id,
    exchange_order_id: row.exchange_order_id,
    admin_notes: row.admin_notes,
    customer_notes: row.customer_notes,
    metadata: c.parseJson<JsonObject>(row.metadata),
    lines: [],
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    approved_at: row.approved_at === null ? null : Number(row.approved_at),
    received_at: row.received_at === null ? null : Number(row.received_at),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    rejected_at: row.rejected_at === null ? null : Number(row.rejected_at),
    cancelled_at: row.cancelled_at === null ? null : Number(row.cancelled_at),
  };
}

function decodeLine(row: Selectable<ReturnLinesTable>): ReturnLineRecord {
  return {
    id: row.id,
    return_id: row.return_id,
    order_line_id: row.order_line_id,
    quantity: Number(row.quantity),
    reason: row.reason,
    condition: row.condition as ReturnLineRecord['condition'],
    exchange_variant_id: row.exchange_variant_id,
    product_name: row.product_name,
    position: Number(row.position),
  };
}

/** Returns with their lines (two statements for any number of returns), status compare-and-set updates. */
export class KyselyReturnRepository implements ReturnRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: ReturnRecord): Promise<void> {
    const c = this.q.caps;
    const { lines, ...row } = record;
    // Both statements started at once, the return row first (see insertRows).
    await Promise.all([
      insertRows(this.q, insertReturnRow, 'returns', [{ ...row, metadata: c.json(record.metadata) }]),
      insertRows(
        this.q,
        insertLineRow,
        'return_lines',
        lines.map((line) => ({ store_id: record.store_id, mode: record.mode, ...line })),
      ),
    ]);
  }

  async get(scope: Scope, id: string): Promise<ReturnRecord | null> {
    const row = await this.q.first(returnById, scoped(scope, { id }));
    return row ? ((await this.#load(scope, [row]))[0] ?? null) : null;
  }

  list(scope: Scope, filter: ReturnListFilter, page: PageRequest<'created_at'>): Promise<Page<ReturnRecord>> {
    const shape: ReturnFilterShape = {
      status: filter.status !== undefined,
      order_id: filter.order_id !== undefined,
      customer_id: filter.customer_id !== undefined,
      created_after: filter.created_after !== undefined,
      created_before: filter.created_before !== undefined,
    };
    const args = {
      status: filter.status,
      order_id: filter.order_id,
      customer_id: filter.customer_id,
      created_after: filter.created_after,
      created_before: filter.created_before,
    };
    return runKeysetList(this.q, list, scope, shape, args, page, (rows) => this.#load(scope, rows));
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      ReturnRecord,
      | 'status'
      | 'admin_notes'
      | 'refund_id'
      | 'exchange_order_id'
      | 'approved_at'
      | 'received_at'
      | 'completed_at'
      | 'rejected_at'
      | 'cancelled_at'
    >,
    options?: { expect_status?: ReturnRecord['status'] },
  ): Promise<ReturnRecord | null> {
    const { shape, args } = updateArgs(
      {
        status: patch.status,
        admin_notes: patch.admin_notes,
        refund_id: patch.refund_id,
        exchange_order_id: patch.exchange_order_id,
        approved_at: patch.approved_at,
        received_at: patch.received_at,
        completed_at: patch.completed_at,
        rejected_at: patch.rejected_at,
        cancelled_at: patch.cancelled_at,
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
      options?.expect_status === undefined ? undefined : { expect_status: options.expect_status },
    );
    const row = await this.q.first(updateReturn, args, shape);
    return row ? ((await this.#load(scope, [row]))[0] ?? null) : null;
  }

  async updateLines(
    scope: Scope,
    return_id: string,
    lines: ReadonlyArray<Pick<ReturnLineRecord, 'id' | 'condition'>>,
  ): Promise<void> {
    for (const line of lines) {
      await this.q.rows(
        updateLineCondition,
        scoped(scope, { id: line.id, return_id, condition: line.condition }),
      );
    }
  }

  async #load(scope: Scope, rows: readonly Selectable<ReturnsTable>[]): Promise<ReturnRecord[]> {
    if (rows.length === 0) return [];
    const c = this.q.caps;
    const returns = rows.map((row) => decodeReturn(row, c));
    const byId = new Map(returns.map((r) => [r.id, r]));
    const ids = c.list(rows.map((row) => row.id));
    for (const row of await this.q.rows(linesOf, scoped(scope, { ids }))) {
      byId.get(row.return_id)?.lines.push(decodeLine(row));
    }
    return returns;
  }
}
