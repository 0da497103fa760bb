import type { JsonObject } from '@cartwright/core/storage';
import { KyselyStorage } from '@cartwright/storage-kysely';
import type { TestApi } from './harness';

/**
 * An event as the outbox table holds it, read with SQL on the test engine's database (the storage
 * port has no read of one event: core only appends and dispatches), or null when it is not there.
 */
export async function outboxEvent(
  api: TestApi,
  id: string,
): Promise<{ type: string; data: JsonObject } | null> {
  const storage = api.engine.storage;
  if (!(storage instanceof KyselyStorage)) throw new Error('outboxEvent reads a Kysely storage');
  const row = await storage.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('store_id', '=', api.scope.store_id)
    .where('mode', '=', api.scope.mode)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const data: unknown = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
  return { type: row.type, data: data as JsonObject };
}
