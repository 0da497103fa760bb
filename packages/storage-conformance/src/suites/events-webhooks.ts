import type { Scope } from '@cartwright/core';
import type { EventRecord, WebhookDeliveryRecord } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { deliveryFor, makeEvent, makeWebhook, newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

let windows = 0;

/**
 * `events.dispatch` and `webhooks.claimDue` work across all scopes, so each test runs in its
 * own time window far in the past (each window older than the previous one): its events are
 * the oldest undispatched ones and its deliveries the only ones due at its `now`.
 */
export function timeWindow(): number {
  windows++;
  return -1_000_000_000_000 - windows * 1_000_000_000;
}

export function eventsWebhooksSuite(ctx: SuiteContext): void {
  const deliveriesOf = async (scope: Scope, webhook_id: string) =>
    (
      await ctx.read((r) =>
        r.webhooks.listDeliveries(scope, webhook_id, { limit: 100, sort: 'created_at', order: 'asc' }),
      )
    ).data;

  /** Inserts one webhook subscribed to all events and `count` pending deliveries due at `now`. */
  const seedDeliveries = async (scope: Scope, now: number, count: number) => {
    const webhook = makeWebhook(scope);
    const events: EventRecord[] = Array.from({ length: count }, (_, i) =>
      makeEvent(scope, { created_at: now + i }),
    );
    await ctx.tx(async (tx) => {
      await tx.webhooks.insert(webhook);
      await tx.events.append(events);
      expect(await tx.events.dispatch(count, now, deliveryFor(now))).toBe(count);
    });
    return { webhook, deliveries: await deliveriesOf(scope, webhook.id) };
  };

  describe('events (outbox)', () => {
    it('appends events that dispatch hands back whole (the data round-trips), to webhooks of their scope only', async () => {
      const scope = newScope();
      const now = timeWindow();
      const event = makeEvent(scope, {
        data: { id: 'ord_1', total: { amount: 1, currency: 'EUR' }, list: ['é'] },
        created_at: now,
      });
      const mine = makeWebhook(scope);
      const foreign = makeWebhook(otherMode(scope));
      const seen: Array<[EventRecord, string]> = [];
      await ctx.tx(async (tx) => {
        await tx.webhooks.insert(mine);
        await tx.webhooks.insert(foreign);
        await tx.events.append([event]);
        await tx.events.append([]);
      });
      await ctx.tx((tx) =>
        tx.events.dispatch(1, now, (e, webhook) => {
          seen.push([e, webhook.id]);
          return deliveryFor(now)(e, webhook);
        }),
      );
      expect(seen).toEqual([[event, mine.id]]);
    });

    it('dispatch fans out oldest first to active subscribed webhooks of the same store and mode, once', async () => {
      const scope = newScope();
      const now = timeWindow();
      const all = makeWebhook(scope, { events: ['*'] });
      const orders = makeWebhook(scope, { events: ['order.created', 'order.cancelled'] });
      const products = makeWebhook(scope, { events: ['product.created'] });
      const inactive = makeWebhook(scope, { is_active: false });
      const deleted = makeWebhook(scope);
      const live = makeWebhook(otherMode(scope));
      const e1 = makeEvent(scope, { type: 'order.created', created_at: now });
      const e2 = makeEvent(scope, { type: 'product.created', created_at: now + 1 });
      const e3 = makeEvent(scope, { type: 'customer.created', created_at: now + 2 });
      const e4 = makeEvent(otherMode(scope), { type: 'order.created', created_at: now + 3 });
      await ctx.tx(async (tx) => {
        for (const webhook of [all, orders, products, inactive, deleted, live])
          await tx.webhooks.insert(webhook);
        await tx.webhooks.delete(scope, deleted.id, now);
        await tx.events.append([e4, e3, e2, e1]);
      });
      expect(await ctx.tx((tx) => tx.events.dispatch(2, now, deliveryFor(now)))).toBe(2);
      const eventIds = async (scope_: Scope, webhookId: string) =>
        (await deliveriesOf(scope_, webhookId)).map((d) => d.event_id).sort();
      expect(await eventIds(scope, all.id)).toEqual([e1.id, e2.id].sort());
      expect(await ctx.tx((tx) => tx.events.dispatch(2, now, deliveryFor(now)))).toBe(2);
      expect(await eventIds(scope, all.id)).toEqual([e1.id, e2.id, e3.id].sort());
      expect(await eventIds(scope, orders.id)).toEqual([e1.id]);
      expect(await eventIds(scope, products.id)).toEqual([e2.id]);
      expect(await eventIds(scope, inactive.id)).toEqual([]);
      expect(await eventIds(otherMode(scope), live.id)).toEqual([e4.id]);
      // Dispatched events are never fanned out again.
      await ctx.tx((tx) => tx.events.dispatch(1000, now, deliveryFor(now)));
      expect(await eventIds(scope, all.id)).toHaveLength(3);
      const delivery = (await deliveriesOf(scope, orders.id))[0]!;
      expect(delivery).toMatchObject({
        webhook_id: orders.id,
        event_type: 'order.created',
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        attempts: [],
      });
    });
  });

  describe('webhooks', () => {
    it('inserts, reads, lists, updates (events, activation, failures) and soft-deletes', async () => {
      const scope = newScope();
      const a = makeWebhook(scope, { created_at: 1, events: ['order.created'], metadata: { team: 'ops' } });
      const b = makeWebhook(scope, { created_at: 2 });
      await ctx.tx(async (tx) => {
        await tx.webhooks.insert(a);
        await tx.webhooks.insert(b);
      });
      expect(await ctx.read((r) => r.webhooks.get(scope, a.id))).toEqual(a);
      expect(await ctx.read((r) => r.webhooks.get(otherMode(scope), a.id))).toBeNull();
      const page = await ctx.read((r) =>
        r.webhooks.list(scope, { limit: 10, sort: 'created_at', order: 'desc' }),
      );
      expect(page.data).toEqual([b, a]);
      const updated = await ctx.tx((tx) =>
        tx.webhooks.update(scope, a.id, {
          url: 'https://new.example.com/hook',
          events: ['*'],
          is_active: false,
          consecutive_failures: 0,
          metadata: {},
          updated_at: 3,
        }),
      );
      expect(updated).toEqual({
        ...a,
        url: 'https://new.example.com/hook',
        events: ['*'],
        is_active: false,
        metadata: {},
        updated_at: 3,
      });
      expect(await ctx.tx((tx) => tx.webhooks.delete(scope, a.id, 4))).toBe(true);
      expect(await ctx.tx((tx) => tx.webhooks.delete(scope, a.id, 4))).toBe(false);
      expect(await ctx.read((r) => r.webhooks.get(scope, a.id))).toBeNull();
      expect(await ctx.tx((tx) => tx.webhooks.update(scope, a.id, { url: 'x', updated_at: 5 }))).toBeNull();
      expect(
        (await ctx.read((r) => r.webhooks.list(scope, { limit: 10, sort: 'created_at', order: 'desc' })))
          .data,
      ).toEqual([b]);
    });

    it('claimDue leases due pending deliveries of active webhooks; the lease blocks others until it expires', async () => {
      const scope = newScope();
      const now = timeWindow();
      const { webhook, deliveries } = await seedDeliveries(scope, now, 3);
      // A due delivery of a webhook deactivated since (in another store) is never claimed.
      const pausedScope = newScope();
      const paused = await seedDeliveries(pausedScope, now, 1);
      await ctx.tx((tx) =>
        tx.webhooks.update(pausedScope, paused.webhook.id, { is_active: false, updated_at: now }),
      );
      const claim = (worker_id: string, at: number, limit = 10) =>
        ctx.tx((tx) => tx.webhooks.claimDue({ now: at, limit, lease_ms: 1000, worker_id }));
      expect(await claim('w0', now - 1)).toEqual([]); // not due yet
      const first = await claim('w1', now, 2);
      expect(first.map((c) => c.delivery.id)).toEqual(deliveries.slice(0, 2).map((d) => d.id));
      expect(first[0]).toMatchObject({
        url: webhook.url,
        secret: webhook.secret,
        delivery: { leased_by: 'w1', lease_until: now + 1000, status: 'pending' },
      });
      const second = await claim('w2', now + 10);
      expect(second.map((c) => c.delivery.id)).toEqual([deliveries[2]!.id]);
      expect(await claim('w3', now + 999)).toEqual([]);
      // Leases expire: the first worker's deliveries become claimable again.
      const retaken = await claim('w3', now + 1000);
      expect(retaken.map((c) => c.delivery.id)).toEqual(deliveries.slice(0, 2).map((d) => d.id));
      await ctx.tx((tx) => tx.webhooks.releaseLease(deliveries[0]!.id, 'w1')); // not w1's any more: no effect
      expect(await claim('w4', now + 1001)).toEqual([]);
      await ctx.tx((tx) => tx.webhooks.releaseLease(deliveries[0]!.id, 'w3'));
      expect((await claim('w4', now + 1001)).map((c) => c.delivery.id)).toEqual([deliveries[0]!.id]);
    });

    it('recordAttempt needs the lease, records the attempt, reschedules or finishes; listDeliveries shows attempts', async () => {
      const scope = newScope();
      const now = timeWindow();
      const { webhook, deliveries } = await seedDeliveries(scope, now, 1);
      const id = deliveries[0]!.id;
      await ctx.tx((tx) => tx.webhooks.claimDue({ now, limit: 10, lease_ms: 1000, worker_id: 'w1' }));
      const attempt = (n: number, succeeded: boolean) => ({
        id: newId('wha'),
        delivery_id: id,
        attempt: n,
        status_code: succeeded ? 200 : 500,
        duration_ms: 12,
        error: succeeded ? null : 'HTTP 500',
        succeeded,
        created_at: now + n,
      });
      const failedAttempt = attempt(1, false);
      const record = (
        worker_id: string,
        status: WebhookDeliveryRecord['status'],
        next: number | null,
        a = failedAttempt,
      ) =>
        ctx.tx((tx) =>
          tx.webhooks.recordAttempt({
            delivery_id: id,
            worker_id,
            attempt: a,
            status,
            next_attempt_at: next,
            at: now + 1,
          }),
        );
      expect(await record('intruder', 'pending', now + 300)).toBe(false);
      expect(await record('w1', 'pending', now + 300)).toBe(true);
      expect(await record('w1', 'pending', now + 300)).toBe(false); // lease cleared
      let [delivery] = await deliveriesOf(scope, webhook.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        attempt_count: 1,
        next_attempt_at: now + 300,
        lease_until: null,
        leased_by: null,
        last_status_code: 500,
        last_error: 'HTTP 500',
        last_duration_ms: 12,
        updated_at: now + 1,
        attempts: [failedAttempt],
      });
      expect(
        await ctx.tx((tx) =>
          tx.webhooks.claimDue({ now: now + 299, limit: 10, lease_ms: 1000, worker_id: 'w2' }),
        ),
      ).toEqual([]);
      expect(
        await ctx.tx((tx) =>
          tx.webhooks.claimDue({ now: now + 300, limit: 10, lease_ms: 1000, worker_id: 'w2' }),
        ),
      ).toHaveLength(1);
      const ok = attempt(2, true);
      expect(await record('w2', 'succeeded', null, ok)).toBe(true);
      [delivery] = await deliveriesOf(scope, webhook.id);
      expect(delivery).toMatchObject({
        status: 'succeeded',
        attempt_count: 2,
        next_attempt_at: null,
        attempts: [failedAttempt, ok],
      });
      expect(
        await ctx.tx((tx) =>
          tx.webhooks.claimDue({ now: now + 10_000, limit: 10, lease_ms: 1000, worker_id: 'w3' }),
        ),
      ).toEqual([]);
    });

    it('recordOutcome counts consecutive failures (success resets); cancelPendingDeliveries cancels for good', async () => {
      const scope = newScope();
      const now = timeWindow();
      const { webhook, deliveries } = await seedDeliveries(scope, now, 3);
      const outcome = (succeeded: boolean) =>
        ctx.tx((tx) => tx.webhooks.recordOutcome(scope, webhook.id, succeeded, now + 5));
      expect(await outcome(false)).toMatchObject({ consecutive_failures: 1 });
      expect(await outcome(false)).toMatchObject({ consecutive_failures: 2, updated_at: now + 5 });
      expect(await outcome(true)).toMatchObject({ consecutive_failures: 0 });
      expect(
        await ctx.tx((tx) => tx.webhooks.recordOutcome(otherMode(scope), webhook.id, false, now)),
      ).toBeNull();
      // One delivery is in flight when the webhook is deactivated.
      const [claimed] = await ctx.tx((tx) =>
        tx.webhooks.claimDue({ now, limit: 1, lease_ms: 1000, worker_id: 'w1' }),
      );
      expect(
        await ctx.tx((tx) => tx.webhooks.cancelPendingDeliveries(otherMode(scope), webhook.id, now + 6)),
      ).toBe(0);
      expect(await ctx.tx((tx) => tx.webhooks.cancelPendingDeliveries(scope, webhook.id, now + 6))).toBe(3);
      const inFlight = await ctx.tx((tx) =>
        tx.webhooks.recordAttempt({
          delivery_id: claimed!.delivery.id,
          worker_id: 'w1',
          attempt: {
            id: newId('wha'),
            delivery_id: claimed!.delivery.id,
            attempt: 1,
            status_code: null,
            duration_ms: 10_000,
            error: 'timeout',
            succeeded: false,
            created_at: now + 7,
          },
          status: 'pending',
          next_attempt_at: now + 300,
          at: now + 7,
        }),
      );
      expect(inFlight).toBe(true);
      const after = await deliveriesOf(scope, webhook.id);
      expect(after.map((d) => d.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(after.find((d) => d.id === claimed!.delivery.id)).toMatchObject({
        next_attempt_at: null,
        attempt_count: 1,
      });
      expect(deliveries).toHaveLength(3);
      expect(
        await ctx.tx((tx) =>
          tx.webhooks.claimDue({ now: now + 10_000, limit: 10, lease_ms: 1, worker_id: 'w2' }),
        ),
      ).toEqual([]);
    });
  });

  it('rotateSecret keeps the current secret as previous (one only), atomically, in scope', async () => {
    const scope = newScope();
    const webhook = makeWebhook(scope, { secret: 'whsec_first' });
    await ctx.tx((tx) => tx.webhooks.insert(webhook));
    expect(await ctx.read((r) => r.webhooks.get(scope, webhook.id))).toMatchObject({
      previous_secret: null,
      previous_secret_expires_at: null,
    });
    const rotate = (secret: string, at: number, s = scope, id = webhook.id) =>
      ctx.tx((tx) => tx.webhooks.rotateSecret(s, id, { secret, previous_secret_expires_at: at + 100, at }));
    expect(await rotate('whsec_second', 10)).toEqual({
      ...webhook,
      secret: 'whsec_second',
      previous_secret: 'whsec_first',
      previous_secret_expires_at: 110,
      updated_at: 10,
    });
    // Twice: the oldest is dropped.
    expect(await rotate('whsec_third', 20)).toMatchObject({
      secret: 'whsec_third',
      previous_secret: 'whsec_second',
      previous_secret_expires_at: 120,
    });
    expect(await ctx.read((r) => r.webhooks.get(scope, webhook.id))).toMatchObject({
      secret: 'whsec_third',
      previous_secret: 'whsec_second',
    });
    expect(await rotate('whsec_x', 30, otherMode(scope))).toBeNull();
    expect(await rotate('whsec_x', 30, scope, newId('wh'))).toBeNull();
    // Concurrent rotations both take effect in turn: no secret handed out is lost.
    await Promise.all([rotate('whsec_a', 40), rotate('whsec_b', 40)]);
    const after = await ctx.read((r) => r.webhooks.get(scope, webhook.id));
    expect([after?.secret, after?.previous_secret].sort()).toEqual(['whsec_a', 'whsec_b']);
    await ctx.tx((tx) => tx.webhooks.delete(scope, webhook.id, 50));
    expect(await rotate('whsec_gone', 60)).toBeNull();
  });

  it('claimDelivery claims one delivery of its webhook whatever its status unless leased; getDelivery reads it', async () => {
    const scope = newScope();
    const now = timeWindow();
    const { webhook, deliveries } = await seedDeliveries(scope, now, 2);
    const other = await seedDeliveries(scope, now, 1);
    const [a, b] = deliveries;
    const claimOne = (
      delivery_id: string,
      worker_id: string,
      at: number,
      webhook_id = webhook.id,
      s = scope,
    ) =>
      ctx.tx((tx) =>
        tx.webhooks.claimDelivery({ scope: s, webhook_id, delivery_id, now: at, lease_ms: 1000, worker_id }),
      );
    // Another webhook's delivery, another mode, an unknown id: nothing.
    expect(await claimOne(other.deliveries[0]!.id, 'r1', now)).toBeNull();
    expect(await claimOne(a!.id, 'r1', now, webhook.id, otherMode(scope))).toBeNull();
    expect(await claimOne(newId('whd'), 'r1', now)).toBeNull();
    expect(
      await ctx.read((r) => r.webhooks.getDelivery(scope, webhook.id, other.deliveries[0]!.id)),
    ).toBeNull();
    expect(await ctx.read((r) => r.webhooks.getDelivery(scope, other.webhook.id, a!.id))).toBeNull();

    // Leased by a worker: refused until the lease expires.
    await ctx.tx((tx) => tx.webhooks.claimDue({ now, limit: 1, lease_ms: 1000, worker_id: 'w1' }));
    expect(await claimOne(a!.id, 'r1', now + 999)).toBeNull();
    // A finished delivery is claimed again, as pending, leased, due when its lease expires.
    await ctx.tx((tx) => tx.webhooks.cancelPendingDeliveries(scope, webhook.id, now));
    const claimed = await claimOne(b!.id, 'r1', now + 5);
    expect(claimed).toMatchObject({
      url: webhook.url,
      secret: webhook.secret,
      previous_secret: null,
      previous_secret_expires_at: null,
      delivery: {
        id: b!.id,
        status: 'pending',
        leased_by: 'r1',
        lease_until: now + 1005,
        next_attempt_at: now + 1005,
      },
    });
    expect(await claimOne(b!.id, 'r2', now + 6)).toBeNull();
    const recorded = await ctx.tx((tx) =>
      tx.webhooks.recordAttempt({
        delivery_id: b!.id,
        worker_id: 'r1',
        attempt: {
          id: newId('wha'),
          delivery_id: b!.id,
          attempt: 1,
          status_code: 200,
          duration_ms: 3,
          error: null,
          succeeded: true,
          created_at: now + 7,
        },
        status: 'succeeded',
        next_attempt_at: null,
        at: now + 7,
      }),
    );
    expect(recorded).toBe(true);
    expect(await ctx.read((r) => r.webhooks.getDelivery(scope, webhook.id, b!.id))).toMatchObject({
      id: b!.id,
      status: 'succeeded',
      attempt_count: 1,
      lease_until: null,
      attempts: [{ attempt: 1, succeeded: true, status_code: 200 }],
    });
    // Lease of the first worker expired: the manual claim takes over.
    expect(await claimOne(a!.id, 'r3', now + 1000)).toMatchObject({ delivery: { leased_by: 'r3' } });
  });

  describe('notifications', () => {
    it('inserts and lists notifications newest first, per scope', async () => {
      const scope = newScope();
      const make = (created_at: number) => ({
        id: newId('ntf'),
        store_id: scope.store_id,
        mode: scope.mode,
        type: 'webhook.deactivated',
        message: 'Webhook deactivated after 5 failures',
        data: { webhook_id: 'wh_1', failures: 5 },
        created_at,
      });
      const a = make(1);
      const b = make(2);
      await ctx.tx(async (tx) => {
        await tx.notifications.insert(a);
        await tx.notifications.insert(b);
      });
      const page = await ctx.read((r) =>
        r.notifications.list(scope, { limit: 1, sort: 'created_at', order: 'desc' }),
      );
      expect(page).toEqual({ data: [b], total_count: 2, has_more: true, next_cursor: b.id });
      const next = await ctx.read((r) =>
        r.notifications.list(scope, { limit: 1, sort: 'created_at', order: 'desc', starting_after: b.id }),
      );
      expect(next).toEqual({ data: [a], total_count: 2, has_more: false, next_cursor: null });
      expect(
        (
          await ctx.read((r) =>
            r.notifications.list(otherMode(scope), { limit: 5, sort: 'created_at', order: 'desc' }),
          )
        ).total_count,
      ).toBe(0);
    });
  });
}
