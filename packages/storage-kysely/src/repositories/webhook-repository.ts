import type { Scope } from '@cartwright/core';
import type {
  ClaimedDelivery,
  Page,
  PageRequest,
  Patch,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
  WebhookRepository,
} from '@cartwright/core/storage';
import { type SqlBool, sql } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import { decodeAttempt, decodeDelivery, decodeWebhook, encodeWebhook } from './webhook-codecs';

type ScopeSlots = 'store_id' | 'mode';

const insert = insertTemplate('webhooks');
const insertAttempt = insertTemplate('webhook_attempts');

const get = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);
const update = updateTemplate('webhooks', { where: 'deleted_at is null' });
const softDelete = template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
  db
    .updateTable('webhooks')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);

/**
 * Leases due deliveries in one statement: the subquery picks pending, due, unleased (or lease
 * expired) deliveries of active webhooks, oldest first — on Postgres `FOR UPDATE OF d SKIP
 * LOCKED`, so concurrent workers pick disjoint rows — and the UPDATE takes the lease.
 */
const claimDue = template(({ db, caps }, p: Slots<'now' | 'limit' | 'lease_until' | 'worker_id'>) => {
  let due = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', (join) =>
      join
        .onRef('w.store_id', '=', 'd.store_id')
        .onRef('w.mode', '=', 'd.mode')
        .onRef('w.id', '=', 'd.webhook_id'),
    )
    .select('d.id')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', p.now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', p.now)]))
    .where(sql<SqlBool>`w.is_active = true`)
    .where('w.deleted_at', 'is', null)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(p.limit);
  if (caps.skipLocked) due = due.forUpdate('d').skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: p.lease_until, leased_by: p.worker_id })
    .where('id', 'in', due)
    .returningAll();
});
const secretsOf = template(({ db, caps }, p: Slots<'stores' | 'ids'>) =>
  db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_expires_at'])
    .where(caps.inList(sql.ref('store_id'), p.stores))
    .where(caps.inList(sql.ref('id'), p.ids)),
);
/** Guarded by the lease holder; a delivery cancelled meanwhile stays cancelled. */
const finishAttempt = template(
  (
    { db },
    p: Slots<
      | 'id'
      | 'worker_id'
      | 'status'
      | 'attempt_count'
      | 'next_attempt_at'
      | 'status_code'
      | 'error'
      | 'duration_ms'
      | 'at'
    >,
  ) =>
    db
      .updateTable('webhook_deliveries')
      .set({
        status: sql`case when status = 'cancelled' then 'cancelled' else ${p.status} end`,
        attempt_count: p.attempt_count,
        next_attempt_at: sql`case when status = 'cancelled' then null else cast(${p.next_attempt_at} as bigint) end`,
        lease_until: null,
        leased_by: null,
        last_status_code: p.status_code,
        last_error: p.error,
        last_duration_ms: p.duration_ms,
        updated_at: p.at,
      })
      .where('id', '=', p.id)
      .where('leased_by', '=', p.worker_id)
      .returning(['store_id', 'mode']),
);
const releaseLease = template(({ db }, p: Slots<'id' | 'worker_id'>) =>
  db
    .updateTable('webhook_deliveries')
    .set({ lease_until: null, leased_by: null })
    .where('id', '=', p.id)
    .where('leased_by', '=', p.worker_id),
);
const outcome = (succeeded: boolean) =>
  template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
    db
      .updateTable('webhooks')
      .set({
        consecutive_failures: succeeded ? 0 : sql`consecutive_failures + 1`,
        updated_at: p.at,
      })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('id', '=', p.id)
      .where('deleted_at', 'is', null)
      .returningAll(),
  );
