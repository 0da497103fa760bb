import type {
  EventRecord,
  EventRepository,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '@cartwright/core/storage';
import { type SqlBool, sql } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { decodeEvent, decodeWebhook, encodeEvent } from './webhook-codecs';

const insertEvent = insertTemplate('events');
const insertDelivery = insertTemplate('webhook_deliveries');

/** The oldest undispatched events; on Postgres rows another dispatcher holds are skipped. */
const claimUndispatched = template(({ db, caps }, p: Slots<'limit'>) => {
  const query = db
    .selectFrom('events')
    .selectAll()
    .where('dispatched_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(p.limit);
  return caps.skipLocked ? query.forUpdate().skipLocked() : query;
});
const subscribers = template(({ db, caps }, p: Slots<'stores'>) =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where(caps.inList(sql.ref('store_id'), p.stores))
    .where(sql<SqlBool>`is_active = true`)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id'),
);
/** By primary key `(store_id, mode, id)`, one scope at a time (no index on the bare id: 0004). */
const markDispatched = template(({ db, caps }, p: Slots<'store_id' | 'mode' | 'ids' | 'now'>) =>
  db
    .updateTable('events')
    .set({ dispatched_at: p.now })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('id'), p.ids))
    .where('dispatched_at', 'is', null),
);

/** The transactional outbox (docs/contract.md#events) and its fan-out into webhook deliveries. */
export class KyselyEventRepository implements EventRepository {
  constructor(private readonly q: QueryRunner) {}

  async append(events: EventRecord[]): Promise<void> {
    const c = this.q.caps;
    await insertRows(
      this.q,
      insertEvent,
      'events',
      events.map((event) => encodeEvent(event, c)),
    );
  }

  async dispatch(
    limit: number,
    now: number,
    makeDelivery: (event: EventRecord, webhook: WebhookRecord) => WebhookDeliveryRecord | null,
  ): Promise<number> {
    const c = this.q.caps;
    const events = (await this.q.rows(claimUndispatched, { limit })).map((row) => decodeEvent(row, c));
    if (events.length === 0) return 0;
    const stores = [...new Set(events.map((event) => event.store_id))];
    const webhooks = (await this.q.rows(subscribers, { stores: c.list(stores) })).map((row) =>
      decodeWebhook(row, c),
    );
    const deliveries: WebhookDeliveryRecord[] = [];
    for (const event of events) {
      for (const webhook of webhooks) {
        if (webhook.store_id !== event.store_id || webhook.mode !== event.mode) continue;
        const delivery = makeDelivery(event, webhook);
        if (delivery !== null) deliveries.push(delivery);
      }
    }
    await insertRows(this.q, insertDelivery, 'webhook_deliveries', deliveries);
    const byScope = new Map<string, { store_id: string; mode: string; ids: string[] }>();
    for (const event of events) {
      const key = `${event.store_id}\u0000${event.mode}`;
      let group = byScope.get(key);
      if (!group) {
        group = { store_id: event.store_id, mode: event.mode, ids: [] };
        byScope.set(key, group);
      }
      group.ids.push(event.id);
    }
    for (const { store_id, mode, ids } of byScope.values()) {
      await this.q.affected(markDispatched, { store_id, mode, ids: c.list(ids), now });
    }
    return events.length;
  }
}
