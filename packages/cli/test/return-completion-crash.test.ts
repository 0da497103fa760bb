import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type CallResponse,
  call,
  crash,
  DATABASE_TARGETS,
  eventually,
  freshDatabaseUrl,
  type ServeProcess,
  startServe,
  stop,
} from './support/serve-process';

/**
 * Return completion survives `kill -9` (decisions §18: `complete` runs in one transaction; §12:
 * the replay record is written in the same transaction as the effect). Bursts of keyed
 * `POST /v1/admin/returns/{id}/complete` — refund returns and exchanges, units restocked or
 * written off — are cut by SIGKILL of `cartwright serve`, several times, at different moments.
 * After each restart every return is either untouched (`received`: no refund, no stock back, no
 * exchange order) or completed with everything (its refund, its stock, its exchange order with
 * the `exchange_credit` payment and the surplus refund). Then every key is retried: a completion
 * that answered before the crash — or committed without answering — is replayed
 * (`Idempotent-Replayed`), one that never committed completes now; in the end each return has
 * exactly one refund, one exchange order and one of each event (received by a webhook).
 *
 * Each return is on its own order with its own variants, so stock tells each one's story: order
 * of 2 × 10.00 (tax 0) paid in cash, both units shipped; refund returns give 20.00 back; exchanges
 * take 2 × 8.00 (16.00 of credit) and refund the 4.00 surplus. Units are `unopened` (restocked)
 * or `damaged` (written off) by turns.
 */
const SECRET = 'sk_test_returnCompletionCrash0000000001';
const ROUNDS = 3;
const BURST = 10;
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

interface Case {
  index: number;
  exchange: boolean;
  restocked: boolean;
  order_id: string;
  email: string;
  return_id: string;
  /** The returned variant's inventory row, and the exchange variant's. */
  inventory_id: string;
  exchange_inventory_id: string;
  exchange_variant_id: string;
  key: string;
  /** The answer the client got before the crash, if any. */
  before: CallResponse | null;
}

interface Received {
  id: string;
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: event payloads checked field by field.
  data: any;
}

