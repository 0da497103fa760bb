import type { EventRecord, OrderAggregate, OrderListFilter, Repositories } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import {
  deliveryFor,
  makeEvent,
  makeFulfillment,
  makeOrder,
  makeOrderLine,
  makePayment,
  makeRefund,
  makeWebhook,
  newId,
  newScope,
  otherMode,
  RICH_METADATA,
} from '../fixtures';
import type { SuiteContext } from '../suite-context';
import { timeWindow } from './events-webhooks';

/** Orders with lines, payments, fulfillments, refunds; numbers; compare-and-set updates. */
export function ordersSuite(ctx: SuiteContext): void {
  describe('orders', () => {
    it('nextNumber starts at 1001 and counts per store and per mode', async () => {
      const scope = newScope();
      const next = (s = scope) => ctx.tx((tx) => tx.orders.nextNumber(s));
      expect(await next()).toBe(1001);
      expect(await next()).toBe(1002);
      expect(await next(otherMode(scope))).toBe(1001);
      expect(await next(newScope())).toBe(1001);
      expect(await next()).toBe(1003);
    });

    it('insertNumbered (optional; PostgreSQL): the next number with the order and its outbox, shared with nextNumber; a rollback gives it back (elsewhere: nextNumber, insert, append)', async () => {
      const placeholder = -4_503_599_627_370_497;
      const scope = newScope();
      const now = timeWindow();
      const orderOf = (lines = 2) => {
        const id = newId('ord');
        return makeOrder(scope, placeholder, {
          id,
          lines: Array.from({ length: lines }, (_, position) => makeOrderLine(id, { position })),
          payments: [makePayment(scope, id)],
        });
      };
      const eventsOf = (order: OrderAggregate, count: number, at: number): EventRecord[] =>
        Array.from({ length: count }, (_, i) =>
          makeEvent(scope, {
            data: { id: order.id, number: placeholder, note: 'number', nested: { number: placeholder } },
            created_at: at + i,
          }),
        );
      // What core does without it: the number first, then the rows with it.
      const numberedInsert = (tx: Repositories, order: OrderAggregate, events: EventRecord[] = []) =>
        tx.orders.insertNumbered !== undefined
          ? tx.orders.insertNumbered(order, { events, placeholder })
          : tx.orders.nextNumber(scope).then(async (number) => {
              const text = `"number":${placeholder}`;
              await tx.orders.insert({ ...order, number });
              await tx.events.append(
                events.map((event) => ({
                  ...event,
                  data: JSON.parse(JSON.stringify(event.data).replaceAll(text, `"number":${number}`)),
                })),
              );
              return number;
            });
      const webhook = makeWebhook(scope);
      await ctx.tx((tx) => tx.webhooks.insert(webhook));
      const first = orderOf();
      // More events than one statement takes (100): the rest follow in a statement of their own.
      const outbox = eventsOf(first, 103, now);
      expect(await ctx.tx((tx) => numberedInsert(tx, first, outbox))).toBe(1001);
      const stored = await ctx.read((r) => r.orders.get(scope, first.id));
      expect(stored).toMatchObject({ number: 1001, lines: first.lines, payments: first.payments });
      const heard: EventRecord[] = [];
      await ctx.tx((tx) =>
        tx.events.dispatch(103, now + 102, (event, hook) => {
          heard.push(event);
          return deliveryFor(now)(event, hook);
        }),
      );
      // Only the placeholder's text became the number; the rest of each event is as appended.
      expect(heard).toEqual(
        outbox.map((event) => ({
          ...event,
          data: { id: first.id, number: 1001, note: 'number', nested: { number: 1001 } },
        })),
      );
      expect(await ctx.tx((tx) => tx.orders.nextNumber(scope))).toBe(1002);
      await expect(
        ctx.tx(async (tx) => {
          await numberedInsert(tx, orderOf());
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      // More lines than one statement takes: the rest follow in statements of their own.
      const big = orderOf(130);
      expect(await ctx.tx((tx) => numberedInsert(tx, big))).toBe(1003);
      const bigStored = await ctx.read((r) => r.orders.get(scope, big.id));
      expect(bigStored?.number).toBe(1003);
      expect(bigStored?.lines).toHaveLength(130);
      // Its own scope's counter only.
      expect(await ctx.tx((tx) => tx.orders.nextNumber(otherMode(scope)))).toBe(1001);
    });

    it('round-trips an order aggregate (lines in position order, payments, fulfillments, refunds, tax_rate 8.875)', async () => {
      const scope = newScope();
      const id = newId('ord');
      const lineA = makeOrderLine(id, { position: 1, sku: null, image_url: 'https://cdn/x.png' });
      const lineB = makeOrderLine(id, { position: 0, quantity: 1 });
      const order = makeOrder(scope, 1001, {
        id,
        customer_id: 'cus_1',
        billing_address: { name: 'Ünïcödé', line2: '' },
        applied_discounts: [
          {
            discount_id: 'disc_1',
            code: null,
            name: 'Auto',
            value_type: 'percentage',
            value: 12.5,
            saved: 250,
          },
        ],
        shipping_method_id: 'ship_1',
        shipping_method_name: 'Standard',
        prices_include_tax: true,
        inventory_reserved: false,
        metadata: RICH_METADATA,
        lines: [lineA, lineB],
        payments: [
          makePayment(scope, id, { created_at: 2 }),
          makePayment(scope, id, { created_at: 1, status: 'failed' }),
        ],
        fulfillments: [
          makeFulfillment(scope, id, {
            lines: [{ order_line_id: lineA.id, quantity: 1 }],
            tracking_number: 'T1',
          }),
        ],
        refunds: [
          makeRefund(scope, id, {
            restock: true,
            lines: [{ order_line_id: lineB.id, quantity: 1 }],
            reason: 'damaged',
          }),
        ],
      });
      await ctx.tx((tx) => tx.orders.insert(order));
      const read = await ctx.read((r) => r.orders.get(scope, id));
      expect(read).toEqual({
        ...order,
        lines: [lineB, lineA],
        payments: [order.payments[1], order.payments[0]],
      });
      expect(read?.tax_rate).toBe(8.875);
      expect((await ctx.read((r) => r.orders.get(scope, { number: 1001 })))?.id).toBe(id);
      expect(await ctx.read((r) => r.orders.get(otherMode(scope), { number: 1001 }))).toBeNull();
      expect(await ctx.read((r) => r.orders.get(otherMode(scope), id))).toBeNull();
      expect((await ctx.tx((tx) => tx.orders.get(scope, id, { forUpdate: true })))?.id).toBe(id);
    });

    it('update patches columns; with expect_status it is a compare-and-set (null when the status moved)', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001, { status: 'pending' });
      await ctx.tx((tx) => tx.orders.insert(order));
      const confirmed = await ctx.tx((tx) =>
        tx.orders.update(
          scope,
          order.id,
          { status: 'confirmed', paid_total: 2178, payment_status: 'paid', confirmed_at: 5, updated_at: 5 },
          { expect_status: 'pending' },
        ),
      );
      expect(confirmed).toMatchObject({
        status: 'confirmed',
        paid_total: 2178,
        payment_status: 'paid',
        confirmed_at: 5,
        updated_at: 5,
      });
      expect(await ctx.read((r) => r.orders.get(scope, order.id))).toMatchObject({ confirmed_at: 5 });
      expect(
        await ctx.tx((tx) =>
          tx.orders.update(
            scope,
            order.id,
            { status: 'cancelled', updated_at: 6 },
            { expect_status: 'pending' },
          ),
        ),
      ).toBeNull();
      const patched = await ctx.tx((tx) =>
        tx.orders.update(scope, order.id, {
          email: 'NEW@example.com',
          shipping_address: null,
          note: 'leave at door',
          metadata: { a: 1 },
          inventory_reserved: false,
          cancel_reason: 'x',
          cancelled_at: 7,
          completed_at: null,
          updated_at: 7,
        }),
      );
      expect(patched).toMatchObject({
        status: 'confirmed',
        email: 'NEW@example.com',
        shipping_address: null,
        note: 'leave at door',
        metadata: { a: 1 },
        inventory_reserved: false,
        cancelled_at: 7,
      });
      const byEmail = await ctx.read((r) =>
        r.orders.list(scope, { email: 'new@EXAMPLE.com' }, { limit: 5, sort: 'created_at', order: 'desc' }),
      );
      expect(byEmail.data.map((o) => o.id)).toEqual([order.id]);
      expect(
        await ctx.tx((tx) => tx.orders.update(otherMode(scope), order.id, { note: 'x', updated_at: 8 })),
      ).toBeNull();
    });

    it('updateLines sets fulfilled/shipped/refunded/restocked quantities of the order’s lines only', async () => {
      const scope = newScope();
      const id = newId('ord');
      const line = makeOrderLine(id, { quantity: 3 });
      const otherId = newId('ord');
      const otherLine = makeOrderLine(otherId);
      await ctx.tx(async (tx) => {
        await tx.orders.insert(makeOrder(scope, 1001, { id, lines: [line] }));
        await tx.orders.insert(makeOrder(scope, 1002, { id: otherId, lines: [otherLine] }));
        await tx.orders.updateLines(scope, id, [
          { id: line.id, fulfilled_quantity: 3, shipped_quantity: 2 },
          { id: otherLine.id, fulfilled_quantity: 9 },
        ]);
        await tx.orders.updateLines(scope, id, [
          { id: line.id, refunded_quantity: 1, restocked_quantity: 1 },
          { id: line.id },
        ]);
      });
      expect((await ctx.read((r) => r.orders.get(scope, id)))?.lines[0]).toEqual({
        ...line,
        fulfilled_quantity: 3,
        shipped_quantity: 2,
        refunded_quantity: 1,
        restocked_quantity: 1,
      });
      expect((await ctx.read((r) => r.orders.get(scope, otherId)))?.lines[0]).toEqual(otherLine);
    });

    it('payments: insert without order (with a checkout snapshot), attach (clearing it), find by idempotency key, compare-and-set status, list by status across scopes', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001);
      const key = newId('idem');
      const payment = makePayment(scope, null, {
        idempotency_key: key,
        cart_id: 'cart_1',
        created_at: 100,
        metadata: { n: 1 },
        checkout_snapshot: { version: 1, order: { id: 'ord_1', lines: [{ quantity: 2 }] }, reserved: [] },
      });
      await ctx.tx(async (tx) => {
        await tx.orders.insert(order);
        await tx.orders.insertPayment(payment);
      });
      expect(await ctx.read((r) => r.orders.getPayment(scope, payment.id))).toEqual(payment);
      expect(await ctx.read((r) => r.orders.getPayment(scope, { idempotency_key: key }))).toEqual(payment);
      expect(
        await ctx.read((r) => r.orders.getPayment(otherMode(scope), { idempotency_key: key })),
      ).toBeNull();
      const completed = await ctx.tx((tx) =>
        tx.orders.updatePayment(
          scope,
          payment.id,
          {
            status: 'completed',
            order_id: order.id,
            provider_id: 'pi_1',
            client_secret: 'cs',
            checkout_snapshot: null,
            updated_at: 101,
          },
          { expect_status: 'pending' },
        ),
      );
      expect(completed).toEqual({
        ...payment,
        status: 'completed',
        order_id: order.id,
        provider_id: 'pi_1',
        client_secret: 'cs',
        checkout_snapshot: null,
        updated_at: 101,
      });
      expect(
        await ctx.tx((tx) =>
          tx.orders.updatePayment(
            scope,
            payment.id,
            { status: 'failed', failure_reason: 'x', updated_at: 102 },
            { expect_status: 'pending' },
          ),
        ),
      ).toBeNull();
      expect((await ctx.read((r) => r.orders.get(scope, order.id)))?.payments.map((p) => p.id)).toEqual([
        payment.id,
      ]);
      const stuck = makePayment(scope, null, { created_at: -1000 });
      const stuck2 = makePayment(otherMode(scope), null, { created_at: -999 });
      const fresh = makePayment(scope, null, { created_at: 5000 });
      await ctx.tx(async (tx) => {
        for (const p of [fresh, stuck2, stuck]) await tx.orders.insertPayment(p);
      });
      const pending = await ctx.read((r) => r.orders.listPaymentsByStatus('pending', -1, 10));
      expect(pending.map((p) => p.id)).toEqual([stuck.id, stuck2.id]);
      expect(
        (await ctx.read((r) => r.orders.listPaymentsByStatus('pending', 0, 1))).map((p) => p.id),
      ).toEqual([stuck.id]);
    });

    it('fulfillments and refunds: insert, read, update (fulfillment status compare-and-set), list refunds', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001);
      const fulfillment = makeFulfillment(scope, order.id, {
        lines: [{ order_line_id: 'line_1', quantity: 2 }],
      });
      const refund = makeRefund(scope, order.id, { created_at: 2 });
      const earlier = makeRefund(scope, order.id, { created_at: 1, amount: 1 });
      await ctx.tx(async (tx) => {
        await tx.orders.insert(order);
        await tx.orders.insertFulfillment(fulfillment);
        await tx.orders.insertRefund(refund);
        await tx.orders.insertRefund(earlier);
      });
      expect(await ctx.read((r) => r.orders.getFulfillment(scope, fulfillment.id))).toEqual(fulfillment);
      expect(await ctx.read((r) => r.orders.getFulfillment(otherMode(scope), fulfillment.id))).toBeNull();
      const shipped = await ctx.tx((tx) =>
        tx.orders.updateFulfillment(
          scope,
          fulfillment.id,
          { status: 'shipped', shipped_at: 9, tracking_number: 'TN', carrier: 'UPS', updated_at: 9 },
          { expect_status: 'pending' },
        ),
      );
      expect(shipped).toEqual({
        ...fulfillment,
        status: 'shipped',
        shipped_at: 9,
        tracking_number: 'TN',
        carrier: 'UPS',
        updated_at: 9,
      });
      expect(
        await ctx.tx((tx) =>
          tx.orders.updateFulfillment(
            scope,
            fulfillment.id,
            { status: 'cancelled', updated_at: 10 },
            { expect_status: 'pending' },
          ),
        ),
      ).toBeNull();
      const done = await ctx.tx((tx) =>
        tx.orders.updateRefund(scope, refund.id, {
          status: 'completed',
          provider_refund_id: 're_1',
          updated_at: 11,
        }),
      );
      expect(done).toEqual({ ...refund, status: 'completed', provider_refund_id: 're_1', updated_at: 11 });
      expect((await ctx.read((r) => r.orders.get(scope, order.id)))?.refunds).toEqual([earlier, done]);
      expect(await ctx.read((r) => r.orders.get(otherMode(scope), order.id))).toBeNull();
      expect(
        await ctx.tx((tx) =>
          tx.orders.updateRefund(scope, 'ref_missing', { status: 'failed', updated_at: 1 }),
        ),
      ).toBeNull();
    });

    it('fulfillment tracking: carrier_code / estimated_delivery round-trip and patch; tracking events listed by sequence, scoped, (fulfillment, sequence) unique', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001);
      const fulfillment = makeFulfillment(scope, order.id, { carrier_code: 'cj', estimated_delivery: 5 });
      await ctx.tx(async (tx) => {
        await tx.orders.insert(order);
        await tx.orders.insertFulfillment(fulfillment);
      });
      expect(await ctx.read((r) => r.orders.getFulfillment(scope, fulfillment.id))).toEqual(fulfillment);
      const patched = await ctx.tx((tx) =>
        tx.orders.updateFulfillment(scope, fulfillment.id, {
          carrier_code: null,
          estimated_delivery: 1_900_000_000_000,
          updated_at: 7,
        }),
      );
      expect(patched).toEqual({
        ...fulfillment,
        carrier_code: null,
        estimated_delivery: 1_900_000_000_000,
        updated_at: 7,
      });
      const event = (sequence: number, occurred_at: number) => ({
        store_id: scope.store_id,
        mode: scope.mode,
        fulfillment_id: fulfillment.id,
        sequence,
        status: 'in_transit' as const,
        description: `scan ${sequence} ✓`,
        location: sequence === 1 ? null : 'Leeds',
        occurred_at,
        created_at: 1_700_000_000_000 + sequence,
      });
      await ctx.tx(async (tx) => {
        await tx.orders.insertTrackingEvent(event(2, 10));
        await tx.orders.insertTrackingEvent(event(1, 20));
      });
      expect(await ctx.read((r) => r.orders.listTrackingEvents(scope, fulfillment.id))).toEqual([
        event(1, 20),
        event(2, 10),
      ]);
      expect(await ctx.read((r) => r.orders.listTrackingEvents(otherMode(scope), fulfillment.id))).toEqual(
        [],
      );
      // A second event with a taken sequence fails its transaction, which stores nothing.
      await expect(
        ctx.tx(async (tx) => {
          await tx.orders.insertTrackingEvent(event(3, 30));
          await tx.orders.insertTrackingEvent(event(2, 40));
        }),
      ).rejects.toThrow();
      expect(await ctx.read((r) => r.orders.listTrackingEvents(scope, fulfillment.id))).toHaveLength(2);
    });

    it('updateFulfillment replaces lines (a restock takes units out): with expect_status a compare-and-set, seen by orders.get', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001);
      const fulfillment = makeFulfillment(scope, order.id, {
        lines: [
          { order_line_id: 'line_1', quantity: 3 },
          { order_line_id: 'line_2', quantity: 1 },
        ],
        tracking_number: 'TN',
        metadata: { box: 'A' },
      });
      await ctx.tx(async (tx) => {
        await tx.orders.insert(order);
        await tx.orders.insertFulfillment(fulfillment);
      });
      const shrunk = await ctx.tx((tx) =>
        tx.orders.updateFulfillment(
          scope,
          fulfillment.id,
          { lines: [{ order_line_id: 'line_1', quantity: 1 }], updated_at: 5 },
          { expect_status: 'pending' },
        ),
      );
      expect(shrunk).toEqual({
        ...fulfillment,
        lines: [{ order_line_id: 'line_1', quantity: 1 }],
        updated_at: 5,
      });
      expect(await ctx.read((r) => r.orders.getFulfillment(scope, fulfillment.id))).toEqual(shrunk);
      expect((await ctx.read((r) => r.orders.get(scope, order.id)))?.fulfillments).toEqual([shrunk]);
      // Emptied and cancelled in one compare-and-set; a second one on `pending` no longer matches.
      const emptied = await ctx.tx((tx) =>
        tx.orders.updateFulfillment(
          scope,
          fulfillment.id,
          { lines: [], status: 'cancelled', updated_at: 6 },
          { expect_status: 'pending' },
        ),
      );
      expect(emptied).toEqual({ ...fulfillment, lines: [], status: 'cancelled', updated_at: 6 });
      expect(
        await ctx.tx((tx) =>
          tx.orders.updateFulfillment(
            scope,
            fulfillment.id,
            { lines: [{ order_line_id: 'line_1', quantity: 9 }], updated_at: 7 },
            { expect_status: 'pending' },
          ),
        ),
      ).toBeNull();
      expect(await ctx.read((r) => r.orders.getFulfillment(scope, fulfillment.id))).toEqual(emptied);
      // Without expect_status, and never across modes.
      const plain = await ctx.tx((tx) =>
        tx.orders.updateFulfillment(scope, fulfillment.id, {
          lines: [{ order_line_id: 'line_2', quantity: 2 }],
          updated_at: 8,
        }),
      );
      expect(plain?.lines).toEqual([{ order_line_id: 'line_2', quantity: 2 }]);
      expect(
        await ctx.tx((tx) =>
          tx.orders.updateFulfillment(otherMode(scope), fulfillment.id, { lines: [], updated_at: 9 }),
        ),
      ).toBeNull();
      expect((await ctx.read((r) => r.orders.getFulfillment(scope, fulfillment.id)))?.lines).toEqual([
        { order_line_id: 'line_2', quantity: 2 },
      ]);
    });

    it('refunds in flight: listRefundsByStatus across scopes, oldest first, before the cutoff; updateRefund sets and clears its ledger columns', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001);
      const other = otherMode(scope);
      const otherOrder = makeOrder(other, 1001);
      const calls = [{ payment_id: 'pay_1', amount: 500 }];
      const movement = {
        order_line_id: 'line_1',
        from_reserved: 1,
        to_on_hand: 0,
        returned_quantity: 0,
        from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 1 }],
      };
      const stuck = makeRefund(scope, order.id, { created_at: -7000, provider_calls: calls });
      const stuck2 = makeRefund(other, otherOrder.id, { created_at: -7000 });
      const fresh = makeRefund(scope, order.id, { created_at: -100 });
      const settled = makeRefund(scope, order.id, { created_at: -8000, status: 'completed' });
      await ctx.tx(async (tx) => {
        await tx.orders.insert(order);
        await tx.orders.insert(otherOrder);
        for (const r of [fresh, stuck2, settled, stuck]) await tx.orders.insertRefund(r);
      });
      const pending = await ctx.read((r) => r.orders.listRefundsByStatus('pending', -5000, 10));
      const byId = [stuck.id, stuck2.id].sort();
      expect(pending.map((r) => r.id)).toEqual(byId);
      expect(pending.find((r) => r.id === stuck.id)).toEqual(stuck);
      expect(
        (await ctx.read((r) => r.orders.listRefundsByStatus('pending', -5000, 1))).map((r) => r.id),
      ).toEqual([byId[0]]);
      expect(
        (await ctx.read((r) => r.orders.listRefundsByStatus('completed', -5000, 10))).map((r) => r.id),
      ).toEqual([settled.id]);
      const done = await ctx.tx((tx) =>
        tx.orders.updateRefund(scope, stuck.id, {
          status: 'completed',
          restock_movements: [movement],
          provider_calls: null,
          updated_at: 12,
        }),
      );
      expect(done).toEqual({
        ...stuck,
        status: 'completed',
        restock_movements: [movement],
        provider_calls: null,
        updated_at: 12,
      });
      const failed = await ctx.tx((tx) =>
        tx.orders.updateRefund(scope, stuck.id, {
          status: 'failed',
          failure_message: 'card_lost',
          updated_at: 13,
        }),
      );
      expect(failed).toEqual({ ...done, status: 'failed', failure_message: 'card_lost', updated_at: 13 });
      expect(
        (await ctx.read((r) => r.orders.get(scope, order.id)))?.refunds.find((r) => r.id === stuck.id),
      ).toEqual(failed);
      expect(
        (await ctx.read((r) => r.orders.listRefundsByStatus('pending', -5000, 10))).map((r) => r.id),
      ).toEqual([stuck2.id]);
    });

    it('listPaymentsByStatus / listRefundsByStatus `after` a position: keyset pages by (created_at, id), ties by id, rows settled meanwhile neither repeat nor shift the walk', async () => {
      const scope = newScope();
      const order = makeOrder(scope, 1001);
      // Five rows of each at three timestamps far below every other test's rows.
      const times = [-900_000, -900_000, -899_000, -899_000, -898_000];
      const payments = times.map((created_at) => makePayment(scope, null, { created_at }));
      const otherOrder = makeOrder(otherMode(scope), 1001);
      const refunds = times.map((created_at, i) =>
        i % 2 === 0
          ? makeRefund(scope, order.id, { created_at })
          : makeRefund(otherMode(scope), otherOrder.id, { created_at }),
      );
      await ctx.tx(async (tx) => {
        await tx.orders.insert(order);
        await tx.orders.insert(otherOrder);
        for (const p of [...payments].reverse()) await tx.orders.insertPayment(p);
        for (const r of [...refunds].reverse()) await tx.orders.insertRefund(r);
      });
      const expected = (rows: { created_at: number; id: string }[]) =>
        [...rows].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1)).map((r) => r.id);
      const mine = new Set([...payments, ...refunds].map((r) => r.id));
      /** Every page of 2 (the walk's own position each time), with `settle` run after the first page. */
      const walk = async (
        list: (
          after: { created_at: number; id: string } | undefined,
        ) => Promise<{ created_at: number; id: string }[]>,
        settle: () => Promise<unknown>,
      ) => {
        const seen: string[] = [];
        let after: { created_at: number; id: string } | undefined;
        for (let pageNo = 0; pageNo < 10; pageNo++) {
          const page = await list(after);
          seen.push(...page.map((r) => r.id).filter((id) => mine.has(id)));
          if (pageNo === 0) await settle();
          const last = page[page.length - 1];
          if (page.length < 2 || !last) break;
          after = { created_at: last.created_at, id: last.id };
        }
        return seen;
      };
      expect(
        await walk(
          (after) => ctx.read((r) => r.orders.listPaymentsByStatus('pending', -897_000, 2, after)),
          // The first page's rows leave `pending`; the walk goes on from its position.
          () =>
            ctx.tx((tx) =>
              tx.orders.updatePayment(scope, expected(payments)[0]!, { status: 'completed', updated_at: 1 }),
            ),
        ),
      ).toEqual(expected(payments));
      const pendingAfter = await ctx.read((r) =>
        r.orders.listPaymentsByStatus('pending', -897_000, 10, {
          created_at: -899_000,
          id: expected(payments)[2]!,
        }),
      );
      expect(pendingAfter.map((p) => p.id).filter((id) => mine.has(id))).toEqual(expected(payments).slice(3));
      const refundIds = expected(refunds);
      const refundScope = (id: string) =>
        refunds.findIndex((r) => r.id === id) % 2 === 0 ? scope : otherMode(scope);
      expect(
        await walk(
          (after) => ctx.read((r) => r.orders.listRefundsByStatus('pending', -897_000, 2, after)),
          () =>
            ctx.tx((tx) =>
              tx.orders.updateRefund(refundScope(refundIds[1]!), refundIds[1]!, {
                status: 'failed',
                updated_at: 1,
              }),
            ),
        ),
      ).toEqual(refundIds);
      // Read again from the start: the settled rows are gone, the order is unchanged.
      expect(
        (await ctx.read((r) => r.orders.listRefundsByStatus('pending', -897_000, 10)))
          .map((r) => r.id)
          .filter((id) => mine.has(id)),
      ).toEqual(refundIds.filter((_, i) => i !== 1));
    });

    it('list filters: statuses, customer, e-mail, q (number or e-mail part), inclusive dates, drafts excluded', async () => {
      const scope = newScope();
      const orders = [
        makeOrder(scope, 1001, { status: 'draft', email: 'a@x.test', created_at: 100 }),
        makeOrder(scope, 1002, {
          status: 'pending',
          customer_id: 'cus_1',
          email: 'bob@x.test',
          created_at: 200,
        }),
        makeOrder(scope, 1003, {
          status: 'completed',
          payment_status: 'paid',
          fulfillment_status: 'fulfilled',
          customer_id: 'cus_1',
          email: 'Carol@Y.test',
          created_at: 300,
        }),
        makeOrder(scope, 1004, {
          status: 'cancelled',
          payment_status: 'refunded',
          email: 'dave@y.test',
          created_at: 400,
        }),
      ];
      await ctx.tx(async (tx) => {
        for (const order of orders) await tx.orders.insert(order);
      });
      const numbers = async (filter: OrderListFilter) =>
        (
          await ctx.read((r) => r.orders.list(scope, filter, { limit: 10, sort: 'number', order: 'asc' }))
        ).data.map((o) => o.number);
      expect(await numbers({})).toEqual([1001, 1002, 1003, 1004]);
      expect(await numbers({ status: 'pending' })).toEqual([1002]);
      expect(await numbers({ payment_status: 'paid' })).toEqual([1003]);
      expect(await numbers({ fulfillment_status: 'unfulfilled' })).toEqual([1001, 1002, 1004]);
      expect(await numbers({ customer_id: 'cus_1' })).toEqual([1002, 1003]);
      expect(await numbers({ email: 'CAROL@y.test' })).toEqual([1003]);
      expect(await numbers({ q: '1004' })).toEqual([1004]);
      expect(await numbers({ q: 'Y.TEST' })).toEqual([1003, 1004]);
      expect(await numbers({ created_after: 200, created_before: 300 })).toEqual([1002, 1003]);
      expect(await numbers({ exclude_drafts: true })).toEqual([1002, 1003, 1004]);
      expect(await numbers({ customer_id: 'cus_1', status: 'completed', exclude_drafts: true })).toEqual([
        1003,
      ]);
      expect(
        await ctx.read((r) =>
          r.orders.list(otherMode(scope), {}, { limit: 10, sort: 'number', order: 'asc' }),
        ),
      ).toEqual({
        data: [],
        total_count: 0,
        has_more: false,
        next_cursor: null,
      });
    });
  });
}
