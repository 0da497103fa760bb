import type { PageRequest, Scope } from '../ports/storage';
import type { ApiLogRecord, ApiLogWrite } from '../ports/storage/dashboard';
import type { JsonObject } from '../ports/storage/scope';
import type { ServiceContext } from '../shared/context';
import { errors } from '../shared/errors';
import { read } from '../shared/unit-of-work';
import { iso } from '../shared/wire-format';
import type { ApiLog, ApiLogListQuery } from './schemas';

export function apiLogToWire(record: ApiLogRecord): ApiLog {
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    status_code: record.status_code,
    latency_ms: record.latency_ms,
    request_body: record.request_body,
    response_body: record.response_body,
    api_key_id: record.api_key_id,
    ip: record.ip,
    user_agent: record.user_agent,
    created_at: iso(record.created_at),
  };
}

/** How long API logs are kept (decisions §23): 30 days. */
export const API_LOG_RETENTION_MS = 30 * 86_400_000;

/**
 * A request to log, as the HTTP layer hands it over (bodies already redacted and cut: core's
 * `loggedBody`, `loggedJsonText`): each body an object, or the JSON text of one (written as it is).
 */
export type ApiLogEntry = Omit<ApiLogRecord, 'id' | 'request_body' | 'response_body'> & {
  request_body: JsonObject | string | null;
  response_body: JsonObject | string | null;
};

const jsonText = (body: JsonObject | string | null): string | null =>
  body === null || typeof body === 'string' ? body : JSON.stringify(body);

/** API logs (decisions §23): written by the HTTP layer's buffer, read here. */
export function createApiLogService(ctx: ServiceContext) {
  return {
    /** Writes a batch in one multi-row insert (one transaction), each with a new `log_` id. */
    async record(entries: readonly ApiLogEntry[]): Promise<void> {
      if (entries.length === 0) return;
      // Built field by field (no object spread: this runs for every logged request).
      const records = entries.map(
        (entry): ApiLogWrite => ({
          store_id: entry.store_id,
          mode: entry.mode,
          id: ctx.ids.next('log'),
          method: entry.method,
          path: entry.path,
          status_code: entry.status_code,
          latency_ms: entry.latency_ms,
          request_body: jsonText(entry.request_body),
          response_body: jsonText(entry.response_body),
          api_key_id: entry.api_key_id,
          ip: entry.ip,
          user_agent: entry.user_agent,
          created_at: entry.created_at,
        }),
      );
      await ctx.storage.transaction((tx) => tx.apiLogs.insertMany(records));
    },
    /** Deletes the logs older than the retention (30 days), of every store and mode; answers how many. */
    prune(): Promise<number> {
      const before = ctx.clock.now() - API_LOG_RETENTION_MS;
      return ctx.storage.transaction((tx) => tx.apiLogs.prune(before));
    },
    async list(scope: Scope, query: ApiLogListQuery, page: PageRequest<'created_at'>) {
      const result = await read(ctx, (tx) =>
        tx.apiLogs.list(
          scope,
          { method: query.method, status_code: query.status_code, path: query.path },
          page,
        ),
      );
      return { ...result, data: result.data.map(apiLogToWire) };
    },
    async get(scope: Scope, id: string) {
      const record = await read(ctx, (tx) => tx.apiLogs.get(scope, id));
      if (record === null) throw errors.notFound('API log', id);
      return apiLogToWire(record);
    },
  };
}

export type ApiLogService = ReturnType<typeof createApiLogService>;