const succeeded = outcome(true);
const failed = outcome(false);
const cancelPending = template(({ db }, p: Slots<ScopeSlots | 'webhook_id' | 'at'>) =>
  db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', next_attempt_at: null, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('webhook_id', '=', p.webhook_id)
    .where('status', '=', 'pending'),
);
/** Manual re-send: claims one delivery of one webhook whatever its status, unless leased. */
const claimOne = template(
  ({ db }, p: Slots<ScopeSlots | 'webhook_id' | 'id' | 'now' | 'lease_until' | 'worker_id'>) =>
    db
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        next_attempt_at: p.lease_until,
        lease_until: p.lease_until,
        leased_by: p.worker_id,
      })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('webhook_id', '=', p.webhook_id)
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', p.now)]))
      .returningAll(),
);
const getDelivery = template(({ db }, p: Slots<ScopeSlots | 'webhook_id' | 'id'>) =>
  db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('webhook_id', '=', p.webhook_id)
    .where('id', '=', p.id),
);
/** Rotation in one statement: the right-hand sides read the row as it was (both engines). */
const rotateSecret = template(
  ({ db }, p: Slots<ScopeSlots | 'id' | 'secret' | 'previous_secret_expires_at' | 'at'>) =>
    db
      .updateTable('webhooks')
      .set({
        previous_secret: sql.ref('secret'),
        previous_secret_expires_at: p.previous_secret_expires_at,
        secret: p.secret,
        updated_at: p.at,
      })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('id', '=', p.id)
      .where('deleted_at', 'is', null)
      .returningAll(),
);
const attemptsOf = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('delivery_id'), p.ids))
    .orderBy('delivery_id')
    .orderBy('attempt')
    .orderBy('created_at'),
);

const list = keysetList({
  table: 'webhooks',
  sorts: { created_at: ['created_at'] },
  filterKey: () => '',
  base: ({ db }, p) =>
    db
      .selectFrom('webhooks')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('deleted_at', 'is', null),
});
const deliveries = keysetList({
  table: 'webhook_deliveries',
  sorts: { created_at: ['created_at'] },
  filterKey: () => '',
  base: ({ db }, p: Slots<ScopeSlots | 'webhook_id'>) =>
    db
      .selectFrom('webhook_deliveries')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('webhook_id', '=', p.webhook_id),
});

