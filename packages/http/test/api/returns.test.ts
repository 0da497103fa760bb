import type { Clock } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import { describeApi } from './support/harness';
import {
  adminOrder,
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  orderOf,
  payOrder,
  recordEvents,
  tally,
  unique,
} from './support/order-fixtures';

/**
 * Returns and exchanges over HTTP (decisions §18) on every engine: paths, statuses, the state
 * machine, every error of creation, the storefront's rules (own orders only, the window,
 * admin-only fields), concurrency (two returns for the last unit: one wins; a return completed
 * twice at once completes once) and an Idempotency-Key retry of `complete`.
 */

const DAY = 86_400_000;

/** A clock the test can move forward (`shift`), never repeating a millisecond. */
function movableClock(): Clock & { shift(ms: number): void } {
  let offset = 0;
  let last = 0;
  return {
    now: () => (last = Math.max(Date.now() + offset, last + 1)),
    shift(ms: number) {
      offset += ms;
    },
  };
}
const clock = movableClock();

interface ShippedOrder {
  order: { id: string; lines: Array<{ id: string; product_name: string }> };
  line: { id: string; product_name: string };
  customer: { id: string; token: string };
  product: { variant_id: string; inventory_id: string };
}

/** A customer's paid order of `quantity` units (manual payment completed), `shipped` of them shipped. */
async function shippedOrder(
  a: TestApi,
  options: { quantity?: number; shipped?: number; price?: number; on_hand?: number } = {},
): Promise<ShippedOrder> {
  const quantity = options.quantity ?? 2;
  const product = await createProduct(a, { price: options.price ?? 1000, on_hand: options.on_hand ?? 20 });
  const customer = await createCustomer(a);
  const cart = await createCart(a, [{ variant_id: product.variant_id, quantity }], {
    customerToken: customer.token,
  });
  const placed = expectStatus(
    await checkout(a, cart.id, { payment_provider: 'manual' }, { customerToken: customer.token }),
    201,
  ).body;
  const order = await payOrder(a, placed);
  const line = order.lines[0];
  const shipped = options.shipped ?? quantity;
  if (shipped > 0) {
    const f = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: line.id, quantity: shipped }],
      }),
      200,
    ).body;
    expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 200);
  }
  return { order, line, customer, product };
}

const adminCreate = (a: TestApi, orderId: string, body: unknown, idempotencyKey?: string) =>
  a.request('POST', `/v1/admin/orders/${orderId}/returns`, {
    body,
    ...(idempotencyKey && { idempotencyKey }),
  });
const storefrontCreate = (a: TestApi, orderId: string, token: string | undefined, body: unknown) =>
  a.storefront.post(
    `/v1/storefront/orders/${orderId}/returns`,
    body,
    token === undefined ? {} : { customerToken: token },
  );

