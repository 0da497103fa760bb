import type { Mode, Scope } from '@cartwright/core';
import type {
  JsonObject,
  NotificationRecord,
  NotificationRepository,
  Page,
  PageRequest,
} from '@cartwright/core/storage';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';

const insert = insertTemplate('notifications');
const list = keysetList({
  table: 'notifications',
  sorts: { created_at: ['created_at'] },
  filterKey: () => '',
  base: ({ db }, p) =>
    db.selectFrom('notifications').where('store_id', '=', p.store_id).where('mode', '=', p.mode),
});

/** Dashboard notifications (e.g. `webhook.deactivated`). */
export class KyselyNotificationRepository implements NotificationRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: NotificationRecord): Promise<void> {
    await insertRows(this.q, insert, 'notifications', [{ ...record, data: this.q.caps.json(record.data) }]);
  }

  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<NotificationRecord>> {
    const c = this.q.caps;
    return runKeysetList(this.q, list, scope, undefined, {}, page, (rows) =>
      rows.map((row) => ({
        id: row.id,
        store_id: row.store_id,
        mode: row.mode as Mode,
        type: row.type,
        message: row.message,
        data: c.parseJson<JsonObject>(row.data),
        created_at: row.created_at,
      })),
    );
  }
}
