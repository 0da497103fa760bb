import type { Mode, Scope } from '@cartwright/core';
import type {
  ApiLogListFilter,
  ApiLogRecord,
  ApiLogRepository,
  ApiLogWrite,
  JsonObject,
  Millis,
  Page,
  PageRequest,
} from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import { type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import type { ApiLogsTable } from '../schema/database';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insertLogRow = insertTemplate('api_logs');

const logById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('api_logs')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);

interface LogFilterShape {
  method: boolean;
  status_code: boolean;
  path: boolean;
}

const list = keysetList({
  table: 'api_logs',
  sorts: { created_at: ['created_at'] },
  filterKey: (f: LogFilterShape) => `${f.method ? 1 : 0}${f.status_code ? 1 : 0}${f.path ? 1 : 0}`,
  base: ({ db }, p: Slots<ScopeSlots | 'method' | 'status_code' | 'path' | 'path_length'>, f) => {
    let query = db.selectFrom('api_logs').where('store_id', '=', p.store_id).where('mode', '=', p.mode);
    if (f.method) query = query.where('method', '=', p.method);
    if (f.status_code) query = query.where('status_code', '=', p.status_code);
    // A prefix compared by code point on every engine (SQLite's LIKE ignores ASCII case).
    if (f.path) query = query.where(sql<SqlBool>`substr(path, 1, ${p.path_length}) = ${p.path}`);
    return query;
  },
});

/** Retention across scopes, along `api_logs_retention_idx`. */
const deleteBefore = template(({ db }, p: Slots<'before'>) =>
  db.deleteFrom('api_logs').where('created_at', '<', p.before),
);

function decode(row: Selectable<ApiLogsTable>, c: DialectCapabilities): ApiLogRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    id: row.id,
    method: row.method,
    path: row.path,
    status_code: Number(row.status_code),
    latency_ms: Number(row.latency_ms),
    request_body: row.request_body === null ? null : c.parseJson<JsonObject>(row.request_body),
    response_body: row.response_body === null ? null : c.parseJson<JsonObject>(row.response_body),
    api_key_id: row.api_key_id,
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: Number(row.created_at),
  };
}

/** API logs (decisions §23): multi-row inserts from the HTTP layer's buffer, keyset lists, batched pruning. */
export class KyselyApiLogRepository implements ApiLogRepository {
  constructor(private readonly q: QueryRunner) {}

  insertMany(records: readonly ApiLogWrite[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    // The bodies are JSON text already, which every engine takes for its json column as it is.
    return insertRows(this.q, insertLogRow, 'api_logs', records);
  }

  async get(scope: Scope, id: string): Promise<ApiLogRecord | null> {
    const row = await this.q.first(logById, scoped(scope, { id }));
    return row ? decode(row, this.q.caps) : null;
  }

  list(scope: Scope, filter: ApiLogListFilter, page: PageRequest<'created_at'>): Promise<Page<ApiLogRecord>> {
    const shape: LogFilterShape = {
      method: filter.method !== undefined,
      status_code: filter.status_code !== undefined,
      path: filter.path !== undefined,
    };
    const args = {
      method: filter.method,
      status_code: filter.status_code,
      path: filter.path,
      path_length: filter.path?.length,
    };
    const c = this.q.caps;
    return runKeysetList(this.q, list, scope, shape, args, page, (rows) => rows.map((row) => decode(row, c)));
  }

  prune(before: Millis): Promise<number> {
    return this.q.affected(deleteBefore, { before });
  }
}