for (const target of DATABASE_TARGETS) {
  describe(`kill -9 during return completion on ${target}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-return-crash-'));
    let server: ServeProcess | undefined;
    let receiver: Server;
    let receiverUrl: string;
    const events: Received[] = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => {
          body += chunk;
        });
        req.on('end', () => {
          try {
            events.push(JSON.parse(body) as Received);
          } catch {
            // not an event
          }
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });

    afterAll(async () => {
      if (server) await stop(server);
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    });

    test(`${ROUNDS} crashes mid-burst of ${BURST} keyed completions: each return has nothing or everything; retries answer as the first`, async () => {
      const databaseUrl = await freshDatabaseUrl(target, dir);
      const env = {
        COMMERCE_API_KEYS: SECRET,
        COMMERCE_RECONCILE_INTERVAL_MS: '0',
        COMMERCE_ALLOW_PRIVATE_WEBHOOKS: '1',
        COMMERCE_WEBHOOK_RETRY_DELAYS: '0,0,0,0,0',
      };
      server = await startServe(databaseUrl, env, []);
      const hook = await call(server, 'POST', '/v1/admin/webhooks', SECRET, {
        url: receiverUrl,
        events: ['return.completed', 'order.created', 'payment.refunded'],
      });
      expect(hook.status, JSON.stringify(hook.body)).toBeLessThan(300);

      /** A shipped, paid order of 2 units with a received return of both. */
      async function prepare(live: ServeProcess, index: number): Promise<Case> {
        const exchange = index % 2 === 1;
        const restocked = index % 4 < 2;
        const product = async (sku: string, price: number) => {
          const created = await call(live, 'POST', '/v1/admin/products', SECRET, {
            name: sku,
            status: 'active',
            variants: [{ sku: `${sku}-${target}`, price, inventory: { on_hand: 10 } }],
          });
          expect(created.status).toBe(200);
          return created.body.variants[0];
        };
        const variant = await product(`RC-${index}`, 1000);
        const other = await product(`RX-${index}`, 800);
        const email = `crash-${index}@returns.example`;
        const order = await call(live, 'POST', '/v1/admin/orders', SECRET, {
          lines: [{ variant_id: variant.id, quantity: 2 }],
          email,
          shipping_address: ADDRESS,
          status: 'pending',
        });
        expect(order.status).toBe(201);
        const id = order.body.id;
        const line = order.body.lines[0].id;
        expect(
          (
            await call(live, 'POST', `/v1/admin/orders/${id}/payments`, SECRET, {
              amount: 2000,
              provider: 'cash',
            })
          ).status,
        ).toBe(200);
        const f = await call(live, 'POST', `/v1/admin/orders/${id}/fulfillments`, SECRET, {
          lines: [{ order_line_id: line, quantity: 2 }],
        });
        expect((await call(live, 'POST', `/v1/admin/fulfillments/${f.body.id}/ship`, SECRET)).status).toBe(
          200,
        );
        const ret = await call(live, 'POST', `/v1/admin/orders/${id}/returns`, SECRET, {
          return_type: exchange ? 'exchange' : 'refund',
          lines: [
            {
              order_line_id: line,
              quantity: 2,
              ...(exchange && { exchange_variant_id: other.id }),
            },
          ],
        });
        expect(ret.status, JSON.stringify(ret.body)).toBe(200);
        const received = await call(live, 'POST', `/v1/admin/returns/${ret.body.id}/receive`, SECRET, {
          lines: [{ id: ret.body.lines[0].id, condition: restocked ? 'unopened' : 'damaged' }],
        });
        expect(received.status).toBe(200);
        return {
          index,
          exchange,
          restocked,
          order_id: id,
          email,
          return_id: ret.body.id,
          inventory_id: variant.inventory.id,
          exchange_inventory_id: other.inventory.id,
          exchange_variant_id: other.id,
          key: `complete-${target}-${index}`,
          before: null,
        };
      }

      /** The case as the database has it: nothing of the completion, or all of it. */
      async function assertAtomic(live: ServeProcess, c: Case): Promise<'received' | 'completed'> {
        const [ret, order, stock, exchangeStock, byEmail] = await Promise.all([
          call(live, 'GET', `/v1/admin/returns/${c.return_id}`, SECRET),
          call(live, 'GET', `/v1/admin/orders/${c.order_id}`, SECRET),
          call(live, 'GET', `/v1/admin/inventory/${c.inventory_id}`, SECRET),
          call(live, 'GET', `/v1/admin/inventory/${c.exchange_inventory_id}`, SECRET),
          call(live, 'GET', `/v1/admin/orders?email=${encodeURIComponent(c.email)}&limit=10`, SECRET),
        ]);
        const status = ret.body.status as string;
        const what = `return ${c.index} (${c.exchange ? 'exchange' : 'refund'}, ${status})`;
        expect(['received', 'completed'], what).toContain(status);
        const exchangeOrders = byEmail.body.data.filter((o: { id: string }) => o.id !== c.order_id);
        if (status === 'received') {
          expect(ret.body.refund_id, what).toBeNull();
          expect(ret.body.exchange_order_id, what).toBeNull();
          expect(order.body.refunds, what).toEqual([]);
          expect(order.body.refunded_total.amount, what).toBe(0);
          expect(order.body.fulfillment_status, what).toBe('fulfilled');
          expect(stock.body.on_hand, what).toBe(8);
          expect([exchangeStock.body.on_hand, exchangeStock.body.reserved], what).toEqual([10, 0]);
          expect(exchangeOrders, what).toEqual([]);
          return 'received';
        }
        expect(order.body.fulfillment_status, what).toBe('returned');
        expect(stock.body.on_hand, what).toBe(c.restocked ? 10 : 8);
        expect(order.body.refunds, what).toHaveLength(1);
        const refund = order.body.refunds[0];
        expect(refund.id, what).toBe(ret.body.refund_id);
        expect(refund.status, what).toBe('completed');
        if (c.exchange) {
          expect(refund.amount.amount, what).toBe(400);
          expect(
            exchangeOrders.map((o: { id: string }) => o.id),
            what,
          ).toEqual([ret.body.exchange_order_id]);
          const placed = await call(live, 'GET', `/v1/admin/orders/${ret.body.exchange_order_id}`, SECRET);
          expect(placed.body.metadata, what).toEqual({ return_id: c.return_id });
          expect(
            placed.body.payments.map((p: { provider: string; amount: { amount: number } }) => [
              p.provider,
              p.amount.amount,
            ]),
            what,
          ).toEqual([['exchange_credit', 1600]]);
          expect(placed.body.status, what).toBe('confirmed');
          expect([exchangeStock.body.on_hand, exchangeStock.body.reserved], what).toEqual([10, 2]);
        } else {
          expect(refund.amount.amount, what).toBe(2000);
          expect(ret.body.exchange_order_id, what).toBeNull();
          expect(exchangeOrders, what).toEqual([]);
          expect([exchangeStock.body.on_hand, exchangeStock.body.reserved], what).toEqual([10, 0]);
        }
        return 'completed';
      }

      const cases: Case[] = [];
      let cutByCrash = 0;
      let committedUnanswered = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const live = server;
        const batch: Case[] = [];
        for (let i = 0; i < BURST; i++) batch.push(await prepare(live, round * BURST + i));
        cases.push(...batch);
        const burst = batch.map((c) =>
          call(
            live,
            'POST',
            `/v1/admin/returns/${c.return_id}/complete`,
            SECRET,
            {},
            { 'idempotency-key': c.key },
          ).then(
            (response) => {
              c.before = response;
            },
            () => undefined, // the connection died with the server
          ),
        );
        const deadline = Date.now() + 5_000;
        while (batch.filter((c) => c.before !== null).length < 1 + round * 2 && Date.now() < deadline) {
          await new Promise((r) => setImmediate(r));
        }
        if (round > 0) await new Promise((r) => setTimeout(r, round * 3));
        await crash(live);
        await Promise.all(burst);
        for (const c of batch)
          if (c.before !== null) expect(c.before.status, JSON.stringify(c.before.body)).toBe(200);
        server = await startServe(databaseUrl, env, []);
        for (const c of batch) {
          const state = await assertAtomic(server, c);
          if (c.before === null) {
            cutByCrash += 1;
            if (state === 'completed') committedUnanswered += 1;
          } else {
            expect(state).toBe('completed');
          }
        }
      }
      // The crashes must have cut completions, or the test proves nothing.
      expect(cutByCrash).toBeGreaterThan(0);

      // Every key retried: the first answer again, or the completion now.
      const live = server;
      const retries = await Promise.all(
        cases.map((c) =>
          call(
            live,
            'POST',
            `/v1/admin/returns/${c.return_id}/complete`,
            SECRET,
            {},
            { 'idempotency-key': c.key },
          ),
        ),
      );
      let replayed = 0;
      for (const [i, c] of cases.entries()) {
        const retry = retries[i]!;
        expect(retry.status, `${c.key}: ${JSON.stringify(retry.body)}`).toBe(200);
        expect(retry.body.status).toBe('completed');
        if (retry.headers.get('idempotent-replayed') === 'true') replayed += 1;
        if (c.before !== null) {
          expect(retry.headers.get('idempotent-replayed'), c.key).toBe('true');
          expect(retry.body, c.key).toEqual(c.before.body);
        }
        expect(await assertAtomic(live, c)).toBe('completed');
      }
      const answered = cases.filter((c) => c.before !== null).length;
      expect(replayed).toBe(answered + committedUnanswered);

      // Events: exactly one of each per return, whatever the crashes cut. A delivery a killed
      // process had claimed is sent again once its lease expires (at least 60 s,
      // webhook-dispatcher.ts), so the wait covers a lease: on a loaded machine more deliveries
      // are in flight at the moment of a kill.
      await eventually(
        async () =>
          events.filter((e) => e.type === 'return.completed').length >= cases.length ? true : undefined,
        90_000,
        'the return.completed webhooks',
      );
      const distinct = new Map(events.map((e) => [e.id, e]));
      for (const c of cases) {
        const completed = [...distinct.values()].filter(
          (e) => e.type === 'return.completed' && e.data.id === c.return_id,
        );
        expect(completed, `return.completed of ${c.index}`).toHaveLength(1);
        const refunded = [...distinct.values()].filter(
          (e) => e.type === 'payment.refunded' && e.data.order_id === c.order_id,
        );
        expect(refunded, `payment.refunded of ${c.index}`).toHaveLength(1);
        const created = [...distinct.values()].filter(
          (e) => e.type === 'order.created' && e.data.metadata?.return_id === c.return_id,
        );
        expect(created, `exchange order.created of ${c.index}`).toHaveLength(c.exchange ? 1 : 0);
      }
      console.log(
        `${target}: ${cases.length} completions, ${answered} answered before a crash, ${cutByCrash} cut ` +
          `(${committedUnanswered} of them committed, answer lost); retries: ${replayed} replayed, ` +
          `${cases.length - replayed} completed now`,
      );
    }, 240_000);
  });
}
