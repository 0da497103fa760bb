import type {
  EventRecord,
  EventRepository,
  NumberedAtCommit,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '@cartwright/core/storage';
import { type SqlBool, sql } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, slot, template } from '../query/template';
import { TABLE_COLUMNS } from '../schema/table-columns';
import { decodeEvent, decodeWebhook, encodeEvent } from './webhook-codecs';

const insertEvent = insertTemplate('events');
const insertDelivery = insertTemplate('webhook_deliveries');

const EVENT_COLUMNS = TABLE_COLUMNS.events as readonly string[];

/**
 * PostgreSQL: events whose data take the order number the transaction's counter holds now
 * (`orders.insertNumbered` took it earlier in the transaction): `replace(data, '"number":<placeholder>',
 * '"number":' || (SELECT last_number FROM order_counters …))::jsonb`, one statement for `count` rows.
 */
const insertNumberedEvents = shapedTemplate(
  (count: number) => String(count),
  ({ db }, p: object, count: number) => {
    const number = sql`(select last_number from order_counters where store_id = ${slot(p, 'n_store_id')} and mode = ${slot(p, 'n_mode')})`;
    const rows = Array.from({ length: count }, (_, r) =>
      Object.fromEntries(
        EVENT_COLUMNS.map((column) => [
          column,
          column === 'data'
            ? sql`replace(${slot(p, `r${r}_data`)}::text, ${slot(p, 'n_from')}, ${slot(p, 'n_to')} || ${number})::jsonb`
            : slot(p, `r${r}_${column}`),
        ]),
      ),
    );
    return db.insertInto('events').values(rows as never);
  },
);

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

  async append(events: EventRecord[], numbered?: NumberedAtCommit): Promise<void> {
    const c = this.q.caps;
    if (numbered !== undefined) {
      if (c.dialect !== 'postgres')
        throw new Error('events.append: `numbered` needs orders.insertNumbered (PostgreSQL)');
      // One statement (an outbox of one transaction is a few events; ≤ 100 per statement).
      const sent: Array<Promise<unknown>> = [];
      for (let start = 0; start < events.length; start += 100) {
        const chunk = events.slice(start, start + 100);
        const args: Record<string, unknown> = {
          n_store_id: numbered.scope.store_id,
          n_mode: numbered.scope.mode,
          n_from: `"number":${numbered.placeholder}`,
          n_to: '"number":',
        };
        chunk.forEach((event, r) => {
          const row = encodeEvent(event, c) as Record<string, unknown>;
          for (const column of EVENT_COLUMNS) args[`r${r}_${column}`] = row[column] ?? null;
        });
        sent.push(this.q.affected(insertNumberedEvents, args, chunk.length));
      }
      await Promise.all(sent);
      return;
    }
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