describeApi(
  'returns (decisions §18)',
  (api) => {
    test('admin life cycle: create → approved (approved_at = created_at), receive with conditions, complete → refund, restock, returned', async () => {
      const a = api();
      const { order, line, product } = await shippedOrder(a, { quantity: 3 });
      expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(3);
      const events = recordEvents(a);
      try {
        const created = expectStatus(
          await adminCreate(a, order.id, {
            reason: 'Wrong size',
            reason_category: 'wrong_item',
            admin_notes: 'Label sent',
            metadata: { ticket: 'T-9' },
            lines: [{ order_line_id: line.id, quantity: 2, reason: 'too small', condition: 'unopened' }],
          }),
          200,
        ).body;
        expect(created).toMatchObject({
          order_id: order.id,
          status: 'approved',
          return_type: 'refund',
          reason: 'Wrong size',
          reason_category: 'wrong_item',
          admin_notes: 'Label sent',
          customer_notes: null,
          metadata: { ticket: 'T-9' },
          refund_id: null,
          exchange_order_id: null,
          received_at: null,
          completed_at: null,
          rejected_at: null,
          cancelled_at: null,
          lines: [
            {
              order_line_id: line.id,
              quantity: 2,
              reason: 'too small',
              condition: 'unopened',
              exchange_variant_id: null,
              product_name: line.product_name,
            },
          ],
        });
        expect(created.id).toMatch(/^ret_/);
        expect(created.approved_at).toBe(created.created_at);
        expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(1);
        expect(expectStatus(await a.get(`/v1/admin/returns/${created.id}`), 200).body).toEqual(created);

        // approve is requested → approved only.
        expectError(
          await a.post(`/v1/admin/returns/${created.id}/approve`, {}),
          409,
          'invalid_state_transition',
        );
        // complete needs received.
        expectError(
          await a.post(`/v1/admin/returns/${created.id}/complete`),
          409,
          'invalid_state_transition',
        );

        const received = expectStatus(
          await a.post(`/v1/admin/returns/${created.id}/receive`, {
            admin_notes: 'One box dented',
            lines: [{ id: created.lines[0].id, condition: 'damaged' }],
          }),
          200,
        ).body;
        expect(received).toMatchObject({
          status: 'received',
          admin_notes: 'One box dented',
          lines: [{ condition: 'damaged' }],
        });
        expect(received.received_at).not.toBeNull();
        expectError(
          await a.post(`/v1/admin/returns/${created.id}/receive`, {
            lines: [{ id: 'retl_nope', condition: 'opened' }],
          }),
          409,
          'invalid_state_transition',
        );

        const before = await inventoryOf(a, product.inventory_id);
        const completed = expectStatus(
          await a.post(`/v1/admin/returns/${created.id}/complete`, {}),
          200,
        ).body;
        expect(completed).toMatchObject({ status: 'completed' });
        expect(completed.refund_id).toMatch(/^ref_/);
        // Damaged units are written off: on_hand does not move.
        expect((await inventoryOf(a, product.inventory_id)).on_hand).toBe(before.on_hand);
        const after = await orderOf(a, order.id);
        expect(after.refunds).toEqual([
          expect.objectContaining({
            id: completed.refund_id,
            amount: { amount: 2000, currency: 'USD' },
            restock: false,
            reason: 'Wrong size',
            status: 'completed',
          }),
        ]);
        expect(after).toMatchObject({
          payment_status: 'partially_refunded',
          fulfillment_status: 'fulfilled',
        });
        expect(after.lines[0]).toMatchObject({ refunded_quantity: 2, returnable_quantity: 1 });
        expect(events.typesFor(created.id)).toEqual([
          'return.approved',
          'return.received',
          'return.completed',
        ]);
      } finally {
        events.stop();
      }
    });

    test('the admin list: newest first, filters status, order_id, customer_id, created_after, created_before; bad filter → 400', async () => {
      const a = api();
      const one = await shippedOrder(a);
      const two = await shippedOrder(a);
      const r1 = expectStatus(
        await adminCreate(a, one.order.id, { lines: [{ order_line_id: one.line.id, quantity: 1 }] }),
        200,
      ).body;
      const r2 = expectStatus(
        await storefrontCreate(a, two.order.id, two.customer.token, {
          lines: [{ order_line_id: two.line.id, quantity: 1 }],
        }),
        200,
      ).body;
      expect(r2.status).toBe('requested');

      const all = expectStatus(await a.get('/v1/admin/returns?limit=100'), 200).body;
      const ids = all.data.map((r: { id: string }) => r.id);
      expect(ids.indexOf(r2.id)).toBeLessThan(ids.indexOf(r1.id));
      expect(all).toMatchObject({ has_more: false, next_cursor: null });

      const byStatus = expectStatus(await a.get('/v1/admin/returns?status=requested&limit=100'), 200).body
        .data;
      expect(byStatus.every((r: { status: string }) => r.status === 'requested')).toBe(true);
      expect(byStatus.map((r: { id: string }) => r.id)).toContain(r2.id);
      expect(
        expectStatus(await a.get(`/v1/admin/returns?order_id=${one.order.id}`), 200).body.data.map(
          (r: { id: string }) => r.id,
        ),
      ).toEqual([r1.id]);
      expect(
        expectStatus(await a.get(`/v1/admin/returns?customer_id=${two.customer.id}`), 200).body.data.map(
          (r: { id: string }) => r.id,
        ),
      ).toEqual([r2.id]);
      const after = encodeURIComponent(r2.created_at);
      expect(
        expectStatus(await a.get(`/v1/admin/returns?created_after=${after}&limit=100`), 200).body.data.map(
          (r: { id: string }) => r.id,
        ),
      ).toEqual([r2.id]);
      expect(
        expectStatus(
          await a.get(`/v1/admin/returns?created_before=${encodeURIComponent(r1.created_at)}&limit=100`),
          200,
        ).body.data.map((r: { id: string }) => r.id),
      ).toContain(r1.id);
      // Pages: limit 1 walks newest first with a cursor.
      const page = expectStatus(await a.get(`/v1/admin/returns?limit=1`), 200).body;
      expect(page).toMatchObject({ has_more: true });
      expect(page.data).toHaveLength(1);
      expectError(await a.get('/v1/admin/returns?status=pending'), 400, 'parameter_invalid', 'status');
      expectError(await a.get('/v1/admin/returns/ret_doesnotexist'), 404, 'not_found');
      expectError(await a.request('GET', '/v1/admin/returns', { key: a.keys.publishable }), 403, 'forbidden');
    });

    test('creation errors: eligibility before lines, unknown line, over returnable, body shape', async () => {
      const a = api();
      const { order, line } = await shippedOrder(a, { quantity: 3, shipped: 2 });
      const body = (lines: unknown, extra: Record<string, unknown> = {}) => ({ lines, ...extra });

      expectError(
        await adminCreate(a, 'ord_doesnotexist', body([{ order_line_id: line.id, quantity: 1 }])),
        404,
        'not_found',
      );
      expectError(await adminCreate(a, order.id, body([])), 400, 'parameter_invalid', 'lines');
      expectError(await adminCreate(a, order.id, {}), 400, 'parameter_missing', 'lines');
      expectError(
        await adminCreate(a, order.id, body([{ order_line_id: line.id, quantity: 0 }])),
        400,
        'parameter_invalid',
        'lines[0][quantity]',
      );
      expectError(
        await adminCreate(
          a,
          order.id,
          body([
            { order_line_id: line.id, quantity: 1 },
            { order_line_id: line.id, quantity: 1 },
          ]),
        ),
        400,
        'parameter_invalid',
        'lines[1][order_line_id]',
      );
      expectError(
        await adminCreate(a, order.id, body([{ order_line_id: line.id, quantity: 1 }], { type: 'refund' })),
        400,
        'parameter_unknown',
        'type',
      );
      expectError(
        await adminCreate(a, order.id, body([{ order_line_id: 'line_nope', quantity: 1 }])),
        404,
        'not_found',
        'lines[0][order_line_id]',
      );
      const over = await adminCreate(a, order.id, body([{ order_line_id: line.id, quantity: 3 }]));
      expectError(over, 422, 'quantity_exceeds_returnable', 'lines[0][quantity]');
      expect(over.body.error.message).toContain('2 returnable units');
      expect(over.body.error.type).toBe('invalid_request_error');

      // Eligibility first: a draft and a cancelled order → 409 whatever the lines say.
      const product = await createProduct(a);
      const draft = expectStatus(await adminOrder(a, [{ variant_id: product.variant_id }]), 201).body;
      expectError(
        await adminCreate(a, draft.id, body([{ order_line_id: 'line_nope', quantity: 9 }])),
        409,
        'invalid_state_transition',
      );
      expectStatus(await a.post(`/v1/admin/orders/${draft.id}/cancel`, {}), 200);
      expectError(
        await adminCreate(a, draft.id, body([{ order_line_id: 'line_nope', quantity: 9 }])),
        409,
        'invalid_state_transition',
      );

      // Nothing of it was stored.
      expect(expectStatus(await a.get(`/v1/admin/returns?order_id=${order.id}`), 200).body.data).toEqual([]);
      expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(2);
    });

    test('exchange returns: exchange_variant_id required (400), existing (404), buyable (422), in stock (422, not reserved); refused on refund returns', async () => {
      const a = api();
      const { order, line } = await shippedOrder(a);
      const swap = await createProduct(a, { on_hand: 1 });
      const hidden = await createProduct(a, { status: 'draft' });
      const exchange = (lines: unknown) => adminCreate(a, order.id, { return_type: 'exchange', lines });

      expectError(
        await exchange([{ order_line_id: line.id, quantity: 1 }]),
        400,
        'parameter_missing',
        'lines[0][exchange_variant_id]',
      );
      expectError(
        await adminCreate(a, order.id, {
          lines: [{ order_line_id: line.id, quantity: 1, exchange_variant_id: swap.variant_id }],
        }),
        400,
        'parameter_invalid',
        'lines[0][exchange_variant_id]',
      );
      expectError(
        await exchange([{ order_line_id: line.id, quantity: 1, exchange_variant_id: 'var_doesnotexist' }]),
        404,
        'not_found',
        'lines[0][exchange_variant_id]',
      );
      expectError(
        await exchange([{ order_line_id: line.id, quantity: 1, exchange_variant_id: hidden.variant_id }]),
        422,
        'product_unavailable',
        'lines[0][exchange_variant_id]',
      );
      expectError(
        await exchange([{ order_line_id: line.id, quantity: 2, exchange_variant_id: swap.variant_id }]),
        422,
        'insufficient_inventory',
        'lines[0][quantity]',
      );
      const ok = expectStatus(
        await exchange([{ order_line_id: line.id, quantity: 1, exchange_variant_id: swap.variant_id }]),
        200,
      ).body;
      expect(ok).toMatchObject({
        return_type: 'exchange',
        lines: [{ exchange_variant_id: swap.variant_id }],
      });
      // Checked, not reserved.
      expect(await inventoryOf(a, swap.inventory_id)).toMatchObject({ on_hand: 1, reserved: 0 });
    });

    test('moves: reject (requested or received), cancel (requested or approved), final states; reject and cancel give units back', async () => {
      const a = api();
      const { order, line, customer } = await shippedOrder(a, { quantity: 2 });
      const sf = (body: unknown) => storefrontCreate(a, order.id, customer.token, body);
      const r1 = expectStatus(await sf({ lines: [{ order_line_id: line.id, quantity: 2 }] }), 200).body;
      expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(0);
      expectError(
        await sf({ lines: [{ order_line_id: line.id, quantity: 1 }] }),
        422,
        'quantity_exceeds_returnable',
        'lines[0][quantity]',
      );
      expectError(await a.post(`/v1/admin/returns/${r1.id}/receive`, {}), 409, 'invalid_state_transition');
      const rejected = expectStatus(
        await a.post(`/v1/admin/returns/${r1.id}/reject`, { admin_notes: 'Outside policy' }),
        200,
      ).body;
      expect(rejected).toMatchObject({ status: 'rejected', admin_notes: 'Outside policy' });
      expectError(await a.post(`/v1/admin/returns/${r1.id}/approve`), 409, 'invalid_state_transition');
      expectError(await a.post(`/v1/admin/returns/${r1.id}/cancel`), 409, 'invalid_state_transition');
      expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(2);

      const r2 = expectStatus(
        await adminCreate(a, order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] }),
        200,
      ).body;
      expectError(
        await a.post(`/v1/admin/returns/${r2.id}/cancel`, { reason: 'x' }),
        400,
        'parameter_unknown',
        'reason',
      );
      expect(expectStatus(await a.post(`/v1/admin/returns/${r2.id}/cancel`), 200).body.status).toBe(
        'cancelled',
      );

      const r3 = expectStatus(
        await adminCreate(a, order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] }),
        200,
      ).body;
      // A line that is not the return's: 404 on lines[i][id], nothing changes.
      expectError(
        await a.post(`/v1/admin/returns/${r3.id}/receive`, {
          lines: [
            { id: r3.lines[0].id, condition: 'opened' },
            { id: 'retl_doesnotexist', condition: 'opened' },
          ],
        }),
        404,
        'not_found',
        'lines[1][id]',
      );
      expectError(
        await a.post(`/v1/admin/returns/${r3.id}/receive`, {
          lines: [{ id: r3.lines[0].id, condition: 'broken' }],
        }),
        400,
        'parameter_invalid',
        'lines[0][condition]',
      );
      const unchanged = expectStatus(await a.get(`/v1/admin/returns/${r3.id}`), 200).body;
      expect(unchanged).toMatchObject({ status: 'approved', lines: [{ condition: null }] });
      expectStatus(await a.post(`/v1/admin/returns/${r3.id}/receive`), 200);
      expectError(await a.post(`/v1/admin/returns/${r3.id}/cancel`), 409, 'invalid_state_transition');
      const failed = expectStatus(await a.post(`/v1/admin/returns/${r3.id}/reject`, {}), 200).body;
      expect(failed.status).toBe('rejected');
      expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(2);
      // Nothing moved money.
      expect((await orderOf(a, order.id)).refunds).toEqual([]);
    });

    test('storefront: token required (401), own orders and returns only (404), admin fields unknown (400), cancel only while requested', async () => {
      const a = api();
      const { order, line, customer } = await shippedOrder(a);
      const stranger = await createCustomer(a);
      const body = { lines: [{ order_line_id: line.id, quantity: 1 }] };

      expectError(await storefrontCreate(a, order.id, undefined, body), 401, 'customer_token_required');
      expectError(await a.storefront.get('/v1/storefront/returns'), 401, 'customer_token_required');
      expectError(await storefrontCreate(a, order.id, stranger.token, body), 404, 'not_found');
      expectError(
        await storefrontCreate(a, order.id, customer.token, { ...body, admin_notes: 'x' }),
        400,
        'parameter_unknown',
        'admin_notes',
      );
      expectError(
        await storefrontCreate(a, order.id, customer.token, { ...body, metadata: {} }),
        400,
        'parameter_unknown',
        'metadata',
      );

      const mine = expectStatus(
        await storefrontCreate(a, order.id, customer.token, {
          ...body,
          customer_notes: 'Please',
          reason: 'Changed my mind',
        }),
        200,
      ).body;
      expect(mine).toMatchObject({
        status: 'requested',
        approved_at: null,
        customer_id: customer.id,
        customer_notes: 'Please',
      });
      const own = { customerToken: customer.token };
      expect(
        expectStatus(await a.storefront.get(`/v1/storefront/returns/${mine.id}`, own), 200).body,
      ).toEqual(mine);
      expectError(
        await a.storefront.get(`/v1/storefront/returns/${mine.id}`, { customerToken: stranger.token }),
        404,
        'not_found',
      );
      expect(
        expectStatus(await a.storefront.get('/v1/storefront/returns', own), 200).body.data.map(
          (r: { id: string }) => r.id,
        ),
      ).toEqual([mine.id]);
      expect(
        expectStatus(await a.storefront.get('/v1/storefront/returns', { customerToken: stranger.token }), 200)
          .body.data,
      ).toEqual([]);
      expect(
        expectStatus(await a.storefront.get(`/v1/storefront/returns?status=cancelled`, own), 200).body.data,
      ).toEqual([]);
      expect(
        expectStatus(await a.storefront.get(`/v1/storefront/returns?order_id=${order.id}`, own), 200).body
          .data,
      ).toHaveLength(1);
      expectError(
        await a.storefront.get(`/v1/storefront/returns?starting_after=${mine.id}`, {
          customerToken: stranger.token,
        }),
        400,
        'parameter_invalid',
        'starting_after',
      );
      // The storefront's order shows returnable_quantity too.
      expect(
        expectStatus(await a.storefront.get(`/v1/storefront/orders/${order.id}`, own), 200).body.lines[0]
          .returnable_quantity,
      ).toBe(1);

      expectError(
        await a.storefront.post(
          `/v1/storefront/returns/${mine.id}/cancel`,
          {},
          { customerToken: stranger.token },
        ),
        404,
        'not_found',
      );
      const approved = expectStatus(await adminCreate(a, order.id, body), 200).body;
      expectError(
        await a.storefront.post(`/v1/storefront/returns/${approved.id}/cancel`, {}, own),
        409,
        'invalid_state_transition',
      );
      const cancelled = expectStatus(
        await a.storefront.post(`/v1/storefront/returns/${mine.id}/cancel`, undefined, own),
        200,
      ).body;
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.cancelled_at).not.toBeNull();
    });

    test('the storefront window: return_window_days (0..3650 or null) on the store; older shipments → 422 return_window_expired; the admin is never limited', async () => {
      const a = api();
      expectError(
        await a.patch('/v1/admin/store', { return_window_days: 3651 }),
        400,
        'parameter_invalid',
        'return_window_days',
      );
      expectError(
        await a.patch('/v1/admin/store', { return_window_days: 1.5 }),
        400,
        'parameter_invalid',
        'return_window_days',
      );
      const { order, line, customer } = await shippedOrder(a);
      expect(
        expectStatus(await a.patch('/v1/admin/store', { return_window_days: 14 }), 200).body
          .return_window_days,
      ).toBe(14);
      try {
        const body = { lines: [{ order_line_id: line.id, quantity: 1 }] };
        const inside = expectStatus(await storefrontCreate(a, order.id, customer.token, body), 200).body;
        expectStatus(await a.post(`/v1/admin/returns/${inside.id}/cancel`), 200);
        clock.shift(15 * DAY);
        // (The first token expired meanwhile: a fresh one.)
        const token = expectStatus(await a.post(`/v1/admin/customers/${customer.id}/token`, {}), 200).body
          .token;
        expectError(
          await storefrontCreate(a, order.id, token, body),
          422,
          'return_window_expired',
          'lines[0][order_line_id]',
        );
        expect(expectStatus(await adminCreate(a, order.id, body), 200).body.status).toBe('approved');
      } finally {
        expect(
          expectStatus(await a.patch('/v1/admin/store', { return_window_days: null }), 200).body
            .return_window_days,
        ).toBeNull();
      }
    });

    test('concurrency: five requests for the last two units — exactly two win; the units in returns never exceed the returnable', async () => {
      const a = api();
      const { order, line, customer } = await shippedOrder(a, { quantity: 2 });
      const body = { lines: [{ order_line_id: line.id, quantity: 1 }] };
      const responses = await Promise.all([
        adminCreate(a, order.id, body),
        storefrontCreate(a, order.id, customer.token, body),
        adminCreate(a, order.id, body),
        storefrontCreate(a, order.id, customer.token, body),
        adminCreate(a, order.id, body),
      ]);
      expect(tally(responses)).toEqual({ 200: 2, 422: 3 });
      for (const r of responses.filter((r) => r.status === 422)) {
        expect(r.body.error.code).toBe('quantity_exceeds_returnable');
      }
      const held = expectStatus(await a.get(`/v1/admin/returns?order_id=${order.id}`), 200).body.data;
      expect(
        held.reduce(
          (sum: number, r: { lines: Array<{ quantity: number }> }) => sum + r.lines[0]!.quantity,
          0,
        ),
      ).toBe(2);
      expect((await orderOf(a, order.id)).lines[0].returnable_quantity).toBe(0);
    });

    test('concurrency: a return completed twice at once completes once (one refund, one restock)', async () => {
      const a = api();
      const { order, line, product } = await shippedOrder(a, { quantity: 2 });
      const ret = expectStatus(
        await adminCreate(a, order.id, { lines: [{ order_line_id: line.id, quantity: 2 }] }),
        200,
      ).body;
      expectStatus(await a.post(`/v1/admin/returns/${ret.id}/receive`), 200);
      const before = (await inventoryOf(a, product.inventory_id)).on_hand;
      const responses = await Promise.all([
        a.post(`/v1/admin/returns/${ret.id}/complete`),
        a.post(`/v1/admin/returns/${ret.id}/complete`),
        a.post(`/v1/admin/returns/${ret.id}/complete`),
      ]);
      expect(tally(responses)).toEqual({ 200: 1, 409: 2 });
      const after = await orderOf(a, order.id);
      expect(after.refunds).toHaveLength(1);
      expect(after.refunded_total.amount).toBe(2000);
      expect(after).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'returned' });
      expect((await inventoryOf(a, product.inventory_id)).on_hand).toBe(before + 2);
    });

    test('an Idempotency-Key retry of complete answers as the first; of create, creates once', async () => {
      const a = api();
      const { order, line } = await shippedOrder(a, { quantity: 2 });
      const key = unique('idem-ret-');
      const first = expectStatus(
        await adminCreate(a, order.id, { lines: [{ order_line_id: line.id, quantity: 2 }] }, key),
        200,
      );
      const again = expectStatus(
        await adminCreate(a, order.id, { lines: [{ order_line_id: line.id, quantity: 2 }] }, key),
        200,
      );
      expect(again.body).toEqual(first.body);
      expect(expectStatus(await a.get(`/v1/admin/returns?order_id=${order.id}`), 200).body.data).toHaveLength(
        1,
      );

      const ret = first.body;
      expectStatus(await a.post(`/v1/admin/returns/${ret.id}/receive`), 200);
      const completeKey = unique('idem-complete-');
      const done = expectStatus(
        await a.request('POST', `/v1/admin/returns/${ret.id}/complete`, { idempotencyKey: completeKey }),
        200,
      );
      const retry = expectStatus(
        await a.request('POST', `/v1/admin/returns/${ret.id}/complete`, { idempotencyKey: completeKey }),
        200,
      );
      expect(retry.body).toEqual(done.body);
      expect((await orderOf(a, order.id)).refunds).toHaveLength(1);
    });

    test('return.* events are webhook-subscribable', async () => {
      const a = api();
      const res = expectStatus(
        await a.post('/v1/admin/webhooks', {
          url: 'https://example.com/hooks/returns',
          events: [
            'return.requested',
            'return.approved',
            'return.rejected',
            'return.received',
            'return.completed',
            'return.cancelled',
          ],
        }),
        200,
      );
      expect(res.body.events).toHaveLength(6);
      expectStatus(await a.delete(`/v1/admin/webhooks/${res.body.id}`), 200);
    });
  },
  { clock },
);