/** Webhooks, and the delivery work queue: leases, attempts, outcomes. */
export class KyselyWebhookRepository implements WebhookRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: WebhookRecord): Promise<void> {
    await insertRows(this.q, insert, 'webhooks', [encodeWebhook(record, this.q.caps)]);
  }

  async get(scope: Scope, id: string): Promise<WebhookRecord | null> {
    const row = await this.q.first(get, { ...scope, id });
    return row ? decodeWebhook(row, this.q.caps) : null;
  }

  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<WebhookRecord>> {
    return runKeysetList(this.q, list, scope, undefined, {}, page, (rows) =>
      rows.map((row) => decodeWebhook(row, this.q.caps)),
    );
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      WebhookRecord,
      'url' | 'events' | 'events_since' | 'is_active' | 'consecutive_failures' | 'metadata'
    >,
  ): Promise<WebhookRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        url: patch.url,
        events: patch.events === undefined ? undefined : c.json(patch.events),
        events_since: patch.events_since === undefined ? undefined : c.json(patch.events_since),
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
        consecutive_failures: patch.consecutive_failures,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      { ...scope, id },
    );
    const row = await this.q.first(update, args, shape);
    return row ? decodeWebhook(row, c) : null;
  }

  async delete(scope: Scope, id: string, at: number): Promise<boolean> {
    return (await this.q.affected(softDelete, { ...scope, id, at })) > 0;
  }

  async claimDue(input: {
    now: number;
    limit: number;
    lease_ms: number;
    worker_id: string;
  }): Promise<ClaimedDelivery[]> {
    const c = this.q.caps;
    const rows = await this.q.rows(claimDue, {
      now: input.now,
      limit: input.limit,
      lease_until: input.now + input.lease_ms,
      worker_id: input.worker_id,
    });
    if (rows.length === 0) return [];
    const claimed = rows
      .map(decodeDelivery)
      .sort(
        (a, b) =>
          (a.next_attempt_at ?? 0) - (b.next_attempt_at ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    const webhooks = new Map(
      (
        await this.q.rows(secretsOf, {
          stores: c.list([...new Set(claimed.map((delivery) => delivery.store_id))]),
          ids: c.list([...new Set(claimed.map((delivery) => delivery.webhook_id))]),
        })
      ).map((row) => [row.id, row]),
    );
    return claimed.flatMap((delivery) => {
      const webhook = webhooks.get(delivery.webhook_id);
      return webhook
        ? [
            {
              delivery,
              url: webhook.url,
              secret: webhook.secret,
              previous_secret: webhook.previous_secret,
              previous_secret_expires_at: webhook.previous_secret_expires_at,
            },
          ]
        : [];
    });
  }

  async claimDelivery(input: {
    scope: Scope;
    webhook_id: string;
    delivery_id: string;
    now: number;
    lease_ms: number;
    worker_id: string;
  }): Promise<ClaimedDelivery | null> {
    const webhook = await this.get(input.scope, input.webhook_id);
    if (!webhook) return null;
    const row = await this.q.first(claimOne, {
      ...input.scope,
      webhook_id: input.webhook_id,
      id: input.delivery_id,
      now: input.now,
      lease_until: input.now + input.lease_ms,
      worker_id: input.worker_id,
    });
    if (!row) return null;
    return {
      delivery: decodeDelivery(row),
      url: webhook.url,
      secret: webhook.secret,
      previous_secret: webhook.previous_secret,
      previous_secret_expires_at: webhook.previous_secret_expires_at,
    };
  }

  async getDelivery(
    scope: Scope,
    webhook_id: string,
    delivery_id: string,
  ): Promise<(WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] }) | null> {
    const row = await this.q.first(getDelivery, { ...scope, webhook_id, id: delivery_id });
    if (!row) return null;
    const attempts = (await this.q.rows(attemptsOf, { ...scope, ids: this.q.caps.list([row.id]) })).map(
      (attempt) => decodeAttempt(attempt, this.q.caps),
    );
    return { ...decodeDelivery(row), attempts };
  }

  async rotateSecret(
    scope: Scope,
    id: string,
    input: { secret: string; previous_secret_expires_at: number; at: number },
  ): Promise<WebhookRecord | null> {
    const row = await this.q.first(rotateSecret, {
      ...scope,
      id,
      secret: input.secret,
      previous_secret_expires_at: input.previous_secret_expires_at,
      at: input.at,
    });
    return row ? decodeWebhook(row, this.q.caps) : null;
  }

  async recordAttempt(input: {
    delivery_id: string;
    worker_id: string;
    attempt: WebhookAttemptRecord;
    status: WebhookDeliveryRecord['status'];
    next_attempt_at: number | null;
    at: number;
  }): Promise<boolean> {
    const { attempt } = input;
    const row = await this.q.first(finishAttempt, {
      id: input.delivery_id,
      worker_id: input.worker_id,
      status: input.status,
      attempt_count: attempt.attempt,
      next_attempt_at: input.next_attempt_at,
      status_code: attempt.status_code,
      error: attempt.error,
      duration_ms: attempt.duration_ms,
      at: input.at,
    });
    if (!row) return false;
    await insertRows(this.q, insertAttempt, 'webhook_attempts', [
      {
        store_id: row.store_id,
        mode: row.mode,
        id: attempt.id,
        delivery_id: input.delivery_id,
        attempt: attempt.attempt,
        status_code: attempt.status_code,
        duration_ms: attempt.duration_ms,
        error: attempt.error,
        succeeded: this.q.caps.bool(attempt.succeeded),
        created_at: attempt.created_at,
      },
    ]);
    return true;
  }

  async releaseLease(delivery_id: string, worker_id: string): Promise<void> {
    await this.q.affected(releaseLease, { id: delivery_id, worker_id });
  }

  async recordOutcome(
    scope: Scope,
    webhook_id: string,
    success: boolean,
    at: number,
  ): Promise<WebhookRecord | null> {
    const row = await this.q.first(success ? succeeded : failed, { ...scope, id: webhook_id, at });
    return row ? decodeWebhook(row, this.q.caps) : null;
  }

  async cancelPendingDeliveries(scope: Scope, webhook_id: string, at: number): Promise<number> {
    return this.q.affected(cancelPending, { ...scope, webhook_id, at });
  }

  async listDeliveries(
    scope: Scope,
    webhook_id: string,
    page: PageRequest<'created_at'>,
  ): Promise<Page<WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] }>> {
    return runKeysetList(this.q, deliveries, scope, undefined, { webhook_id }, page, async (rows) => {
      if (rows.length === 0) return [];
      const attempts = new Map<string, WebhookAttemptRecord[]>();
      for (const row of await this.q.rows(attemptsOf, {
        ...scope,
        ids: this.q.caps.list(rows.map((r) => r.id)),
      })) {
        const list = attempts.get(row.delivery_id);
        const decoded = decodeAttempt(row, this.q.caps);
        if (list) list.push(decoded);
        else attempts.set(row.delivery_id, [decoded]);
      }
      return rows.map((row) => ({ ...decodeDelivery(row), attempts: attempts.get(row.id) ?? [] }));
    });
  }
}
